"""Exercise checks of notebooks 01-03: each check prints what it found and, when the answer is
wrong or still ``...`` (the student edition's placeholder), raises :class:`NotSolvedYet` with a
hint, so that the check cell fails visibly until the exercise is solved.

A check cell reads ``check(test, answer_1, ..., hint=...)``; ``test`` returns True or False (and
may print). The tests that know the right answers live here, not in the notebooks, so a student
reading the check cell does not read the answer.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..rounding import equals


class NotSolvedYet(AssertionError):
    """An exercise check that failed; the message is the hint. IPython shows only the message."""

    def _render_traceback_(self) -> list[str]:  # IPython: a short message instead of a traceback
        return [f"NotSolvedYet: {self}"]


def check(test: Callable[..., bool], *answers, hint: str, **data) -> None:
    """Print "correct" when ``test(*answers, **data)`` holds; otherwise raise NotSolvedYet(hint).

    An answer that is still ``...`` fails at once (the test is not run on a placeholder).
    """
    if any(answer is Ellipsis for answer in answers):
        raise NotSolvedYet(f"replace each ... with your answer. Hint: {hint}")
    if not test(*answers, **data):
        raise NotSolvedYet(f"not yet. Hint: {hint}")
    print("correct")


# --- notebook 01 ---------------------------------------------------------------------------------------

def eight_is_impossible(answer: bool, T, mu_grid=np.linspace(0.0, 10.0, 401)) -> bool:
    """Is ``answer`` the truth of "no mu in [0, 10] gives exactly 8 critical points for T"?"""
    from .critical_points import critical_points_2x2

    counts = sorted({len(critical_points_2x2(T, mu)) for mu in mu_grid})
    print(f"counts seen for mu in [0, 10]: {counts}")
    return bool(answer) == (8 not in counts)


# --- notebook 02 ---------------------------------------------------------------------------------------

def lost_root(c4_value, kind: str) -> bool:
    """Exercise 02.1: c4 when a = d (sympy's c4 = d^2 - a^2), and the candidate kind at t = +-inf."""
    import sympy as sp

    from .symbolic import a, d, quartic_symbolic

    c4 = sp.simplify(quartic_symbolic()[0].subs(a, d))
    print(f"your c4 = {c4_value}, kind = {kind!r}")
    return sp.simplify(sp.sympify(c4_value) - c4) == 0 and kind == "cos0"


def capped_shift(a_shift, b_shift, o1, x1, y1) -> bool:
    """Exercise 02.2: on an interval where entry 1 is uncapped with sign o1 and entry 2 capped,
    is p(t) + h(u(t)) = the smooth p with (a, b) -> (a + a_shift, b + b_shift), plus lam tau?"""
    import sympy as sp

    from .symbolic import a, b, d, lam, t, tau, w

    rho = sp.sqrt(1 + t**2)
    total = {}
    for sigma in (1, -1):
        smooth = sigma * (a + b * t) / rho + (w + d * t) / rho**2
        h = lam * o1 * sigma * (x1 + t * y1) / rho + lam * tau  # |u_1| = o1 u_1, entry 2 at the cap
        shifted = sigma * ((a + a_shift) + (b + b_shift) * t) / rho + (w + d * t) / rho**2 + lam * tau
        total[sigma] = sp.simplify(smooth + h - shifted)
    print(f"(p + h) - (shifted p + lam tau) on both half circles: {list(total.values())}")
    return all(v == 0 for v in total.values())


def root_sigmas(answer, Qt, P, Z, branch: int = 0) -> bool:
    """Exercise 02.3: the half circle (sigma) on which each real quartic root (sorted by t) is stationary."""
    from ..subproblem import branch_coefficients, quartic_coefficients
    from .symbolic import real_roots

    a_, b_, cq, d_, e_, _, _ = branch_coefficients(Qt, P, Z)
    w_ = cq[branch] - e_[branch]
    roots = np.sort(real_roots(quartic_coefficients(a_[branch], b_[branch], w_, d_[branch])))
    G = d_[branch] - 2 * w_ * roots - d_[branch] * roots**2
    H = (b_[branch] - a_[branch] * roots) * np.hypot(1.0, roots)
    want = [1 if abs(g + hh) < 1e-9 else -1 for g, hh in zip(G, H)]
    print(f"{roots.size} real roots; your sigmas: {list(answer)}")
    return [int(s) for s in answer] == want


def nonneg_infeasible(Z, ref_feasible: bool, value: float, grid: int = 20001) -> bool:
    """Exercise 02.4: no rotation makes V Z >= 0; is a reflection feasible; what does solve_2x2_full return?"""
    from ..penalties import NonNeg
    from ..stiefel import branch_matrix
    from ..subproblem import solve_2x2_full

    Z = np.asarray(Z, dtype=float)
    thetas = np.linspace(0.0, 2 * np.pi, grid)
    feasible = {br: bool(np.any(np.all(branch_matrix(br, thetas) @ Z >= -1e-12, axis=(1, 2)))) for br in ("rot", "ref")}
    solved = solve_2x2_full(np.eye(4), np.zeros((2, 2)), Z, NonNeg()).value
    print(f"feasible on a grid: {feasible}; solve_2x2_full value: {solved}")
    return not feasible["rot"] and feasible["ref"] == bool(ref_feasible) and (
        (np.isinf(value) and np.isinf(solved)) or np.isclose(value, solved))


# --- notebook 03 ---------------------------------------------------------------------------------------

def factor_counts(count: int, reflections_minus: int, reflections_plus: int, n: int = 9, rng=0) -> bool:
    """Exercise 03.1: factors of jacobi_givens_qr for n, and its reflections for det -1 and det +1."""
    from .completeness import jacobi_givens_qr, random_orthogonal, reflection_steps

    f_minus = jacobi_givens_qr(random_orthogonal(n, -1, rng))
    f_plus = jacobi_givens_qr(random_orthogonal(n, +1, rng))
    return (count == len(f_minus) == len(f_plus) and reflections_minus == len(reflection_steps(f_minus))
            and reflections_plus == len(reflection_steps(f_plus)))


def reflection_step(step: int, rows, D) -> bool:
    """Exercise 03.2: 1-based step and rows of the reflection of jacobi_givens_qr(D, "distinct")."""
    from .completeness import jacobi_givens_qr, reflection_steps

    factors = jacobi_givens_qr(D, "distinct")
    (pos,) = reflection_steps(factors)
    return (step, tuple(rows)) == (pos + 1, tuple(factors[pos][:2]))


def cyclic_shift(reflections: int, swap_theta: float) -> bool:
    """Exercise 03.3: reflections in the factorization of the 4-cycle, and the angle of the swap."""
    from .completeness import describe_factors, jacobi_givens_qr, reflection_steps

    P = np.roll(np.eye(4), 1, axis=0)
    ((_, _, swap_V),) = jacobi_givens_qr([[0.0, 1.0], [1.0, 0.0]])
    _, _, branch, theta = describe_factors([(0, 1, swap_V)])[0]
    return reflections == len(reflection_steps(jacobi_givens_qr(P))) and branch == "ref" and bool(
        np.isclose(np.angle(np.exp(1j * (theta - swap_theta))), 0.0))


def rotations_reach(r_less_than_n: bool, floor_r_equal_n: float, n: int = 5, r: int = 2, rng=0) -> bool:
    """Exercise 03.4: do rotations alone reach every X from X0 when r < n (det +1 map exists), and
    the least ||X - T||^2 over det +1 matrices when T in O(n) has det -1 (r = n)."""
    from ..stiefel import random_stiefel
    from .completeness import closest_with_det, orthogonal_map, random_orthogonal

    gen = np.random.default_rng(rng)
    X0, X = random_stiefel(n, r, gen), random_stiefel(n, r, gen)
    D = orthogonal_map(X0, X, det=+1)
    reach = bool(np.allclose(D @ X0, X) and np.linalg.det(D) > 0)
    floor = closest_with_det(random_orthogonal(n, -1, gen), det=+1)[1]
    return bool(r_less_than_n) == reach and bool(np.isclose(floor_r_equal_n, floor))


# --- notebook 07 ---------------------------------------------------------------------------------------

def procrustes_gap(gap: float, M, p: int) -> bool:
    """Exercise 07.1: the floor F_floor - F* of a rotations-only method on -tr(X^T M)/p when det X0
    is the wrong sign, in closed form (compared with the two special-Procrustes optima)."""
    from ..experiments.relatives import special_procrustes

    best = special_procrustes(M, 1)[1], special_procrustes(M, -1)[1]
    truth = abs(best[0] - best[1]) / p
    print(f"your gap = {gap:.6g}; max over det +1 minus max over det -1, divided by p = {truth:.6g}")
    return bool(np.isclose(gap, truth, rtol=1e-9, atol=0.0))


def which_reach(names, p: int = 4, sweeps: int = 100, rng=0) -> bool:
    """Exercise 07.2: which of rcd, obcd_rot, obcd_step, obcd get below the floor on a det-mismatched
    Procrustes instance (run here, not looked up)."""
    from ..experiments.relatives import procrustes_instance, procrustes_runs

    inst = procrustes_instance(p, mismatch=True, rng=rng)
    methods = {name: (name, {}) for name in ("rcd", "obcd_rot", "obcd_step", "obcd")}
    runs = procrustes_runs(inst, methods, sweeps=sweeps)
    below = {name for name, res in runs.items() if res.F < inst.F_floor - 1e-9 * abs(inst.F_floor)}
    print(f"below the floor after {sweeps} sweeps (p = {p}): {sorted(below)}")
    return set(names) == below


def floor_is_critical(answer: bool, p: int = 6, rng=0) -> bool:
    """Exercise 07.3: is the floor point (the minimizer over the start's component of O(p)) a critical
    point of Definition 3.4? Decided here by ``optimality.is_critical`` at the special-Procrustes point."""
    from ..experiments.relatives import procrustes_instance, special_procrustes
    from ..optimality import riemannian_residual

    inst = procrustes_instance(p, mismatch=True, rng=rng)
    X_floor = special_procrustes(inst.M, inst.det_start)[0]
    residual = riemannian_residual(inst.problem, X_floor)
    critical = residual <= 1e-8 * (1.0 + float(np.linalg.norm(inst.problem.grad(X_floor))))
    print(f"p = {p}, det-mismatched instance: dist(0, d_M F) at the floor point "
          f"{equals(residual, 2, style='e')}; critical: {critical}")
    return bool(answer) == critical

