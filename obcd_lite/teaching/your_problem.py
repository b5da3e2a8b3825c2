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
bound of the gradient on St(n, r) (derived in the docstring) and a start. :func:`compare_smooth` puts
OBCD next to pymanopt's trust regions for h = 0, :func:`compare_penalized` next to ManPG and RSubGrad
with an h; :func:`explore` is the hierarchy explorer's compute (figure: ``viz.hierarchy.certificate_figure``,
wiring: ``widgets.your_problem``).
"""
from __future__ import annotations

from dataclasses import dataclass

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
    St(n, r), the start ``X0`` and a one-line ``description``."""

    name: str
    problem: object
    L: float
    X0: np.ndarray
    description: str

    def smooth(self, h: Penalty | None = None, bound: bool = True) -> SmoothProblem:
        """The suite's view: ``from_pymanopt`` with h, with the bound L (``bound=False``: L estimated)."""
        return from_pymanopt(self.problem, h=h, L=self.L if bound else None)


def laplacian_1d(n: int) -> np.ndarray:
    """The discrete Laplacian tridiag(-1, 2, -1), the kinetic term of a 1-D Kohn–Sham model."""
    return 2.0 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)


def quartic_energy(n: int = 12, r: int = 3, *, coupling: float = 1.0, rng=0) -> Instance:
    """1/2 tr(X^T A X) + coupling/4 sum_i rho_i^2, rho = diag(X X^T), A = Laplacian + a random potential.

    grad = A X + coupling diag(rho) X. Lipschitz bound on St(n, r): along any segment between points of
    St(n, r) every row has norm <= 1, where the Hessian of rho_i^2 / 4 in row i, rho_i I + 2 x_i x_i^T,
    has norm <= 3; so L = ||A||_2 + 3 coupling.
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
    of m rows and d of its 30 features, standardized), rows scaled to mean squared norm 1."""
    from ..data import load_dataset

    data = load_dataset("breast_cancer", m=m, n=features, rng=rng)
    features = data.A * np.sqrt(data.m)  # ||A||_F = 1 -> mean squared row norm 1
    labels = np.eye(2)[data.metadata["target"]]
    return features, labels


def orthogonal_classifier(m: int = 120, features: int = 10, *, scale: float = 4.0, rng=0) -> Instance:
    """Mean cross-entropy of softmax(scale A W) against the labels, W on St(d, 2) (an orthogonal layer).

    grad = scale A^T (P - Y) / m, P the softmax. The Hessian of the cross-entropy in the logits is
    diag(p) - p p^T, of norm <= 1/2, so L = scale^2 ||A||_2^2 / (2 m).
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
    """The notebook's instance of problem ``name`` (one of :data:`PROBLEM_NAMES`) with seed ``rng``."""
    if name not in BUILDERS:
        raise ValueError(f"unknown problem {name!r}; valid names: {', '.join(PROBLEM_NAMES)}")
    return BUILDERS[name](rng=rng)


def penalty(name: str, lam: float = 0.0) -> Penalty:
    """"none" -> Zero(), "l1" -> L1(lam), "nonneg" -> NonNeg()."""
    table = {"none": Zero, "l1": lambda: L1(lam), "nonneg": NonNeg}
    if name not in table:
        raise ValueError(f"unknown penalty {name!r}; valid: none, l1, nonneg")
    return table[name]()


def trust_regions(inst: Instance):
    """pymanopt's Riemannian trust-region method from the instance's start (h = 0): its result."""
    from pymanopt.optimizers import TrustRegions

    return TrustRegions(verbosity=0, max_iterations=500).run(inst.problem, initial_point=inst.X0.copy())


def compare_smooth(names=PROBLEM_NAMES, *, max_iter: int = 20_000, rng=0):
    """h = 0: pymanopt's trust regions and OBCD from the same start, one row per problem (a DataFrame):
    F of each, OBCD - TR, and both points' Riemannian residuals."""
    import pandas as pd

    from ..optimality import riemannian_residual

    rows = []
    for name in names:
        inst = instance(name, rng)
        problem = inst.smooth()
        tr = trust_regions(inst)
        run = SOLVERS["obcd"](problem, inst.X0, max_iter=max_iter, rng=rng)
        rows.append({"problem": name, "F trust regions": float(problem.F(tr.point)), "F OBCD": run.F,
                     "OBCD - TR": run.F - float(problem.F(tr.point)),
                     "residual TR": riemannian_residual(problem, tr.point),
                     "residual OBCD": riemannian_residual(problem, run.X)})
    return pd.DataFrame(rows)


def compare_penalized(name: str, h: Penalty, *, solvers=("obcd", "manpg", "rsubgrad"), max_iter: int = 5000,
                      rng=0):
    """With h: each solver from the instance's start, a DataFrame row each (F, nonzeros, feasibility,
    the Riemannian residual), or the solver's reason when it declines."""
    import pandas as pd

    from ..optimality import riemannian_residual

    inst = instance(name, rng)
    rows = []
    for solver in solvers:
        problem = inst.smooth(h)
        try:
            run = SOLVERS[solver](problem, inst.X0, max_iter=max_iter, rng=rng)
        except UnsupportedProblemError as declined:
            rows.append({"solver": solver, "F": np.nan, "nonzeros": np.nan, "feasibility": np.nan,
                         "residual": np.nan, "note": f"declines: {declined}"})
            continue
        rows.append({"solver": solver, "F": run.F, "nonzeros": int(np.count_nonzero(run.X)),
                     "feasibility": feasibility(run.X),
                     "residual": riemannian_residual(problem, run.X, zero_tol=1e-10), "note": ""})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Exploration:
    """What the explorer shows: the run's F and the classification of its output."""

    name: str
    solver: str
    F: float
    iterations: int
    classification: object
    note: str

    def summary(self) -> str:
        """The certificates as text (through ``rounding.fmt``)."""
        return (f"{self.name}: {self.solver} ran {self.iterations} iterations, F = {fmt(self.F, 6)}{self.note}\n"
                + self.classification.summary())


def explore(problem: str = "quartic", penalty_name: str = "none", lam: float = 0.01, alpha: float = 1e-5,
            seed: int = 0, solver: str = "obcd", bound: bool = True, max_iter: int = 3000) -> Exploration:
    """Run ``solver`` on the notebook's ``problem`` with the penalty, then :func:`classify` its output
    (critical, BS_2 with the scalar majorizer, the global level only where certified: never for these
    n > 5, so "not decided"). A solver that declines raises ValueError with its reason."""
    inst = instance(problem, seed)
    h = penalty(penalty_name, lam)
    smooth = inst.smooth(h, bound=bound)
    try:
        run = SOLVERS[solver](smooth, inst.X0, max_iter=max_iter, rng=seed)
    except UnsupportedProblemError as declined:
        raise ValueError(f"{solver} declines: {declined}") from None
    c = classify(smooth, run.X, alpha=alpha, ks=(2,), zero_tol=1e-10)
    note = "" if bound else " (L estimated)"
    return Exploration(problem, solver, run.F, run.iterations, c, note)
