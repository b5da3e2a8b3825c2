"""Pictures and the step slider of notebook 03 (Jacobi-Givens-QR, Theorem 3.1).

Pure compute (``step_state``, ``reachability_runs``) is separate from drawing
(``*_figure``) and from the thin ipywidgets wiring (``build_step_explorer``), so
that tests can check each part without a browser.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..teaching.completeness import Factor, compose, describe_factors
from ..validation import as_matrix

BRANCH_COLOURS = {"rot": "tab:blue", "ref": "tab:red"}


def step_state(D, factors: Sequence[Factor], step: int) -> dict:
    """What the slider shows after applying the first ``step`` factors.

    Returns a dict with ``step``, ``n``, ``product`` = W_step ... W_1 (the running
    product, I at step 0 and D at the end), ``remaining`` = W_m ... W_{step+1}
    = D product^T (the transpose of Listing 1's R), ``pair``/``branch``/``theta``
    of factor ``step`` (None at step 0), ``branches`` of all factors, and
    ``error`` = ||remaining - I||_F, the distance still to go.
    """
    D = as_matrix(D, "D")
    n = D.shape[0]
    m = len(factors)
    if int(step) != step or not 0 <= step <= m:
        raise ValueError(f"step must be an integer in [0, {m}], got step = {step!r}")
    step = int(step)
    product = compose(factors[:step], n)
    remaining = D @ product.T  # product is orthogonal, so W_m ... W_{step+1} = D product^{-1}
    described = describe_factors(factors)
    current = described[step - 1] if step > 0 else None
    return {
        "step": step,
        "n": n,
        "product": product,
        "remaining": remaining,
        "pair": None if current is None else (current[0], current[1]),
        "branch": None if current is None else current[2],
        "theta": None if current is None else current[3],
        "branches": [d[2] for d in described],
        "error": float(np.linalg.norm(remaining - np.eye(n))),
    }


def step_title(state: dict) -> str:
    """One line naming the step, pair, branch and angle (fixed precision)."""
    m = len(state["branches"])
    if state["pair"] is None:
        return f"step 0 of {m}: nothing applied yet, ||remaining - I||_F = {state['error']:.3f}"
    i, j = state["pair"]
    return (f"step {state['step']} of {m}: rows ({i}, {j}), {state['branch']}"
            f"(theta = {state['theta']:.3f}), ||remaining - I||_F = {state['error']:.3f}")


def step_figure(state: dict) -> plt.Figure:
    """Heatmaps of the running product and the remaining matrix, and the branch strip."""
    fig = plt.figure(figsize=(9.0, 4.6))
    grid = fig.add_gridspec(2, 2, height_ratios=[10, 1], hspace=0.35)
    for col, (key, label) in enumerate([("product", "running product  W_l ... W_1"),
                                        ("remaining", "remaining  W_m ... W_(l+1)")]):
        ax = fig.add_subplot(grid[0, col])
        ax.imshow(state[key], cmap="RdBu_r", vmin=-1, vmax=1)
        ax.set_title(label, fontsize=10)
        ax.set_xticks([])
        ax.set_yticks([])
        if state["pair"] is not None:  # mark the two rows the current factor touched
            for row in state["pair"]:
                ax.axhline(row, color="k", lw=0.8, ls=":")
    strip = fig.add_subplot(grid[1, :])
    from matplotlib.colors import to_rgba

    # applied factors solid, the rest faded (bar takes one alpha, so fold it into the colour)
    colours = [to_rgba(BRANCH_COLOURS[b], 1.0 if pos < state["step"] else 0.25)
               for pos, b in enumerate(state["branches"])]
    positions = np.arange(1, len(colours) + 1)
    strip.bar(positions, np.ones(len(colours)), color=colours, width=1.0, edgecolor="white", linewidth=0.5)
    strip.set_xlim(0.5, len(colours) + 0.5)
    strip.set_yticks([])
    strip.set_xlabel("factor (blue: rotation, red: reflection; faded: not yet applied)", fontsize=9)
    fig.suptitle(step_title(state), fontsize=10)
    return fig


def frame_figure(factors: Sequence[Factor]) -> plt.Figure:
    """n = 3: the frame (columns of W_l ... W_1) after each of the 3 factors, in 3-D."""
    if any(max(f[0], f[1]) > 2 for f in factors):
        raise ValueError("frame_figure draws n = 3 only; the factors touch rows beyond 2")
    described = describe_factors(factors)
    fig = plt.figure(figsize=(3.0 * (len(factors) + 1), 3.2))
    for step in range(len(factors) + 1):
        frame = compose(factors[:step], 3)
        ax = fig.add_subplot(1, len(factors) + 1, step + 1, projection="3d")
        for col, colour in zip(range(3), ("tab:red", "tab:green", "tab:blue")):
            ax.quiver(0, 0, 0, *frame[:, col], color=colour, lw=2, arrow_length_ratio=0.15)
        ax.set_xlim(-1, 1)
        ax.set_ylim(-1, 1)
        ax.set_zlim(-1, 1)
        ax.set_xticks([-1, 0, 1])
        ax.set_yticks([-1, 0, 1])
        ax.set_zticks([-1, 0, 1])
        hand = "right-handed" if np.linalg.det(frame) > 0 else "LEFT-handed"
        if step == 0:
            title = f"start: I ({hand})"
        else:
            i, j, branch, theta = described[step - 1]
            title = f"{step}: rows ({i},{j}) {branch}({theta:.2f})\n{hand}"
        ax.set_title(title, fontsize=9)
    return fig


def diagonal_signs_figure(R_classical: np.ndarray, R_fixed: np.ndarray, det: float) -> plt.Figure:
    """Lemma A.5 side by side: the diagonal R left by classical and sign-fixed Givens QR."""
    fig, axes = plt.subplots(1, 2, figsize=(9.0, 2.6), sharey=True)
    for ax, R, name in zip(axes, (R_classical, R_fixed), ("classical Givens QR", "with Listing 1's -I fixes")):
        diag = np.diag(R)
        ax.bar(np.arange(len(diag)), diag, color=["tab:red" if v < 0 else "tab:blue" for v in diag])
        ax.set_title(f"{name}: {int(np.sum(diag < 0))} entries -1", fontsize=10)
        ax.set_xlabel("diagonal index")
        ax.set_ylim(-1.2, 1.2)
    axes[0].set_ylabel("R[i, i]")
    fig.suptitle(f"rotations only, det D = {det:+.0f}", fontsize=10)
    fig.tight_layout()
    return fig


def reachability_runs(T, X0, *, max_iter: int = 300, seed: int = 0, working_set: str = "cyclic") -> dict:
    """OBCD (k = 2) on F(X) = ||X - T||_F^2 from X0 with both branches and with rotations only.

    Returns ``{"both": Result, "rot": Result}`` from :func:`obcd_lite.obcd.obcd`
    with ``branches="both"`` and ``branches="rot"``; everything else is the same loop.
    """
    from ..solvers.obcd import obcd  # the solver is only needed for this demo
    from ..problems import procrustes

    problem = procrustes(T)
    return {branches: obcd(problem, X0, k=2, max_iter=max_iter, working_set=working_set, rng=seed,
                           branches=branches, log_every=1)
            for branches in ("both", "rot")}


def reachability_figure(runs: dict, floor: float) -> plt.Figure:
    """F per iteration for both runs, with the floor 4 of rotations-only when det differs."""
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    labels = {"both": "OBCD: rotations and reflections", "rot": "rotations only (branches='rot')"}
    for key, result in runs.items():
        F = np.maximum(result.history["F"], 1e-16)  # log axis: show exact zeros at the bottom
        ax.semilogy(result.history["iteration"], F, label=labels[key])
    ax.axhline(floor, color="k", ls="--", lw=0.8, label=f"min over det +1 matrices = {floor:.0f}")
    ax.set_xlabel("iteration")
    ax.set_ylabel("||X - T||_F^2")
    ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def build_step_explorer(D, factors: Sequence[Factor], initial_step: int = 0) -> SimpleNamespace:
    """Slider over the steps; each move redraws the Output widget from the kernel side.

    Returns a namespace with ``widget`` (display this), ``slider``, ``out``,
    ``label`` and ``state`` (the latest :func:`step_state`, updated in place).
    """
    import ipywidgets as widgets

    slider = widgets.IntSlider(value=initial_step, min=0, max=len(factors), step=1, description="step",
                               continuous_update=False)
    label = widgets.Label()
    out = widgets.Output()
    state: dict = {}

    def redraw(step: int) -> None:
        state.clear()
        state.update(step_state(D, factors, step))
        label.value = step_title(state)
        fig = step_figure(state)
        out.outputs = ()
        out.append_display_data(fig)
        plt.close(fig)

    slider.observe(lambda change: redraw(change["new"]), names="value")
    redraw(initial_step)
    return SimpleNamespace(widget=widgets.VBox([slider, label, out]), slider=slider, out=out, label=label,
                           state=state)
