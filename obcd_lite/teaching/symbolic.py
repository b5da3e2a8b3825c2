"""Appendix B of the paper re-derived with sympy: every formula of the breakpoint search.

The paper (Appendix B, "Solving the Subproblem when k=2") reduces problem (3) with
k = 2 to the one-dimensional problem (1-D) of Appendix B

    min_theta  a c + b s + cq c^2 + d c s + e s^2 + h(c x + s y),   (c, s) = (cos, sin),

substitutes t = tan(theta) (Lemma B.1), and searches breakpoints of h plus the real
roots of a quartic. This module derives each of those objects from scratch, so the
notebook ``02_breakpoint_search.ipynb`` and the tests can compare them, expression
by expression, with the paper's closed forms (``paper_*``) and with the numbers that
``obcd_lite.subproblem`` uses. The paper's recipe itself, run as numbers, is
:mod:`obcd_lite.teaching.paper_recipe`. The errata these comparisons find are listed, each
with the test that backs it, in :data:`obcd_lite.teaching.errata.ERRATA`.

Naming: ``cq`` is the paper's coefficient c (the name c is kept for cos theta);
``sigma = +1`` is the half circle cos theta > 0 (the paper's p(t)), ``sigma = -1``
the half circle cos theta < 0 (the paper's p~(t)).
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from ..stiefel import BRANCHES

# Real symbols shared by all derivations (sympy caches symbols by name and assumptions).
c, s, t = sp.symbols("c s t", real=True)
a, b, cq, d, e, w = sp.symbols("a b c_q d e w", real=True)
lam, tau = sp.symbols("lambda tau", positive=True)
_SIGN = {"rot": 1, "ref": -1}


# --------------------------------------------------------------------------------------
# Step 1: the coefficients of eq. (1-D)
# --------------------------------------------------------------------------------------
def subproblem_symbols(r: int = 1) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    """Symbolic data of problem (3) for k = 2: ``P`` (2x2), ``Qt`` (4x4 symmetric), ``Z`` (2 x r).

    Entries carry the paper's 1-based indices: ``P12``, ``Q14`` (= ``Q41``), ``Z21``.

    Parameters
    ----------
    r : int
        The columns of Z (1..9).

    Returns
    -------
    tuple of sympy.Matrix
        ``(P, Qt, Z)``.

    Raises
    ------
    ValueError
        If r is not an integer in 1..9.
    """
    if int(r) != r or r < 1 or r > 9:
        raise ValueError(f"r must be an integer in 1..9 (names use one digit), got {r!r}")
    P = sp.Matrix(2, 2, lambda i, j: sp.Symbol(f"P{i + 1}{j + 1}", real=True))
    Qt = sp.Matrix(4, 4, lambda i, j: sp.Symbol(f"Q{min(i, j) + 1}{max(i, j) + 1}", real=True))
    Z = sp.Matrix(2, r, lambda i, j: sp.Symbol(f"Z{i + 1}{j + 1}", real=True))
    return P, Qt, Z


def orthogonal_2x2(branch: str, cos=c, sin=s) -> sp.Matrix:
    """rot(theta) = [[c, s], [-s, c]] or ref(theta) = [[-c, s], [s, c]] (Lemma 2.5).

    Parameters
    ----------
    branch : str
        "rot" or "ref".
    cos, sin : sympy.Expr
        The entries c and s.

    Returns
    -------
    sympy.Matrix
        V.

    Raises
    ------
    ValueError
        If ``branch`` is neither "rot" nor "ref".
    """
    if branch not in BRANCHES:
        raise ValueError(f"branch must be 'rot' or 'ref', got {branch!r}")
    if branch == "rot":
        return sp.Matrix([[cos, sin], [-sin, cos]])
    return sp.Matrix([[-cos, sin], [sin, cos]])


def vec(M: sp.Matrix) -> sp.Matrix:
    """Stack the columns of M (the paper's vec).

    Parameters
    ----------
    M : sympy.Matrix
        The matrix.

    Returns
    -------
    sympy.Matrix
        The column vector.
    """
    return sp.Matrix([M[i, j] for j in range(M.cols) for i in range(M.rows)])


def branch_coefficients_symbolic(branch: str, r: int = 1) -> dict:
    """Read a, b, cq, d, e, x, y off the expanded objective of problem (3), k = 2.

    Expands 1/2 vec(V)^T Qt vec(V) + <V, P> as a polynomial in (c, s) and V Z as
    c x + s y (rows of V Z stacked), for V = rot or ref with symbolic (c, s).

    Parameters
    ----------
    branch : str
        "rot" or "ref".
    r : int
        The columns of Z.

    Returns
    -------
    dict
        ``a, b, cq, d, e`` (sympy expressions) and ``x, y`` (lists of length 2r).

    Raises
    ------
    ValueError
        If ``branch`` is neither "rot" nor "ref", or r is not an integer in 1..9.
    AssertionError
        If the expanded objective has terms outside the form of eq. (1-D) (a bug, not a bad input).
    """
    P, Qt, Z = subproblem_symbols(r)
    V = orthogonal_2x2(branch)
    v = vec(V)
    smooth = sp.expand((v.T * Qt * v)[0, 0] / 2 + sum(V[i, j] * P[i, j] for i in range(2) for j in range(2)))
    poly = sp.Poly(smooth, c, s)
    coeff = {m: poly.coeff_monomial(m) for m in (c, s, c**2, c * s, s**2)}
    # Nothing but these five monomials may appear: a constant or a cubic would break eq. (1-D).
    leftover = sp.expand(smooth - sum(k * m for m, k in coeff.items()))
    if leftover != 0:
        raise AssertionError(f"unexpected terms in the expanded objective: {leftover}")
    VZ = V * Z
    rows = [VZ[i, j] for i in range(2) for j in range(r)]
    x = [sp.expand(u).coeff(c) for u in rows]
    y = [sp.expand(u).coeff(s) for u in rows]
    return {"a": coeff[c], "b": coeff[s], "cq": coeff[c**2], "d": coeff[c * s], "e": coeff[s**2],
            "x": x, "y": y}


def paper_branch_coefficients(branch: str, r: int = 1) -> dict:
    """The paper's closed forms below eq. (1-D), transcribed (upper sign: rot, lower: ref).

    a = P22 +- P11, b = P12 -+ P21, c = (Q11 + Q44)/2 +- Q14, d = -Q12 +- Q13 -+ Q24 + Q34,
    e = (Q22 + Q33)/2 -+ Q23, x = [+-Z(1,:); Z(2,:)], y = [Z(2,:); -+Z(1,:)].

    Parameters
    ----------
    branch : str
        As in :func:`branch_coefficients_symbolic`.
    r : int
        As in :func:`branch_coefficients_symbolic`.

    Returns
    -------
    dict
        As :func:`branch_coefficients_symbolic`.
    """
    P, Qt, Z = subproblem_symbols(r)
    sg = _SIGN[branch]
    Q = lambda i, j: Qt[i - 1, j - 1]  # noqa: E731 -- the paper's 1-based indices read better
    return {"a": P[1, 1] + sg * P[0, 0], "b": P[0, 1] - sg * P[1, 0],
            "cq": (Q(1, 1) + Q(4, 4)) / 2 + sg * Q(1, 4),
            "d": -Q(1, 2) + sg * Q(1, 3) - sg * Q(2, 4) + Q(3, 4),
            "e": (Q(2, 2) + Q(3, 3)) / 2 - sg * Q(2, 3),
            "x": [sg * Z[0, j] for j in range(r)] + [Z[1, j] for j in range(r)],
            "y": [Z[1, j] for j in range(r)] + [-sg * Z[0, j] for j in range(r)]}


def coefficient_residuals(branch: str, r: int = 1) -> dict:
    """``simplify(ours - paper)`` for every coefficient of eq. (1-D); all zero means the paper is right.

    Parameters
    ----------
    branch : str
        As in :func:`branch_coefficients_symbolic`.
    r : int
        As in :func:`branch_coefficients_symbolic`.

    Returns
    -------
    dict
        {coefficient: residual}.
    """
    ours, paper = branch_coefficients_symbolic(branch, r), paper_branch_coefficients(branch, r)
    out = {k: sp.simplify(ours[k] - paper[k]) for k in ("a", "b", "cq", "d", "e")}
    for k in ("x", "y"):
        out[k] = [sp.simplify(u - v) for u, v in zip(ours[k], paper[k])]
    return out


def lambdify_branch_coefficients(r: int):
    """A numeric ``(Qt, P, Z) -> (a, b, cq, d, e, x, y)`` built from the sympy derivation.

    Same layout as ``subproblem.branch_coefficients`` (index 0 rot, 1 ref; x, y of
    shape (2, 2r)), so the two can be compared on random data.

    Parameters
    ----------
    r : int
        The columns of Z.

    Returns
    -------
    callable
        The numeric function.
    """
    P, Qt, Z = subproblem_symbols(r)
    upper = [(i, j) for i in range(4) for j in range(i, 4)]  # Qt's symbols are shared across the diagonal
    args = list(P) + [Qt[i, j] for i, j in upper] + list(Z)
    names = ("a", "b", "cq", "d", "e")
    derived = [branch_coefficients_symbolic(br, r) for br in BRANCHES]
    scalar = sp.lambdify(args, [[dv[k] for k in names] for dv in derived], "numpy")
    vectors = sp.lambdify(args, [[dv["x"], dv["y"]] for dv in derived], "numpy")

    def numeric(Qt_, P_, Z_):
        Qt_ = np.asarray(Qt_, dtype=float)
        vals = list(np.ravel(P_)) + [Qt_[i, j] for i, j in upper] + list(np.ravel(Z_))
        sc = np.array(scalar(*vals), dtype=float)          # (2 branches, 5)
        xy = np.array(vectors(*vals), dtype=float)         # (2 branches, 2, 2r)
        return (*sc.T, xy[:, 0, :], xy[:, 1, :])

    return numeric


# --------------------------------------------------------------------------------------
# Step 2: the tan substitution (Lemma B.1)
# --------------------------------------------------------------------------------------
def circle_objective_smooth(cos=c, sin=s) -> sp.Expr:
    """The smooth part of eq. (1-D): a c + b s + cq c^2 + d c s + e s^2.

    Parameters
    ----------
    cos, sin : sympy.Expr
        The point (c, s).

    Returns
    -------
    sympy.Expr
        The smooth part.
    """
    return a * cos + b * sin + cq * cos**2 + d * cos * sin + e * sin**2


def tan_substituted(sigma: int) -> sp.Expr:
    """Eq. (1-D)'s smooth part at (c, s) = sigma (1, t) / sqrt(1 + t^2), minus the constant e.

    Parameters
    ----------
    sigma : int
        +1 or -1.

    Returns
    -------
    sympy.Expr
        The function of t.

    Raises
    ------
    ValueError
        If sigma is neither +1 nor -1.
    """
    if sigma not in (1, -1):
        raise ValueError(f"sigma must be +1 or -1, got {sigma!r}")
    root = sp.sqrt(1 + t**2)
    return circle_objective_smooth(sigma / root, sigma * t / root) - e


def paper_p(sigma: int) -> sp.Expr:
    """Smooth part of the paper's p(t) (sigma = +1) or p~(t) (sigma = -1) of Lemma B.1.

    Parameters
    ----------
    sigma : int
        +1 for p, -1 for p~.

    Returns
    -------
    sympy.Expr
        The function of t.
    """
    return sigma * (a + b * t) / sp.sqrt(1 + t**2) + (w + d * t) / (1 + t**2)


def tan_substitution_residual(sigma: int) -> sp.Expr:
    """simplify(substituted objective - paper's p), with cq = w + e (the paper's w = c - e).

    Parameters
    ----------
    sigma : int
        +1 or -1.

    Returns
    -------
    sympy.Expr
        The residual.
    """
    return sp.simplify(tan_substituted(sigma).subs(cq, w + e) - paper_p(sigma))


def cos0_limits() -> dict:
    """lim_{t -> +-inf} of p(t) next to the values at the cos theta = 0 candidates (minus e).

    p(t) -> +-b while F(0, +-1) - e = +-b: the two candidates [0, 1], [0, -1] of Lemma B.1
    are the endpoints that the open line t in R never reaches.

    Returns
    -------
    dict
        The two limits and the two values.
    """
    return {"p(+inf)": sp.limit(paper_p(1), t, sp.oo), "p(-inf)": sp.limit(paper_p(1), t, -sp.oo),
            "F(0,1)-e": circle_objective_smooth(0, 1) - e, "F(0,-1)-e": circle_objective_smooth(0, -1) - e}


# --------------------------------------------------------------------------------------
# Step 3: stationarity and the quartic
# --------------------------------------------------------------------------------------
def stationarity_parts() -> tuple[sp.Expr, sp.Expr]:
    """(G, H) with (1 + t^2)^2 p'(t) = G + H sqrt(1 + t^2): G = d - 2wt - dt^2, H = b - a t.

    Returns
    -------
    tuple of sympy.Expr
        (G, H).
    """
    return d - 2 * w * t - d * t**2, b - a * t


def stationarity_residual(sigma: int) -> sp.Expr:
    """(1+t^2)^2 d/dt p_sigma(t) - (G + sigma H sqrt(1+t^2)); zero confirms the paper's p'(t).

    Parameters
    ----------
    sigma : int
        As in :func:`paper_p`.

    Returns
    -------
    sympy.Expr
        The residual.
    """
    G, H = stationarity_parts()
    lhs = sp.diff(paper_p(sigma), t) * (1 + t**2) ** 2
    return sp.simplify(lhs - (G + sigma * H * sp.sqrt(1 + t**2)))


def quartic_symbolic() -> list[sp.Expr]:
    """[c4, c3, c2, c1, c0] of G^2 - H^2 (1 + t^2), the squared stationarity equation (Appendix B).

    Returns
    -------
    list of sympy.Expr
        The coefficients.
    """
    G, H = stationarity_parts()
    return sp.Poly(sp.expand(G**2 - H**2 * (1 + t**2)), t).all_coeffs()


#: The integer grid on which ``quartic_agreement`` compares exactly: 5 values per variable.
QUARTIC_GRID = (-2, -1, 0, 1, 2)


def quartic_agreement(numeric=None, n_random: int = 200, rng=0) -> list[bool]:
    """Per coefficient c4, ..., c0: does ``numeric(a, b, w, d)`` equal ``quartic_symbolic()``?

    ``numeric`` defaults to the solver's code, ``subproblem.quartic_coefficients``, and must
    broadcast over array arguments (last axis: the 5 coefficients). The comparison is

    * exact (``==``) on the integer grid ``QUARTIC_GRID``^4: all values there are small integers,
      so floating point evaluates both sides without rounding. Each sympy coefficient has
      degree <= 2 in each variable, so a numeric polynomial of that degree that agrees on
      5 > 2 values per variable is the same polynomial;
    * and to 1e-12 relative on ``n_random`` random points in [-5, 5]^4 (catches a numeric
      function that is not such a polynomial); ``rng`` (int seed or Generator) draws them.

    Parameters
    ----------
    numeric : callable or None
        The numeric coefficients; None: ``subproblem.quartic_coefficients``.
    n_random : int
        The random points.
    rng : int or numpy.random.Generator
        Draws them.

    Returns
    -------
    list of bool
        The verdict per coefficient.

    Raises
    ------
    ValueError
        If ``numeric`` returns the wrong shape.
    """
    if numeric is None:
        from ..subproblem import quartic_coefficients as numeric
    f = sp.lambdify((a, b, w, d), quartic_symbolic(), "numpy")
    grid = np.meshgrid(*[np.array(QUARTIC_GRID, dtype=float)] * 4, indexing="ij")
    pts = [np.concatenate([g.ravel(), u]) for g, u in
           zip(grid, np.random.default_rng(rng).uniform(-5.0, 5.0, (4, n_random)))]
    n_grid = grid[0].size
    want = np.stack([np.broadcast_to(np.asarray(v, dtype=float), pts[0].shape) for v in f(*pts)], axis=-1)
    got = np.asarray(numeric(*pts), dtype=float)
    if got.shape != want.shape:
        raise ValueError(f"numeric(a, b, w, d) must return shape {want.shape}, got {got.shape}")
    exact = np.all(got[:n_grid] == want[:n_grid], axis=0)
    close = np.all(np.abs(got[n_grid:] - want[n_grid:]) <= 1e-12 * (1.0 + np.abs(want[n_grid:])), axis=0)
    return [bool(u) for u in exact & close]


def squaring_factorisation_residual() -> sp.Expr:
    """quartic - (G + H rho)(G - H rho) with rho^2 = 1 + t^2: zero means the quartic's roots are
    exactly the stationary points of p (G + H rho = 0) together with those of p~ (G - H rho = 0).

    Returns
    -------
    sympy.Expr
        The residual.
    """
    G, H = stationarity_parts()
    quartic = sum(k * t**i for i, k in enumerate(reversed(quartic_symbolic())))
    rho = sp.sqrt(1 + t**2)
    return sp.simplify(sp.expand((G + H * rho) * (G - H * rho)) - quartic)


def quartic_when_quadratic_vanishes() -> sp.Expr:
    """The quartic for Qt = varsigma I (w = d = 0), factored: -(a t - b)^2 (t^2 + 1).

    Returns
    -------
    sympy.Expr
        The factored quartic.
    """
    quartic = sum(k * t**i for i, k in enumerate(reversed(quartic_symbolic())))
    return sp.factor(quartic.subs({w: 0, d: 0}))


def circle_derivative_at_cos0() -> dict:
    """dF/dtheta at theta = pi/2 and -pi/2, and their product, which equals c4 = d^2 - a^2.

    So c4 = 0 exactly when [0, 1] or [0, -1] is a stationary point: the root the quartic
    loses when its degree drops sits at t = +-inf, i.e. at a cos theta = 0 candidate.

    Returns
    -------
    dict
        The two derivatives and their product.
    """
    theta = sp.Symbol("theta", real=True)
    F = circle_objective_smooth(sp.cos(theta), sp.sin(theta))
    dF = sp.diff(F, theta)
    plus, minus = sp.simplify(dF.subs(theta, sp.pi / 2)), sp.simplify(dF.subs(theta, -sp.pi / 2))
    return {"dF(pi/2)": plus, "dF(-pi/2)": minus, "product": sp.expand(plus * minus)}


# --------------------------------------------------------------------------------------
# Step 4: the penalties along the line u(t) = (x + t y) / sqrt(1 + t^2)
# --------------------------------------------------------------------------------------
def zero_crossing() -> sp.Expr:
    """The t where x_i + t y_i = 0 (y_i != 0): -x_i / y_i (the paper writes x_i / y_i).

    Returns
    -------
    sympy.Expr
        The root.
    """
    xi, yi = sp.symbols("x_i y_i", real=True, nonzero=True)
    (root,) = sp.solve(sp.Eq(xi + t * yi, 0), t)
    return root


def l1_interval_residual(n: int = 2) -> sp.Expr:
    """Paper's l1 stationarity (in an interval with sign vector o) minus the quartic's condition
    with (a, b) shifted by lam (<o, x>, <o, y>); zero means the shift is exactly right.

    The paper: (a t - b) rho - lam rho <o, y - t x> = d (1 + t^2) - 2 t (w + d t), rho = sqrt(1+t^2).
    Shifted: G + (b' - a' t) rho = 0 with a' = a + lam <o, x>, b' = b + lam <o, y>.

    Parameters
    ----------
    n : int
        The entries of x, y and o.

    Returns
    -------
    sympy.Expr
        The residual.
    """
    xs = sp.symbols(f"x1:{n + 1}", real=True)
    ys = sp.symbols(f"y1:{n + 1}", real=True)
    os_ = sp.symbols(f"o1:{n + 1}", real=True)
    ox = sum(o * x_ for o, x_ in zip(os_, xs))
    oy = sum(o * y_ for o, y_ in zip(os_, ys))
    rho = sp.sqrt(1 + t**2)
    G, _ = stationarity_parts()
    paper = (a * t - b) * rho - lam * rho * (oy - t * ox) - (d * (1 + t**2) - 2 * t * (w + d * t))
    shifted = -(G + ((b + lam * oy) - (a + lam * ox) * t) * rho)
    return sp.simplify(paper - shifted)


def l1_term_derivative_residual() -> sp.Expr:
    """d/dt [lam (alpha + beta t) / rho] - lam (beta - alpha t) / rho^3, zero: the shift's derivative.

    Returns
    -------
    sympy.Expr
        The residual.
    """
    al, be = sp.symbols("alpha beta", real=True)
    rho = sp.sqrt(1 + t**2)
    return sp.simplify(sp.diff(lam * (al + be * t) / rho, t) - lam * (be - al * t) / rho**3)


def capped_crossing_quadratic() -> dict:
    """Capped-l1 (beyond the paper): |x + t y| = tau sqrt(1 + t^2) squared is A t^2 + B t + C = 0.

    Returns A, B, C and the discriminant, which factors as -4 tau^2 (tau^2 - x^2 - y^2): an
    entry reaches the cap on the circle only when sqrt(x^2 + y^2) >= tau.

    Returns
    -------
    dict
        ``A``, ``B``, ``C`` and ``discriminant``.
    """
    xi, yi = sp.symbols("x_i y_i", real=True)
    poly = sp.Poly(sp.expand((xi + t * yi) ** 2 - tau**2 * (1 + t**2)), t)
    A, B, C = poly.all_coeffs()
    return {"A": A, "B": B, "C": C, "discriminant": sp.factor(B**2 - 4 * A * C)}
