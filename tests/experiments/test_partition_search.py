"""The partition local search for nonnegative PCA (obcd_lite.experiments.partition_search): feasible, X >= 0,
never above its start, and on tiny instances a point no single-feature move improves, the best of a few starts
equal to the brute-force minimum over every partition (and no run below it)."""
import itertools

import numpy as np
import pytest

from obcd_lite import get_solver, nonneg_pca, randn_covariance
from obcd_lite.experiments.partition_search import partition_search
from obcd_lite.experiments.runner import start_point


def _best_column(C, support) -> float:
    """max x^T C x over x >= 0, ||x|| = 1, supp x within ``support``: by KKT the maximizer is the positive top
    eigenvector of C_TT for some face T, so enumerate the faces."""
    best = -np.inf
    for size in range(1, len(support) + 1):
        for T in itertools.combinations(support, size):
            w, V = np.linalg.eigh(C[np.ix_(T, T)])
            for value, v in zip(w, V.T):
                v = v if v.sum() >= 0 else -v
                if np.all(v > 0):
                    best = max(best, float(value))
    return best


def _brute_force(C, r) -> float:
    """min F over every assignment of the n features to r columns (or none): -1/2 sum of the best columns."""
    n = C.shape[0]
    best = np.inf
    for labels in itertools.product(range(-1, r), repeat=n):
        supports = [[i for i in range(n) if labels[i] == j] for j in range(r)]
        if all(supports):
            best = min(best, -0.5 * sum(_best_column(C, S) for S in supports))
    return best


def _feasible(X):
    return np.all(X >= 0) and np.abs(X.T @ X - np.eye(X.shape[1])).max() < 1e-12


@pytest.mark.parametrize("n, r, seed", [(5, 2, 0), (5, 2, 1), (6, 2, 2), (5, 3, 3)])
def test_matches_brute_force_on_tiny_instances(n, r, seed):
    C = randn_covariance(2 * n, n, rng=seed)
    optimum = _brute_force(C, r)
    starts = [np.eye(n)[:, :r]] + [start_point("random", n, r, "nonneg", rng=s) for s in range(6)]
    values = []
    for X0 in starts:
        res = partition_search(C, X0)
        assert _feasible(res.X)
        assert res.F <= res.F_start + 1e-15 and np.all(np.diff(res.history) < 0)
        assert res.F >= optimum - 1e-12                                   # never below the global minimum
        assert res.F == pytest.approx(-0.5 * np.trace(res.X.T @ C @ res.X), abs=1e-14)
        values.append(res.F)
    assert min(values) == pytest.approx(optimum, abs=1e-12)


def test_improves_on_obcd_and_never_goes_up():
    """From OBCD's output on a larger instance (n = 60, r = 4) the search only goes down, and it finds single-row
    moves that OBCD's two-row steps cannot make."""
    C = randn_covariance(40, 60, rng=5)
    problem = nonneg_pca(C)
    X0 = get_solver("obcd")(problem, np.eye(60)[:, :4], max_iter=20000, rng=0).X
    res = partition_search(C, X0)
    assert _feasible(res.X) and res.F_start == pytest.approx(problem.F(X0), abs=1e-15)
    assert res.F < res.F_start - 1e-6 and res.moves > 0 and np.all(np.diff(res.history) < 0)


def test_rejects_an_infeasible_start():
    C = randn_covariance(10, 5, rng=0)
    with pytest.raises(ValueError, match="X0 >= 0 and X0\\^T X0 = I"):
        partition_search(C, -np.eye(5)[:, :2])
    with pytest.raises(ValueError, match="n = 5 rows"):
        partition_search(C, np.eye(4)[:, :2])


def test_improving_rows_counts_single_row_moves():
    """improving_rows is 0 exactly where the search stops, and positive at a start it improves on."""
    from obcd_lite.experiments.partition_search import improving_rows

    C = randn_covariance(20, 30, rng=1)
    X0 = np.eye(30)[:, :3]
    res = partition_search(C, X0)
    assert improving_rows(C, X0) > 0 and improving_rows(C, res.X) == 0
