"""Smoke test of benchmarks/run_benchmarks.py: quick mode on a tiny problem, table rows only (no timing asserts)."""
import pytest


@pytest.fixture
def rb(load_benchmark):
    return load_benchmark("run_benchmarks")


def tiny(rb):
    """A tiny configuration, then cut by --quick's 10x."""
    return rb.Config(calls=50, warmup=10, instances=20, r_main=3, r_sweep=(1, 3), m=20, n=40, r_obcd=3,
                     obcd_iters=300, l1_lams=(1e-3,), l0_lam=1e-3, profile_iters=300, profile_top=5).quick()


def table_rows(text, title):
    """The data rows (split on whitespace) of the table whose title starts with ``title``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    assert set(lines[start + 2].replace(" ", "")) == {"-"}, "header rule missing"
    rows = []
    for line in lines[start + 3:]:
        if not line.strip() or line.startswith("("):
            break
        rows.append(line.split())
    return rows


def test_quick_cuts_counts(rb):
    full, quick = rb.Config(), rb.Config().quick()
    for name in ("calls", "warmup", "instances", "obcd_iters", "profile_iters"):
        assert getattr(quick, name) == getattr(full, name) // 10
    assert (quick.n, quick.r_main, quick.r_sweep) == (full.n, full.r_main, full.r_sweep)


def test_main_passes_quick_config(rb, monkeypatch):
    seen = []
    monkeypatch.setattr(rb, "run", lambda config, emit: seen.append(config))
    assert rb.main(["--quick"]) == 0
    assert rb.main([]) == 0
    assert seen == [rb.Config().quick(), rb.Config()]


def test_tiny_quick_run_prints_expected_tables(rb):
    config = tiny(rb)
    lines = []
    out = rb.run(config, emit=lines.append)
    text = "\n".join(lines)
    for key in ("date:", "python:", "numpy:", "cpu:", "nproc:", "BLAS threads: ",
                "every solver and run_experiment use 1"):
        assert key in text

    kinds = list(rb.KINDS)
    rows = table_rows(text, "Table 1a.")
    assert [(r[0], r[1]) for r in rows] == [(p, k) for p in rb.penalties() for k in kinds]
    assert all(r[2] == str(config.r_main) and r[-1] == "yes" for r in rows)  # same V from both entry points
    rows = table_rows(text, "Table 1b.")
    assert [(r[0], r[1], int(r[2])) for r in rows] == [("L1(0.1)", k, r) for r in config.r_sweep for k in kinds]

    rows = table_rows(text, "Table 2.")
    expected = [(p, h, q) for p, h, _ in rb.obcd_cases(config, None) for q in ("scalar", "exact")]
    assert [(r[0], r[1], r[2]) for r in rows] == expected
    assert [h for _, h, _ in expected[::2]] == ["h=0", "L1(0.001)", "L0(0.001)", "NonNeg"]
    assert all(int(r[3]) == config.obcd_iters for r in rows)
    assert all(res["feas"] < 1e-12 for res in out["obcd"])

    rows = table_rows(text, "Table 3.")
    assert len(rows) == config.profile_top
    assert len(out["profile"]) == config.profile_top
    assert "total wall time" in lines[-1]
