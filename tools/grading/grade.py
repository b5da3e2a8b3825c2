"""Grade a class: every ``SUBMISSIONS/<student>/<NN_name>.ipynb``, in parallel, into grades.csv and feedback/.

Per (student, notebook): the notebook is read as data (never followed through a symlink; not JSON, not a
notebook, or a kernel of another language: 0 points with that reason), its outputs dropped, one cell
appended that exports the answer variables as plain JSON (``obcd_lite.teaching.answers``), and it is
executed in a sandbox (:mod:`sandbox`). The hidden tests of the bundle then run **here**, in the grader's
process, on that JSON: nothing the notebook defines, rebinds or patches is visible to them. The verdict is
never decided inside the student's kernel.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
from pathlib import Path

from . import sandbox

#: Largest notebook and answers file read (bytes); seconds for one question's hidden tests here.
MAX_NOTEBOOK, MAX_ANSWERS, TEST_SECONDS = 50 << 20, 16 << 20, 300
DRIVER = Path(__file__).with_name("driver.py")
EXPORT_CELL = ("from obcd_lite.teaching.answers import export_answers as _obcd_export\n"
               "_obcd_export(globals(), {names!r}, {path!r})\n")


def refused(entry: Path) -> str | None:
    """Why a folder entry of the submissions is not a student (None if it is one)."""
    if entry.is_symlink():
        return "a symlink"
    if entry.name.startswith(".") or entry.name == "__MACOSX":
        return "a hidden or archive folder"
    if not entry.is_dir():
        return "not a folder"
    return None


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file, not through a symlink, at most ``limit`` bytes (else ValueError)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_size > limit:
            raise ValueError(f"larger than {limit} bytes")
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read(limit + 1)[:limit]
    finally:
        os.close(fd)


def prepared(raw: bytes, names: list[str], answers_path: str):
    """The notebook to execute, or a reason why it cannot be graded."""
    import nbformat

    try:
        nb = nbformat.reads(raw.decode("utf-8"), as_version=4)
        nbformat.validate(nb)
    except Exception as error:  # noqa: BLE001 (any malformed file is one reason, not a crash)
        return None, f"not a readable notebook ({type(error).__name__})"
    spec = nb.metadata.get("kernelspec", {}) or {}
    language = (spec.get("language") or nb.metadata.get("language_info", {}).get("name") or "python").lower()
    if language != "python" or (spec.get("name") and not str(spec["name"]).startswith("python")):
        kernel = spec.get("name") or language
        return None, f"a notebook for another kernel ({kernel!r}): only Python notebooks are graded"
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    cells, folder = [], answers_path.rsplit("/", 1)[0]
    for cell in nb.cells:
        cells.append(cell)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            assigned = [name for name in names if name in _assigned(cell.source)]
            if assigned:  # a partial export after each cell that sets answers: graded if the notebook never ends
                cells.append(_export_cell(assigned, f"{folder}/partial-{len(cells):04d}.json"))
    nb.cells = [*cells, _export_cell(names, answers_path)]
    return nb, None


def _export_cell(names: list[str], path: str):
    import nbformat

    cell = nbformat.v4.new_code_cell(EXPORT_CELL.format(names=names, path=path))
    cell.metadata["obcd_export"] = True  # not the student's: the driver does not count it in cell numbers
    return cell


def _assigned(source: str) -> set[str]:
    """The names a cell assigns at its top level or anywhere (a syntax error: none)."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}


def exported(box: Path) -> tuple[dict, bool]:
    """The exported answers: the final export, else the partial ones merged in notebook order (a notebook
    stopped before its end); and whether the final one was there."""
    try:
        data = json.loads(read_regular(box / "answers.json", MAX_ANSWERS))
        if isinstance(data, dict):
            return data, True
    except (OSError, ValueError, RecursionError):
        pass
    merged: dict = {}
    budget = 4 * MAX_ANSWERS  # all partial exports together (a submission may write many)
    for path in sorted(box.glob("partial-*.json"))[:1000]:
        try:
            raw = read_regular(path, min(MAX_ANSWERS, budget))
            budget -= len(raw)
            part = json.loads(raw)
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(part, dict):
            merged.update(part)
    return merged, False


@contextlib.contextmanager
def _alarm(seconds: int):
    """Raise TimeoutError in this thread after ``seconds``: SIGALRM in the main thread (a pool's worker),
    else (a dask worker runs its tasks in a thread, where signals cannot be set) an asynchronous exception
    from a timer, which, like the signal, lands at the next bytecode of this thread."""
    if threading.current_thread() is not threading.main_thread():
        with _thread_alarm(seconds):
            yield
        return

    def expire(signum, frame):
        raise TimeoutError(f"over {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _thread_alarm(seconds: int):
    import ctypes

    ident, lock, state = threading.get_ident(), threading.Lock(), {"armed": True, "fired": False}

    def expire():
        with lock:
            if state["armed"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(TimeoutError))
    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["armed"] = False
            if state["fired"]:  # fired as the block ended: withdraw it if it has not landed yet
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)
        timer.cancel()


def run_tests(question: dict, data: dict) -> tuple[float, str]:
    """Points and reason of one question: its hidden tests on the exported data, in this process."""
    from obcd_lite.teaching.answers import WrongForm, grading

    try:
        with grading(data), _alarm(TEST_SECONDS), contextlib.redirect_stdout(io.StringIO()):
            namespace = {"__name__": "hidden_test"}
            for source in question["tests"]:
                exec(compile(source, f"<hidden test of {question['name']}>", "exec"), namespace)  # noqa: S102
    except WrongForm as error:
        return 0.0, f"not yet: {error}"
    except TimeoutError:
        return 0.0, f"not yet: checking the answer took over {TEST_SECONDS} s"
    except Exception:  # noqa: BLE001 (a failed assert or an answer the test cannot use)
        return 0.0, "not yet"
    return question["points"], ""


def submitted(notebook: Path) -> tuple[bytes | None, str]:
    """The bytes of a submitted notebook, read in the grader's process (so that they travel with the task to
    a cluster's worker, which needs no copy of the submissions), or None and why it cannot be graded."""
    if not notebook.exists() and not notebook.is_symlink():
        return None, "not submitted"
    if notebook.is_symlink():
        return None, "a symlink, not a notebook file: not graded"
    try:
        return read_regular(notebook, MAX_NOTEBOOK), ""
    except (OSError, ValueError) as error:
        return None, f"cannot be read ({error})"


def grade_submission(raw: bytes | None, note: str, bundle: dict, limits: sandbox.Limits, uid: int | None,
                     use_bwrap: bool | None) -> dict:
    """Execute a notebook's bytes in a sandbox and grade its answers (``raw`` None: every question 0 with
    ``note``): ``{"scores", "reasons", "note"}``."""
    import nbformat
    import obcd_lite

    questions = bundle["questions"]
    zero = {"scores": {q["name"]: 0.0 for q in questions}, "reasons": {}, "note": ""}
    if raw is None:
        return {**zero, "note": note}
    names = [name for q in questions for name in q["answers"]]
    base = Path(tempfile.mkdtemp(prefix="obcd-grade-"))
    try:
        os.chmod(base, 0o711)  # the sandbox's user id may pass through, not list
        box = base / "box"
        (box / "work").mkdir(parents=True)
        inside = sandbox.INSIDE if (sandbox.bwrap_works() if use_bwrap is None else use_bwrap) else str(box)
        nb, reason = prepared(raw, names, f"{inside}/answers.json")
        if nb is None:
            return {**zero, "note": reason}
        nbformat.write(nb, box / "submission.ipynb")
        (box / "job.json").write_text(json.dumps({"notebook": "submission.ipynb", "cell_timeout": limits.cell,
                                                  "workdir": f"{inside}/work"}))
        shutil.copy(DRIVER, box / "driver.py")
        outcome = sandbox.run(box, [sys.executable, "{box}/driver.py"], limits, uid,
                              Path(obcd_lite.__file__).resolve().parents[1], base / "log.txt", use_bwrap)
        data, final = exported(box)
        notes = []
        if outcome.timed_out:
            notes.append(f"the notebook did not finish within {limits.wall:g} s and was stopped; "
                         "what it had not answered scores 0")
        if data and not final:
            notes.append("graded on the answers as they were when their cells ran (the notebook did not reach its end)")
        try:
            status = json.loads(read_regular(box / "status.json", 1 << 16))
            cells = [int(i) + 1 for i in status.get("timed_out_cells", [])][:5]
            if cells:
                notes.append(f"cell(s) {cells} ran over {limits.cell:g} s and were interrupted")
            if status.get("dead_kernel"):
                notes.append("the kernel died (memory, CPU time or an exit)")
        except (OSError, ValueError, TypeError, AttributeError, RecursionError):
            pass
        if not data and not outcome.timed_out:
            notes.append("no answers could be read from the notebook after it ran")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    result = {"scores": {}, "reasons": {}, "note": "; ".join(notes)}
    for question in questions:
        result["scores"][question["name"]], result["reasons"][question["name"]] = run_tests(question, data)
    return result
