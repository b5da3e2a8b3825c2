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

from dataclasses import dataclass, field
from typing import Any, Callable

import matplotlib.pyplot as plt

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
    """

    widget: Any
    controls: dict
    out: Any
    state: dict = field(default_factory=dict)
    redraw: Callable[..., None] | None = field(default=None, repr=False)

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = FALLBACK_TEXT
        return bundle


def explorer(controls: dict, compute: Callable[..., Any], figure: Callable[[Any], Any], *,
             summary: Callable[[Any], str] | None = None, layout: Callable[[dict, Any, Any], Any] | None = None,
             ) -> Explorer:
    """Wire ``controls`` to ``compute(**values)``; draw ``figure(result)`` into an Output widget.

    A value that ``compute`` rejects (ValueError) is shown as the message instead of a figure,
    and ``state["error"]`` holds it; the previous result stays in ``state["value"]``.

    Parameters
    ----------
    controls : name -> ipywidgets control; ``compute`` is called with the controls' values by name.
    compute : pure function from the values to a result (no drawing).
    figure : result -> matplotlib Figure (closed after display).
    summary : result -> text shown under the figure in a ``<pre>`` block (fixed precision).
    layout : (controls, out, text) -> the box to display; default: controls in rows of two, then
        the figure, then the text.

    Returns
    -------
    Explorer
        The explorer.
    """
    import ipywidgets as widgets

    out = widgets.Output()
    text = widgets.HTML()
    state: dict = {"value": None, "redraws": 0, "error": None}

    def redraw(_change=None) -> None:
        try:
            value = compute(**{name: control.value for name, control in controls.items()})
        except ValueError as exc:
            state["error"] = str(exc)
            text.value = f"<pre>cannot compute: {exc}</pre>"
            return
        state.update(value=value, error=None, redraws=state["redraws"] + 1)
        fig = figure(value)
        out.outputs = ()
        out.append_display_data(fig)
        plt.close(fig)
        text.value = "" if summary is None else "<pre>" + summary(value) + "</pre>"

    for control in controls.values():
        control.observe(redraw, names="value")
    redraw()
    box = (layout or _default_layout)(controls, out, text)
    return Explorer(widget=box, controls=controls, out=out, state=state, redraw=redraw)


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
