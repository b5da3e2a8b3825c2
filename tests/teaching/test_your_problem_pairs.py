"""Notebook 08's "Many pairs per gradient" table (teaching/your_problem/pairs.py)."""
import pytest

pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")


def test_the_table_counts_the_same_pair_steps_and_fewer_gradients():
    from obcd_lite.teaching.your_problem.pairs import pairs_table

    table = pairs_table("quartic", pair_steps=1000)
    one, many = table.iloc[0], table.iloc[1]
    assert one["pair steps"] == many["pair steps"] == 1000
    assert one["iterations"] == 1000 and many["iterations"] == 1000 // 5  # n = 10: five pairs per matching
    assert many["gradient calls"] < one["gradient calls"] / 2
    assert float(many["F"]) <= float(one["F"]) + 1e-6
