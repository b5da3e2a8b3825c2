"""Smoke test of benchmarks/budgets.py on a tiny problem: one row per solver, the contract's arithmetic
(no timing asserts)."""


def test_one_row_per_solver(load_benchmark):
    budgets = load_benchmark("budgets")
    rows = budgets.run(n=30, r=3, budget=0.05, lam=1e-3, emit=lambda text: None)
    from obcd_lite import SOLVERS

    assert [row[0] for row in rows] == list(SOLVERS)
    assert all(row[4] in ("time_limit", "max_iter", "tau_min", "tol") or row[4].startswith("refused") for row in rows)


def test_the_contract_is_max_of_ten_percent_and_a_tenth_of_a_second(load_benchmark):
    budgets = load_benchmark("budgets")
    assert budgets.within_contract(5.5, 5.0) and not budgets.within_contract(5.51, 5.0)
    assert budgets.within_contract(0.15, 0.05) and not budgets.within_contract(0.16, 0.05)
