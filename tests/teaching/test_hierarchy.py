"""teaching.hierarchy: the searches and theory checks notebook 05 shows, at small sizes."""
import numpy as np

from obcd_lite import randn_covariance, sparse_pca
from obcd_lite.teaching.hierarchy import (alpha_sweep_2x2, alpha_sweep_points, bs2_not_critical_witness,
                                          census, eigen_critical_points)
from obcd_lite.teaching.hierarchy_descent import scalar_q_search, three_row_descent, two_pair_descent
from obcd_lite.teaching.paper_theory_run import theory_run


def test_bs2_set_only_grows_with_alpha():
    alphas = np.logspace(-5, 2, 8)
    C = randn_covariance(8, 4, rng=0)
    points = [s * X for _, X in eigen_critical_points(C, 1) for s in (1, -1)]
    table = alpha_sweep_points(sparse_pca(C), points, alphas)
    assert np.all(table[:, 1:] >= table[:, :-1])  # once BS_2, BS_2 for every larger alpha
    assert table[:, 0].sum() == 2 and table[:, -1].sum() == 8
    counts = alpha_sweep_2x2(np.array([[1.0, 0.0], [1.0, 2.0]]), 5.0, alphas)
    assert counts[0] == 1 and counts[-1] == 16 and counts == sorted(counts)


def test_scalar_q_breaks_theorem_38c():
    found = scalar_q_search(10, rng=0)
    assert found["witness"] is not None
    assert any(not p[0] and p[1] for p in found["patterns"])  # BS_3 but not BS_2


def test_witness_descends_with_two_pairs_and_three_rows():
    w = bs2_not_critical_witness()
    curves = two_pair_descent(w, np.array([-0.01, 0.01]))
    assert np.all(curves["pair (0, 2)"] > 0) and np.all(curves["pair (1, 2)"] > 0)
    # the retraction at signed t: down along -R (t > 0), up along +R (t < 0); it once used |t| (a mirror image)
    assert curves["both pairs"][1] < 0 and curves["polar(X - t R)"][1] < 0 < curves["polar(X - t R)"][0]
    d3 = three_row_descent(w, 0.01)
    assert d3["K_change"] < -1e-3
    assert np.allclose(d3["V"] @ d3["V"].T, np.eye(3), atol=1e-14)


def test_theorem_42_along_a_run():
    """Theorem 4.2 on four problems (h = 0 with k = 2 and k = 3, l1, X >= 0), five seeds each. (a): every step.
    (b) bounds an expectation over the working sets, so it is checked on the mean over the seeds of the running
    minimum of the eps-BS measure, at every checkpoint T, against c~/(T + 1)."""
    from obcd_lite import L1, nonneg_pca
    from obcd_lite.penalties import NonNeg

    C = randn_covariance(12, 5, rng=1)
    smooth_lower = -np.sort(np.linalg.eigvalsh(C))[-2:].sum()
    cases = [(sparse_pca(C), 2), (sparse_pca(C), 3), (sparse_pca(C, L1(0.1)), 2), (nonneg_pca(C), 2)]
    for problem, k in cases:
        minima, bounds = [], None
        for seed in range(5):
            X0 = np.linalg.qr(np.random.default_rng(seed).standard_normal((5, 2)))[0]
            if isinstance(problem.h, NonNeg):
                X0 = np.eye(5)[:, :2]
            run = theory_run(problem, X0, k=k, alpha=1.0, max_iter=80, rng=seed, F_lower=smooth_lower,
                             checkpoints=6)
            assert np.all(run["v_term"] <= run["decrease"] + 1e-12)
            assert np.all(run["x_term"] <= run["v_term"] + 1e-12)
            minima.append(run["running_min"])
            bounds = run["bound"]
        assert np.all(np.mean(minima, axis=0) <= bounds) and np.mean(minima, axis=0)[0] > 0


def test_census_counts():
    C = randn_covariance(8, 3, rng=2)
    result = census(sparse_pca(C), 1, {"obcd k=2": ("obcd", {"max_iter": 60, "working_set": "cyclic"})}, starts=3)
    counts = result["counts"]["obcd k=2"]
    assert counts["points"] == 3 and counts["global"] == 3 and result["global_min"].certified


def test_bs2_not_global_witnesses_at_n4_are_certified():
    """Notebook 05's n = 4, r = 2 witnesses: each is BS_2 (block gaps recomputed), its F lies above the
    value of a point certified by SCIP, and that point is exactly feasible."""
    from obcd_lite.optimality import block_report, global_minimum
    from obcd_lite.teaching.hierarchy import bs2_not_global

    rows = bs2_not_global(("l1", "nonneg"), n=4, r=2, starts=8)
    assert all(row["certified"] for row in rows)
    for row in rows:
        assert row["BS2, not global"] >= 1  # l1 and X >= 0 have such limits on these instances
        problem, X = row["problem"], row["X"]
        assert block_report(problem, X, 2, alpha=1e-5).stationary
        g = global_minimum(problem, r=2, rng=0, backend="scip")
        assert problem.F(X) > g.value + 1e-3 and g.lower_bound <= g.value
        assert np.allclose(g.X.T @ g.X, np.eye(2), atol=1e-13) and np.isfinite(problem.h(g.X))
