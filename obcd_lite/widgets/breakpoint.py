"""The breakpoint search of Appendix B, one stage at a time (notebook 02).

Pure compute (``random_instance``, ``stepper_state``; the brute force is ``reference.brute_force_2x2``) is separate
from drawing (``stepper_figure``) and from the thin ipywidgets wiring
(``build_stepper``), so that tests can check each part without a browser.

Stages: 0 the coefficients of eq. (1-D) per branch, 1 the candidate set (breakpoints,
quartic roots, cos theta = 0, V = I) of ``subproblem.candidate_set``, 2 the objective
along both half circles (the paper's p(t) and p~(t), plus the constant e) with every
candidate marked, 3 the chosen minimum next to a brute-force angle search.
"""
from __future__ import annotations

from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np

from ..penalties import L0, L1, CappedL1, NonNeg, Penalty, Zero
from ..subproblem.brute_force import brute_force_2x2, circle_matrices, objective_at
from ..subproblem import branch_coefficients, candidate_set, solve_2x2_full

STAGES = ("coefficients", "candidates", "p(t) and p~(t)", "minimum vs brute force")
BRANCHES = ("rot", "ref")
KIND_MARKERS = {"break": ("x", "tab:red"), "stationary": ("o", "tab:green"),
                "cos0": ("s", "tab:purple"), "identity": ("D", "tab:gray")}


def make_penalty(name: str) -> Penalty:
    """The penalty the stepper uses for ``name`` in {"zero", "l0", "l1", "capped_l1", "nonneg"}."""
    table = {"zero": Zero(), "l0": L0(0.3), "l1": L1(0.5), "capped_l1": CappedL1(1.0, 0.4), "nonneg": NonNeg()}
    if name not in table:
        raise ValueError(f"penalty must be one of {sorted(table)}, got {name!r}")
    return table[name]


def random_instance(seed: int, r: int = 2, nonneg: bool = False):
    """A random subproblem (Qt, P, Z) of problem (3), k = 2: Qt symmetric PSD, Z with rows of St(n, r).

    With ``nonneg`` Z is entrywise nonnegative, so that V = I is feasible for ``NonNeg``.
    """
    rng = np.random.default_rng(seed)
    G = rng.standard_normal((4, 4))
    Qt = G @ G.T / 4.0
    P = rng.standard_normal((2, 2))
    Z = rng.standard_normal((2, r))
    Z /= np.linalg.norm(Z, axis=1, keepdims=True)
    return Qt, P, (np.abs(Z) if nonneg else Z)


def stepper_state(seed: int, penalty: str, stage: int, r: int = 2) -> dict:
    """Everything the stepper shows at ``stage`` (0..3) for the instance ``seed`` and ``penalty``.

    Keys: ``seed``, ``penalty``, ``stage``, ``stage_name``, ``instance`` (Qt, P, Z),
    ``coefficients`` (dict of per-branch arrays a, b, cq, d, e, w, x, y), and from stage 1
    ``candidates`` (the ``CandidateSet``) and ``counts`` per kind; from stage 2 ``curves``
    {(branch, sigma): (t, value)}; at stage 3 ``chosen`` (branch, sigma, kind, t, value),
    ``solver_value`` and ``brute`` (brute-force value, branch, theta).
    """
    if int(stage) != stage or not 0 <= stage < len(STAGES):
        raise ValueError(f"stage must be an integer in 0..{len(STAGES) - 1}, got {stage!r}")
    stage = int(stage)
    h = make_penalty(penalty)
    Qt, P, Z = random_instance(seed, r, nonneg=isinstance(h, NonNeg))
    a, b, cq, d, e, x, y = branch_coefficients(Qt, P, Z)
    state = {"seed": int(seed), "penalty": penalty, "stage": stage, "stage_name": STAGES[stage],
             "instance": (Qt, P, Z), "h": h,
             "coefficients": {"a": a, "b": b, "cq": cq, "d": d, "e": e, "w": cq - e, "x": x, "y": y}}
    if stage >= 1:
        cs = candidate_set(Qt, P, Z, h)
        state["candidates"] = cs
        state["counts"] = {k: int(np.sum(cs.kind == k)) for k in KIND_MARKERS}
    if stage >= 2:
        t = np.tan(np.linspace(-np.pi / 2, np.pi / 2, 1201)[1:-1])  # dense in arctan(t)
        rho = np.hypot(1.0, t)
        curves = {}
        for k, branch in enumerate(BRANCHES):
            for sigma in (1, -1):
                c, s = sigma / rho, sigma * t / rho
                V = np.stack([np.stack([c if k == 0 else -c, s], -1), np.stack([-s if k == 0 else s, c], -1)], -2)
                curves[(branch, sigma)] = (t, objective_at(Qt, P, Z, h, V))
        state["curves"] = curves
    if stage >= 3:
        cs = state["candidates"]
        finite = np.where(np.isfinite(cs.value), cs.value, np.inf)
        j = int(np.argmin(finite))
        state["chosen"] = {"branch": BRANCHES[int(cs.branch[j])], "sigma": int(cs.sigma[j]), "kind": str(cs.kind[j]),
                           "t": float(cs.t[j]), "value": float(cs.value[j])}
        state["solver_value"] = solve_2x2_full(Qt, P, Z, h).value
        state["brute"] = brute_force_2x2(Qt, P, Z, h)
    return state


def describe_state(state: dict) -> str:
    """A short fixed-precision text of the stage (printed above the figure)."""
    co = state["coefficients"]
    lines = [f"seed {state['seed']}, h = {state['h']!r}, stage {state['stage']}: {state['stage_name']}"]
    for k, branch in enumerate(BRANCHES):
        lines.append(f"  {branch}: a={co['a'][k]:+.4f} b={co['b'][k]:+.4f} w={co['w'][k]:+.4f} "
                     f"d={co['d'][k]:+.4f} e={co['e'][k]:+.4f}")
    if "counts" in state:
        lines.append("  candidates: " + ", ".join(f"{n} {k}" for k, n in state["counts"].items()))
    if "chosen" in state:
        ch, bf = state["chosen"], state["brute"]
        lines.append(f"  chosen: {ch['branch']} sigma={ch['sigma']:+d} {ch['kind']} value={ch['value']:.6f}")
        lines.append(f"  brute force: {bf.branch} theta={bf.theta:.4f} value={bf.value:.6f} "
                     f"(gap {bf.value - ch['value']:+.1e})")
    return "\n".join(lines)


def _marker_position(cs, j: int) -> tuple[str, int, float]:
    """(branch, sigma, arctan t) of candidate j on the plots; cos0 / identity go to their curve's end."""
    branch = BRANCHES[int(cs.branch[j])]
    if cs.kind[j] == "identity":
        return branch, 1, 0.0
    if cs.kind[j] == "cos0":
        # (c, s) = (0, 1) is t -> +inf on p (sigma = +1) and t -> -inf on p~ (sigma = -1).
        return branch, 1, float(np.sign(cs.s[j]) * np.pi / 2)
    return branch, int(cs.sigma[j]), float(np.arctan(cs.t[j]))


def stepper_figure(state: dict):
    """The figure of ``state``: one panel per branch, x-axis arctan(t) so the whole line fits."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4), sharey=True)
    cs = state.get("candidates")
    for k, (ax, branch) in enumerate(zip(axes, BRANCHES)):
        ax.set_title(f"{branch}: objective on the half circles")
        ax.set_xlabel("arctan(t)")
        ax.set_xlim(-np.pi / 2 - 0.1, np.pi / 2 + 0.1)
        if "curves" in state:
            for sigma, style in ((1, "-"), (-1, "--")):
                t, v = state["curves"][(branch, sigma)]
                ax.plot(np.arctan(t), np.where(np.isfinite(v), v, np.nan), style, color="tab:blue",
                        label="p(t) + e" if sigma == 1 else "p~(t) + e", lw=1.2)
        if cs is not None:
            for kind, (marker, colour) in KIND_MARKERS.items():
                pts = [(_marker_position(cs, j), cs.value[j]) for j in np.nonzero((cs.kind == kind)
                                                                                    & (cs.branch == k))[0]]
                pts = [(u, val) for (_, _, u), val in pts if np.isfinite(val)]
                if pts:
                    u, val = zip(*pts)
                    ax.plot(u, val, marker, color=colour, ls="none", ms=6, mfc="none", label=kind)
        if "chosen" in state and state["chosen"]["branch"] == branch:
            j = int(np.argmin(np.where(np.isfinite(cs.value), cs.value, np.inf)))
            ax.plot(_marker_position(cs, j)[2], cs.value[j], "*", color="gold", mec="k", ms=14, label="chosen")
        if "brute" in state:
            ax.axhline(state["brute"].value, color="k", lw=0.8, ls=":", label="brute force")
    axes[0].set_ylabel("objective of (3)")
    if axes[1].get_legend_handles_labels()[0]:
        axes[1].legend(fontsize=7, loc="best")
    fig.tight_layout()
    return fig


def build_stepper(seed: int = 0, penalty: str = "l1", max_seed: int = 50) -> SimpleNamespace:
    """Seed slider, penalty dropdown and a "step" button over ``stepper_state`` (thin wiring).

    Changing the seed or the penalty restarts at stage 0; "step" advances one stage
    (wrapping to 0). The Output widget is redrawn from the kernel side. Returns a namespace
    with ``box`` (to display), ``seed``, ``penalty``, ``step_button``, ``out`` and ``state``.
    """
    import ipywidgets as widgets

    ui = SimpleNamespace(state={})
    ui.seed = widgets.IntSlider(value=seed, min=0, max=max_seed, description="seed")
    ui.penalty = widgets.Dropdown(options=["zero", "l0", "l1", "capped_l1", "nonneg"], value=penalty,
                                  description="h")
    ui.step_button = widgets.Button(description="step")
    ui.out = widgets.Output()

    def redraw(stage: int) -> None:
        ui.state = stepper_state(ui.seed.value, ui.penalty.value, stage)
        fig = stepper_figure(ui.state)
        ui.out.outputs = ()
        ui.out.append_stdout(describe_state(ui.state) + "\n")
        ui.out.append_display_data(fig)
        plt.close(fig)

    ui.redraw = redraw
    ui.seed.observe(lambda _: redraw(0), names="value")
    ui.penalty.observe(lambda _: redraw(0), names="value")
    ui.step_button.on_click(lambda _: redraw((ui.state["stage"] + 1) % len(STAGES)))
    ui.box = widgets.VBox([widgets.HBox([ui.seed, ui.penalty, ui.step_button]), ui.out])
    redraw(0)
    return ui


def quartic_roots_figure(a: float, b: float, w: float, d: float, e: float, roots: np.ndarray):
    """The smooth p(t) + e and p~(t) + e of one branch (h = 0) with the quartic's real ``roots`` on both.

    A root sits at a flat point of exactly one of the two curves (Appendix B's squaring step).
    """
    t = np.tan(np.linspace(-np.pi / 2, np.pi / 2, 801)[1:-1])
    roots = np.asarray(roots, dtype=float)

    def half_circle(sigma, u):
        rho = np.hypot(1.0, u)
        return sigma * (a + b * u) / rho + (w + d * u) / rho**2 + e

    fig, ax = plt.subplots(figsize=(6, 3))
    for sigma, style, label in ((1, "-", "p(t) + e"), (-1, "--", "p~(t) + e")):
        ax.plot(np.arctan(t), half_circle(sigma, t), style, color="tab:blue", label=label)
        ax.plot(np.arctan(roots), half_circle(sigma, roots), "o", mfc="none", color="tab:green",
                label="quartic roots" if sigma == 1 else None)
    ax.set_xlabel("arctan(t)")
    ax.set_title("h = 0: the quartic's real roots on both half circles")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
