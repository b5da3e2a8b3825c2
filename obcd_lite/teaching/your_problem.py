"""Notebook 08, "your own problem": three non-quadratic problems from the paper's list, each written once as a
pymanopt cost, and what the suite does with them (OBCD, the baselines, the hierarchy).

* :func:`quartic_energy` — a Kohn–Sham-like energy 1/2 tr(X^T A X) + 1/4 sum_i rho_i^2, rho = diag(X X^T)
  (electronic structure: a discretized Laplacian A plus a density interaction);
* :func:`orthogonal_classifier` — cross-entropy of a linear classifier whose layer W is orthonormal
  (W on St(d, c)), on the breast-cancer set the suite ships (``obcd_lite.data``);
* :func:`orthogonal_factorization` — M ~ X H^T with X >= 0 orthonormal (cluster indicators) and H >= 0,
  H eliminated: f(X) = 1/2 ||M||^2 - 1/2 ||(M^T X)_+||^2 (piecewise quadratic, not quadratic).

Each builder returns an :class:`Instance`: the pymanopt ``Problem`` (cost, Euclidean gradient, and the
Euclidean Hessian that pymanopt's trust-region method needs with the numpy backend), a proven Lipschitz
bound of the gradient on St(n, r) (derived in the docstring) and a start. :func:`smooth_runs` puts
OBCD next to pymanopt's trust regions for h = 0, :func:`penalized_runs` next to ManPG and RSubGrad
with an h, :func:`hierarchy_table` classifies OBCD's outputs; :func:`explore` is the hierarchy explorer's compute (figure: ``viz.hierarchy.certificate_figure``,
wiring: ``widgets.your_problem``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..optimality import classify
from ..penalties import L1, NonNeg, Penalty, Zero
from ..rounding import fmt
from ..smooth import SmoothProblem, from_pymanopt
from ..solvers import SOLVERS
from ..stiefel import feasibility, random_stiefel
from ..validation import UnsupportedProblemError

#: The three problems of notebook 08, in its order.
PROBLEM_NAMES = ("quartic", "classifier", "factorization")
#: Penalties the explorer offers per problem ("none" is h = 0).
PENALTIES = {"quartic": ("none", "l1"), "classifier": ("none", "l1"), "factorization": ("none", "nonneg")}


@dataclass(frozen=True)
class Instance:
    """A problem of notebook 08: the pymanopt ``problem``, a Lipschitz bound ``L`` of its Euclidean gradient on
    St(n, r), the start ``X0`` and a one-line ``description``.

    Attributes
    ----------
    name : str
        One of :data:`PROBLEM_NAMES`.
    problem : pymanopt.Problem
        Cost, Euclidean gradient and Euclidean Hessian on ``Stiefel(n, r)``.
    L : float
        A proven Lipschitz constant of the Euclidean gradient on St(n, r).
    X0 : numpy.ndarray
        (n, r), the start on St(n, r).
    description : str
        One line for tables and titles.
    """

    name: str
    problem: object
    L: float
    X0: np.ndarray
    description: str

    def smooth(self, h: Penalty | None = None, bound: bool = True) -> SmoothProblem:
        """The suite's view: ``from_pymanopt`` with h, with the bound L (``bound=False``: L estimated).

        Parameters
        ----------
        h : Penalty or None
            The nonsmooth part (None: h = 0).
        bound : bool
            Give the proven L (True) or let the problem estimate the curvature (False).

        Returns
        -------
        SmoothProblem
            The instance as a problem of the suite.
        """
        return from_pymanopt(self.problem, h=h, L=self.L if bound else None)


def laplacian_1d(n: int) -> np.ndarray:
    """The discrete Laplacian tridiag(-1, 2, -1), the kinetic term of a 1-D Kohn–Sham model.

    Parameters
    ----------
    n : int
        The number of grid points.

    Returns
    -------
    numpy.ndarray
        (n, n).
    """
    return 2.0 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)


def quartic_energy(n: int = 10, r: int = 3, *, coupling: float = 1.0, rng=0) -> Instance:
    """1/2 tr(X^T A X) + coupling/4 sum_i rho_i^2, rho = diag(X X^T), A = Laplacian + a random potential.

    grad = A X + coupling diag(rho) X. Lipschitz bound on St(n, r): along any segment between points of
    St(n, r) every row has norm <= 1, where the Hessian of rho_i^2 / 4 in row i, rho_i I + 2 x_i x_i^T,
    has norm <= 3; so L = ||A||_2 + 3 coupling.

    Parameters
    ----------
    n, r : int
        The grid points and the orbitals (rows and columns of X).
    coupling : float
        The weight of the density interaction.
    rng : numpy.random.Generator or int or None
        The seed.

    Returns
    -------
    Instance
        "quartic".
    """
    import pymanopt

    rng = np.random.default_rng(rng)
    A = laplacian_1d(n) + np.diag(rng.uniform(-1.0, 1.0, n))
    manifold = pymanopt.manifolds.Stiefel(n, r)

    @pymanopt.function.numpy(manifold)
    def cost(X):
        rho = np.sum(X * X, axis=1)
        return 0.5 * np.sum(X * (A @ X)) + 0.25 * coupling * np.sum(rho**2)

    @pymanopt.function.numpy(manifold)
    def euclidean_gradient(X):
        return A @ X + coupling * np.sum(X * X, axis=1)[:, None] * X

    @pymanopt.function.numpy(manifold)
    def euclidean_hessian(X, E):
        return A @ E + coupling * (np.sum(X * X, axis=1)[:, None] * E + 2.0 * np.sum(X * E, axis=1)[:, None] * X)

    problem = pymanopt.Problem(manifold, cost, euclidean_gradient=euclidean_gradient,
                               euclidean_hessian=euclidean_hessian)
    L = float(np.linalg.norm(A, 2)) + 3.0 * coupling
    return Instance("quartic", problem, L, random_stiefel(n, r, rng=rng),
                    f"Kohn–Sham-like quartic energy, n = {n}, r = {r}")


def classifier_data(m: int = 120, features: int = 10, rng=0) -> tuple[np.ndarray, np.ndarray]:
    """(features (m, d), one-hot labels (m, 2)) of the breast-cancer set (``obcd_lite.data``: a random subset
    of m rows and d of its 30 features, standardized), rows scaled to mean squared norm 1.

    Parameters
    ----------
    m, features : int
        The numbers of samples and of features (d).
    rng : numpy.random.Generator or int or None
        The seed.

    Returns
    -------
    tuple of numpy.ndarray
        ``(features, labels)``: (m, d) and (m, 2).
    """
    from ..data import load_dataset

    data = load_dataset("breast_cancer", m=m, n=features, rng=rng)
    features = data.A * np.sqrt(data.m)  # ||A||_F = 1 -> mean squared row norm 1
    labels = np.eye(2)[data.metadata["target"]]
    return features, labels


def orthogonal_classifier(m: int = 120, features: int = 10, *, scale: float = 4.0, rng=0) -> Instance:
    """Mean cross-entropy of softmax(scale A W) against the labels, W on St(d, 2) (an orthogonal layer).

    grad = scale A^T (P - Y) / m, P the softmax. The Hessian of the cross-entropy in the logits is
    diag(p) - p p^T, of norm <= 1/2, so L = scale^2 ||A||_2^2 / (2 m).

    Parameters
    ----------
    m, features : int
        The numbers of samples and of features (d, the rows of W).
    scale : float
        The logits' scale.
    rng : numpy.random.Generator or int or None
        The seed.

    Returns
    -------
    Instance
        Named "classifier", on St(d, 2).
    """
    import pymanopt

    A, Y = classifier_data(m, features, rng)
    m, d = A.shape
    manifold = pymanopt.manifolds.Stiefel(d, Y.shape[1])

    def softmax(W):
        logits = scale * A @ W
        logits -= logits.max(axis=1, keepdims=True)
        P = np.exp(logits)
        return P / P.sum(axis=1, keepdims=True)

    @pymanopt.function.numpy(manifold)
    def cost(W):
        logits = scale * A @ W
        top = logits.max(axis=1, keepdims=True)
        log_norm = top[:, 0] + np.log(np.exp(logits - top).sum(axis=1))
        return float(np.mean(log_norm - np.sum(Y * logits, axis=1)))

    @pymanopt.function.numpy(manifold)
    def euclidean_gradient(W):
        return scale * A.T @ (softmax(W) - Y) / m

    @pymanopt.function.numpy(manifold)
    def euclidean_hessian(W, E):
        P, dZ = softmax(W), scale * A @ E
        dP = P * dZ - P * np.sum(P * dZ, axis=1, keepdims=True)
        return scale * A.T @ dP / m

    problem = pymanopt.Problem(manifold, cost, euclidean_gradient=euclidean_gradient,
                               euclidean_hessian=euclidean_hessian)
    L = scale**2 * float(np.linalg.norm(A, 2)) ** 2 / (2.0 * m)
    return Instance("classifier", problem, L, random_stiefel(d, Y.shape[1], rng=rng),
                    f"orthogonal layer W in St({d}, 2), breast cancer, m = {m}")


def orthogonal_factorization(n: int = 10, r: int = 3, samples: int = 40, rng=0) -> Instance:
    """f(X) = 1/2 ||M||^2 - 1/2 ||(M^T X)_+||^2: min over H >= 0 of 1/2 ||M - X H^T||^2 for X on St(n, r)
    (then H = (M^T X)_+). M: centred samples of r planted nonnegative clusters.

    grad = -M (M^T X)_+; the map X -> (M^T X)_+ is 1-Lipschitz in M^T X, so L = ||M||_2^2.

    Parameters
    ----------
    n, r : int
        The rows of X (features of M) and the number of clusters (columns of X).
    samples : int
        The columns of M.
    rng : numpy.random.Generator or int or None
        The seed.

    Returns
    -------
    Instance
        Named "factorization"; X0 >= 0 with one nonzero per row.
    """
    import pymanopt

    rng = np.random.default_rng(rng)
    clusters = np.zeros((n, r))
    for j, rows in enumerate(np.array_split(rng.permutation(n), r)):
        clusters[rows, j] = rng.uniform(0.5, 1.5, len(rows))
    M = clusters @ rng.uniform(0.0, 1.0, (r, samples)) + 0.1 * rng.standard_normal((n, samples))
    M -= M.mean(axis=1, keepdims=True)
    manifold = pymanopt.manifolds.Stiefel(n, r)

    @pymanopt.function.numpy(manifold)
    def cost(X):
        return 0.5 * np.sum(M * M) - 0.5 * np.sum(np.maximum(M.T @ X, 0.0) ** 2)

    @pymanopt.function.numpy(manifold)
    def euclidean_gradient(X):
        return -M @ np.maximum(M.T @ X, 0.0)

    @pymanopt.function.numpy(manifold)
    def euclidean_hessian(X, E):  # the generalized Hessian (active set of (M^T X)_+)
        return -M @ ((M.T @ X > 0.0) * (M.T @ E))

    problem = pymanopt.Problem(manifold, cost, euclidean_gradient=euclidean_gradient,
                               euclidean_hessian=euclidean_hessian)
    X0 = np.abs(random_stiefel(n, r, rng=rng))
    X0 = np.where(X0 == X0.max(axis=1, keepdims=True), X0, 0.0)  # one nonzero per row: X0 >= 0 on St(n, r)
    X0 /= np.linalg.norm(X0, axis=0)
    return Instance("factorization", problem, float(np.linalg.norm(M, 2)) ** 2, X0,
                    f"nonnegative orthogonal factorization, n = {n}, r = {r}")


BUILDERS = {"quartic": quartic_energy, "classifier": orthogonal_classifier, "factorization": orthogonal_factorization}


def instance(name: str, rng=0) -> Instance:
    """The notebook's instance of problem ``name`` (one of :data:`PROBLEM_NAMES`) with seed ``rng``.

    Parameters
    ----------
    name : str
        One of :data:`PROBLEM_NAMES`.
    rng : numpy.random.Generator or int or None
        The seed.

    Returns
    -------
    Instance
        Built with the builder's defaults.
    """
    if name not in BUILDERS:
        raise ValueError(f"unknown problem {name!r}; valid names: {', '.join(PROBLEM_NAMES)}")
    return BUILDERS[name](rng=rng)


def penalty(name: str, lam: float = 0.0) -> Penalty:
    """"none" -> Zero(), "l1" -> L1(lam), "nonneg" -> NonNeg().

    Parameters
    ----------
    name : str
        "none", "l1" or "nonneg".
    lam : float
        The weight of l1 (unused by the others).

    Returns
    -------
    Penalty
        The penalty h.
    """
    table = {"none": Zero, "l1": lambda: L1(lam), "nonneg": NonNeg}
    if name not in table:
        raise ValueError(f"unknown penalty {name!r}; valid: none, l1, nonneg")
    return table[name]()


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


def smooth_runs(names=PROBLEM_NAMES, *, rng=0) -> dict:
    """h = 0: {name: SmoothRun}, OBCD with the estimated curvature (``bound=False``) and pymanopt's trust
    regions from the instance's start.

    Parameters
    ----------
    names : sequence of str
        Problems of :data:`PROBLEM_NAMES`.
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
        run = SOLVERS["obcd"](problem, inst.X0, max_iter=SMOOTH_BUDGET[name], rng=rng, log_every=200)
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
            budget = PENALIZED_BUDGET[name] if solver == "obcd" else iterations
            try:
                runs[name, solver] = (problem, SOLVERS[solver](problem, inst.X0, max_iter=budget, rng=rng))
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
        The problem (one of :data:`PROBLEM_NAMES`).
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
        One of :data:`PROBLEM_NAMES`.
    penalty_name : str
        "none", "l1" or "nonneg" (:func:`penalty`).
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
        run = SOLVERS[solver](smooth, inst.X0, max_iter=max_iter, rng=seed)
    except UnsupportedProblemError as declined:
        raise ValueError(f"{solver} declines: {declined}") from None
    return run, classify(smooth, run.X, alpha=alpha, ks=(2,), zero_tol=1e-10)
