"""Wiring of notebook 02's stepper: seed, penalty and stage -> :func:`obcd_lite.teaching.breakpoint.stepper_state`
-> :func:`obcd_lite.viz.breakpoint.stepper_figure` (the pattern of :mod:`obcd_lite.widgets.base`)."""
from __future__ import annotations

from ..penalties import PENALTY_NAMES
from ..teaching.breakpoint import STAGES, stepper_state
from .base import Explorer, explorer, slider_layout


def breakpoint_stepper(rng: int = 0, penalty: str = "l1", stage: int = len(STAGES) - 1,
                       max_seed: int = 50) -> Explorer:
    """Seed slider, penalty dropdown, stage slider and a "step" button (stage + 1, wrapping to 0).

    Starts at the last stage (everything drawn); the stage is kept when the seed or the penalty
    changes. ``controls``: "rng" (the instance's seed), "penalty", "stage"; the button is
    ``Explorer.widget``'s only ``Button``. ``state["value"]`` is the latest stepper state; the text under
    the figure is :func:`obcd_lite.viz.breakpoint.stage_table`.

    Parameters
    ----------
    rng : int, default 0
        The first seed.
    penalty : str, default "l1"
        The first penalty (``penalties.PENALTY_NAMES``).
    stage : int, default the last
        The first stage.
    max_seed : int, default 50
        The seed slider's maximum.

    Returns
    -------
    Explorer
        The stepper.
    """
    import ipywidgets as widgets

    from ..viz.breakpoint import stage_table, stepper_figure

    controls = {
        "rng": widgets.IntSlider(value=int(rng), min=0, max=max_seed, description="seed", **slider_layout()),
        "penalty": widgets.Dropdown(options=list(PENALTY_NAMES), value=penalty, description="h"),
        "stage": widgets.IntSlider(value=int(stage), min=0, max=len(STAGES) - 1, description="stage",
                                   **slider_layout()),
    }
    step = widgets.Button(description="step", tooltip="next stage (after the last: back to 0)")

    def next_stage(_button) -> None:
        controls["stage"].value = (controls["stage"].value + 1) % len(STAGES)

    step.on_click(next_stage)

    def layout(controls, out, text):
        return widgets.VBox([widgets.HBox([controls["rng"], controls["penalty"]]),
                             widgets.HBox([controls["stage"], step]), out, text])

    return explorer(controls, stepper_state, stepper_figure, summary=stage_table, layout=layout)


def step_button(ex: Explorer):
    """The stepper's "step" button inside ``ex.widget`` (for tests and notebooks that click it).

    Parameters
    ----------
    ex : Explorer
        A :func:`breakpoint_stepper`.

    Returns
    -------
    ipywidgets.Button
        The button.

    Raises
    ------
    LookupError
        If ``ex.widget`` holds no button.
    """
    import ipywidgets as widgets

    stack = [ex.widget]
    while stack:
        w = stack.pop()
        if isinstance(w, widgets.Button):
            return w
        stack.extend(getattr(w, "children", ()))
    raise LookupError("no Button in this explorer")
