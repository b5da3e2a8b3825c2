"""The one widget pattern of the suite.

Each explorer has three parts in three layers: a pure compute function in
:mod:`obcd_lite.teaching` (slider values -> a state dict or dataclass), a figure function in
:mod:`obcd_lite.viz` (state -> matplotlib Figure), and the thin wiring here. :func:`explorer`
builds the wiring and returns an :class:`Explorer`:

* ``widget`` — the ipywidgets box to display (displaying the Explorer itself does the same);
* ``controls`` — name -> control widget; tests set ``controls[name].value`` and check ``state``;
* ``out`` — the Output widget, redrawn from the kernel side (``out.outputs = ()`` then
  ``append_display_data``), which is deterministic under nbval and needs no front end;
* ``state`` — ``{"value": <latest compute result>, "redraws": <count>, "error": <message or None>}``.

Displayed before the notebook has run (no kernel, so no widget model), JupyterLab shows the
``text/plain`` fallback: the Explorer makes it a short instruction instead of ``VBox(children=...``.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, Callable

import matplotlib.pyplot as plt

from ..viz.tables import math_sentence

#: What a reader sees where the widget cannot render (notebook not run yet).
FALLBACK_TEXT = "Interactive explorer: run the notebook (Run > Run All Cells) to start it."


@dataclass
class Explorer:
    """An explorer's widget, controls, output, state and redraw (see the module docstring).

    Attributes
    ----------
    widget : ipywidgets.Widget
        The box to display.
    controls : dict
        {name: control}.
    out : ipywidgets.Output
        Where the figure goes.
    state : dict
        ``state["value"]``: the latest result; ``state["error"]``: the latest rejected value's message.
    redraw : callable
        Recompute and redraw from the controls' current values.
    text : ipywidgets.HTML or None
        The summary line under the figure (None: the explorer has no summary).
    status : ipywidgets.HTML or None
        The status line above the controls (reads :data:`BUSY_TEXT` during an update).
    """

    widget: Any
    controls: dict
    out: Any
    state: dict = field(default_factory=dict)
    redraw: Callable[..., None] | None = field(default=None, repr=False)
    text: Any = field(default=None, repr=False)
    status: Any = field(default=None, repr=False)

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = FALLBACK_TEXT
        return bundle


def explorer(controls: dict, compute: Callable[..., Any], figure: Callable[[Any], Any], *,
             summary: Callable[[Any], Any] | None = None, layout: Callable[[dict, Any, Any], Any] | None = None,
             ) -> Explorer:
    """Wire ``controls`` to ``compute(**values)``; draw ``figure(result)`` into an Output widget.

    While ``compute`` and ``figure`` run, a status line above the controls reads :data:`BUSY_TEXT`
    (a student moving a slider sees that an update is under way, however long it takes;
    ``state["busy_seen"]`` records what it said during the last update, for the tests). A
    combination that ``compute`` rejects (ValueError) clears the figure and shows why in the text
    under it: no figure of an earlier setting stays on screen. ``state["error"]`` holds the message
    and ``state["value"]`` is None. ``Explorer.text`` and ``Explorer.status`` are the two HTML widgets.

    Parameters
    ----------
    controls : dict
        Name -> ipywidgets control; ``compute`` is called with the controls' values by name.
    compute : callable
        Pure function from the values to a result (no drawing).
    figure : callable
        Result -> matplotlib Figure (closed after display).
    summary : callable or None
        Result -> the text under the figure: a table of :mod:`obcd_lite.viz.tables` (an ``HtmlTable``,
        or an HTML fragment starting with ``<``) or one line of plain text, typeset as a sentence
        (:func:`obcd_lite.viz.tables.math_text`); several plain lines raise ValueError.
    layout : callable or None
        (controls, out, text) -> the box to display; default: controls in rows of two, then
        the figure, then the text.

    Returns
    -------
    Explorer
        The explorer.
    """
    import ipywidgets as widgets

    out = widgets.Output()
    text = widgets.HTML()
    status = widgets.HTML()
    state: dict = {"value": None, "redraws": 0, "error": None, "busy_seen": None}

    def redraw(_change=None) -> None:
        status.value = BUSY_TEXT
        state["busy_seen"] = status.value
        try:
            value = compute(**{name: control.value for name, control in controls.items()})
        except ValueError as exc:
            state.update(value=None, error=str(exc))
            out.outputs = ()
            text.value = f'<p style="{_ERROR_STYLE}"><b>This combination cannot be shown</b>: {html.escape(str(exc))}</p>'
            status.value = ""
            return
        state.update(value=value, error=None, redraws=state["redraws"] + 1)
        fig = figure(value)
        out.outputs = ()
        out.append_display_data(fig)
        plt.close(fig)
        text.value = "" if summary is None else _as_html(summary(value))
        status.value = ""

    for control in controls.values():
        control.observe(redraw, names="value")
    redraw()
    box = widgets.VBox([status, (layout or _default_layout)(controls, out, text)])
    return Explorer(widget=box, controls=controls, out=out, state=state, redraw=redraw, text=text, status=status)


#: What the text under an explorer says while an update runs.
BUSY_TEXT = '<p style="color:#555"><b>⏳ updating…</b> (the figure is replaced when this is done)</p>'
_ERROR_STYLE = "color:#a40000; border-left:4px solid #a40000; padding-left:8px"


def _as_html(summary) -> str:
    """The HTML under an explorer's figure: an HTML fragment as it is, a table
    (:class:`~obcd_lite.viz.tables.HtmlTable`, anything with ``_repr_html_``) as its HTML, one line of
    plain text as a sentence typeset by :func:`~obcd_lite.viz.tables.math_sentence`.

    Several lines of plain text are refused: a student reads a rendered table, never a monospace dump
    (the explorer's summary must build one with :mod:`obcd_lite.viz.tables`).

    Parameters
    ----------
    summary : str or HtmlTable
        What the explorer's ``summary`` returned.

    Returns
    -------
    str
        HTML.

    Raises
    ------
    ValueError
        If ``summary`` is plain text of more than one line.
    TypeError
        If ``summary`` is neither a string nor an object with ``_repr_html_``.
    """
    if hasattr(summary, "_repr_html_"):
        return summary._repr_html_()
    if not isinstance(summary, str):
        raise TypeError(f"summary must be a str or an HtmlTable, got {type(summary).__name__}: {summary!r}")
    if summary.lstrip().startswith("<"):
        return summary
    return math_sentence(summary) if summary.strip() else ""  # several lines: ValueError


def timed_updates(ex: Explorer, name: str, values) -> list[float]:
    """Set ``ex.controls[name]`` to each of ``values`` and return the seconds each update took; then
    put the control back to where it was, so the explorer is left in the state its text describes
    (a notebook's timing cell must not change what the explorer above it shows).

    Parameters
    ----------
    ex : Explorer
        The explorer.
    name : str
        A key of ``ex.controls``.
    values : iterable
        The values to set, in order.

    Returns
    -------
    list of float
        Wall seconds of each update (the setter runs compute and redraw synchronously).
    """
    import time

    control = ex.controls[name]
    initial = control.value
    seconds = []
    for value in values:
        start = time.perf_counter()
        control.value = value
        seconds.append(time.perf_counter() - start)
    control.value = initial
    return seconds


def _default_layout(controls: dict, out, text):
    import ipywidgets as widgets

    items = list(controls.values())
    rows = [widgets.HBox(items[i:i + 2]) for i in range(0, len(items), 2)]
    return widgets.VBox([*rows, out, text])


def slider_layout(width: str = "456px", description_width: str = "56px"):
    """The layout every slider uses: a track of at least 300 px.

    Measured in JupyterLab 4.6 / Chromium: the description takes its width + 8 px, the readout 76 px
    and the track's margins 12 px, so 456 px leave a 304 px track.

    Parameters
    ----------
    width : str, default "456px"
        The slider's width.
    description_width : str, default "56px"
        The description's width.

    Returns
    -------
    dict
        Keyword arguments for an ipywidgets slider (``layout`` and ``style``).
    """
    import ipywidgets as widgets

    return dict(layout=widgets.Layout(width=width), style={"description_width": description_width})
