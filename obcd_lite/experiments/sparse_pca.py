"""The pure compute behind notebook 04's explorer: one comparison for one setting of the sliders.

Wiring: :mod:`obcd_lite.widgets.sparse_pca`; figures: :mod:`obcd_lite.viz.experiments`.

The defaults (planted sparse spikes, n = 50, r = 2, 0.3 s per method) make one comparison take
well under 2 s. lam = 0.03 on "spiked" is where l1 loadings are non-trivial: below it the
loadings stay dense (noise enters), far above it the coordinate selection of
:func:`~obcd_lite.experiments.paper_tables.coordinate_point` becomes optimal and the loadings
carry one entry per column (the regime of the paper's tables).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..solvers import SOLVERS
from .metrics import support_recovery
from .records import Experiment, time_to_target
from .runner import run_experiment

#: The explorer's defaults.
DEFAULTS = dict(problem="l1", dataset="spiked", lam=0.03, r=2, n=50, time_budget=0.3, seed=0)
#: Columns of the explorer's table.
TABLE_COLUMNS = ("method", "F", "F - F_best", "nnz", "explained_variance", "feasibility", "seconds",
                 "seconds_to_target", "iterations", "stop_reason")


def default_methods() -> tuple[str, ...]:
    """OBCD and, when registered, ManPG (the l1 baseline the paper's tables single out).

    Returns
    -------
    tuple of str
        Registry names.
    """
    return tuple(name for name in ("obcd", "manpg") if name in SOLVERS)


@dataclass(frozen=True)
class Comparison:
    """One comparison: the experiment, its table, the best F and (for "spiked") support recovery.

    Attributes
    ----------
    experiment : Experiment
        The runs.
    table : pandas.DataFrame
        One row per method.
    F_best : float
        The best F of the runs.
    problem, dataset : str
        The slider settings.
    lam : float
        The penalty's weight.
    image_shape : tuple or None
        The shape of one loading drawn as an image (the digits), else None.
    feature_names : tuple
        The data set's feature names.
    """

    experiment: Experiment
    table: pd.DataFrame
    F_best: float
    problem: str
    dataset: str
    lam: float
    image_shape: tuple | None
    feature_names: tuple

    @property
    def histories(self) -> pd.DataFrame:
        """The runs' histories (the experiment's long table: one row per logged iteration)."""
        return self.experiment.histories

    def point(self, method: str) -> np.ndarray:
        """The X a method returned.

        Parameters
        ----------
        method : str
            A method of the comparison.

        Returns
        -------
        numpy.ndarray
            The point.

        Raises
        ------
        ValueError
            If ``method`` did not run.
        """
        runs = self.experiment.records.query("method == @method")["run"]
        if runs.empty or int(runs.iloc[0]) not in self.experiment.points:
            raise ValueError(f"no point for method {method!r}; ran: {sorted(self.experiment.points)}")
        return self.experiment.points[int(runs.iloc[0])]


def compare(problem: str = DEFAULTS["problem"], dataset: str = DEFAULTS["dataset"], lam: float = DEFAULTS["lam"],
            r: int = DEFAULTS["r"], n: int | None = DEFAULTS["n"], methods=None,
            time_budget: float = DEFAULTS["time_budget"], seed: int = DEFAULTS["seed"],
            start: str = "random") -> Comparison:
    """Run ``methods`` on one instance from the same start with the same budget; tabulate.

    Methods that do not support the problem appear in the table with stop_reason "unsupported".

    Parameters
    ----------
    problem : str, default "l1"
        The problem's name (``runner.PROBLEMS``).
    dataset : str, default "spiked"
        The data set's name.
    lam : float, default 0.03
        The penalty's weight, >= 0.
    r : int, default 2
        The number of components.
    n : int or None, default 50
        The number of features (for the real sets a random subset; None keeps all).
    methods : sequence of str, optional
        Registry names; None takes :func:`default_methods`.
    time_budget : float, default 0.3
        Seconds per method, > 0.
    seed : int, default 0
        The seed of the data and the start.
    start : str, default "random"
        The start (``runner.STARTS``).

    Returns
    -------
    Comparison
        The comparison.

    Raises
    ------
    ValueError
        Naming a bad value (unknown names, r > n, lam < 0, time_budget <= 0).
    """
    methods = default_methods() if methods is None else tuple(methods)
    if not methods:
        raise ValueError(f"choose at least one method; valid: {', '.join(SOLVERS)}")
    exp = run_experiment(problems=(problem,), datasets=(dataset,), lams=(lam,), r=r, n=n, methods=methods,
                         starts=(start,), seeds=(seed,), time_limit=time_budget, progress=False)
    ds = next(iter(exp.datasets.values()))
    records = exp.records
    F_best = float(np.nanmin(records["F"])) if records["F"].notna().any() else np.nan
    table = records.merge(time_to_target(exp)[["run", "seconds_to_target"]], on="run")
    table["F - F_best"] = table["F"] - F_best
    if "support" in ds.metadata:
        table["support_F1"] = [support_recovery(exp.points[run], ds.metadata["support"]) if run in exp.points
                               else np.nan for run in table["run"]]
    extra = ("surrogate",) if problem == "nonneg" else ()  # the paper's score of infeasible X (F = inf)
    columns = [c for c in (*TABLE_COLUMNS, *extra, "support_F1") if c in table]
    return Comparison(experiment=exp, table=table[columns].reset_index(drop=True), F_best=F_best, problem=problem,
                      dataset=dataset, lam=float(lam), image_shape=ds.metadata.get("image_shape"),
                      feature_names=tuple(ds.metadata.get("feature_names", ())))

