"""The checks behind the ledger rows that had none: identities and inequalities of Sections 2-3 and
Appendices A and C, each evaluated on random and adversarial instances.

Every function returns plain numbers (residuals, slacks, ranks); the tests in
``tests/teaching/test_paper_checks.py`` decide. Equation and statement numbers follow the paper's
own counters (see :mod:`obcd_lite.teaching.ledger`). Section 4 (Theorem 4.2 and Lemma 4.4 along runs,
the rates, the Lemma 4.4(a) and Theorem 4.6 witnesses) is in :mod:`obcd_lite.teaching.paper_rates`.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.optimize import brentq
from scipy.stats import ortho_group

from ..problems import QuadraticProblem
from ..stiefel import polar, random_stiefel
from ..subproblem import block_data, majorizer_value


def _selector(n: int, B) -> np.ndarray:
    """U_B: the n x k matrix with (U_B)_{B_i, i} = 1 (Section 2)."""
    U = np.zeros((n, len(B)))
    U[list(B), np.arange(len(B))] = 1.0
    return U


def _vec(M: np.ndarray) -> np.ndarray:
    """vec stacks columns (the paper's Kronecker identities need column-major order)."""
    return np.asarray(M).reshape(-1, order="F")


def _project_tangent(X: np.ndarray, G: np.ndarray) -> np.ndarray:
    """P_T(G) = G - 1/2 X (X^T G + G^T X), the projection onto the tangent space (Lemma A.6)."""
    return G - 0.5 * X @ (X.T @ G + G.T @ X)


def _orthogonal(k: int, rng) -> np.ndarray:
    """A Haar draw from O(k) (both determinants)."""
    return ortho_group.rvs(k, random_state=rng) if k > 1 else np.array([[rng.choice([-1.0, 1.0])]])


# --- Section 2 ----------------------------------------------------------------------------------------

def update_identities(n: int = 6, r: int = 3, k: int = 3, trials: int = 20, rng=0) -> dict:
    """Lemma 2.1 and Lemma 2.2 on random X, V in O(k), blocks B and symmetric H (nr x nr).

    Returns the largest residuals of 2.1(a) ([X+]^T X+ = X^T X for any X), 2.1(b) (X+ on St(n, r)),
    2.2(a) (||X+ - X||_H^2 = ||V - I||_Q^2 with Q = (Z^T (x) U_B)^T H (Z^T (x) U_B)), 2.2(b)
    (||X+ - X||^2 = 2 <I - V, Z Z^T>), 2.2(c)'s equality ||V - I||^2 = 2 <I, I - V>, and the smallest
    slack of 2.2(c)'s inequality ||V - I||^2 - ||X+ - X||^2 (>= 0).

    Parameters
    ----------
    n, r, k : int
        The shape of St(n, r) and the block size.
    trials : int
        The random draws.
    rng : int or numpy.random.Generator
        Draws them.

    Returns
    -------
    dict
        The residuals and the slack.
    """
    rng = np.random.default_rng(rng)
    out = {"2.1a": 0.0, "2.1b": 0.0, "2.2a": 0.0, "2.2b": 0.0, "2.2c_equality": 0.0, "2.2c_slack": np.inf}
    for _ in range(trials):
        B = sorted(rng.choice(n, size=k, replace=False))
        U, V = _selector(n, B), _orthogonal(k, rng)
        M = rng.standard_normal((n, r))                     # any X (Lemma 2.1(a))
        Mp = M + U @ (V - np.eye(k)) @ U.T @ M
        out["2.1a"] = max(out["2.1a"], float(np.abs(Mp.T @ Mp - M.T @ M).max()))
        X = random_stiefel(n, r, rng=rng)
        Xp = X + U @ (V - np.eye(k)) @ U.T @ X
        out["2.1b"] = max(out["2.1b"], float(np.abs(Xp.T @ Xp - np.eye(r)).max()))
        A = rng.standard_normal((n * r, n * r))
        H = A + A.T
        Z = U.T @ X
        K = np.kron(Z.T, U)
        d, e = _vec(Xp - X), _vec(V - np.eye(k))
        out["2.2a"] = max(out["2.2a"], abs(float(d @ H @ d - e @ (K.T @ H @ K) @ e)))
        dist2 = float(np.sum((Xp - X) ** 2))
        out["2.2b"] = max(out["2.2b"], abs(dist2 - 2 * float(np.sum((np.eye(k) - V) * (Z @ Z.T)))))
        v2 = float(np.sum((V - np.eye(k)) ** 2))
        out["2.2c_equality"] = max(out["2.2c_equality"], abs(v2 - 2 * float(np.trace(np.eye(k) - V))))
        out["2.2c_slack"] = min(out["2.2c_slack"], v2 - dist2)
    return out


def subproblem_reduction(n: int = 6, r: int = 2, k: int = 3, alpha: float = 0.5, samples: int = 3000,
                         rng=0) -> dict:
    """Lemma 2.3 and Remark 2.4 on a random quadratic problem (h = 0 for (b)).

    (a) K(V) of eq. (11) (with the exact Q of eq. (9)) minus the reduced objective of problem (3)
    ``majorizer_value`` is the same constant for every V: ``spread_a`` is the range of that difference.
    (b) With Q = scalar (eq. (10)) and h = 0, V* = -P_M(P) attains -||P||_* (von Neumann's lower
    bound on <V, P> over O(k)) and no sampled V does better: ``gap_b`` = min over samples of
    K(V) - K(V*) (>= 0), ``nuclear_b`` = |<V*, P> + ||P||_*|.
    Remark 2.4(b): every sampled V with K(V) <= K(I) still gives F(X+) <= F(X) - alpha/2 ||V - I||^2:
    ``descent_slack`` is the smallest F(X) - alpha/2 ||V - I||^2 - F(X+) over them (>= 0), out of
    ``descent_count`` such V.

    Parameters
    ----------
    n, r, k : int
        The shape of St(n, r) and the block size.
    alpha : float
        The proximal parameter of eq. (11).
    samples : int
        The sampled V of O(k).
    rng : int or numpy.random.Generator
        Draws the problem, X, B and the samples.

    Returns
    -------
    dict
        ``spread_a``, ``gap_b``, ``nuclear_b``, ``descent_slack`` and ``descent_count``.
    """
    rng = np.random.default_rng(rng)
    S = rng.standard_normal((n, n))
    D = rng.standard_normal((r, r))
    problem = QuadraticProblem(S + S.T, D=D + D.T, L=rng.standard_normal((n, r)))
    X = random_stiefel(n, r, rng=rng)
    G = problem.grad(X)
    B = sorted(rng.choice(n, size=k, replace=False))
    Qt, P, Z = block_data(problem, X, G, B, alpha, "exact")
    Qm = problem.exact_Q(B, Z)
    M = G[B] @ Z.T                                           # [grad f(X) X^T]_BB
    diffs = []
    for _ in range(50):
        V = _orthogonal(k, rng)
        e = _vec(V - np.eye(k))
        K = 0.5 * e @ (Qm + alpha * np.eye(k * k)) @ e + float(np.sum(V * M)) + problem.h(V @ Z)
        diffs.append(K - majorizer_value(Qt, P, V, V @ Z, problem.h))
    Qs, Ps, Zs = block_data(problem, X, G, B, alpha, "scalar")
    Vstar = -polar(Ps)
    best = majorizer_value(Qs, Ps, Vstar, Vstar @ Zs, problem.h)
    stay = majorizer_value(Qs, Ps, np.eye(k), Zs, problem.h)
    gap, slack, count = np.inf, np.inf, 0
    F0 = problem.F(X)
    for _ in range(samples):
        V = _orthogonal(k, rng) if rng.random() < 0.5 else polar(np.eye(k) + 0.3 * rng.standard_normal((k, k)))
        value = majorizer_value(Qs, Ps, V, V @ Zs, problem.h)
        gap = min(gap, value - best)
        if value <= stay:
            Xp = X.copy()
            Xp[B] = V @ X[B]
            count += 1
            slack = min(slack, F0 - 0.5 * alpha * float(np.sum((V - np.eye(k)) ** 2)) - problem.F(Xp))
    return {"spread_a": float(np.ptp(diffs)), "gap_b": float(gap),
            "nuclear_b": abs(float(np.sum(Vstar * Ps)) + float(np.linalg.norm(Ps, "nuc"))),
            "descent_slack": float(slack), "descent_count": count}


# --- Section 3 ----------------------------------------------------------------------------------------

def remark_3_5(n: int = 6, r: int = 3, trials: int = 200, rng=0) -> dict:
    """Remark 3.5: G - X G^T X = 0 exactly when P_T(G) = 0, for X on St(n, r).

    Writing G = N + X (S + W) (N normal to range X, S symmetric, W skew): G - X G^T X = N + 2 X W and
    P_T(G) = N + X W, so ||P_T G|| <= ||G - X G^T X|| <= 2 ||P_T G||. Returns the extreme ratios over
    random G, and both norms on the three pure cases: G = X S (both 0), G = X W and G = N (both > 0).

    Parameters
    ----------
    n, r : int
        The shape of St(n, r).
    trials : int
        The random G.
    rng : int or numpy.random.Generator
        Draws X and G.

    Returns
    -------
    dict
        ``ratio_min``, ``ratio_max`` and ``pure``.
    """
    rng = np.random.default_rng(rng)
    X = random_stiefel(n, r, rng=rng)
    ratios = []
    for _ in range(trials):
        G = rng.standard_normal((n, r))
        ratios.append(np.linalg.norm(G - X @ G.T @ X) / np.linalg.norm(_project_tangent(X, G)))
    A = rng.standard_normal((r, r))
    pure = {"X S": X @ (A + A.T), "X W": X @ (A - A.T), "N": (np.eye(n) - X @ X.T) @ rng.standard_normal((n, r))}
    norms = {name: (float(np.linalg.norm(G - X @ G.T @ X)), float(np.linalg.norm(_project_tangent(X, G))))
             for name, G in pure.items()}
    return {"ratio_min": float(min(ratios)), "ratio_max": float(max(ratios)), "pure": norms}


# --- Appendix A ---------------------------------------------------------------------------------------

def block_map_rank(n: int, k: int) -> int:
    """Lemma A.1: the rank of W -> (U_B^T W U_B) over all C(n, k) blocks B (n^2 means only W = 0 maps to 0).

    Parameters
    ----------
    n, k : int
        The size of W and of the blocks.

    Returns
    -------
    int
        The rank.
    """
    rows = []
    for B in itertools.combinations(range(n), k):
        U = _selector(n, B)
        rows.append(np.kron(U.T, U.T))                       # vec(U^T W U) = (U^T (x) U^T) vec(W)
    return int(np.linalg.matrix_rank(np.vstack(rows)))


def lemma_a2_slack(k: int = 4, trials: int = 2000, rng=0) -> dict:
    """Lemma A.2: 2||A - C|| + ||C - C^T|| - ||A - A^T|| >= 0; random (A, C) and the tight case C = sym(A).

    Parameters
    ----------
    k : int
        The size of A and C.
    trials : int
        The random pairs.
    rng : int or numpy.random.Generator
        Draws them.

    Returns
    -------
    dict
        ``random_min`` (the smallest slack) and ``tight`` (the slack at C = sym(A)).
    """
    rng = np.random.default_rng(rng)
    slack = lambda A, C: 2 * np.linalg.norm(A - C) + np.linalg.norm(C - C.T) - np.linalg.norm(A - A.T)  # noqa: E731
    random = min(slack(rng.standard_normal((k, k)), rng.standard_normal((k, k))) for _ in range(trials))
    A = rng.standard_normal((k, k))
    return {"random_min": float(random), "tight": float(slack(A, (A + A.T) / 2))}


def lemma_a4_residual(n: int, k: int, rng=0) -> int:
    """Lemma A.4 on an integer W (exact arithmetic): sum_B ||W_BB||^2 minus the paper's right side
    C(n-2, k-2) sum_{i != j} W_ij^2 + (k / n) C(n, k) sum_i W_ii^2, times n (an integer; 0 when it holds).

    Parameters
    ----------
    n, k : int
        The size of W and of the blocks.
    rng : int or numpy.random.Generator
        Draws W.

    Returns
    -------
    int
        The residual.
    """
    W = np.random.default_rng(rng).integers(-9, 10, size=(n, n))
    left = sum(int(np.sum(W[np.ix_(B, B)] ** 2)) for B in itertools.combinations(range(n), k))
    off = int(np.sum(W**2) - np.sum(np.diag(W) ** 2))
    return n * left - (n * math.comb(n - 2, k - 2) * off + k * math.comb(n, k) * int(np.sum(np.diag(W) ** 2)))


def tangent_projection(n: int = 6, r: int = 3, trials: int = 200, rng=0) -> dict:
    """Lemma A.6 and Lemma A.7 on random G, X.

    A.6: P = G - 1/2 X (X^T G + G^T X) is tangent (``tangent``: ||A_X(P)||), G - P is orthogonal to
    the tangent space (``normal``: largest |<G - P, Y>| over a basis of tangent Y), and no random tangent
    Y is closer to G (``closest``: min ||Y - G|| - ||P - G|| >= 0).
    A.7: dist(0, G + N_M(X)), N_M(X) = {X L : L symmetric}, by least squares over L equals ||P||
    (``distance``: the difference) and P = (I - 1/2 X X^T)(G - X G^T X) (``identity``, step 4);
    ``ratio`` = max ||P|| / ||G - X G^T X|| (<= 1).

    Parameters
    ----------
    n, r, trials : int
        As in :func:`remark_3_5`.
    rng : int or numpy.random.Generator
        Draws X, G and the tangent Y.

    Returns
    -------
    dict
        The residuals named above.
    """
    rng = np.random.default_rng(rng)
    out = {"tangent": 0.0, "normal": 0.0, "closest": np.inf, "distance": 0.0, "identity": 0.0, "ratio": 0.0}
    sym = [(i, j) for i in range(r) for j in range(i, r)]
    for _ in range(trials):
        X, G = random_stiefel(n, r, rng=rng), rng.standard_normal((n, r))
        P = _project_tangent(X, G)
        out["tangent"] = max(out["tangent"], float(np.abs(X.T @ P + P.T @ X).max()))
        W = rng.standard_normal((r, r))
        Y = X @ (W - W.T) + (np.eye(n) - X @ X.T) @ rng.standard_normal((n, r))   # a random tangent vector
        out["normal"] = max(out["normal"], abs(float(np.sum((G - P) * Y))))
        out["closest"] = min(out["closest"], float(np.linalg.norm(Y - G) - np.linalg.norm(P - G)))
        basis = []
        for i, j in sym:
            E = np.zeros((r, r))
            E[i, j] = E[j, i] = 1.0
            basis.append(_vec(X @ E))
        coef = np.linalg.lstsq(np.array(basis).T, -_vec(G), rcond=None)[0]
        dist = float(np.linalg.norm(_vec(G) + np.array(basis).T @ coef))
        out["distance"] = max(out["distance"], abs(dist - float(np.linalg.norm(P))))
        E = G - X @ G.T @ X
        out["identity"] = max(out["identity"], float(np.abs(P - (np.eye(n) - 0.5 * X @ X.T) @ E).max()))
        out["ratio"] = max(out["ratio"], float(np.linalg.norm(P) / np.linalg.norm(E)))
    return out


def lemma_a8_residual(points: int = 4001) -> float:
    """Lemma A.8: for every theta with cos(theta) != 0 one of the two parameterizations by t = tan(theta)
    reproduces (cos, sin) ((a) when cos > 0, (b) when cos < 0); the largest error of the better one.

    Parameters
    ----------
    points : int
        The angles tried.

    Returns
    -------
    float
        The largest error.
    """
    theta = np.linspace(-np.pi, np.pi, points)
    theta = theta[np.abs(np.cos(theta)) > 1e-3]
    t = np.tan(theta)
    rho = np.sqrt(1 + t * t)
    a = np.hypot(np.cos(theta) - 1 / rho, np.sin(theta) - t / rho)
    b = np.hypot(np.cos(theta) + 1 / rho, np.sin(theta) + t / rho)
    return float(np.minimum(a, b).max())


def lemma_a9_slack(length: int = 400, trials: int = 200, rng=0) -> float:
    """Lemma A.9 on extremal sequences: (E_{t+1})^2 = E_t (p_t - p_{t+1}) with equality, p_t >= 0
    nonincreasing (random decrements, some zero, some large). Returns min over trials and i of
    E_i + 2 p_i - sum_{t >= i} E_{t+1} (>= 0).

    Parameters
    ----------
    length : int
        The length of each sequence.
    trials : int
        The sequences.
    rng : int or numpy.random.Generator
        Draws the decrements.

    Returns
    -------
    float
        The smallest slack.
    """
    rng = np.random.default_rng(rng)
    worst = np.inf
    for _ in range(trials):
        w = rng.exponential(rng.uniform(0.01, 2.0), size=length) * (rng.random(length) < 0.8)
        p = np.concatenate([np.cumsum(w[::-1])[::-1], [0.0]])     # p_t = sum_{j >= t} w_j, p_length = 0
        E = np.empty(length + 1)
        E[0] = rng.uniform(0.0, 5.0)
        for s in range(length):
            E[s + 1] = math.sqrt(E[s] * w[s])
        tails = np.cumsum(E[1:][::-1])[::-1]                      # tails[i] = sum_{t >= i} E_{t+1}
        worst = min(worst, float(np.min(E[1:length] + 2 * p[1:length] - tails[1:length])))
    return worst


def lemma_a10_ratio(tau: float, a: float, D0: float = 1.0, T: int = 20000, kappa: float = 2.0) -> float:
    """Lemma A.10 on the extremal sequence D_t^(tau+1) = a (D_{t-1} - D_t): the largest ratio of D_T to
    the proof's bound (D_0^-tau + T c)^(-1/tau), c = min(tau / (kappa a), (kappa^(tau/(tau+1)) - 1) D_0^-tau)
    (<= 1 when the lemma holds; its rate is T^(-1/tau)).

    Parameters
    ----------
    tau, a : float
        The exponent and the constant of the recursion.
    D0 : float
        D_0.
    T : int
        The last index.
    kappa : float
        The proof's constant kappa > 1.

    Returns
    -------
    float
        The largest ratio.
    """
    D = [D0]
    for _ in range(T):
        prev = D[-1]
        D.append(brentq(lambda x, prev=prev: x ** (tau + 1) - a * (prev - x), 0.0, prev))
    c = min(tau / (kappa * a), (kappa ** (tau / (tau + 1)) - 1) * D0 ** (-tau))
    t = np.arange(T + 1)
    return float(np.max(np.asarray(D) / (D0 ** (-tau) + t * c) ** (-1 / tau)))


# --- Appendix C ---------------------------------------------------------------------------------------

def kron_q(n: int = 6, r: int = 3, k: int = 3, rng=0) -> dict:
    """Lemma C.1 and Lemma C.2: with H = H1 (x) H2 (H1: r x r, H2: n x n, symmetric, possibly indefinite)
    the matrix Q = (Z^T (x) U_B)^T H (Z^T (x) U_B) of eq. (9) equals (Z H1 Z^T) (x) (U_B^T H2 U_B)
    (``c1a``), with H = L I it is L (Z Z^T) (x) I (``c1b``); and ||Q1|| ||Q2|| I - Q (``c2a``) and
    L ||Z||^2 I - Q (``c2b``) are positive semidefinite (their smallest eigenvalues).

    Parameters
    ----------
    n, r, k : int
        The shape of St(n, r) and the block size.
    rng : int or numpy.random.Generator
        Draws H1, H2, X and B.

    Returns
    -------
    dict
        ``c1a``, ``c1b``, ``c2a`` and ``c2b``.
    """
    rng = np.random.default_rng(rng)
    A1, A2 = rng.standard_normal((r, r)), rng.standard_normal((n, n))
    H1, H2 = A1 + A1.T, A2 + A2.T
    X = random_stiefel(n, r, rng=rng)
    B = sorted(rng.choice(n, size=k, replace=False))
    U = _selector(n, B)
    Z = U.T @ X
    K = np.kron(Z.T, U)
    Q = K.T @ np.kron(H1, H2) @ K
    Q1, Q2 = Z @ H1 @ Z.T, U.T @ H2 @ U
    L = 1.7
    QL = K.T @ (L * np.eye(n * r)) @ K
    spec = lambda M: float(np.linalg.norm(M, 2))  # noqa: E731
    return {"c1a": float(np.abs(Q - np.kron(Q1, Q2)).max()),
            "c1b": float(np.abs(QL - np.kron(L * Z @ Z.T, np.eye(k))).max()),
            "c2a": float(np.linalg.eigvalsh(spec(Q1) * spec(Q2) * np.eye(k * k) - Q).min()),
            "c2b": float(np.linalg.eigvalsh(L * spec(Z) ** 2 * np.eye(k * k) - QL).min())}


__all__ = ["update_identities", "subproblem_reduction", "remark_3_5", "block_map_rank", "lemma_a2_slack",
           "lemma_a4_residual", "tangent_projection", "lemma_a8_residual", "lemma_a9_slack", "lemma_a10_ratio",
           "kron_q"]
