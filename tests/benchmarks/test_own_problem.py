"""Smoke test of benchmarks/own_problem.py: its problems' derivatives, quick mode's rows (no timing asserts)."""
import numpy as np
import pytest

from obcd_lite import random_stiefel

pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")


@pytest.mark.parametrize("name", ["subspace", "eigenvector", "pca"])
def test_gradients_and_hessians_match_finite_differences(load_benchmark, name):
    bench = load_benchmark("own_problem")
    problem, X = bench.build(name, 12)
    rng = np.random.default_rng(7)  # not X0's draw (rng=0): X0's polar factor would make <grad f, D> = 0
    D, H = rng.standard_normal(X.shape), rng.standard_normal(X.shape)
    step = 1e-6
    slope = (problem.cost(X + step * D) - problem.cost(X - step * D)) / (2 * step)
    assert slope == pytest.approx(float(np.sum(problem.euclidean_gradient(X) * D)), rel=1e-6)
    change = (problem.euclidean_gradient(X + step * H) - problem.euclidean_gradient(X - step * H)) / (2 * step)
    np.testing.assert_allclose(problem.euclidean_hessian(X, H), change, rtol=1e-5, atol=1e-5 * np.abs(change).max())


SOLVERS = {"TR", "CG", "SD", "OBCD one pair, Hessian Q", "OBCD many pairs", "OBCD many pairs, Hessian Q", "ManPG",
           "Cayley"}


def test_quick_run_prints_every_solver_and_stores_the_records(load_benchmark, capsys, tmp_path):
    from obcd_lite.experiments.benchmark_records import load_own_problem

    bench = load_benchmark("own_problem")
    bench.RECORDS.update(smooth=[], l1=[])
    assert bench.main(["--quick", "--json", str(tmp_path / "run.json")]) == 0
    rows = [line.split("|")[1:-1] for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    smooth = [row for row in rows if len(row) == 11 and row[0].strip() in ("subspace", "eigenvector", "pca")]
    assert len(smooth) == 3 * len(SOLVERS)
    assert {row[3].strip() for row in smooth} == SOLVERS
    assert all(row[6].strip() == "1" for row in smooth if row[3].strip() == "TR")
    l1 = [row for row in rows if len(row) == 8 and row[0].strip() != "solver"]
    assert [row[0].strip() for row in l1] == ["ManPG (own stop)", "OBCD one pair, Hessian Q", "OBCD many pairs"]
    assert all(np.isfinite(float(row[5])) for row in l1)
    assert int(l1[0][4]) > 0  # ManPG ran to its own (scale-relative) stop, not stopped at X0
    records = load_own_problem(tmp_path / "run.json")
    assert [(r["problem"], r["solver"]) for r in records["smooth"]] == [(row[0].strip(), row[3].strip())
                                                                        for row in smooth]
    assert bench.main(["--json", str(tmp_path / "run.json"), "--figure", str(tmp_path / "run.svg")]) == 0
    assert (tmp_path / "run.svg").read_text().lstrip().startswith("<?xml")


def test_an_unknown_problem_or_solver_is_named(load_benchmark):
    bench = load_benchmark("own_problem")
    with pytest.raises(ValueError, match="unknown problem 'rotations'"):
        bench.build("rotations", 10)
    problem, X0 = bench.build("subspace", 10)
    with pytest.raises(ValueError, match="unknown solver 'newton'"):
        bench.run_suite("newton", problem, X0, 1.0, 0.0)
    assert X0.shape == random_stiefel(10, 5, rng=0).shape
