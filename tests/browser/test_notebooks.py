"""Every notebook as a student meets it: opened in JupyterLab in Chromium, Run All, sliders moved.

For each ``notebooks/*.ipynb`` (found by glob: a new notebook is tested without editing this file)
the test opens the notebook in a fresh page, waits until the kernel is really idle (the status bar
names the kernel and says Idle; the toolbar indicator says "idle" before the kernel exists), clears
the stored outputs, runs Run > Run All Cells and waits until every code cell has an execution count
and the kernel is idle again.
It then checks that

* no cell shows an error or anything on stderr (the traceback of a failing cell is in the message);
* every widget view rendered: no "Error displaying widget", no widget repr text (``VBox(children=...``)
  and no text fallback of an Explorer, and as many rendered views per cell as the stored notebook has;
* every figure of the stored notebook is there again (per cell, and inside Output widgets);
* the browser console logged no error;
* for a notebook with sliders: one slider of each widget moved with the keyboard on its handle
  reaches the kernel (the kernel's slider has the new value) and, where the widget has outputs,
  changes the figure or the text it drives (a redraw can give a byte-identical PNG, so either counts).

Every wait is a liveness bound (``conftest.LIVENESS``, minutes), never a speed check: Run All fails only
after the notebook made no progress (no cell finished, no output appeared) for that long, a slider only
if its effect never shows. A cell's error ends the wait for Run All at once, a widget that failed to
render ("Error displaying widget", its text fallback) the wait for the views. How long each step took is
recorded (``timings``, printed and in the JUnit properties), not asserted.

A screenshot of each notebook's main widget (the first one with a slider, else the first widget,
else the first figure) goes to ``artifacts/screenshots/<notebook>.png`` for a reviewer to look at.
"""
from __future__ import annotations

import ast
import json
import queue
import re
import time
from pathlib import Path

import pytest

from obcd_lite.widgets.base import FALLBACK_TEXT

from .conftest import LIVENESS, liveness, liveness_message

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
#: Seconds between two looks at Run All's progress (a look, not a bound: the bound is LIVENESS without progress).
RUN_ALL_POLL = 30
#: Run All's bound however much progress it makes (a notebook that prints forever must still end).
RUN_ALL_CAP = 4 * LIVENESS

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
#: Errors and stderr render alike in Lab (a traceback is shown as stderr text).
STDERR = '[data-mime-type="application/vnd.jupyter.stderr"]'
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"
CELLS = f"{NOTEBOOK} .jp-Cell"
#: A rendered widget view at the top level of a cell's outputs (its output element has no mime type).
VIEW = ".jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output > .jupyter-widgets"
#: Text a widget shows in place of itself when its view did not render.
UNRENDERED = re.compile(r"Error displaying widget|\b(?:[VH]?Box|GridBox|Tab|Accordion)\(children=|"
                        r"\b(?:Int|Float)\w*Slider\(|" + re.escape(FALLBACK_TEXT))

# JavaScript evaluated in the page; selectors are passed in as arguments.
KERNEL_IDLE_JS = """() => [...document.querySelectorAll('.jp-StatusBar-Item')].some(
    e => /\\| Idle$/.test(e.textContent.trim()) && !/No Kernel/.test(e.textContent))"""
RUN_ALL_DONE_JS = """([notebook, kernelIdle]) => {
    const nb = document.querySelector(notebook);
    const prompts = [...nb.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(e => e.textContent.trim());
    if (prompts.includes('[*]:') || !(kernelIdle)()) return false;
    const failed = nb.querySelector('STDERR') !== null;
    return failed || prompts.every(p => /^\\[\\d+\\]:$/.test(p));
}""".replace("STDERR", STDERR)
#: Run All's progress: every code cell's prompt and the number of outputs (any change is progress).
PROGRESS_JS = """([notebook]) => { const nb = document.querySelector(notebook);
    return JSON.stringify([[...nb.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(e => e.textContent.trim()),
                           nb.querySelectorAll('.jp-OutputArea-output').length]); }"""
#: Every expected view rendered, or one failed for good (its error text or fallback shown: no use waiting).
WIDGETS_SETTLED_JS = """([notebook, view, expected, unrendered]) => {
    const nb = document.querySelector(notebook);
    const text = [...nb.querySelectorAll('.jp-OutputArea-output')].map(e => e.innerText).join('\\n');
    return nb.querySelectorAll(view).length >= expected || new RegExp(unrendered).test(text);
}"""
#: Per cell: kind, prompt, stderr texts, rendered widget views, figures, output text.
CELLS_JS = """([cells, view]) => [...document.querySelectorAll(cells)].map(cell => ({
    code: cell.classList.contains('jp-CodeCell'),
    prompt: (cell.querySelector('.jp-InputArea-prompt') || {}).textContent || '',
    stderr: [...cell.querySelectorAll('STDERR')].map(e => e.innerText),
    widgets: cell.querySelectorAll(view).length,
    figures: cell.querySelectorAll('.jp-OutputArea-output[data-mime-type="image/png"] img').length,
    widgetFigures: cell.querySelectorAll('.widget-output [data-mime-type="image/png"] img').length,
    text: [...cell.querySelectorAll('.jp-OutputArea-output')].map(e => e.innerText).join('\\n'),
}))""".replace("STDERR", STDERR)
#: What a widget view shows besides its controls: figure sources and output/HTML text.
DRIVEN_JS = """(view) => JSON.stringify({
    images: [...view.querySelectorAll('.widget-output img')].map(i => i.src),
    text: [...view.querySelectorAll('.widget-output, .widget-html')].map(e => e.innerText),
})"""
#: (description, value) of every slider the kernel holds.
KERNEL_SLIDERS = ("[(w.description, w.value) for w in list(__import__('ipywidgets').widgets.widget"
                  "._instances.values()) if type(w).__name__.endswith('Slider')]")


def _stored(path: Path) -> dict:
    """What the stored notebook shows: per code cell the figures, widget views and stderr outputs."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = []
    for cell in nb["cells"]:
        outputs = cell.get("outputs", [])
        lines = [line for line in "".join(cell["source"]).splitlines() if line.strip()]
        cells.append({
            "first_line": next((line for line in lines if not line.startswith("#")), lines[0] if lines else "")[:60],
            "count": cell.get("execution_count"),
            "figures": sum("image/png" in o.get("data", {}) for o in outputs),
            "widgets": sum(WIDGET_MIME in o.get("data", {}) for o in outputs),
            "stderr": sum(o.get("name") == "stderr" or o["output_type"] == "error" for o in outputs),
        })
    states = nb.get("metadata", {}).get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    widget_figures = sum("image/png" in o.get("data", {})
                         for m in states.get("state", {}).values() if m.get("model_name") == "OutputModel"
                         for o in m["state"].get("outputs", []))
    return {"cells": cells, "widget_figures": widget_figures}


def _menu(page, menu: str, command: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
    page.locator(f'.lm-Menu-item[data-command="{command}"]').click()


def _kernel_sliders(lab, page, notebook: str) -> list:
    """The kernel's sliders, asked over the kernel's own connection file (no output in the notebook)."""
    from jupyter_client import BlockingKernelClient

    sessions = json.loads(page.request.get(f"{lab.url}/api/sessions", timeout=LIVENESS * 1000).text())
    kernel = next(s["kernel"]["id"] for s in sessions if s["path"].endswith(notebook))
    client = BlockingKernelClient(connection_file=str(lab.runtime / f"kernel-{kernel}.json"))
    client.load_connection_file()
    client.start_channels()
    try:
        msg_id = client.execute("", silent=True, store_history=False, user_expressions={"s": KERNEL_SLIDERS})
        deadline = time.monotonic() + LIVENESS
        while True:
            try:
                reply = client.get_shell_msg(timeout=max(deadline - time.monotonic(), 0.1))
            except queue.Empty:
                pytest.fail(f"{notebook}: " + liveness_message("the kernel did not answer a request for its sliders"),
                            pytrace=False)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        result = reply["content"]["user_expressions"]["s"]
        assert result["status"] == "ok", result
        return ast.literal_eval(result["data"]["text/plain"])
    finally:
        client.stop_channels()


def _close_session(lab, page, notebook: str) -> None:
    """Shut this notebook's kernel down now (the server would keep it until the session ends)."""
    xsrf = next((c["value"] for c in page.context.cookies() if c["name"] == "_xsrf"), "")
    for session in json.loads(page.request.get(f"{lab.url}/api/sessions", timeout=LIVENESS * 1000).text()):
        if session["path"].endswith(notebook):
            page.request.delete(f"{lab.url}/api/sessions/{session['id']}", headers={"X-XSRFToken": xsrf},
                                timeout=LIVENESS * 1000)


def _readout_value(text: str) -> tuple[float, float]:
    """The number a slider's readout shows and half a unit of its last digit (d3 writes minus as U+2212)."""
    text = text.strip().replace("\u2212", "-")
    mantissa = text.lower().split("e")[0]
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    value = float(text)
    scale = 10 ** int(text.lower().split("e")[1]) if "e" in text.lower() else 1
    return value, 0.5 * 10 ** -decimals * scale


def _move_slider(lab, page, name: str, view, timings: dict) -> None:
    """One keyboard step on the first slider of ``view``; the kernel and what the view shows follow
    (eventually: each wait is bounded by :data:`~.conftest.LIVENESS` only)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import expect

    slider = view.locator(".widget-slider").first
    handle = slider.locator(".noUi-handle").first
    readout = slider.locator(".widget-readout")
    label = slider.locator(".widget-label").inner_text().strip()
    before_readout = readout.inner_text()
    before = view.evaluate(DRIVEN_JS)
    kernel_before = _kernel_sliders(lab, page, name)
    at_max = float(handle.get_attribute("aria-valuenow")) >= float(handle.get_attribute("aria-valuemax"))
    handle.focus()
    start = time.monotonic()
    handle.press("ArrowLeft" if at_max else "ArrowRight")
    not_moved = f"{name}: " + liveness_message(f"slider {label!r} did not move after a key press")
    expect(readout, not_moved).not_to_have_text(before_readout, timeout=LIVENESS * 1000)
    if json.loads(before)["images"] or any(json.loads(before)["text"]):
        try:
            # changed, and the explorer's busy text ("updating…", widgets.base.BUSY_TEXT) gone again
            page.wait_for_function(f"([view, before]) => {{ const now = ({DRIVEN_JS})(view); "
                                   f"return now !== before && !now.includes('updating…'); }}",
                                   arg=[view.element_handle(), before], timeout=LIVENESS * 1000)
        except PlaywrightTimeoutError:
            pytest.fail(f"{name}: " + liveness_message(
                f"slider {label!r} moved ({before_readout} -> {readout.inner_text()}) but neither the figure nor "
                "the text it drives changed"), pytrace=False)
        timings[f"slider {label}"] = round(time.monotonic() - start, 2)
    # The kernel's slider of that name takes the value the readout shows (a log slider's handle
    # position is the exponent, so the readout is the value to compare); asked until it has, since the
    # browser's message and our question reach the kernel in either order.
    shown, tolerance = _readout_value(readout.inner_text())
    deadline = time.monotonic() + LIVENESS
    while True:
        now = _kernel_sliders(lab, page, name)
        changed = [(d, v) for d, v in now if d == label and (d, v) not in kernel_before]
        if any(abs(v - shown) <= tolerance * (1 + 1e-9) for _, v in changed):
            break
        assert time.monotonic() < deadline, f"{name}: " + liveness_message(
            f"moved slider {label!r} to {shown} in the browser; the kernel's sliders went from {kernel_before} "
            f"to {now}, not to it")
        time.sleep(0.5)


def _wait_for_run_all(page, name: str, stored: dict) -> None:
    """Until every code cell ran and the kernel is idle, or a cell failed. Fails only when the notebook
    made no progress (no prompt changed, no output appeared) for :data:`~.conftest.LIVENESS`, or ran
    longer than :data:`RUN_ALL_CAP` in all: a slow machine only makes it wait longer."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    start = last_change = time.monotonic()
    last = None
    while True:
        try:
            page.wait_for_function(f"([nb]) => ({RUN_ALL_DONE_JS})([nb, {KERNEL_IDLE_JS}])", arg=[NOTEBOOK],
                                   timeout=RUN_ALL_POLL * 1000, polling=200)
            return
        except PlaywrightTimeoutError:
            pass
        progress = page.evaluate(PROGRESS_JS, [NOTEBOOK])
        now = time.monotonic()
        if progress != last:
            last, last_change = progress, now
        stalled, over = now - last_change >= LIVENESS, now - start >= RUN_ALL_CAP
        if stalled or over:
            cells = page.evaluate(CELLS_JS, [CELLS, VIEW])
            running = [f"cell {i} (stored In [{s['count']}], {s['first_line']!r})"
                       for i, (c, s) in enumerate(zip(cells, stored["cells"])) if c["prompt"].strip() == "[*]:"]
            what = ("Run All made no progress (no cell finished, no output appeared)" if stalled
                    else "Run All did not finish")
            pytest.fail(f"{name}: {liveness_message(what, LIVENESS if stalled else RUN_ALL_CAP)}; still running or "
                        f"queued: {running[:3]}{' ...' if len(running) > 3 else ''}", pytrace=False)


def _open_and_run_all(lab, page, name: str, stored: dict, timings: dict) -> None:
    """Open the notebook, wait for a really idle kernel, clear the outputs, Run All, wait for the end."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import expect

    start = time.monotonic()
    with liveness(f"{name}: opening the notebook until its kernel is idle"):
        page.goto(f"{lab.url}/lab/tree/notebooks/{name}?reset")
        page.wait_for_function(KERNEL_IDLE_JS, timeout=LIVENESS * 1000)
    timings["kernel idle"] = round(time.monotonic() - start, 1)
    # Cleared first, so "every cell has an execution count" means this run, not the stored one.
    with liveness(f"{name}: clearing the stored outputs"):
        _menu(page, "Edit", "editmenu:clear-all")
        expect(page.locator(f"{NOTEBOOK} .jp-OutputArea-output"),
               f"{name}: " + liveness_message("Edit > Clear All Outputs left outputs")).to_have_count(0)
    start = time.monotonic()
    with liveness(f"{name}: Run > Run All Cells"):
        _menu(page, "Run", "runmenu:run-all")
    _wait_for_run_all(page, name, stored)
    timings["run all"] = round(time.monotonic() - start, 1)
    if page.locator(f"{NOTEBOOK} {STDERR}").count():
        return  # a cell failed: the checks report it, no widget will render after it
    expected_views = sum(c["widgets"] for c in stored["cells"])
    try:  # views render after their output arrived; one that failed to render is reported by the checks
        page.wait_for_function(WIDGETS_SETTLED_JS, arg=[NOTEBOOK, VIEW, expected_views, UNRENDERED.pattern],
                               timeout=LIVENESS * 1000)
    except PlaywrightTimeoutError:
        shown = page.locator(f"{NOTEBOOK} {VIEW}").count()
        pytest.fail(f"{name}: " + liveness_message(f"{shown} of {expected_views} widget views rendered, no more"),
                    pytrace=False)


def _check_outputs(name: str, cells: list, stored: dict) -> None:
    """No error or stderr, every cell run, every widget view rendered, every stored figure shown."""
    assert len(cells) == len(stored["cells"]), (
        f"{name}: the page shows {len(cells)} cells, the file has {len(stored['cells'])}")

    def where(i):
        cell = stored["cells"][i]
        return f"cell {i} (stored In [{cell['count']}], {cell['first_line']!r})"

    errors = [f"{where(i)}:\n{chr(10).join(c['stderr'])[-1500:]}" for i, c in enumerate(cells)
              if c["stderr"] and not stored["cells"][i]["stderr"]]
    assert not errors, f"{name}: error or stderr output after Run All:\n" + "\n".join(errors)
    not_run = [where(i) for i, c in enumerate(cells)
               if c["code"] and not re.fullmatch(r"\[\d+\]:", c["prompt"].strip())]
    assert not not_run, f"{name}: cells that did not run: {not_run}"
    unrendered = [f"{where(i)}: {m.group(0)!r}" for i, c in enumerate(cells) if (m := UNRENDERED.search(c["text"]))]
    assert not unrendered, f"{name}: widget views not rendered: {unrendered}"
    for i, (c, s) in enumerate(zip(cells, stored["cells"])):
        assert c["widgets"] >= s["widgets"], f"{name}: {where(i)} rendered {c['widgets']} of {s['widgets']} widgets"
        assert c["figures"] >= s["figures"], f"{name}: {where(i)} shows {c['figures']} of {s['figures']} figures"
    shown = sum(c["widgetFigures"] for c in cells)
    assert shown >= stored["widget_figures"], (
        f"{name}: Output widgets show {shown} figures, the stored widget state has {stored['widget_figures']}")


def _exercise(lab, page, path: Path, stored: dict, console: list, timings: dict) -> None:
    """Run All, the checks, every interactive widget's slider, the screenshot, the console."""
    name = path.name
    _open_and_run_all(lab, page, name, stored, timings)
    _check_outputs(name, page.evaluate(CELLS_JS, [CELLS, VIEW]), stored)

    views = page.locator(f"{NOTEBOOK} {VIEW}")
    interactive = [views.nth(i) for i in range(views.count()) if views.nth(i).locator(".noUi-handle").count()]
    for view in interactive:
        _move_slider(lab, page, name, view, timings)

    main = (interactive[0] if interactive else views.first if views.count()
            else page.locator(f"{NOTEBOOK} .jp-OutputArea-output[data-mime-type='image/png']").first)
    if main.count():
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        main.scroll_into_view_if_needed()
        main.screenshot(path=str(SCREENSHOTS / f"{path.stem}.png"))
    assert not console, f"{name}: browser console errors: {console}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_in_jupyterlab(lab, lab_page, path: Path, record_property):
    from playwright.sync_api import Error as PlaywrightError

    name = path.name
    stored = _stored(path)
    page, console = lab_page
    timings = {}
    start = time.monotonic()
    try:
        with liveness(name):  # a click or screenshot that never ends (the named waits fail with their own message)
            _exercise(lab, page, path, stored, console, timings)
    finally:
        timings["total"] = round(time.monotonic() - start, 1)
        record_property("timings", timings)
        print(f"{name}: {timings}")
        try:
            _close_session(lab, page, name)
        except PlaywrightError:
            pass  # the page never reached the server; its kernel, if any, stops with the server


def test_unrendered_pattern_finds_widget_fallbacks():
    for text in ("Error displaying widget: model not found", "VBox(children=(IntSlider(value=1),))",
                 "FloatSlider(value=0.5)", FALLBACK_TEXT):
        assert UNRENDERED.search(text), text
    for text in ("F = 3.010000", "the VBox holds the sliders", "<Figure size 640x480 with 1 Axes>"):
        assert not UNRENDERED.search(text), text


def test_stored_counts_figures_widgets_and_errors(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("# title"),
        v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\nfig = plot()", execution_count=1, outputs=[
            v4.new_output("display_data", data={"image/png": "iVBOR", "text/plain": "<Figure>"})]),
        v4.new_code_cell("ui", execution_count=2, outputs=[
            v4.new_output("display_data", data={WIDGET_MIME: {"model_id": "a"}, "text/plain": "VBox()"}),
            v4.new_output("stream", name="stderr", text="warning")]),
    ])
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {
        "a": {"model_name": "VBoxModel", "state": {}},
        "b": {"model_name": "OutputModel", "state": {"outputs": [{"data": {"image/png": "iVBOR"}}, {"text": "x"}]}},
    }}}
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    stored = _stored(path)
    assert [(c["figures"], c["widgets"], c["stderr"]) for c in stored["cells"]] == [(0, 0, 0), (1, 0, 0), (0, 1, 1)]
    assert stored["cells"][1]["first_line"] == "fig = plot()" and stored["cells"][1]["count"] == 1
    assert stored["widget_figures"] == 1


@pytest.mark.parametrize("text, value, tolerance", [
    ("1.10", 1.1, 0.005), ("\u22121.0", -1.0, 0.05), ("7", 7.0, 0.5), ("0.0398", 0.0398, 0.00005),
    ("1.00e-3", 0.001, 0.5e-5)])
def test_readout_value_reads_d3_formats(text, value, tolerance):
    shown, tol = _readout_value(text)
    assert shown == pytest.approx(value) and tol == pytest.approx(tolerance)


def test_a_wait_that_never_ends_fails_naming_the_liveness_bound():
    playwright = pytest.importorskip("playwright.sync_api")
    with pytest.raises(pytest.fail.Exception) as info:
        with liveness("02_x.ipynb: Run All"):
            raise playwright.TimeoutError("Timeout 900000ms exceeded.")
    message = str(info.value)
    assert "02_x.ipynb: Run All" in message and "liveness bound" in message and "15 min" in message
    assert "Timeout 900000ms exceeded." in message
    with pytest.raises(KeyError):  # anything but a timeout passes through unchanged
        with liveness("x"):
            raise KeyError("not a timeout")
