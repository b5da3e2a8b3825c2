"""The interactive explorer of notebook 01: sliders for T, mu and the start point.

``compute`` is a pure function from slider values to data (landscape, critical points, BS_2
points, Cayley and OBCD trajectories); ``build_widget`` only wires ipywidgets sliders to it and
redraws an Output widget from the kernel side (out.outputs = (); out.append_display_data(fig)),
which is deterministic under nbval and drivable from pytest without a front end.
"""
from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np

from ..solvers.cayley import cayley_method
from ..stiefel import branch_matrix
from ..teaching.critical_points import (CriticalPoint, bs2_points_2x2, critical_points_2x2,
                              landscape_2x2, objective_2x2)
from ..solvers.obcd import obcd
from ..penalties import L1, Zero
from ..problems import procrustes
from ..stiefel import angle_of
from ..validation import as_matrix, check_nonnegative

#: The paper's first example (Remark 2.5): the widget starts here.
DEFAULT_TARGET = ((1.0, 0.0), (-1.0, -1.0))


@dataclass(frozen=True)
class Trajectory:
    """A run drawn on the landscape: the branch, angle and F of every iterate."""

    branches: tuple
    thetas: np.ndarray
    values: np.ndarray

    @property
    def final(self) -> tuple[str, float, float]:
        return self.branches[-1], float(self.thetas[-1]), float(self.values[-1])


@dataclass(frozen=True)
class Snapshot:
    """Everything the explorer shows for one setting of the sliders."""

    T: np.ndarray
    mu: float
    landscape: dict
    critical: list[CriticalPoint]
    bs2: list[CriticalPoint]
    cayley: Trajectory
    obcd: Trajectory
    cayley_det_Q: np.ndarray


def trajectory_of(path, T: np.ndarray, mu: float) -> Trajectory:
    """(branch, theta, F) of each 2x2 iterate in ``path`` (angle_of from Lemma 2.4)."""
    angles = [angle_of(X) for X in path]
    return Trajectory(tuple(b for b, _ in angles), np.array([t for _, t in angles]),
                      np.array([objective_2x2(X, T, mu) for X in path]))


def obcd_path(problem, X0: np.ndarray, max_iter: int = 20, alpha: float = 1e-5) -> list[np.ndarray]:
    """The iterates of OBCD (k = 2, both branches, exact Q) from X0, stopping once V = I."""
    path = [np.array(X0, dtype=float)]

    def keep(step) -> bool:
        path.append(step.X.copy())
        return bool(np.allclose(step.V, np.eye(2), atol=1e-12))

    obcd(problem, X0, k=2, alpha=alpha, working_set="cyclic", Q="exact", max_iter=max_iter,
         callback=keep, branches="both")
    return path


def compute(t11: float, t12: float, t21: float, t22: float, mu: float, start_theta: float,
            start_branch: str, alpha: float = 1e-5, cayley_iter: int = 300) -> Snapshot:
    """Pure compute step of the explorer: all data for one setting of the sliders.

    Parameters
    ----------
    t11, t12, t21, t22 : entries of the target T.
    mu : l1 weight, >= 0.
    start_theta, start_branch : the start X0 = rot(theta) or ref(theta) of both methods.
    alpha : OBCD's proximal parameter (eq. (11)); also used for the BS_2 test.
    cayley_iter : iteration budget of the Cayley method.
    """
    T = as_matrix([[t11, t12], [t21, t22]], "T", (2, 2))
    mu = check_nonnegative(mu, "mu")
    X0 = branch_matrix(start_branch, float(start_theta))
    problem = procrustes(T, L1(mu) if mu > 0 else Zero())
    cayley = cayley_method(problem, X0, max_iter=cayley_iter, keep_path=True)
    return Snapshot(T=T, mu=mu, landscape=landscape_2x2(T, mu), critical=critical_points_2x2(T, mu),
                    bs2=bs2_points_2x2(T, mu, alpha), cayley=trajectory_of(cayley.path, T, mu),
                    obcd=trajectory_of(obcd_path(problem, X0, alpha=alpha), T, mu),
                    cayley_det_Q=cayley.history["det_Q"][1:])


def snapshot_figure(snap: Snapshot, figsize=(8, 5.0)):
    """The landscape with critical points, BS_2-points and both trajectories."""
    from ..viz.o2 import landscape_figure

    paths = {"Cayley (Wen–Yin)": (snap.cayley.branches, snap.cayley.thetas, snap.cayley.values),
             "OBCD k=2": (snap.obcd.branches, snap.obcd.thetas, snap.obcd.values)}
    T = snap.T
    title = (f"T = [[{T[0, 0]:.2f}, {T[0, 1]:.2f}], [{T[1, 0]:.2f}, {T[1, 1]:.2f}]], μ = {snap.mu:.2f}: "
             f"{len(snap.critical)} critical, {len(snap.bs2)} BS₂")
    return landscape_figure(snap.landscape, snap.critical, snap.bs2, paths, title, figsize)


def snapshot_summary(snap: Snapshot) -> str:
    """Fixed-precision text: final points of both runs and the global minimum."""
    best = min(snap.critical, key=lambda pt: pt.value)
    lines = []
    for name, traj in (("Cayley", snap.cayley), ("OBCD  ", snap.obcd)):
        branch, theta, value = traj.final
        lines.append(f"{name}: ends on {branch} at theta = {theta:.4f}, F = {value:.6f}")
    lines.append(f"global min: {best.branch} at theta = {best.theta:.4f}, F = {best.value:.6f}")
    if snap.cayley_det_Q.size:
        lines.append(f"Cayley det Q in [{snap.cayley_det_Q.min():.12f}, {snap.cayley_det_Q.max():.12f}]")
    return "\n".join(lines)


def build_widget(target=DEFAULT_TARGET, mu: float = 0.0, start_theta: float = 1.0,
                 start_branch: str = "rot"):
    """Sliders + Output wired to :func:`compute`; returns ``(box, controls, out, state)``.

    ``controls`` maps names ("t11", "t12", "t21", "t22", "mu", "start_theta", "start_branch")
    to widgets; ``state["snapshot"]`` holds the last :class:`Snapshot` and ``state["redraws"]``
    counts redraws, so tests can set ``controls[name].value`` and check what changed.
    """
    import ipywidgets as widgets

    T = as_matrix(target, "target", (2, 2))
    slider = dict(min=-3.0, max=3.0, step=0.1, continuous_update=False, readout_format=".1f")
    controls = {name: widgets.FloatSlider(value=float(T[i, j]), description=name, **slider)
                for name, (i, j) in (("t11", (0, 0)), ("t12", (0, 1)), ("t21", (1, 0)), ("t22", (1, 1)))}
    controls["mu"] = widgets.FloatSlider(value=float(mu), min=0.0, max=8.0, step=0.25, description="μ",
                                         continuous_update=False)
    controls["start_theta"] = widgets.FloatSlider(value=float(start_theta), min=0.0, max=round(2 * np.pi, 2),
                                                  step=0.05, description="start θ", continuous_update=False)
    controls["start_branch"] = widgets.ToggleButtons(options=["rot", "ref"], value=start_branch,
                                                     description="start on")
    out = widgets.Output()
    text = widgets.HTML()
    state = {"snapshot": None, "redraws": 0}

    def redraw(_change=None) -> None:
        snap = compute(*(controls[name].value for name in ("t11", "t12", "t21", "t22", "mu",
                                                           "start_theta", "start_branch")))
        state["snapshot"] = snap
        state["redraws"] += 1
        fig = snapshot_figure(snap)
        out.outputs = ()
        out.append_display_data(fig)
        plt.close(fig)
        text.value = "<pre>" + snapshot_summary(snap) + "</pre>"

    for control in controls.values():
        control.observe(redraw, names="value")
    redraw()
    grid = widgets.VBox([widgets.HBox([controls["t11"], controls["t12"]]),
                         widgets.HBox([controls["t21"], controls["t22"]]),
                         widgets.HBox([controls["mu"], controls["start_theta"]]),
                         controls["start_branch"]])
    return widgets.VBox([grid, out, text]), controls, out, state
