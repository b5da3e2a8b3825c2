"""notebooks/00_index.ipynb must link every numbered notebook, and only notebooks that exist."""
import json
import re
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
INDEX = NOTEBOOKS / "00_index.ipynb"
# [text](target) in markdown; the target may carry a #fragment.
LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>#]+)(?:#[^)\s>]*)?>?(?:\s+\"[^\"]*\")?\s*\)")


def _index_links() -> set[str]:
    cells = json.loads(INDEX.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                     for c in cells if c["cell_type"] == "markdown")
    return {target for target in LINK.findall(text) if target.endswith(".ipynb")}


def _numbered_notebooks() -> set[str]:
    return {p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb") if p != INDEX}


def test_link_pattern_reads_the_index_style():
    assert LINK.findall("see [01 — Rotation vs reflection](01_rotation_vs_reflection.ipynb) and "
                        "[x](<02_b.ipynb#sec>)") == ["01_rotation_vs_reflection.ipynb", "02_b.ipynb"]


def test_index_links_every_numbered_notebook():
    notebooks = _numbered_notebooks()
    assert notebooks, f"no numbered notebooks found in {NOTEBOOKS}"
    missing = notebooks - _index_links()
    assert not missing, f"add a line to the contents table of {INDEX.name} for: {sorted(missing)}"


def test_index_links_only_existing_notebooks():
    dangling = {t for t in _index_links() if not (NOTEBOOKS / t).is_file()}
    assert not dangling, f"{INDEX.name} links notebooks that do not exist: {sorted(dangling)}"
