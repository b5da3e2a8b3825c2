"""The checks a :class:`~obcd_lite.smooth.SmoothProblem` puts around the user's f and grad (its oracles).

Every solver reads a problem through f and grad, so the checks live in the problem, where every solver
benefits from them:

* the point handed to an oracle is a read-only copy (:func:`read_only_copy`): an oracle that writes into
  its argument (``X *= 1.01``, a user's bug) gets a clear error instead of corrupting the solver's iterate;
* every value is checked, cheaply (O(nr), no extra oracle call): f(X) a real number (a Python number or a
  0-d real array: complex, None, str, bool, NaN and inf are named), grad f(X) a real numeric array of X's
  shape with finite entries, both at most :data:`~obcd_lite.validation.DATA_SCALE_RANGE`'s top in magnitude
  (the solvers' arithmetic would overflow, as for a data matrix C or D);
* once per start (:func:`check_oracles_at_start`): the scale of f and grad at X0 inside ``DATA_SCALE_RANGE`` (below it
  every step is lost to the proximal term and rounding) and a directional-derivative check of grad
  against f: along a random tangent direction D at X0 (drawn with the problem's ``rng``), <grad f(X0), D>
  must match the central difference of f along the retracted curve polar(X0 +- t D) (2 f calls, more only
  when they disagree; a wrong sign or scale is named with the two numbers); and the optional oracles of
  :class:`~obcd_lite.smooth.SmoothProblem`: ``grad_rows(X, rows)`` against the rows of grad f(X0)
  (:func:`check_grad_rows`) and ``hessvec`` against a central difference of grad (:func:`check_hessvec`), each
  error naming its oracle. Once per start: the checks never see the solver's loop.

An error raised for a value carries the point as its ``point`` attribute (a copy), and says which call of
the oracle it was, so the user can reproduce it.
"""
from __future__ import annotations

import numbers

import numpy as np

from .stiefel import polar
from .validation import DATA_SCALE_RANGE

#: Steps t of the central difference, tried in turn until one agrees (2 f calls each; a correct gradient
#: agrees at the first): a mismatch at 1e-4 may be truncation (c t^2, a strongly curved f, or a slope near 0),
#: so the smaller steps are tried, each also with the Richardson extrapolation of the last two (which removes
#: c t^2); rounding (eps |f| / t) grows as t shrinks. A step whose rounding allowance is half the numbers
#: compared or more tells nothing and is skipped; the check fails only when at least two steps can tell and
#: every one of them disagrees.
DIFFERENCE_STEPS = (1e-3, 1e-4, 1e-5, 1e-6)
#: Both numbers below this times ||grad f(X)||_F: X is numerically stationary along D, where the truncation
#: of the difference (c t^2) can exceed them (a start at a solver's limit): the check cannot tell, it passes.
STATIONARY = 1e-6
#: Relative mismatch of <grad f, D> and the central difference that counts as a wrong gradient.
DIFFERENCE_RTOL = 1e-2
#: Largest difference between grad_rows(X, rows) and grad(X)[rows], relative to grad's largest entry (two
#: codes for the same rows may sum in another order: rounding, not a wrong oracle).
GRAD_ROWS_RTOL = 1e-8
#: Tolerance on ||X^T X - I||_F for the derivative check to run at X (it retracts to St(n, r) around X).
ON_STIEFEL = 1e-8


def read_only_copy(X: np.ndarray) -> np.ndarray:
    """A float copy of X that cannot be written (what the user's oracles receive).

    Parameters
    ----------
    X : numpy.ndarray
        The point.

    Returns
    -------
    numpy.ndarray
        The copy, with ``flags.writeable = False``.
    """
    copy = np.array(X, dtype=float, copy=True)
    copy.flags.writeable = False
    return copy


def _fail(kind, message: str, point: np.ndarray):
    """``kind(message)`` with the offending point attached as ``point``."""
    err = kind(message)
    err.point = np.array(point, copy=True)
    return err


def call_oracle(oracle, args: tuple, label: str, where: str):
    """``oracle(*args)``; a write into a read-only argument becomes a ValueError that says so.

    Parameters
    ----------
    oracle : callable
        The user's function.
    args : tuple
        Its arguments (read-only copies).
    label : str
        Its name in the messages ("f", "grad", "hessvec").
    where : str
        The call, e.g. "X0" or "X, call 12".

    Returns
    -------
    object
        What the oracle returned.

    Raises
    ------
    ValueError
        When the oracle wrote into its argument.
    """
    try:
        return oracle(*args)
    except ValueError as exc:
        if "read-only" not in str(exc):
            raise
        raise _fail(ValueError, f"{label} wrote into its argument at {where} ({exc}): the point is passed "
                    f"read-only because an oracle that changes it would corrupt the solver's iterate; copy it "
                    f"first (X = X.copy()) if {label} needs a scratch array", args[0]) from exc


def check_value(value, label: str, where: str, X: np.ndarray) -> float:
    """f's value as a float: a real number (Python or 0-d NumPy), finite, at most the range's top.

    Parameters
    ----------
    value : object
        What f returned.
    label : str
        The oracle's name in the messages.
    where : str
        The call, e.g. "X0" or "X, call 12".
    X : numpy.ndarray
        The point (attached to the error).

    Returns
    -------
    float
        f(X) as a Python float.

    Raises
    ------
    TypeError
        For a complex, boolean, non-numeric or non-scalar value.
    ValueError
        For NaN, inf or a magnitude above the supported range.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.integer, np.floating)):
        if isinstance(value, (bool, np.bool_)):
            what = f"the bool {value!r}"
        elif isinstance(value, (numbers.Complex, np.complexfloating)):
            what = f"the complex number {complex(value)} (an imaginary part is never dropped silently)"
        elif isinstance(value, np.ndarray):
            what = (f"an array of shape {value.shape} (return a scalar: float(...) or .item())"
                    if value.dtype.kind in "fiu" else f"an array of dtype {value.dtype}")
        else:
            what = f"{value!r} of type {type(value).__name__}"
        raise _fail(TypeError, f"{label}({where}) must be a finite real number, got {what}", X)
    out = float(value)
    if not np.isfinite(out):
        raise _fail(ValueError, f"{label}({where}) must be a finite number, got {out!r}", X)
    if abs(out) > DATA_SCALE_RANGE[1]:
        raise _fail(ValueError, f"{label}({where}) = {out:.3e} is above the supported range "
                    f"[{DATA_SCALE_RANGE[0]:.0e}, {DATA_SCALE_RANGE[1]:.0e}] in magnitude (the solvers' arithmetic "
                    f"would overflow); rescale f", X)
    return out


def check_array(value, label: str, where: str, X: np.ndarray, shape: tuple | None = None) -> np.ndarray:
    """A gradient (or Hessian-vector product, or rows of a gradient) as a fresh float array: real, numeric, of
    X's shape (or ``shape``), finite, its largest entry at most the range's top.

    Parameters
    ----------
    value : object
        What the oracle returned.
    label : str
        The oracle's name in the messages.
    where : str
        The call, e.g. "X0" or "X, call 12".
    X : numpy.ndarray
        The point (its shape is required unless ``shape`` is given; attached to the error).
    shape : tuple of int, optional
        The required shape (default X's: ``grad_rows`` returns len(rows) rows).

    Returns
    -------
    numpy.ndarray
        A float64 array of the required shape, owned by the caller.

    Raises
    ------
    TypeError
        For a complex, boolean, object or non-numeric array.
    ValueError
        For the wrong shape, a non-finite entry or an entry above the supported range.
    """
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise _fail(TypeError, f"{label}({where}) must be a real array, got {type(value).__name__} ({exc})", X) from exc
    if raw.dtype.kind not in "fiu":
        kind = {"c": "a complex array (an imaginary part is never dropped silently)", "b": "a boolean array",
                "O": "an object array"}.get(raw.dtype.kind, "a non-numeric array")
        raise _fail(TypeError, f"{label}({where}) must be a real numeric array, got {kind} (dtype {raw.dtype}, "
                    f"from a {type(value).__name__})", X)
    if shape is None and raw.shape != X.shape:
        raise _fail(ValueError, f"{label}({where}) has shape {raw.shape}, but the point has shape {X.shape}", X)
    if shape is not None and raw.shape != tuple(shape):
        raise _fail(ValueError, f"{label}({where}) has shape {raw.shape}, but {shape[0]} rows of the point have shape "
                    f"{tuple(shape)}", X)
    G = np.array(raw, dtype=float, copy=True)
    largest = float(np.max(np.abs(G))) if G.size else 0.0  # NaN or inf when an entry is: one pass in the loop
    if not largest <= DATA_SCALE_RANGE[1]:
        finite = np.isfinite(G)
        if not finite.all():
            bad = tuple(int(i) for i in np.argwhere(~finite)[0])
            raise _fail(ValueError, f"{label}({where}) has a non-finite entry {float(G[bad])!r} at index {bad}: the "
                        f"user's {label} failed at this point (attached to this error as .point)", X)
        raise _fail(ValueError, f"{label}({where}) has largest entry {largest:.3e}, above the supported range "
                    f"[{DATA_SCALE_RANGE[0]:.0e}, {DATA_SCALE_RANGE[1]:.0e}] (the solvers' arithmetic would "
                    f"overflow); rescale f", X)
    return G


def check_lipschitz(L):
    """L of :class:`~obcd_lite.smooth.SmoothProblem`: None, or a positive finite real number inside
    :data:`~obcd_lite.validation.DATA_SCALE_RANGE` (L = 0 would never let varsigma of eq. (10) grow).

    Parameters
    ----------
    L : object
        The value given.

    Returns
    -------
    float or None
        L as a float.

    Raises
    ------
    TypeError
        For a bool, a str or anything not a real number.
    ValueError
        For L <= 0, NaN, inf or outside the range.
    """
    if L is None:
        return None
    if isinstance(L, np.ndarray) and L.ndim == 0 and L.dtype.kind in "fiu":
        L = L[()]
    if isinstance(L, (bool, np.bool_)) or not isinstance(L, (numbers.Real, np.integer, np.floating)):
        raise TypeError(f"L must be a positive finite real number (a Lipschitz constant of grad f), "
                        f"got L = {L!r} of type {type(L).__name__}")
    value = float(L)
    low, high = DATA_SCALE_RANGE
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"L must be a positive finite real number (a Lipschitz constant of grad f; OBCD's "
                         f"varsigma starts at L and doubles), got L = {L!r}")
    if not low <= value <= high:
        raise ValueError(f"L must be inside the supported range [{low:.0e}, {high:.0e}], got L = {value:.3e}; "
                         f"rescale f")
    return value


def check_oracles_at_start(f, f0: float, G: np.ndarray, X: np.ndarray, name: str,
                           rng: np.random.Generator | None, *, grad=None, hessvec=None, grad_rows=None) -> None:
    """The once-per-start checks at X: the scale of f and grad, (``rng`` given) grad against f, and the optional
    oracles: ``grad_rows`` against G (always: an exact comparison, :func:`check_grad_rows`) and (``rng``
    given) ``hessvec`` against a difference of grad (:func:`check_hessvec`).

    Parameters
    ----------
    f : callable
        X -> f(X) as a checked float (the problem's own evaluation).
    f0 : float
        f(X).
    G : numpy.ndarray
        grad f(X), checked.
    X : numpy.ndarray
        (n, r), the start; the derivative check runs only on St(n, r) (to ``ON_STIEFEL``).
    name : str
        X's name in the messages.
    rng : numpy.random.Generator or None
        Draws the direction; None skips the derivative checks (of grad and of hessvec).
    grad : callable, optional
        X -> grad f(X), checked (needed with ``hessvec``).
    hessvec : callable, optional
        (X, V) -> the Euclidean Hessian applied to V, checked; None: nothing to check.
    grad_rows : callable, optional
        (X, rows) -> the rows ``rows`` of grad f(X), checked; None: nothing to check.

    Raises
    ------
    ValueError
        When f and grad are both tiny at X, grad does not match f, grad_rows does not match grad, or hessvec does
        not match grad (each message names the oracle).
    """
    if grad_rows is not None:
        check_grad_rows(grad_rows, G, X, name, rng)
    _check_gradient(f, f0, G, X, name, rng)
    if hessvec is not None and rng is not None:
        check_hessvec(grad, hessvec, X, rng, name)


def _check_gradient(f, f0: float, G: np.ndarray, X: np.ndarray, name: str, rng: np.random.Generator | None) -> None:
    """The scale and derivative checks of :func:`check_oracles_at_start` (grad against f)."""
    scale = max(abs(f0), float(np.max(np.abs(G))) if G.size else 0.0)
    if 0.0 < scale < DATA_SCALE_RANGE[0]:
        raise _fail(ValueError, f"f and grad at {name} are below the supported range [{DATA_SCALE_RANGE[0]:.0e}, "
                    f"{DATA_SCALE_RANGE[1]:.0e}] in magnitude (|f({name})| = {abs(f0):.3e}, largest |grad| = "
                    f"{float(np.max(np.abs(G))):.3e}): every step would be lost to rounding; rescale f", X)
    r = X.shape[1]
    if rng is None or not np.linalg.norm(X.T @ X - np.eye(r)) <= ON_STIEFEL:
        return
    D = _tangent_direction(X, rng)
    if D is None:  # St(n, n) with n = 1: no tangent direction
        return
    slope = float(np.vdot(G, D))
    stationary = STATIONARY * float(np.linalg.norm(G))
    differences = []
    previous = None
    for t in DIFFERENCE_STEPS:
        f_plus, f_minus = f(polar(X + t * D)), f(polar(X - t * D))
        difference = (f_plus - f_minus) / (2.0 * t)
        rounding = 64 * np.finfo(float).eps * (abs(f0) + abs(f_plus) + abs(f_minus)) / (2.0 * t)
        candidates = [difference]
        if previous is not None:  # Richardson: the central difference's error is c t^2, so remove it
            ratio = (previous[0] / t) ** 2
            candidates.append(difference + (difference - previous[1]) / (ratio - 1.0))
        previous = (t, difference)
        size = max(abs(difference), abs(slope))
        if rounding >= 0.5 * size or size < stationary:  # both near 0 (rounding, or X stationary along D)
            continue
        if any(abs(c - slope) <= DIFFERENCE_RTOL * size + 2 * rounding for c in candidates):
            return
        differences.append((t, difference))
    if len(differences) < 2:  # a wrong grad disagrees at every step that can tell; one disagreeing step alone
        return  # may be the difference's c t^2 at a nearly stationary X (the smaller steps then tell nothing)
    t, difference = differences[0]
    more = "".join(f"; {d:.6e} at t = {t2:g}" for t2, d in differences[1:])
    if slope * difference < 0:
        verdict = "grad has the wrong sign"
    elif slope != 0 and difference != 0:
        verdict = f"grad is off by a factor {slope / difference:.3g}"
    else:
        verdict = "grad does not match f"
    raise _fail(ValueError, f"{verdict} at {name}: along a random unit tangent direction D, <grad f({name}), D> = "
                f"{slope:.6e} but the central difference of f, (f(polar({name} + tD)) - f(polar({name} - tD))) / 2t, "
                f"is {difference:.6e} (t = {t:g}{more}). Check "
                f"grad (or pass check_derivatives=False for a noisy f)", X)


def _tangent_direction(X: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    """A random unit tangent direction of St(n, r) at X, or None when the tangent space is {0} (n = r = 1).

    Projected twice (a draw nearly normal to St(n, r) loses its digits in one projection) and redrawn
    when the projection keeps less than 1e-3 of the draw (X0 drawn with the same seed is such a draw).
    """
    n, r = X.shape
    if n == 1:
        return None
    for _ in range(8):
        D = rng.standard_normal(X.shape)
        size = float(np.linalg.norm(D))
        for _ in range(2):
            D -= X @ (0.5 * (X.T @ D + D.T @ X))
        norm = float(np.linalg.norm(D))
        if norm > 1e-3 * size:
            return D / norm
    return None


def check_grad_rows(grad_rows, G: np.ndarray, X: np.ndarray, name: str, rng: np.random.Generator | None) -> None:
    """Once per start: ``grad_rows(X, rows)`` against the rows of G = grad f(X), for all rows in a shuffled order
    (one call: an oracle that ignores or misreads ``rows`` disagrees) and for one pair (what OBCD asks for).

    Parameters
    ----------
    grad_rows : callable
        (X, rows) -> the rows ``rows`` of grad f(X), checked (len(rows), r).
    G : numpy.ndarray
        (n, r), grad f(X), checked.
    X : numpy.ndarray
        (n, r), the point.
    name : str
        X's name in the messages.
    rng : numpy.random.Generator or None
        Draws the order and the pair (None: the rows reversed, and the first and last row).

    Raises
    ------
    ValueError
        When a row differs from G's beyond ``GRAD_ROWS_RTOL`` (relative to G's largest entry), naming the row.
    """
    n = X.shape[0]
    order = np.arange(n)[::-1].copy() if rng is None else rng.permutation(n)
    pair = np.sort(order[:2]) if n >= 2 else order
    scale = float(np.max(np.abs(G))) if G.size else 0.0
    for rows in (order, pair):
        rows_G = grad_rows(X, rows)
        gap = np.max(np.abs(rows_G - G[rows]), axis=1)
        bad = np.flatnonzero(gap > GRAD_ROWS_RTOL * scale)
        if bad.size:
            q = int(bad[0])
            raise _fail(ValueError, f"grad_rows does not match grad at {name}: asked for rows {_rows_text(rows)}, "
                        f"its row for row {int(rows[q])} differs from grad f({name})'s row {int(rows[q])} by "
                        f"{float(gap[q]):.6e} (largest |grad| = {scale:.6e}). grad_rows(X, rows) must return "
                        f"grad(X)[rows], in the order of rows", X)


def _rows_text(rows: np.ndarray) -> str:
    """rows for a message, shortened."""
    shown = ", ".join(str(int(i)) for i in rows[:6])
    return f"[{shown}{', ...' if len(rows) > 6 else ''}]"


def check_hessvec(grad, hessvec, X: np.ndarray, rng: np.random.Generator, name: str = "X") -> None:
    """Once per start: hessvec(X, D) against the central difference of grad along polar(X +- t D).

    Along any curve c with c(0) = X and c'(0) = D, d/dt grad f(c(t)) at 0 is the Euclidean Hessian applied
    to D, and the central difference cancels the curve's second-order term; the points stay on St(n, r),
    where grad is defined. Runs only at X on St(n, r) (to ``ON_STIEFEL``).

    Parameters
    ----------
    grad : callable
        X -> grad f(X), checked (the problem's own evaluation).
    hessvec : callable
        (X, V) -> the Hessian-vector product, checked.
    X : numpy.ndarray
        (n, r), the point.
    rng : numpy.random.Generator
        Draws the direction D.
    name : str
        X's name in the message.

    Raises
    ------
    ValueError
        When hessvec disagrees with the difference at every step that can tell (2 or 4 gradient calls).
    """
    r = X.shape[1]
    if not np.linalg.norm(X.T @ X - np.eye(r)) <= ON_STIEFEL:
        return
    D = _tangent_direction(X, rng)
    if D is None:
        return
    product = hessvec(X, D)
    size_product = float(np.linalg.norm(product))
    seen = []
    for t in (DIFFERENCE_STEPS[0], DIFFERENCE_STEPS[-1]):
        G_plus, G_minus = grad(polar(X + t * D)), grad(polar(X - t * D))
        difference = (G_plus - G_minus) / (2.0 * t)
        rounding = 64 * np.finfo(float).eps * float(np.linalg.norm(G_plus) + np.linalg.norm(G_minus)) / (2.0 * t)
        size = max(size_product, float(np.linalg.norm(difference)))
        if rounding >= 0.5 * size:
            continue
        gap = float(np.linalg.norm(product - difference))
        if gap <= DIFFERENCE_RTOL * size + 2 * rounding:
            return
        seen.append((t, gap, float(np.linalg.norm(difference))))
    if seen:
        t, gap, size_difference = seen[0]
        raise _fail(ValueError, f"hessvec does not match grad at {name}: along a random unit tangent direction D, "
                    f"||hessvec(X, D) - (grad(polar(X + tD)) - grad(polar(X - tD))) / 2t||_F = {gap:.6e} with "
                    f"||hessvec(X, D)||_F = {size_product:.6e} and the difference's norm {size_difference:.6e} "
                    f"(t = {t:g}). Check hessvec (or pass check_derivatives=False)", X)
