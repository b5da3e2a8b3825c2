"""What the experiment runner keeps: records, histories and points of a grid (:class:`Experiment`), saving and
loading them, resuming a grid from them, checkpoints, and the time each run needs to reach its instance's best F.

Records hold one row per run (:data:`RECORD_COLUMNS`); a run that raised has stop reason :data:`FAILED`.
A grid resumes from a previous experiment of the same budget and data (:func:`reusable_runs`): its
finished runs are taken over, identified by :data:`IDENTITY`. The grid itself: :mod:`.runner`.
"""
from __future__ import annotations

import dataclasses
import os
import pickle
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..validation import check_nonnegative

#: Relative tolerance of :func:`time_to_target`.
TARGET_RTOL = 1e-6
#: The stop reason of a run that raised (its error column holds the exception) or whose worker died.
FAILED = "failed"
#: Seconds between two writes of ``run_experiment(checkpoint=...)`` (and one at the end).
CHECKPOINT_EVERY = 10.0

#: The columns of the table :func:`~.runner.run_experiment` returns, one row per run.
RECORD_COLUMNS = ("run", "method", "problem", "dataset", "m", "n", "r", "lam", "scale", "seed", "start", "F",
                  "feasibility", "nnz", "density", "explained_variance", "negativity", "surrogate", "seconds",
                  "iterations", "stop_reason", "error")


@dataclass
class Experiment:
    """What :func:`~.runner.run_experiment` returns.

    Attributes
    ----------
    records : pandas.DataFrame
        One row per run (columns :data:`RECORD_COLUMNS`).
    histories : pandas.DataFrame
        The solvers' history rows, long format, with the run's identifying columns.
    points : dict
        run -> the returned X.
    datasets : dict
        (name, m, n, seed) -> the :class:`~obcd_lite.data.Dataset` used (empty once saved).
    settings : dict
        The budget (``time_limit``, ``max_iter``, ``options``) and the data digests (for ``resume``).
    """

    records: pd.DataFrame
    histories: pd.DataFrame
    points: dict = field(default_factory=dict, repr=False)
    datasets: dict = field(default_factory=dict, repr=False)
    settings: dict = field(default_factory=dict, repr=False)

    def save(self, path) -> None:
        """Write the experiment to ``path`` (a pickle; :func:`load_experiment` reads it back) without
        the data sets, which can be large (a 5000 x 5000 C) and are rebuilt from their seeds by
        :func:`~obcd_lite.data.load_dataset` (their digests stay in ``settings`` for ``resume``).

        Parameters
        ----------
        path : str or os.PathLike
            The file to write.
        """
        with open(path, "wb") as file:
            pickle.dump(dataclasses.replace(self, datasets={}), file)


def load_experiment(path) -> Experiment:
    """An :class:`Experiment` written by :meth:`Experiment.save` (or by ``run_experiment(checkpoint=...)``).

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.

    Returns
    -------
    Experiment
        The saved experiment (its ``datasets`` empty).

    Raises
    ------
    TypeError
        If the file holds something else.
    """
    with open(path, "rb") as file:
        experiment = pickle.load(file)
    if not isinstance(experiment, Experiment):
        raise TypeError(f"{path!r} holds a {type(experiment).__name__}, not an Experiment")
    return experiment


#: The columns that identify a run across calls (for ``resume``).
IDENTITY = ("method", "problem", "dataset", "m", "n", "r", "lam", "scale", "seed", "start")


def run_identity(row: dict) -> tuple:
    """The values of :data:`IDENTITY` of a run, NaN written "nan" (so that a nonneg run's NaN lam matches itself).

    Parameters
    ----------
    row : dict
        A record (or the identity of a run being set up).

    Returns
    -------
    tuple
        Hashable: the key of the run across calls.
    """
    return tuple("nan" if isinstance(row[k], float) and np.isnan(row[k]) else row[k] for k in IDENTITY)


def reusable_runs(resume, budget: dict, digests: dict) -> dict:
    """The finished runs of a previous experiment that a grid of this budget on these data may take over.

    Parameters
    ----------
    resume : Experiment or str or os.PathLike or None
        The previous experiment, or the path of one saved by :meth:`Experiment.save`; None: nothing to take over.
    budget : dict
        This grid's ``time_limit``, ``max_iter`` and ``options`` (as ``Experiment.settings`` holds them).
    digests : dict
        (name, m, n, seed) -> the digest of this grid's data set.

    Returns
    -------
    dict
        :func:`run_identity` -> (record, history frame or None, X or None), every run but the failed ones.

    Raises
    ------
    ValueError
        If the previous experiment ran with another budget or options, or on other data.
    """
    if resume is None:
        return {}
    if not isinstance(resume, Experiment):
        resume = load_experiment(resume)
    differ = [key for key in budget if resume.settings.get(key) != budget[key]]
    if differ:
        raise ValueError("resume: the previous experiment ran with " + ", ".join(
            f"{key} = {resume.settings.get(key)!r}" for key in differ) + ", this call has " + ", ".join(
            f"{key} = {budget[key]!r}" for key in differ) + "; a resumed grid keeps its budget and options")
    for key, digest in resume.settings.get("digests", {}).items():
        if key in digests and digest != digests[key]:
            raise ValueError(f"resume: data set {key} of the previous experiment differs from this one's "
                             "(another machine rounds A^T A differently); rerun it instead")
    runs = dict(tuple(resume.histories.groupby("run"))) if len(resume.histories) else {}
    return {run_identity(record): (record, runs.get(record["run"]), resume.points.get(record["run"]))
            for record in resume.records.to_dict("records") if record["stop_reason"] != FAILED}


def failed_record(ident: dict, error: BaseException) -> dict:
    """The record of a run that raised: its identity, the error, no values.

    Parameters
    ----------
    ident : dict
        The run's identifying columns (``run`` and :data:`IDENTITY`).
    error : BaseException
        What it raised (or what killed its worker).

    Returns
    -------
    dict
        The record, stop reason :data:`FAILED`.
    """
    return {**ident, "F": np.nan, "seconds": np.nan, "iterations": 0, "stop_reason": FAILED,
            "error": f"{type(error).__name__}: {error}"}


def assemble(records: dict, histories: dict, points: dict, data: dict, settings: dict) -> Experiment:
    """The :class:`Experiment` of the runs so far, sorted by run.

    Parameters
    ----------
    records : dict
        run -> its record.
    histories : dict
        run -> its history frame.
    points : dict
        run -> the returned X.
    data : dict
        (name, m, n, seed) -> the data set.
    settings : dict
        The budget and the data digests.

    Returns
    -------
    Experiment
        Records with the columns :data:`RECORD_COLUMNS`, histories in one long frame.
    """
    history_frame = (pd.concat([histories[run] for run in sorted(histories)], ignore_index=True) if histories
                     else pd.DataFrame(columns=["run", "iteration", "seconds", "F", "feasibility", "nnz"]))
    return Experiment(records=pd.DataFrame([records[run] for run in sorted(records)], columns=list(RECORD_COLUMNS)),
                      histories=history_frame, points=dict(sorted(points.items())), datasets=data,
                      settings=dict(settings))


def write_checkpoint(experiment: Experiment, path) -> None:
    """Save atomically: a run killed while writing leaves the previous checkpoint intact.

    Parameters
    ----------
    experiment : Experiment
        The experiment so far.
    path : str or os.PathLike
        The checkpoint file (written through ``path.partial``).
    """
    partial = f"{path}.partial"
    experiment.save(partial)
    os.replace(partial, path)


def time_to_target(experiment: Experiment, rtol: float = TARGET_RTOL, feasibility_tol: float = 1e-8) -> pd.DataFrame:
    """Seconds each run needs to come within ``rtol`` (relative) of the best F of its instance.

    An instance is (problem, dataset, m, n, r, lam, seed). Its best F is the smallest F found by
    any method: at a returned point (the records) or at a logged iterate with
    ``||X^T X - I||_F <= feasibility_tol`` (the histories; an infeasible iterate cannot set the
    target). A run reaches the target at its first such history row with
    F <= F_best + rtol |F_best| (NaN if never).

    Parameters
    ----------
    experiment : Experiment
        The output of :func:`~.runner.run_experiment`.
    rtol : float
        The relative tolerance, >= 0.
    feasibility_tol : float
        The largest ``||X^T X - I||_F`` of a logged iterate that may set or reach the target.

    Returns
    -------
    pandas.DataFrame
        One row per run: run, method, start, the instance's keys, F, F_best and ``seconds_to_target``.
    """
    rtol = check_nonnegative(rtol, "rtol")
    keys = ["problem", "dataset", "m", "n", "r", "lam", "seed"]
    rec = experiment.records.copy()
    rec["lam"] = rec["lam"].fillna(-1.0)  # NaN lam (nonneg) must still group
    hist = experiment.histories
    feasible = hist[hist["feasibility"] <= feasibility_tol]
    best_logged = feasible.groupby("run")["F"].min()
    rec["F_found"] = np.fmin(rec["F"].to_numpy(), rec["run"].map(best_logged).to_numpy(dtype=float))
    rec["F_best"] = rec.groupby(keys)["F_found"].transform("min")
    rec["target"] = rec["F_best"] + rtol * rec["F_best"].abs()
    times = []
    for row in rec.itertuples():
        h = feasible[feasible["run"] == row.run]
        hit = h[h["F"] <= row.target]
        times.append(float(hit["seconds"].iloc[0]) if len(hit) else np.nan)
    rec["seconds_to_target"] = times
    rec["lam"] = rec["lam"].replace(-1.0, np.nan)
    return rec[["run", "method", "start", *keys, "F", "F_best", "seconds_to_target"]]
