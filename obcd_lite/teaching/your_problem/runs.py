"""Notebook 08's runs on its three problems (:mod:`~obcd_lite.teaching.your_problem.problems`): OBCD next to
pymanopt's trust regions for h = 0 (:func:`smooth_runs`), next to ManPG and RSubGrad with an h
(:func:`penalized_runs`), the levels of the hierarchy their outputs reach (:func:`hierarchy_table`), and the
hierarchy explorer's compute (:func:`explore`; figure: ``viz.hierarchy.certificate_figure``, wiring:
``widgets.your_problem``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...optimality import classify
from ...rounding import fmt
from ...smooth import SmoothProblem
from ...solvers import SOLVERS
from ...stiefel import feasibility
from ...validation import UnsupportedProblemError
from .problems import PROBLEM_NAMES, Instance, instance, penalty


def trust_regions(inst: Instance):
    """pymanopt's Riemannian trust-region method from the instance's start (h = 0): its result.

    Parameters
    ----------
    inst : Instance
        The problem and start.

    Returns
    -------
    pymanopt.optimizers.optimizer.OptimizerResult
        pymanopt's result (``point``, ``cost``, ...), at most 500 iterations.
    """
    from pymanopt.optimizers import TrustRegions

    return TrustRegions(verbosity=0, max_iterations=500).run(inst.problem, initial_point=inst.X0.copy())


@dataclass(frozen=True)
class SmoothRun:
    """OBCD and pymanopt's trust regions on one problem with h = 0, from the same start.

    Attributes
    ----------
    instance : Instance
        The problem of notebook 08.
    problem : SmoothProblem
        The suite's view of it that OBCD ran on.
    trust_region_point : numpy.ndarray
        (n, r), pymanopt's trust-region output.
    obcd : Result
        OBCD's result.
    """

    instance: Instance
    problem: SmoothProblem
    trust_region_point: np.ndarray
    obcd: object

    @property
    def F_trust_regions(self) -> float:
        """F at the trust-region point."""
        return float(self.problem.F(self.trust_region_point))


#: OBCD's pair-step budget per problem for h = 0 (the classifier's cross-entropy is flat near its minimum).
SMOOTH_BUDGET = {"quartic": 10_000, "classifier": 30_000, "factorization": 15_000}
#: The majorizer notebook 08 teaches and runs: eq. (10)'s scalar Q, the paper's rule for any L-smooth f. These
#: problems also give a Hessian, for which ``obcd`` picks eq. (9)'s exact block Q by default:
#: :func:`hessian_comparison` shows what that changes.
SCALAR_Q = {"Q": "scalar"}


def smooth_runs(names=PROBLEM_NAMES, *, rng=0) -> dict:
    """h = 0: {name: SmoothRun}, OBCD with the estimated curvature (``bound=False``) and pymanopt's trust
    regions from the instance's start.

    Parameters
    ----------
    names : sequence of str
        Problems of :data:`~.problems.PROBLEM_NAMES`.
    rng : numpy.random.Generator or int or None
        The seed.

    Returns
    -------
    dict
        {name: :class:`SmoothRun`}.
    """
    runs = {}
    for name in names:
        inst = instance(name, rng)
        problem = inst.smooth(bound=False)
        tr = trust_regions(inst)
        run = SOLVERS["obcd"](problem, inst.X0, max_iter=SMOOTH_BUDGET[name], rng=rng, log_every=200, **SCALAR_Q)
        runs[name] = SmoothRun(inst, problem, tr.point, run)
    return runs


def smooth_table(runs: dict):
    """One rendered row per problem: F of both, OBCD - TR, whether OBCD is within 1e-6, the curvature varsigma
    OBCD used against the proven bound L.

    Parameters
    ----------
    runs : dict
        {name: :class:`SmoothRun`} of :func:`smooth_runs`.

    Returns
    -------
    pandas.DataFrame
        Indexed by problem, numbers through ``rounding.fmt``.
    """
    import pandas as pd

    rows = []
    for name, run in runs.items():
        gap = run.obcd.F - run.F_trust_regions
        rows.append({"problem": name, "F trust regions": fmt(run.F_trust_regions, 6), "F OBCD": fmt(run.obcd.F, 6),
                     "OBCD − TR": fmt(gap, 1, style="e", floor=1e-9),
                     "within 1e-6": bool(gap <= 1e-6), "pair steps": run.obcd.iterations,
                     "ς used": fmt(run.obcd.info["varsigma"], 3), "proven L": fmt(run.instance.L, 3)})
    return pd.DataFrame(rows).set_index("problem")


#: The penalty of each problem in Section 6 of notebook 08.
PENALIZED = {"quartic": ("l1", 0.01), "classifier": ("l1", 0.01), "factorization": ("nonneg", 0.0)}
#: OBCD's pair-step budget with h (l1 converges more slowly than h = 0).
PENALIZED_BUDGET = {"quartic": 30_000, "classifier": 20_000, "factorization": 10_000}


def penalized_runs(*, solvers=("obcd", "manpg", "rsubgrad"), iterations: int = 2000, rng=0) -> dict:
    """With h (:data:`PENALIZED`): {(problem, solver): (the SmoothProblem, its Result or the reason it declines)}.
    OBCD runs :data:`PENALIZED_BUDGET` pair steps, the others ``iterations`` full-gradient iterations.

    Parameters
    ----------
    solvers : sequence of str
        Names of :data:`obcd_lite.solvers.SOLVERS`.
    iterations : int
        The iterations of the solvers other than OBCD.
    rng : numpy.random.Generator or int or None
        The seed.

    Returns
    -------
    dict
        {(problem, solver): (SmoothProblem, Result or str)}; a str is the reason the solver declines.
    """
    runs = {}
    for name, (h_name, lam) in PENALIZED.items():
        inst = instance(name, rng)
        for solver in solvers:
            problem = inst.smooth(penalty(h_name, lam), bound=False)
            budget, options = (PENALIZED_BUDGET[name], SCALAR_Q) if solver == "obcd" else (iterations, {})
            try:
                runs[name, solver] = (problem, SOLVERS[solver](problem, inst.X0, max_iter=budget, rng=rng, **options))
            except UnsupportedProblemError as declined:
                runs[name, solver] = (problem, str(declined))
    return runs


def penalized_table(runs: dict):
    """One rendered row per (problem, solver) of :func:`penalized_runs`: F, nonzeros, feasibility, or the reason.

    Parameters
    ----------
    runs : dict
        The output of :func:`penalized_runs`.

    Returns
    -------
    pandas.DataFrame
        Indexed by (problem, solver).
    """
    import pandas as pd

    rows = []
    for (name, solver), (problem, run) in runs.items():
        row = {"problem": name, "solver": solver, "h": repr(problem.h)}
        if isinstance(run, str):
            rows.append({**row, "F": "—", "nonzeros": "—", "feasibility": "—", "note": "declines: " + run.split(":")[0]})
        else:
            rows.append({**row, "F": fmt(run.F, 6), "nonzeros": int(np.count_nonzero(np.abs(run.X) > 1e-10)),
                         "feasibility": fmt(feasibility(run.X), 1, style="e"), "note": ""})
    return pd.DataFrame(rows).set_index(["problem", "solver"])


def hessian_comparison(rng=0):
    """OBCD with eq. (10)'s scalar Q (what notebook 08 runs) against eq. (9)'s exact block Q from the problem's
    Hessian (``obcd``'s default when the problem has ``hessvec``), same start, same pair steps: for h = 0
    (:data:`SMOOTH_BUDGET`) and with the field's h (:data:`PENALIZED`, :data:`PENALIZED_BUDGET`).

    Parameters
    ----------
    rng : numpy.random.Generator or int or None
        The seed of the instances and of OBCD's working sets.

    Returns
    -------
    pandas.DataFrame
        Indexed by (problem, h): F with each Q (through ``rounding.fmt``), F(Hessian) − F(scalar), whether the
        Hessian's run redid steps (its model is not a majorizer for a non-quadratic f: the check catches it).
    """
    import pandas as pd

    rows = []
    for name, (h_name, lam) in PENALIZED.items():
        inst = instance(name, rng)
        for h, budget in ((None, SMOOTH_BUDGET[name]), (penalty(h_name, lam), PENALIZED_BUDGET[name])):
            problem = inst.smooth(h, bound=False)
            scalar, hessian = (SOLVERS["obcd"](problem, inst.X0, max_iter=budget, rng=rng, Q=Q)
                               for Q in ("scalar", "exact"))
            rows.append({"problem": name, "h": "h = 0" if h is None else repr(h), "pair steps": budget,
                         "F, scalar Q (10)": fmt(scalar.F, 6), "F, Hessian's Q (9)": fmt(hessian.F, 6),
                         "Hessian − scalar": fmt(hessian.F - scalar.F, 1, style="e", floor=1e-9),
                         # whether the check redid steps, not how many: near a tie between a step's model and f
                         # the count turns on rounding (2506 vs 2507 on another CPU)
                         "steps redone (Hessian)": hessian.info["redos"] > 0})
    return pd.DataFrame(rows).set_index(["problem", "h"])


def hierarchy_table(smooth: dict, penalized: dict):
    """The levels each output reaches, rendered: OBCD for h = 0 (:func:`smooth_runs`) and every solver that ran
    with h (:func:`penalized_runs`): critical, BS_2 (scalar majorizer, breakpoint search), global ("not
    decided": no certificate reaches these n).

    Parameters
    ----------
    smooth : dict
        The output of :func:`smooth_runs`.
    penalized : dict
        The output of :func:`penalized_runs`.

    Returns
    -------
    pandas.DataFrame
        Indexed by (problem, h, solver).
    """
    import pandas as pd

    cases = [(name, "h = 0", "obcd", run.problem, run.obcd.X) for name, run in smooth.items()]
    cases += [(name, repr(problem.h), solver, problem, run.X) for (name, solver), (problem, run) in penalized.items()
              if not isinstance(run, str)]
    rows = []
    for name, label, solver, problem, X in cases:
        c = classify(problem, X, ks=(2,), zero_tol=1e-10)
        rows.append({"problem": name, "h": label, "solver": solver, "F": fmt(c.F, 6), "critical": c.critical,
                     "BS₂": c.bs[2], "global": "not decided" if c.is_global is None else c.is_global,
                     "strongest": c.strongest})
    return pd.DataFrame(rows).set_index(["problem", "h", "solver"])


@dataclass(frozen=True)
class Exploration:
    """What the explorer shows: the run's F and the classification of its output.

    Attributes
    ----------
    name : str
        The problem (one of :data:`~.problems.PROBLEM_NAMES`).
    h : str
        The penalty as shown, e.g. "h = L1(0.01)".
    solver : str
        The solver's name.
    F : float
        F at the run's output.
    iterations : int
        The iterations the run took.
    classification : Classification
        :func:`~obcd_lite.optimality.classify`'s result for the output.
    """

    name: str
    h: str
    solver: str
    F: float
    iterations: int
    classification: object

    def summary(self) -> str:
        """The certificates as text (through ``rounding.fmt``).

        Returns
        -------
        str
            A headline and the classification's summary.
        """
        return (f"{self.name}, {self.h}: {self.solver} ran {self.iterations} iterations, F = {fmt(self.F, 6)}\n"
                + self.classification.summary())


def explore(problem: str = "quartic", penalty_name: str = "none", lam: float = 0.01, alpha: float = 1e-5,
            seed: int = 0, solver: str = "obcd", bound: bool = False, max_iter: int = 10000) -> Exploration:
    """Run ``solver`` on the notebook's ``problem`` with the penalty, then :func:`classify` its output
    (critical, BS_2 with the scalar majorizer, the global level only where certified: never for these
    n > 5, so "not decided"). A solver that declines raises ValueError with its reason. Runs are cached
    by the arguments that change them (lam only with l1), so a slider that changes nothing redraws at once.

    Parameters
    ----------
    problem : str
        One of :data:`~.problems.PROBLEM_NAMES`.
    penalty_name : str
        "none", "l1" or "nonneg" (:func:`~.problems.penalty`).
    lam : float
        The weight of l1.
    alpha : float
        The proximal parameter of eq. (11) used by the BS_2 certificate.
    seed : int
        The instance's seed and the solver's rng.
    solver : str
        A name of :data:`obcd_lite.solvers.SOLVERS`.
    bound : bool
        Give the proven L (True) or estimate the curvature (False).
    max_iter : int
        The solver's iterations.

    Returns
    -------
    Exploration
        The run and its classification.
    """
    h = penalty(penalty_name, lam)
    label = f"h = {h!r}" if penalty_name == "l1" else f"h = {h!r} (λ = {fmt(lam, 4)} unused)"
    run, c = _explore_run(problem, penalty_name, lam if penalty_name == "l1" else 0.0, float(alpha), int(seed),
                          solver, bool(bound), int(max_iter))
    return Exploration(problem, label + ("" if bound else ", L estimated"), solver, run.F, run.iterations, c)


@lru_cache(maxsize=64)
def _explore_run(problem: str, penalty_name: str, lam: float, alpha: float, seed: int, solver: str, bound: bool,
                 max_iter: int):
    inst = instance(problem, seed)
    smooth = inst.smooth(penalty(penalty_name, lam), bound=bound)
    try:
        run = SOLVERS[solver](smooth, inst.X0, max_iter=max_iter, rng=seed, **(SCALAR_Q if solver == "obcd" else {}))
    except UnsupportedProblemError as declined:
        raise ValueError(f"{solver} declines: {declined}") from None
    return run, classify(smooth, run.X, alpha=alpha, ks=(2,), zero_tol=1e-10)
