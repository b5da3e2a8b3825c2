"""The pure compute behind notebook 01's explorer: one :class:`Snapshot` per setting of the sliders.

:func:`compute` maps the slider values (target T, l1 weight mu, proximal parameter alpha, start
point) to the landscape of F over O(2), its critical points (Definition 3.4), its BS_2-points
(Definition 3.6) and the runs of the Cayley method and of OBCD (k = 2) from the start.
Drawing is :func:`obcd_lite.viz.o2.snapshot_figure`; the wiring is :mod:`obcd_lite.widgets.o2`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..penalties import L1, Zero
from ..problems import procrustes
from ..rounding import equals, first_minimizer, fmt
from ..solvers.cayley import cayley_method
from ..solvers.obcd import obcd
from ..stiefel import angle_of, branch_matrix
from ..validation import as_matrix, check_nonnegative
from .critical_points import CriticalPoint, bs2_points_2x2, critical_points_2x2, landscape_2x2, objective_2x2

#: The paper's first example (Remark 2.6): the explorer starts here.
DEFAULT_TARGET = ((1.0, 0.0), (-1.0, -1.0))
#: The proximal parameter of eq. (11) used when none is given (small: K is then F plus a tiny term).
DEFAULT_ALPHA = 1e-5


@dataclass(frozen=True)
class Trajectory:
    """A run drawn on the landscape: the branch, angle and F of every iterate.

    Attributes
    ----------
    branches : tuple of str
        "rot" or "ref" per iterate.
    thetas : numpy.ndarray
        The angles.
    values : numpy.ndarray
        F per iterate.
    """

    branches: tuple
    thetas: np.ndarray
    values: np.ndarray

    @property
    def final(self) -> tuple[str, float, float]:
        """The last iterate: its branch ("rot" or "ref"), angle and F."""
        return self.branches[-1], float(self.thetas[-1]), float(self.values[-1])


@dataclass(frozen=True)
class Snapshot:
    """Everything the explorer shows for one setting of the sliders.

    Attributes
    ----------
    T : numpy.ndarray
        The target.
    mu : float
        The l1 weight.
    landscape : dict
        ``critical_points.landscape_2x2``.
    critical, bs2 : list of CriticalPoint
        The critical points and the BS_2-points.
    cayley, obcd : Trajectory
        The two runs.
    cayley_det_Q : numpy.ndarray
        det Q of the Cayley method's steps (its history column ``det_Q``).
    alpha : float
        OBCD's proximal parameter.
    """

    T: np.ndarray
    mu: float
    landscape: dict
    critical: list[CriticalPoint]
    bs2: list[CriticalPoint]
    cayley: Trajectory
    obcd: Trajectory
    cayley_det_Q: np.ndarray
    alpha: float = DEFAULT_ALPHA


def trajectory_of(path, T: np.ndarray, mu: float) -> Trajectory:
    """(branch, theta, F) of each 2x2 iterate in ``path`` (angle_of from Lemma 2.5).

    Parameters
    ----------
    path : sequence of numpy.ndarray
        2 x 2 iterates.
    T : numpy.ndarray
        The target.
    mu : float
        The l1 weight.

    Returns
    -------
    Trajectory
        The run.
    """
    angles = [angle_of(X) for X in path]
    return Trajectory(tuple(b for b, _ in angles), np.array([t for _, t in angles]),
                      np.array([objective_2x2(X, T, mu) for X in path]))


def obcd_path(problem, X0: np.ndarray, max_iter: int = 20, alpha: float = DEFAULT_ALPHA) -> list[np.ndarray]:
    """The iterates of OBCD (k = 2, both branches, exact Q) from X0, stopping once V = I.

    Parameters
    ----------
    problem : QuadraticProblem
        The 2 x 2 problem.
    X0 : numpy.ndarray
        The start.
    max_iter : int, default 20
        The most iterations.
    alpha : float, default 1e-5
        The proximal parameter.

    Returns
    -------
    list of numpy.ndarray
        X0 and every iterate.
    """
    path = [np.array(X0, dtype=float)]

    def keep(step) -> bool:
        path.append(step.X.copy())
        return bool(np.allclose(step.V, np.eye(2), atol=1e-12))

    obcd(problem, X0, k=2, alpha=alpha, working_set="cyclic", Q="exact", max_iter=max_iter,
         callback=keep, branches="both")
    return path


def compute(t11: float, t12: float, t21: float, t22: float, mu: float, start_theta: float,
            start_branch: str, alpha: float = DEFAULT_ALPHA, cayley_iter: int = 300) -> Snapshot:
    """All data the explorer shows for one setting of the sliders (pure: no drawing, no state).

    Parameters
    ----------
    t11, t12, t21, t22 : float
        Entries of the target T.
    mu : float
        The l1 weight, >= 0.
    start_theta : float
        theta of the start X0 = rot(theta) or ref(theta) of both methods.
    start_branch : str
        "rot" or "ref": the start's branch.
    alpha : float
        OBCD's proximal parameter (eq. (11)), > 0; also the alpha of the BS_2 test, which
        depends on it: K(V; X) = F(VX) + alpha/2 ||V - I||_F^2 for n = k = 2.
    cayley_iter : int
        Iteration budget of the Cayley method.

    Returns
    -------
    Snapshot
        The landscape, the critical and BS_2-points and both runs.
    """
    T = as_matrix([[t11, t12], [t21, t22]], "T", (2, 2))
    mu = check_nonnegative(mu, "mu")
    alpha = check_nonnegative(alpha, "alpha", strict=True)
    X0 = branch_matrix(start_branch, float(start_theta))
    problem = procrustes(T, L1(mu) if mu > 0 else Zero())
    cayley = cayley_method(problem, X0, max_iter=cayley_iter, keep_path=True)
    return Snapshot(T=T, mu=mu, landscape=landscape_2x2(T, mu), critical=critical_points_2x2(T, mu),
                    bs2=bs2_points_2x2(T, mu, alpha), cayley=trajectory_of(cayley.info["path"], T, mu),
                    obcd=trajectory_of(obcd_path(problem, X0, alpha=alpha), T, mu),
                    cayley_det_Q=cayley.history["det_Q"][1:], alpha=alpha)


def snapshot_row(snap: Snapshot) -> dict:
    """The explorer's table (one row), the same on every CPU: where both runs end, the global minimum,
    and how far Cayley's det Q is from 1.

    Numbers through ``rounding.fmt`` (theta 4 decimals, F 6; det Q = 1 in exact arithmetic, so its
    deviation prints as a bound); ties of the global minimum go to the first critical point. Rendered
    by :func:`obcd_lite.viz.o2.snapshot_table`.

    Parameters
    ----------
    snap : Snapshot
        The explorer's state.

    Returns
    -------
    dict
        ``{"cayley", "obcd", "global", "det_q"}`` (strings): ``"rot, theta = 1.5708, F = 3.000000"`` for
        Cayley's last iterate, OBCD's and the global minimum; ``det_q``: ``"< 1e-12"`` (or the value),
        "" when the Cayley method took no step.
    """
    best = snap.critical[first_minimizer([pt.value for pt in snap.critical])]
    points = {"cayley": snap.cayley.final, "obcd": snap.obcd.final, "global": (best.branch, best.theta, best.value)}
    row = {key: f"{branch}, theta {equals(theta, 4, floor=None)}, F {equals(value, 6)}"
           for key, (branch, theta, value) in points.items()}
    row["det_q"] = fmt(np.max(np.abs(snap.cayley_det_Q - 1.0)), 2, style="e") if snap.cayley_det_Q.size else ""
    return row


def rotation_orbit(k: int) -> dict:
    """The k rotations rot(2 pi j / k), j = 0..k-1: the powers of rot(2 pi / k), a group of order k.

    The small compute behind notebook 00's widget check.

    Parameters
    ----------
    k : int
        The order.

    Returns
    -------
    dict
        ``{"k", "thetas", "matrices", "closes"}``, where ``closes`` says that rot(2 pi / k)^k = I (to 1e-12).

    Raises
    ------
    ValueError
        If ``k`` is not a positive integer.
    """
    if int(k) != k or k < 1:
        raise ValueError(f"k must be a positive integer, got k = {k!r}")
    k = int(k)
    thetas = 2 * np.pi * np.arange(k) / k
    matrices = branch_matrix("rot", thetas)
    power = np.linalg.matrix_power(branch_matrix("rot", 2 * np.pi / k), k)
    return {"k": k, "thetas": thetas, "matrices": matrices, "closes": bool(np.allclose(power, np.eye(2), atol=1e-12))}


def orbit_summary(orbit: dict) -> str:
    """One line: k and whether rot(2 pi / k)^k = I (to 1e-12), in ASCII math for
    :func:`obcd_lite.viz.tables.math_text` (``^5`` becomes a superscript); it ends in True or False
    like notebook 00's other checks.

    Parameters
    ----------
    orbit : dict
        A :func:`rotation_orbit`.

    Returns
    -------
    str
        The line, e.g. ``"k = 5: rot(2π/5)^5 = I (to 1e-12): True"``.
    """
    k = orbit["k"]
    return f"k = {k}: rot(2π/{k})^{k} = I (to 1e-12): {orbit['closes']}"
