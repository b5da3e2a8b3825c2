"""Smoke test of benchmarks/paper_tables.py on a tiny instance: tables printed, figures and CSV saved."""
import matplotlib

matplotlib.use("Agg")


def test_tiny_run_writes_tables_and_figures(tmp_path, capsys, load_benchmark):
    module = load_benchmark("paper_tables")
    frames = module.main(["--time-limit", "0.02", "--m", "10", "--n", "12", "--r", "3", "--lams", "10",
                          "--informative", "--problems", "l0", "nonneg", "--methods", "obcd", "--peer",
                          "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "BLAS threads: " in out  # the thread settings the timings were taken with
    assert "=== l0 (scale 1.0) ===" in out and "obcd(identity)" in out and "seconds to reach F_best" in out
    assert {p.name for p in tmp_path.iterdir()} >= {"convergence_l0_lam10.png", "convergence_nonneg.png",
                                                     "records_l0.csv", "records_nonneg.csv"}
    rec = frames["l0"].records
    assert len(rec) == 2 and (rec["feasibility"] < 1e-8).all()


def test_tiny_run_on_two_workers(tmp_path, capsys, load_benchmark):
    module = load_benchmark("paper_tables")
    frames = module.main(["--time-limit", "0.02", "--m", "10", "--n", "12", "--r", "3", "--lams", "10",
                          "--informative", "--problems", "l1", "--methods", "obcd", "manpg", "--peer",
                          "--workers", "2", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "BLAS threads in a run:" in out and "runs in" in out and "(2 workers)" in out
    rec = frames["l1"].records
    assert len(rec) == 4 and (rec["feasibility"] < 1e-8).all() and (rec["seconds"] > 0).all()
