"""Notebook 08's three problems, each written once as a pymanopt cost: the definitions and the notebook's instances.

* :func:`quartic_energy` — a Kohn–Sham-like energy 1/2 tr(X^T A X) + 1/4 sum_i rho_i^2, rho = diag(X X^T)
  (electronic structure: a discretized Laplacian A plus a density interaction);
* :func:`orthogonal_classifier` — cross-entropy of a linear classifier whose layer W is orthonormal
  (W on St(d, c)), on the breast-cancer set the suite ships (``obcd_lite.data``);
* :func:`orthogonal_factorization` — M ~ X H^T with X >= 0 orthonormal (cluster indicators) and H >= 0,
  H eliminated: f(X) = 1/2 ||M||^2 - 1/2 ||(M^T X)_+||^2 (piecewise quadratic, not quadratic).

Each builder returns an :class:`Instance`: the pymanopt ``Problem`` (cost, Euclidean gradient, and the
Euclidean Hessian that pymanopt's trust-region method needs with the numpy backend), a proven Lipschitz
bound of the gradient on St(n, r) (derived in the docstring) and a start; :func:`penalty` gives the h
the notebook adds. What the suite does with them (OBCD, the baselines, the hierarchy): :mod:`.runs`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...penalties import Penalty, penalty_by_name
from ...smooth import SmoothProblem
from ...smooth_pymanopt import from_pymanopt
from ...stiefel import random_stiefel

#: The three problems of notebook 08, in its order.
PROBLEM_NAMES = ("quartic", "classifier", "factorization")
#: Penalties the explorer offers per problem ("none" is h = 0).
PENALTIES = {"quartic": ("none", "l1"), "classifier": ("none", "l1"), "factorization": ("none", "nonneg")}
#: The penalty each label of :data:`PENALTIES` names in the package's table (``penalties.PENALTY_NAMES``).
PENALTY_LABELS = {"none": "zero", "l1": "l1", "nonneg": "nonneg"}


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
    from ...data import load_dataset

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

    Raises
    ------
    ValueError
        If ``name`` is not one of ``PROBLEM_NAMES``.
    """
    if name not in BUILDERS:
        raise ValueError(f"unknown problem {name!r}; valid names: {', '.join(PROBLEM_NAMES)}")
    return BUILDERS[name](rng=rng)



def penalty(name: str, lam: float = 0.0) -> Penalty:
    """The penalty labelled ``name`` (:data:`PENALTY_LABELS`): "none" -> Zero(), "l1" -> L1(lam), "nonneg" -> NonNeg().

    Parameters
    ----------
    name : str
        "none", "l1" or "nonneg".
    lam : float
        The weight of l1 (unused by the others).

    Returns
    -------
    Penalty
        The penalty h, from :func:`~obcd_lite.penalties.builtin.penalty_by_name`.

    Raises
    ------
    ValueError
        If ``name`` is not one of ``PENALTY_LABELS``.
    """
    if name not in PENALTY_LABELS:
        raise ValueError(f"unknown penalty {name!r}; valid: {', '.join(PENALTY_LABELS)}")
    return penalty_by_name(PENALTY_LABELS[name], lam)
