"""OBCD, Algorithm 1: block coordinate descent on St(n, r) by k-row updates.

Each iteration picks a working set B of k rows, builds the majorizer
K(V; X, B) of eq. (11) with Q from eq. (9) ("exact") or eq. (10) ("scalar"),
minimizes it globally over V in O(k) and sets X(B, :) <- V X(B, :).
The gradient is kept up to date incrementally in O(nrk) per step
(Appendix C.3) and F is tracked exactly from the change of the k rows.

Feasibility: X^T X = I is preserved by construction (Lemma 2.1); V is built
from a unit (cos, sin) pair, so rounding adds O(eps) per step. The history
records ||X^T X - I||_F so the drift can be watched; the tests bound it after
10^5 steps.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .penalties import count_nonzeros
from .stiefel import feasibility, polar
from .subproblem import _BRANCHES, _solve_2x2
from .validation import as_matrix, check_nonnegative, check_stiefel


@dataclass
class Step:
    """What a callback sees after each iteration."""

    iteration: int
    B: np.ndarray
    V: np.ndarray
    F_before: float
    F_after: float
    X: np.ndarray


@dataclass
class Result:
    """Output of :func:`obcd`. ``history`` holds equal-length arrays
    ``iteration, seconds, F, feasibility, nnz`` recorded every ``log_every`` steps."""

    X: np.ndarray
    F: float
    iterations: int
    seconds: float
    stop_reason: str
    history: dict = field(repr=False)


def solve_kxk(P: np.ndarray) -> np.ndarray:
    """Lemma 2.3(b): argmin_{V in O(k)} <V, P> = -polar(P), the case h = 0, Q = varsigma I."""
    P = as_matrix(P, "P")
    if P.shape[0] != P.shape[1]:
        raise ValueError(f"P must be square, got shape {P.shape}")
    return -polar(P)


def working_sets(n: int, k: int, rule: str, rng=None):
    """Yield working sets B (sorted index arrays of length k) forever.

    Parameters
    ----------
    n, k : 2 <= k <= n.
    rule : "random" (uniform over the C(n, k) subsets, independently each time) or
        "cyclic" (every subset in lexicographic order, then again).
    rng : seed or Generator for "random".
    """
    if rule not in ("random", "cyclic"):
        raise ValueError(f"rule must be 'random' or 'cyclic', got {rule!r}")
    if not all(isinstance(v, (int, np.integer)) for v in (n, k)) or not 1 <= k <= n:
        raise ValueError(f"need integers 1 <= k <= n, got n = {n!r}, k = {k!r}")
    return _cyclic_sets(n, k) if rule == "cyclic" else _random_sets(n, k, np.random.default_rng(rng))


def _cyclic_sets(n: int, k: int):
    while True:
        for B in itertools.combinations(range(n), k):
            yield np.array(B)


def _random_sets(n: int, k: int, rng: np.random.Generator):
    # Uniform k-tuples conditioned on distinct entries are uniform over subsets.
    batch = 4096
    accept = np.prod([(n - i) / n for i in range(k)])
    while True:
        if accept > 0.05:
            draws = np.sort(rng.integers(0, n, size=(int(batch / accept) + 16, k)), axis=1)
            draws = draws[np.all(np.diff(draws, axis=1) > 0, axis=1)]
        else:
            draws = np.sort(np.argsort(rng.random((batch, n)), axis=1)[:, :k], axis=1)
        yield from draws


_IDENTITIES = {k: (np.eye(k), np.eye(k * k)) for k in range(2, 9)}


def block_subproblem(problem, X: np.ndarray, G: np.ndarray, B, alpha: float, Q: str):
    """Problem (3) for the block B at X: K(V; X, B) = 1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z) + const.

    Lemma 2.3(a): Qt = Q + alpha I and P = [grad f(X) X^T]_BB - mat(Q vec(I_k)) - alpha I_k, with Q
    from eq. (9) ("exact") or eq. (10) ("scalar"); G is grad f(X).

    Returns
    -------
    Qt, P, Z = X(B, :), G(B, :)
    """
    k = len(B)
    Ik, Ik2 = _IDENTITIES[k] if k in _IDENTITIES else (np.eye(k), np.eye(k * k))
    Z = X[B]
    GB = G[B]
    M = GB @ Z.T  # [grad f(X) X^T]_BB
    if Q == "exact":
        Qm = problem.exact_Q(B, Z)
        # mat(Q vec(I)): vec(I) is symmetric in the stacking; mat() unstacks columns
        return Qm + alpha * Ik2, M - (Qm @ Ik.reshape(-1)).reshape(k, k).T - alpha * Ik, Z, GB
    shift = problem.scalar_Q(B, Z) + alpha
    return shift * Ik2, M - shift * Ik, Z, GB


def obcd(problem, X0, *, k: int = 2, alpha: float = 1e-5, working_set: str = "random",
         Q: str = "exact", max_iter: int = 10_000, time_limit: float | None = None,
         seed=None, callback: Callable[[Step], bool | None] | None = None,
         branches: str = "both", log_every: int = 100) -> Result:
    """Run OBCD (Algorithm 1) on ``problem`` from ``X0``.

    Parameters
    ----------
    problem : QuadraticProblem (or any object with the same methods).
    X0 : (n, r) array on St(n, r).
    k : block size, 2 <= k <= n. k > 2 needs h = 0 and Q = "scalar" (SVD subproblem).
    alpha : proximal parameter alpha > 0 of eq. (11).
    working_set : "random" (uniform over the C(n, k) sets) or "cyclic".
    Q : "exact" (eq. (9)) or "scalar" (eq. (10)).
    max_iter, time_limit : stop after this many iterations / seconds.
    seed : seed or Generator for the random working sets.
    callback : called with a :class:`Step` after every iteration; returning True stops.
    branches : "both" (OBCD), or "rot" / "ref" to restrict V to one circle of O(2) (k = 2).
    log_every : record a history row every this many iterations.

    Returns
    -------
    Result
    """
    X = as_matrix(X0, "X0").copy()
    n, r = X.shape
    check_stiefel(X, "X0")
    problem.check_point(X, "X0")
    h = problem.h
    if not isinstance(k, (int, np.integer)) or not 2 <= k <= n:
        raise ValueError(f"k must be an integer with 2 <= k <= n = {n}, got k = {k!r}")
    alpha = check_nonnegative(alpha, "alpha", strict=True)
    if working_set not in ("random", "cyclic"):
        raise ValueError(f"working_set must be 'random' or 'cyclic', got {working_set!r}")
    if Q not in ("exact", "scalar"):
        raise ValueError(f"Q must be 'exact' or 'scalar', got {Q!r}")
    if branches not in ("both", *_BRANCHES):
        raise ValueError(f"branches must be 'both', 'rot' or 'ref', got {branches!r}")
    if k > 2 and not h.is_zero:
        raise ValueError(f"k = {k} > 2 needs h = Zero() (the SVD subproblem of Lemma 2.3(b)), got h = {h!r}")
    if k > 2 and Q != "scalar":
        raise ValueError(f"k = {k} > 2 needs Q = 'scalar' (Lemma 2.3(b) needs Q = varsigma I), got Q = {Q!r}")
    if k > 2 and branches != "both":
        raise ValueError(f"branches = {branches!r} only applies to k = 2")
    if not isinstance(max_iter, (int, np.integer)) or max_iter < 0:
        raise ValueError(f"max_iter must be a non-negative integer, got {max_iter!r}")
    if time_limit is not None:
        time_limit = check_nonnegative(time_limit, "time_limit", strict=True)
    if not isinstance(log_every, (int, np.integer)) or log_every < 1:
        raise ValueError(f"log_every must be a positive integer, got {log_every!r}")

    blocks = working_sets(n, k, working_set, seed)
    G = problem.grad(X)
    F = problem.f_from_grad(X, G) + h(X)
    history = {key: [] for key in ("iteration", "seconds", "F", "feasibility", "nnz")}
    start = time.perf_counter()

    def log(it: int) -> None:
        history["iteration"].append(it)
        history["seconds"].append(time.perf_counter() - start)
        history["F"].append(F)
        history["feasibility"].append(feasibility(X))
        history["nnz"].append(count_nonzeros(X))

    log(0)
    stop_reason = "max_iter"
    it = 0
    for it in range(1, int(max_iter) + 1):
        B = next(blocks)
        Qt, P, Z, _ = block_subproblem(problem, X, G, B, alpha, Q)
        if k == 2:
            sol = _solve_2x2(Qt, P, Z, h, branches)
            V, VZ = sol.V, sol.VZ
        else:
            V = solve_kxk(P)
            VZ = V @ Z
        dZ = VZ - Z
        F_before = F
        F += problem.apply_step(G, B, dZ) + (h(VZ) - h(Z))
        X[B] = VZ
        if it % log_every == 0:
            log(it)
        if callback is not None and callback(Step(it, B, V, F_before, F, X)):
            stop_reason = "callback"
            break
        if time_limit is not None and time.perf_counter() - start >= time_limit:
            stop_reason = "time_limit"
            break
    if history["iteration"][-1] != it:
        log(it)
    seconds = time.perf_counter() - start
    return Result(X=X, F=problem.F(X), iterations=it, seconds=seconds, stop_reason=stop_reason,
                  history={key: np.asarray(val) for key, val in history.items()})
