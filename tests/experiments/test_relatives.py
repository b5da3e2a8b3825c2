"""Notebook 07's compute (experiments.procrustes, experiments.relatives): the Procrustes floor, the ablation
grid, the agreement census."""
import itertools

import numpy as np
import pytest

from obcd_lite.data import load_dataset
from obcd_lite.experiments import build_problem, start_point
from obcd_lite.experiments.procrustes import (floor_census, procrustes_floor_gap, procrustes_flops_per_update,
                                              procrustes_instance, procrustes_runs, special_procrustes, to_target)
from obcd_lite.experiments.relatives import (ablation_grid, agreement_census, criticality_measure, ingredient_values,
                                             limit_clusters, signed_permutation_distance)
from obcd_lite.solvers import manpg
from obcd_lite.stiefel import random_stiefel
from obcd_lite.teaching.completeness import closest_with_det, random_orthogonal


# --- the floor ------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(5))
def test_special_procrustes_beats_every_sampled_point_of_its_component(seed):
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((4, 4))
    for det in (1, -1):
        X, value = special_procrustes(M, det)
        assert np.allclose(X.T @ X, np.eye(4), atol=1e-12)
        assert np.sign(np.linalg.det(X)) == det
        assert np.isclose(np.trace(X.T @ M), value)
        sampled = [np.trace(random_orthogonal(4, det, rng).T @ M) for _ in range(2000)]
        assert max(sampled) <= value + 1e-12


def test_floor_gap_is_twice_the_smallest_singular_value_and_matches_notebook_03():
    rng = np.random.default_rng(1)
    M = rng.standard_normal((6, 6))
    gap = special_procrustes(M, 1)[1] - special_procrustes(M, -1)[1]
    assert np.isclose(abs(gap), procrustes_floor_gap(M))
    assert np.isclose(procrustes_floor_gap(M), 2 * np.linalg.svd(M, compute_uv=False)[-1])
    T = random_orthogonal(5, -1, rng)  # orthogonal target: ||X - T||^2 = 2n - 2 tr(X^T T), floor 4
    assert np.isclose(2 * procrustes_floor_gap(T), closest_with_det(T, det=1)[1])


@pytest.mark.parametrize("mismatch", [True, False])
def test_procrustes_instance_sets_the_determinants(mismatch):
    inst = procrustes_instance(8, mismatch=mismatch, rng=3)
    assert np.sign(np.linalg.det(inst.X0)) == inst.det_start
    assert inst.mismatch == mismatch
    assert np.isclose(inst.problem.F(special_procrustes(inst.M, inst.det_solution)[0]), inst.F_star)
    assert (inst.F_floor > inst.F_star + 1e-12) == mismatch
    assert np.isclose(inst.problem.F(inst.X0), -np.trace(inst.X0.T @ inst.M) / 8)


def test_rotations_only_converge_to_the_floor_and_never_below():
    inst = procrustes_instance(5, mismatch=True, rng=0)
    runs = procrustes_runs(inst, {"rot": ("obcd_rot", {"working_set": "cyclic"}), "rcd": ("rcd", {})}, sweeps=300)
    for res in runs.values():
        assert np.all(np.asarray(res.history["F"]) >= inst.F_floor - 1e-12)
        assert np.sign(np.linalg.det(res.X)) == inst.det_start
    assert runs["rot"].F - inst.F_floor < 1e-9  # the exact rotation search reaches the component's minimum


def test_to_target_reports_the_first_logged_hit():
    inst = procrustes_instance(4, mismatch=True, rng=0)
    res = procrustes_runs(inst, {"obcd": ("obcd", {})}, sweeps=100)["obcd"]
    hit = to_target(res, inst.F_star, procrustes_flops_per_update("obcd", 4))
    gaps = (np.asarray(res.history["F"]) - inst.F_star) / abs(inst.F_star)
    first = int(np.flatnonzero(gaps <= 1e-5)[0])
    assert hit["updates"] == res.history["iteration"][first]
    assert hit["flops"] == hit["updates"] * 14 * 4
    never = to_target(procrustes_runs(inst, {"r": ("obcd_rot", {})}, sweeps=5)["r"], inst.F_star, 40)
    assert np.isnan(never["updates"]) and never["final_gap"] > 1e-5


def test_floor_census_is_consistent():
    table = floor_census(4, range(3), sweeps=50)
    assert list(table["seed"]) == [0, 1, 2]
    below = table["OBCD below floor"]
    assert (table.loc[below, "det X"] != table.loc[below, "det X0"]).all()  # below the floor => reflected
    assert (table["floor gap"] > 0).all()


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="square"):
        special_procrustes(np.ones((3, 2)), 1)
    with pytest.raises(ValueError, match="det"):
        special_procrustes(np.eye(3), 0)
    with pytest.raises(ValueError, match="p must be"):
        procrustes_instance(1, mismatch=True)
    with pytest.raises(ValueError, match="unknown method"):
        procrustes_flops_per_update("lbfgs", 5)
    with pytest.raises(ValueError, match="same shape"):
        signed_permutation_distance(np.eye(3), np.eye(2))
    with pytest.raises(ValueError, match="residual' or 'prox"):
        criticality_measure(build_problem("l1", np.eye(3), 0.1), np.eye(3)[:, :2], "dual")


# --- the census -------------------------------------------------------------------------------------

def test_signed_permutation_distance_matches_brute_force():
    rng = np.random.default_rng(0)
    X, Y = random_stiefel(6, 3, rng), random_stiefel(6, 3, rng)
    brute = min(np.linalg.norm(X - Y[:, list(perm)] * np.array(signs))
                for perm in itertools.permutations(range(3)) for signs in itertools.product((1, -1), repeat=3))
    assert np.isclose(signed_permutation_distance(X, Y), brute)
    Z = X[:, [2, 0, 1]] * np.array([1, -1, -1])
    assert signed_permutation_distance(X, Z) < 1e-12
    assert np.isclose(signed_permutation_distance(X, Y), signed_permutation_distance(Y, X))


def test_limit_clusters_groups_by_distance():
    rng = np.random.default_rng(0)
    X, Y = random_stiefel(5, 2, rng), random_stiefel(5, 2, rng)
    groups = limit_clusters({"a": X, "b": -X[:, ::-1], "c": Y, "d": Y + 1e-4})
    assert groups == {"a": 0, "b": 0, "c": 1, "d": 1}


def test_criticality_measures_agree_at_a_converged_point():
    ds = load_dataset("spiked", n=12, rng=0)
    problem = build_problem("l1", ds.C, 0.03)
    X0 = start_point("random", 12, 2, "l1", rng=0)
    X = manpg(problem, X0, max_iter=3000, tol=1e-20).X
    assert criticality_measure(problem, X, "residual") < 1e-6
    assert criticality_measure(problem, X, "prox") < 1e-6
    assert criticality_measure(problem, X0, "residual") > 1e-3
    assert criticality_measure(problem, X0, "prox") > 1e-3


def test_agreement_census_from_a_shared_start_and_a_warm_start():
    ds = load_dataset("spiked", n=12, rng=0)
    problem = build_problem("l1", ds.C, 0.03)
    X0 = start_point("random", 12, 2, "l1", rng=1)
    # ManPG's tol is relative to L_f since issue 34: ||D|| / t < 1e-10, the test it had here before
    solvers = {"ManPG": ("manpg", {"max_iter": 2000, "tol": 1e-10 / problem.lipschitz()}, None),
               "OBCD": ("obcd", {"max_iter": 5000}, None),
               "ManPG -> OBCD": ("obcd", {"max_iter": 2000}, "ManPG")}
    table = agreement_census(problem, X0, solvers, sample=None)
    assert list(table["solver"]) == list(solvers)
    # the distance of a point to itself: 0 up to rounding (the square root of a cost ||x||^2 + ||y||^2 - 2|<x, y>|)
    assert table["distance"].iloc[0] <= 1e-7 and table["group"].iloc[0] == 0
    assert table["lowest"].any()
    assert table.loc[2, "F"] <= table.loc[0, "F"] + 1e-12  # OBCD never increases F from ManPG's point
    assert set(table.columns) >= {"critical", "bs2", "bs2_gap", "residual", "nnz"}


# --- the ablation grid --------------------------------------------------------------------------------

def test_ablation_grid_records_declines_and_the_best_value():
    table = ablation_grid(problems=("pca", "l1"), datasets=("spiked",), n=10, r=2, time_limit=None, max_iter=300,
                          sample=20)
    declined = table[table["declined"]]
    assert set(zip(declined["problem"], declined["variant"])) == {("l1", "one step"), ("l1", "k = 3")}
    ok = table[~table["declined"]]
    assert (ok["F - F_best"] >= -1e-15).all()
    for _, g in ok.groupby("problem"):
        assert np.isclose(g["F"].min(), g["F_best"].iloc[0])
    values = ingredient_values(table)
    assert set(values["variant"]) == {"one step", "rotations only", "k = 2, scalar Q", "k = 3"}
    assert not (values["variant"] == "OBCD").any()


def test_flops_per_iteration_is_the_hand_count():
    """2 n k r (gradient update) + 4 k^2 r (G_B Z^T, V Z) + 3 k r (change of f) + 21 k^3 (the k x k SVD)."""
    from obcd_lite.experiments.relatives import obcd_flops_per_iteration
    assert obcd_flops_per_iteration(50, 3, 2) == 600 + 48 + 18 + 168
    assert obcd_flops_per_iteration(50, 3, 3) == 900 + 108 + 27 + 567
    with pytest.raises(ValueError, match="k = 0"):
        obcd_flops_per_iteration(50, 3, 0)


def test_k3_by_updates_spends_equal_flops_and_names_the_engines():
    from obcd_lite.experiments.relatives import k3_by_updates, obcd_flops_per_iteration
    table = k3_by_updates(datasets=("spiked",), seeds=(0,), r=2, n=12, sweeps=3)
    flops = table.set_index("variant")["flops"]
    assert abs(flops["k = 3"] - flops["k = 2, scalar Q"]) < obcd_flops_per_iteration(12, 2, 3)
    assert dict(zip(table["variant"], table["engine"])) == {"k = 2, scalar Q": "compiled", "k = 3": "python"}
    assert (table["F - F_best"] >= 0).all() and (table["F - F_best"] == 0).any()
    reached = table.dropna(subset=["iterations to target"])
    assert len(reached) >= 1 and (reached["flops to target"] <= reached["flops"]).all()
