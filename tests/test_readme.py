"""README.md is an entry page: short, its example runs and prints what it says, its links resolve, and the
results it once logged live on a docs page (docs/results.md)."""
import contextlib
import io
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_it_is_short():
    assert len(README.splitlines()) <= 120


def test_the_example_prints_what_its_comment_says():
    code = re.search(r"```python\n(.*?)```", README, re.S)[1]
    expected = re.search(r"#\s*(.+)$", code.strip().splitlines()[-1])[1].strip()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().strip() == expected


def test_every_link_resolves():
    links = re.findall(r"\]\(([^)#]+)(?:#([^)]*))?\)", README)
    assert len(links) >= 5
    for target, anchor in links:
        path = ROOT / target
        assert path.exists(), f"README links to {target}, which does not exist"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
            slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}
            assert anchor in slugs, f"README links to {target}#{anchor}: no such heading"


def test_the_results_log_moved_to_a_docs_page():
    """Every table row and result of the README before it became an entry page is on docs/results.md."""
    old = subprocess.run(["git", "show", "7fb45c6:README.md"], cwd=ROOT, capture_output=True, text=True)
    if old.returncode:  # a checkout without that commit (an archive): the page's own tables then
        rows = ["| ℓ1, λ = 1e-5 | 1.29–1.37 → **1.24** (1.18–1.26) |", "| ℓ1 | obcd (id) | 199.988 (20) |"]
    else:
        section = old.stdout.split("## Results and checks at a glance", 1)[1]
        rows = [line.strip() for line in section.splitlines() if line.strip().startswith("|")]
    page = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    assert len(rows) >= 2
    missing = [row for row in rows if row not in page]
    assert not missing, f"rows of the old README's results missing from docs/results.md: {missing[:3]}"
