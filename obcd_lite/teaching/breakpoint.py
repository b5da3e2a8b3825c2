"""The breakpoint search of Appendix B, one stage at a time (the pure compute of notebook 02's stepper).

The stepper steps through the reference search :func:`obcd_lite.subproblem.reference.reference_2x2`
(plain loops, read beside Appendix B). Stages: 0 the coefficients of eq. (1-D) per branch
(``reference.circle_coefficients``), 1 its candidate set (breakpoints, quartic roots, cos theta = 0,
V = I), 2 the objective of problem (3) along both half circles (the paper's p(t) and p~(t) plus e,
plus h) with every candidate on it, 3 the chosen minimum next to the compiled search OBCD runs
(``solve_2x2_full``) and a brute-force angle search (``subproblem.brute_force.brute_force_2x2``).
Drawing: :mod:`obcd_lite.viz.breakpoint`; wiring: :mod:`obcd_lite.widgets.breakpoint`.
"""
from __future__ import annotations

import numpy as np

from ..penalties import Penalty, penalty_by_name
from ..rounding import first_minimizer, fmt
from ..stiefel import BRANCHES, branch_from_cos_sin
from ..subproblem import CandidateSet, solve_2x2_full
from ..subproblem.brute_force import brute_force_2x2, objective_at
from ..subproblem.reference import circle_coefficients, reference_2x2
from .instances import random_instance

STAGES = ("coefficients", "candidates", "p(t) and p~(t)", "minimum vs brute force")
#: The kinds of candidates of the reference search, in the order the text and the legend list them.
CANDIDATE_KINDS = ("break", "stationary", "cos0", "identity")
#: The weights the stepper gives each penalty (lam; tau = 0.4 for capped-l1).
STEPPER_LAM = {"zero": 0.0, "l0": 0.3, "l1": 0.5, "capped_l1": 1.0, "nonneg": 0.0}


def stepper_penalty(name: str) -> Penalty:
    """The penalty the stepper uses for ``name`` (``penalties.PENALTY_NAMES``), weights :data:`STEPPER_LAM`.

    Parameters
    ----------
    name : str
        "zero", "l0", "l1", "capped_l1" or "nonneg".

    Returns
    -------
    Penalty
        ``Zero()``, ``L0(0.3)``, ``L1(0.5)``, ``CappedL1(1.0, 0.4)`` or ``NonNeg()``.
    """
    return penalty_by_name(name, STEPPER_LAM.get(name, 0.0), 0.4)


def candidate_arrays(candidates) -> CandidateSet:
    """The reference search's candidates (a sequence of ``reference.Candidate``) as equal-length arrays.

    Parameters
    ----------
    candidates : sequence of Candidate
        ``ReferenceSolution.candidates``.

    Returns
    -------
    CandidateSet
        ``branch`` (0 rot, 1 ref), ``sigma``, ``kind``, ``t``, ``c``, ``s``, ``value``, in the search's order.
    """
    column = list(zip(*candidates))
    return CandidateSet(branch=np.array([BRANCHES.index(b) for b in column[0]]), sigma=np.array(column[1], float),
                        kind=np.array(column[2]), t=np.array(column[3], float), c=np.array(column[4], float),
                        s=np.array(column[5], float), value=np.array(column[6], float))


def stepper_state(rng, penalty: str, stage: int, r: int = 2) -> dict:
    """Everything the stepper shows at ``stage`` (0..3) for the instance ``random_instance(rng)``.

    Parameters
    ----------
    rng : int or numpy.random.Generator
        The instance's seed (or generator).
    penalty : str
        One of ``penalties.PENALTY_NAMES`` (weights: :func:`stepper_penalty`).
    stage : int
        0 to ``len(STAGES) - 1``.
    r : int, default 2
        The number of columns of Z.

    Returns
    -------
    dict
        ``seed`` (``rng`` when it is an int, else None), ``penalty``, ``stage``, ``stage_name``,
        ``instance`` (Qt, P, Z), ``h``, ``coefficients`` (dict of per-branch arrays a, b, cq, d, e, w,
        x, y); from stage 1 ``candidates`` (a ``CandidateSet`` of the reference search) and ``counts``
        per kind; from stage 2 ``curves`` {(branch, sigma): (t, value)} of the full objective of
        problem (3), h included; at stage 3 ``chosen`` (branch, sigma, kind, t, value), ``solver_value``
        (the compiled search) and ``brute`` (brute-force value, branch, theta).

    Raises
    ------
    ValueError
        If ``stage`` is not an integer in 0..len(STAGES) - 1.
    """
    if int(stage) != stage or not 0 <= stage < len(STAGES):
        raise ValueError(f"stage must be an integer in 0..{len(STAGES) - 1}, got {stage!r}")
    stage = int(stage)
    h = stepper_penalty(penalty)
    Qt, P, Z = random_instance(rng, r, nonneg=not h.finite)
    per_branch = [circle_coefficients(Qt, P, Z, branch) for branch in BRANCHES]
    coefficients = {name: np.array([co[i] for co in per_branch]) for i, name in enumerate(("a", "b", "cq", "d", "e",
                                                                                           "x", "y"))}
    coefficients["w"] = coefficients["cq"] - coefficients["e"]
    seed = int(rng) if isinstance(rng, (int, np.integer)) else None
    state = {"seed": seed, "penalty": penalty, "stage": stage, "stage_name": STAGES[stage],
             "instance": (Qt, P, Z), "h": h, "coefficients": coefficients}
    if stage >= 1:
        cs = candidate_arrays(reference_2x2(Qt, P, Z, h).candidates)
        state["candidates"] = cs
        state["counts"] = {k: int(np.sum(cs.kind == k)) for k in CANDIDATE_KINDS}
    if stage >= 2:
        t = np.tan(np.linspace(-np.pi / 2, np.pi / 2, 1201)[1:-1])  # dense in arctan(t)
        state["curves"] = {(branch, sigma): (t, objective_at(Qt, P, Z, h, half_circle_matrices(branch, sigma, t)))
                           for branch in BRANCHES for sigma in (1, -1)}
    if stage >= 3:
        cs = state["candidates"]
        j = chosen_index(cs)
        state["chosen"] = {"branch": BRANCHES[int(cs.branch[j])], "sigma": int(cs.sigma[j]), "kind": str(cs.kind[j]),
                           "t": float(cs.t[j]), "value": float(cs.value[j])}
        state["solver_value"] = solve_2x2_full(Qt, P, Z, h).value
        state["brute"] = brute_force_2x2(Qt, P, Z, h)
    return state


def half_circle_matrices(branch: str, sigma: int, t: np.ndarray) -> np.ndarray:
    """V(t) on the half circle (c, s) = sigma (1, t) / sqrt(1 + t^2) of ``branch`` (Lemma B.1).

    Parameters
    ----------
    branch : str
        "rot" or "ref".
    sigma : int
        +1 (cos theta > 0) or -1 (cos theta < 0).
    t : numpy.ndarray
        Values of tan theta.

    Returns
    -------
    numpy.ndarray
        Shape ``t.shape + (2, 2)``.
    """
    rho = np.hypot(1.0, t)
    return branch_from_cos_sin(branch, sigma / rho, sigma * t / rho)


def chosen_index(cs) -> int:
    """The position of the best finite candidate (the minimum the search returns).

    Among values equal to rounding the first in the candidate order wins (``rounding.first_minimizer``).

    Parameters
    ----------
    cs : CandidateSet
        The candidates, as :func:`candidate_arrays` gives them.

    Returns
    -------
    int
        The index into ``cs``'s arrays.
    """
    return first_minimizer(np.where(np.isfinite(cs.value), cs.value, np.inf))


def stage_rows(state: dict) -> dict:
    """What the stepper says under its figure, as a caption and rows of strings (rendered by
    :func:`obcd_lite.viz.breakpoint.stage_table`), the same on every CPU (``rounding.fmt``).

    Parameters
    ----------
    state : dict
        A :func:`stepper_state`.

    Returns
    -------
    dict
        ``caption``: the seed, h and the stage; ``coefficients``: one row per branch,
        ``{"branch", "a", "b", "w", "d", "e"}`` (the coefficients of eq. (1-D), 4 decimals, signed);
        ``outcome``: rows ``{"what", "value"}``: the candidate counts from stage 1, the chosen
        candidate and the brute-force search at stage 3 (values 6 decimals, theta 4); empty at stage 0.
    """
    co = state["coefficients"]
    coefficients = [{"branch": branch, **{name: fmt(co[name][k], 4, sign=True) for name in "abwde"}}
                    for k, branch in enumerate(BRANCHES)]
    outcome = []
    if "counts" in state:
        outcome.append({"what": "candidates", "value": ", ".join(f"{n} {k}" for k, n in state["counts"].items())})
    if "chosen" in state:
        ch, bf = state["chosen"], state["brute"]
        outcome.append({"what": "chosen", "value": f"{ch['branch']}, sigma = {ch['sigma']:+d}, {ch['kind']}, "
                                                   f"value {fmt(ch['value'], 6)}"})
        outcome.append({"what": "brute force", "value": f"{bf.branch}, theta = {fmt(bf.theta, 4, floor=None)}, "
                                                        f"value {fmt(bf.value, 6)} "
                                                        f"(|gap| < 1e-7: {abs(bf.value - ch['value']) < 1e-7})"})
    caption = f"seed {state['seed']}, h = {state['h']!r}, stage {state['stage']}: {state['stage_name']}"
    return {"caption": caption, "coefficients": coefficients, "outcome": outcome}


def marker_position(cs, j: int) -> tuple[str, int, float]:
    """Where candidate j is drawn: cos0 and identity go to their curve's point.

    Parameters
    ----------
    cs : CandidateSet
        The candidates.
    j : int
        The candidate's index.

    Returns
    -------
    tuple
        ``(branch, sigma, arctan t)``: the panel, the curve and the x coordinate.
    """
    branch = BRANCHES[int(cs.branch[j])]
    if cs.kind[j] == "identity":
        return branch, 1, 0.0
    if cs.kind[j] == "cos0":
        # (c, s) = (0, 1) is t -> +inf on p (sigma = +1) and t -> -inf on p~ (sigma = -1).
        return branch, 1, float(np.sign(cs.s[j]) * np.pi / 2)
    return branch, int(cs.sigma[j]), float(np.arctan(cs.t[j]))


def smooth_half_circle(a: float, b: float, w: float, d: float, e: float, sigma: int, t) -> np.ndarray:
    """p(t) + e (sigma = +1) or p~(t) + e (sigma = -1) of one branch with h = 0 (Lemma B.1).

    Parameters
    ----------
    a, b, w, d, e : float
        The coefficients of eq. (1-D) of the branch (w = cq - e).
    sigma : int
        The half circle, +1 or -1.
    t : array_like
        Values of tan theta.

    Returns
    -------
    numpy.ndarray
        sigma (a + b t) / rho + (w + d t) / rho^2 + e with rho = sqrt(1 + t^2), the shape of ``t``.
    """
    t = np.asarray(t, dtype=float)
    rho = np.hypot(1.0, t)
    return sigma * (a + b * t) / rho + (w + d * t) / rho**2 + e
