"""The ledger (obcd_lite.teaching.ledger): the same statements as the paper, in its order, each with a
verdict and a deciding test that exists and passes (or a reason)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from obcd_lite.teaching.ledger import (LEDGER, VERDICTS, coverage, labels, ledger_rows, ledger_table,
                                       paper_statements, witness_report)

PAPER = os.environ.get("OBCD_PAPER", "/work/shared/paper/obcd-paper.tex")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not Path(PAPER).exists(), reason="the paper's LaTeX source is not on this machine")
def test_labels_are_the_papers_statements_in_order():
    found = list(paper_statements(Path(PAPER).read_text()))
    assert labels() == found
    kinds = [label.split()[0] for label in found]
    assert len(found) == 40
    assert {k: kinds.count(k) for k in set(kinds)} == {"Theorem": 6, "Lemma": 18, "Proposition": 1, "Corollary": 1,
                                                       "Definition": 3, "Remark": 10, "Assumption": 1}


def test_rows_are_well_formed():
    for row in LEDGER:
        name = f"{row['label']}{row['part']}"
        assert row["verdict"] in VERDICTS, name
        assert bool(row["check"]) != (row["verdict"] == "not checkable"), name   # a test, or a reason
        assert bool(row["reason"]) == (row["verdict"] == "not checkable"), name
        assert all(t.startswith("tests/") and ".py::test_" in t for t in row["check"]), name
        if row["verdict"] in ("false", "corrected"):
            assert row["correct"] and row["witness"] and row["fails"], name
            assert witness_report(name).startswith(f"{name} ({row['verdict']})")
        assert row["notebook"] in {"01", "02", "03", "05", "06"}, name
    # parts only where the verdicts differ, or where each part is false with its own witness
    for label in labels():
        parts = [r for r in LEDGER if r["label"] == label]
        assert len({r["part"] for r in parts}) == len(parts) and (len(parts) == 1 or all(r["part"] for r in parts))
        own_witness = len({r.get("witness") for r in parts}) == len(parts)
        assert len(parts) == 1 or len({r["verdict"] for r in parts}) > 1 or own_witness, label


def test_coverage_and_filters():
    cov = coverage()
    assert cov["total"] == cov["verdict"] == 40
    assert cov["checked"] == 40 - 2                 # Assumption 4.7, Remark 4.8
    assert set(cov["false"]) == {"Remark 2.6(ii)", "Theorem 3.8(a)", "Remark 3.9(i)", "Lemma 4.4(a)", "Lemma 4.4(b)",
                                 "Theorem 4.6", "Proposition 4.9"}
    assert sum(cov["by_verdict"].values()) == cov["rows"] == len(LEDGER)
    assert all(r["label"].startswith(("Lemma A", "Lemma B", "Lemma C")) for r in ledger_rows(section="A") +
               ledger_rows(section="B") + ledger_rows(section="C"))
    assert [r["label"] + r["part"] for r in ledger_rows("4", "false")] == ["Lemma 4.4(a)", "Lemma 4.4(b)", "Theorem 4.6",
                                                                           "Proposition 4.9"]
    assert ledger_table(ledger_rows(verdict="not checkable")).count("reason:") == len(cov["not_checkable"])
    with pytest.raises(ValueError, match="section"):
        ledger_rows(section="7")
    with pytest.raises(ValueError, match="verdict"):
        ledger_rows(verdict="maybe")
    with pytest.raises(ValueError, match="false or corrected"):
        witness_report("Lemma A.1")


def test_every_named_check_exists_and_passes():
    """Collect every check the ledger names (except those issue 18's other branch adds) and run them."""
    ids = sorted({t for row in LEDGER for t in row["check"]})
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                             *ids], cwd=ROOT, capture_output=True, text=True, timeout=900)
    tail = result.stdout[-3000:]
    assert result.returncode == 0, tail
    assert "no tests ran" not in tail and "not found" not in tail and "ERROR" not in tail, tail
