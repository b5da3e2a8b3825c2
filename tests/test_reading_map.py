"""The reading map of one OBCD step (docs/package.md, "Reading one OBCD step") against the code.

Every row cites ``path:first-last`` (relative to ``obcd_lite/``) and names. A name the cited file defines
(a function, a class, or ``Class.method``) must start within the cited lines; a name it does not define
(a call, as in the loop's row) must occur within them. On a failure the message gives where the name is
now, so updating the map takes a minute.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "package.md"
ROW = re.compile(r"^\|\s*(?P<step>[^|]+?)\s*\|\s*`(?P<path>[\w/]+\.py):(?P<first>\d+)-(?P<last>\d+)`\s*\|"
                 r"\s*(?P<names>[^|]+?)\s*\|")
#: Lines a cited range may extend beyond what it cites (blank lines, a comment).
SLACK = 5


def map_rows() -> list[tuple[str, str, int, int, list[str]]]:
    """(step, path, first, last, names) of every row of the map."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## Reading one OBCD step", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        match = ROW.match(line)
        if match:
            names = re.findall(r"`([\w.]+)`", match["names"])
            rows.append((match["step"], match["path"], int(match["first"]), int(match["last"]), names))
    return rows


def definitions(path: Path) -> dict[str, tuple[int, int]]:
    """Qualified name -> (first line, last line) of every function and class (decorators included)."""
    found = {}

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                found[name] = (min([d.lineno for d in child.decorator_list] + [child.lineno]), child.end_lineno)
                visit(child, name + ".")

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def check(path: str, first: int, last: int, name: str) -> str | None:
    """None when ``name`` is where the map says; else what is wrong (and where it is now)."""
    file = ROOT / "obcd_lite" / path
    if not file.exists():
        return f"{path} does not exist"
    defs = definitions(file)
    if name in defs:
        start, end = defs[name]
        if first <= start <= last and end <= last + SLACK:
            return None
        return f"{name} is defined at {path}:{start}-{end}, the map says {first}-{last}"
    lines = file.read_text(encoding="utf-8").splitlines()
    hits = [i + 1 for i, text in enumerate(lines) if re.search(rf"\b{re.escape(name.split('.')[-1])}\b", text)]
    if any(first <= i <= last for i in hits):
        return None
    return f"{name} is not defined in {path} and not used in lines {first}-{last} (used at lines {hits[:8]})"


def loose(path: str, first: int, last: int, names: list[str]) -> str | None:
    """None when the range holds little else than what the row cites: the span of its definitions (plus
    SLACK), or at most 20 lines for a row of calls; else what is wrong."""
    defs = definitions(ROOT / "obcd_lite" / path)
    spans = [defs[name] for name in names if name in defs]
    if spans:
        low, high = min(s for s, _ in spans) - SLACK, max(e for _, e in spans) + SLACK
        if first >= low and last <= high:
            return None
        return f"{path}:{first}-{last} is wider than what it cites ({low + SLACK}-{high - SLACK})"
    return None if last - first <= 20 else f"{path}:{first}-{last}: a row of calls spans more than 20 lines"


CASES = [(step, path, first, last, name) for step, path, first, last, names in map_rows() for name in names]


def test_the_map_is_read():
    steps = {step for step, *_ in CASES}
    assert len(map_rows()) >= 10 and {"1", "2", "5", "8a"} <= steps
    cited = {(path, name) for _, path, _, _, name in CASES}
    # the names the newcomer's trial found missing or wrong
    assert ("solvers/obcd_kernel.py", "_run_steps") in cited  # what run_steps compiles
    assert ("subproblem/majorizer.py", "block_data_unchecked") in cited
    assert ("subproblem/majorizer.py", "minimize_block") in cited


@pytest.mark.parametrize("step, path, first, last, name", CASES, ids=[f"{c[0]}-{c[4]}" for c in CASES])
def test_every_cited_name_is_where_the_map_says(step, path, first, last, name):
    problem = check(path, first, last, name)
    assert problem is None, f"step {step}: {problem} (docs/package.md, 'Reading one OBCD step')"


@pytest.mark.parametrize("step, path, first, last, names", map_rows(), ids=[row[0] for row in map_rows()])
def test_every_range_is_tight(step, path, first, last, names):
    if not (ROOT / "obcd_lite" / path).exists():
        pytest.fail(f"step {step}: {path} does not exist")
    problem = loose(path, first, last, names)
    assert problem is None, f"step {step}: {problem}"


def test_a_drift_fails():
    assert check("solvers/obcd.py", 1, 20, "obcd") is not None               # defined elsewhere
    assert check("solvers/obcd.py", 1, 20, "no_such_name") is not None
    assert loose("subproblem/majorizer.py", 1, 400, ["block_data"]) is not None  # a range far too wide
    assert loose("solvers/obcd.py", 1, 200, ["block_data_unchecked"]) is not None
