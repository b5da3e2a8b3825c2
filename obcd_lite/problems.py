"""Problems F(X) = f(X) + h(X) on St(n, r) with a quadratic smooth part.

The general form is the paper's footnote to (Asm-i) plus a linear term,

    f(X) = 1/2 tr(X^T C X D) + <X, L> + const,

whose Hessian is H = D (x) C. For it (Asm-i) holds with equality, so the
curvature data of the two Q choices are exact:

* eq. (9):  Q = (Z^T (x) U_B)^T H (Z^T (x) U_B) = (Z D Z^T) (x) C_BB   (Lemma C.1(a)),
* eq. (10): Q = varsigma I with varsigma = ||Z D Z^T||_2 ||C_BB||_2    (Lemma C.2(a)),

where Z = X(B, :).
"""
from __future__ import annotations


import numpy as np

from .block_arithmetic import block_2x2, norm_sym_2x2, step_2x2
from .penalties import NonNeg, Penalty, Zero
from .protocol import QuadraticStructure
from .validation import as_data, as_rng, check_count, check_symmetric


class QuadraticProblem(QuadraticStructure):
    """F(X) = 1/2 tr(X^T C X D) + <X, L> + const + h(X) on St(n, r).

    The members of the protocol (:class:`~obcd_lite.protocol.QuadraticStructure`) keep its docstrings;
    how this class computes them is under Notes.

    Parameters
    ----------
    C : numpy.ndarray, shape (n, n)
        Symmetric.
    D : numpy.ndarray, shape (r, r) or None
        Symmetric; None: the identity (r is then free).
    L : numpy.ndarray, shape (n, r) or None
        The linear term; None: none.
    h : Penalty or None
        The penalty; None: ``Zero()``.
    const : float
        Added to f (e.g. ||T||_F^2 for a Procrustes distance).

    Raises
    ------
    TypeError
        If ``h`` is not a Penalty.
    ValueError
        If C or D is not symmetric, D and L disagree on r, or ``const`` is not finite.

    Notes
    -----
    * ``grad``: C X D + L; ``f``: 1/2 tr(X^T C X D) + <X, L> + const, computed as ``f_from_grad`` does,
      in O(nr) from G = grad(X): f = 1/2 <X, G + L> + const.
    * ``exact_Q``: eq. (9), (Z D Z^T) (x) C_BB (k^2 x k^2); ``scalar_Q``: eq. (10) via Lemma C.2(a),
      varsigma = ||Z D Z^T||_2 ||C_BB||_2 >= ||Q of eq. (9)||_2.
    * ``apply_step``: G += C(:, B) dZ D in O(nrk) (Appendix C.3 (i)); the change of f is exact,
      <dZ, G_B> + 1/2 tr(dZ^T C_BB dZ D).
    * ``lipschitz``: L = ||C||_2 ||D||_2 (||C||_2 when D = I), the Lipschitz constant of grad f (for
      ``sparse_pca`` 2 lambda_max(C), the ManPG reference code's ``2*abs(eigs(B,1))``): a proven bound.
    * ``check_point``: X's shape against C, D and L, and h(X) < inf (F(X) is finite exactly then).
    * ``compiled_arrays``: the private C-ordered copies made at construction.
    """

    #: :meth:`lipschitz` is a proven bound (``obcd_lite.protocol.Problem``).
    lipschitz_is_bound = True

    def __init__(self, C, D=None, L=None, h: Penalty | None = None, const: float = 0.0):
        # Private C-ordered copies (validation.as_data): changing the caller's arrays afterwards changes
        # nothing, and every engine reads the same bits whatever the caller's layout.
        self.C = as_data(C, "C")
        check_symmetric(self.C, "C")
        self.n = self.C.shape[0]
        self.D = None if D is None else as_data(D, "D")
        if self.D is not None:
            check_symmetric(self.D, "D")
        self.L = None if L is None else as_data(L, "L", (self.n, None))
        r_sizes = {m.shape[1] for m in (self.D, self.L) if m is not None}
        if self.D is not None and self.L is not None and len(r_sizes) > 1:
            raise ValueError(f"D is {self.D.shape} but L is {self.L.shape}: their r must agree")
        self.r = r_sizes.pop() if r_sizes else None
        self.h = Zero() if h is None else h
        if not isinstance(self.h, Penalty):
            raise TypeError(f"h must be a Penalty, got {type(self.h).__name__}")
        # The compiled k = 2 arithmetic reads C and D (already C-ordered copies); D = I is (0, 0)
        self._C = self.C
        self._D = np.empty((0, 0)) if self.D is None else self.D
        self.const = float(const)
        if not np.isfinite(self.const):
            raise ValueError(f"const must be finite, got const = {const!r}")

    # --- the smooth part -------------------------------------------------
    def grad(self, X: np.ndarray) -> np.ndarray:
        G = self.C @ X if self.D is None else self.C @ X @ self.D
        return G if self.L is None else G + self.L

    def f(self, X: np.ndarray) -> float:
        return self.f_from_grad(X, self.grad(X))

    def f_from_grad(self, X: np.ndarray, G: np.ndarray) -> float:
        val = 0.5 * float(np.vdot(X, G))
        if self.L is not None:
            val += 0.5 * float(np.vdot(X, self.L))
        return val + self.const

    def F(self, X: np.ndarray) -> float:
        return self.f(X) + self.h(X)

    # --- what OBCD needs per block ----------------------------------------
    def gram(self, Z: np.ndarray) -> np.ndarray:
        """Z D Z^T (k x k).

        Parameters
        ----------
        Z : numpy.ndarray
            (k, r), X(B, :).

        Returns
        -------
        numpy.ndarray
            (k, k), Z D Z^T.
        """
        return Z @ Z.T if self.D is None else Z @ self.D @ Z.T

    def block(self, B) -> np.ndarray:
        """C_BB (k x k).

        Parameters
        ----------
        B : sequence of int
            The k row indices of the block.

        Returns
        -------
        numpy.ndarray
            (k, k), C(B, B).
        """
        if len(B) == 2:  # scalar reads beat two fancy indexings on the OBCD hot path
            i, j = B
            C = self.C
            return np.array([[C[i, i], C[i, j]], [C[j, i], C[j, j]]])
        return self.C[np.ix_(B, B)]

    def exact_Q(self, B, Z: np.ndarray) -> np.ndarray:
        G, CB = self.gram(Z), self.block(B)
        k = len(G)
        return (G[:, None, :, None] * CB[None, :, None, :]).reshape(k * k, k * k)

    def scalar_Q(self, B, Z: np.ndarray) -> float:
        if len(B) == 2:  # the OBCD hot path: closed forms, no 2 x 2 arrays built
            i, j = B
            C = self.C
            (g11, g12), (_, g22) = self.gram(Z).tolist()
            return norm_sym_2x2(g11, g12, g22) * norm_sym_2x2(float(C[i, i]), float(C[i, j]), float(C[j, j]))
        return _spectral_norm_sym(self.gram(Z)) * _spectral_norm_sym(self.block(B))

    def block_2x2(self, X: np.ndarray, G: np.ndarray, B, alpha: float, Q: str):
        """``(Qt, P, Z)`` of Lemma 2.3(a) for a block of two rows, by the compiled arithmetic that the
        compiled OBCD engine also runs (``block_arithmetic.block_2x2``), so both engines agree bitwise.

        Parameters
        ----------
        X, G : numpy.ndarray, shape (n, r)
            The point and grad f(X).
        B : sequence of int
            The two row indices.
        alpha : float
            The proximal parameter of eq. (11).
        Q : str
            "exact" (eq. (9)) or "scalar" (eq. (10)).

        Returns
        -------
        tuple of numpy.ndarray
            ``(Qt, P, Z)``: Qt = Q + alpha I (4 x 4), P = [grad f(X) X^T]_BB - mat(Q vec(I_2)) - alpha I_2
            (2 x 2) and Z = X(B, :) (2 x r).
        """
        r = X.shape[1]
        Z, Qt, P = np.empty((2, r)), np.empty((4, 4)), np.empty((2, 2))
        block_2x2(self._C, self._D, _c_order(X), _c_order(G), int(B[0]), int(B[1]), float(alpha), Q == "exact",
                  Z, np.empty((2, r)), Qt, P)
        return Qt, P, Z

    def apply_step(self, G: np.ndarray, B, dZ: np.ndarray) -> float:
        if len(B) == 2 and G.flags.c_contiguous and G.dtype == np.float64:
            # the compiled engine's arithmetic (``block_arithmetic.step_2x2``), bit for bit
            return step_2x2(self._C, self._D, G, int(B[0]), int(B[1]), _c_order(dZ), np.empty((2, G.shape[1])))
        # C is symmetric, so C[:, B] = C[B].T (a contiguous row slice); the change of the
        # gradient is C[:, B] dZ D, and its rows B are the C_BB dZ D of the quadratic term.
        step = self.C[B].T @ dZ
        if self.D is not None:
            step = step @ self.D
        change = float(np.vdot(dZ, G[B]) + 0.5 * np.vdot(dZ, step[B]))
        G += step
        return change

    def compiled_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return self._C, self._D

    def lipschitz(self) -> float:
        L = _spectral_norm_large(self.C)
        return L if self.D is None else L * _spectral_norm_large(self.D)

    def check_point(self, X: np.ndarray, name: str = "X0") -> None:
        if X.shape[0] != self.n:
            raise ValueError(f"{name} has {X.shape[0]} rows but C is {self.n} x {self.n}")
        if self.r is not None and X.shape[1] != self.r:
            raise ValueError(f"{name} has {X.shape[1]} columns but D/L need r = {self.r}")
        if not np.isfinite(self.h(X)):
            raise ValueError(f"{name} is infeasible for h = {self.h!r} (h({name}) = inf)")

    def __repr__(self) -> str:
        return f"QuadraticProblem(n={self.n}, h={self.h!r})"


def _c_order(M: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(M, dtype=np.float64)


def _spectral_norm_sym(S: np.ndarray) -> float:
    """||S||_2 of a symmetric matrix."""
    return float(np.max(np.abs(np.linalg.eigvalsh(S))))


def _spectral_norm_large(S: np.ndarray) -> float:
    """||S||_2 of a symmetric matrix; Lanczos (ARPACK) above 64 x 64."""
    if S.shape[0] <= 64:
        return _spectral_norm_sym(S)
    from scipy.sparse.linalg import eigsh

    # A fixed start vector keeps the run deterministic (ARPACK's default one is random).
    return float(abs(eigsh(S, k=1, which="LM", v0=np.ones(S.shape[0]), return_eigenvectors=False)[0]))


#: The two scalings of the variance term met in the paper and the baselines' codes.
SPCA_SCALES = (1.0, 0.5)


def sparse_pca(C, h: Penalty | None = None, *, scale: float = 1.0) -> QuadraticProblem:
    """Sparse PCA: F(X) = -scale tr(X^T C X) + h(X), C a covariance matrix.

    Parameters
    ----------
    C : numpy.ndarray, shape (n, n)
        Symmetric covariance.
    h : Penalty or None
        The penalty (``L0(lam)``, ``L1(lam)``, ...), default none.
    scale : float
        1.0 (default) is Section 1.1's -tr(X^T C X), also the ManPG, SOC and RSubGrad codes';
        0.5 is -1/2 tr(X^T C X), the arXiv v3 text, Appendix E.1 and the RADMM code. The paper's
        tables mix them (l0 fits 1.0, l1 fits 0.5: ``experiments.paper_tables.matching_scale``
        recomputes a table entry); ``experiments.paper_tables.convert_lam`` moves lam between them.

    Returns
    -------
    QuadraticProblem
        With C' = -2 scale C (and D = I).

    Raises
    ------
    ValueError
        If ``scale`` is not 1.0 or 0.5.
    """
    C = as_data(C, "C")
    check_symmetric(C, "C")
    if scale not in SPCA_SCALES:
        raise ValueError(f"scale must be 1.0 (-tr(X^T C X)) or 0.5 (-1/2 tr(X^T C X)), got scale = {scale!r}")
    return QuadraticProblem(-2.0 * float(scale) * C, h=h)


def nonneg_pca(C) -> QuadraticProblem:
    """Nonnegative PCA: F(X) = -1/2 tr(X^T C X) subject to X >= 0 (Appendix E.1).

    Parameters
    ----------
    C : array_like
        (n, n) symmetric covariance.

    Returns
    -------
    QuadraticProblem
        With C' = -C and h = ``NonNeg()``.
    """
    C = as_data(C, "C")
    check_symmetric(C, "C")
    return QuadraticProblem(-C, h=NonNeg())


def procrustes(T, h: Penalty | None = None) -> QuadraticProblem:
    """F(X) = ||X - T||_F^2 + h(X) = tr(X^T X) - 2 <X, T> + ||T||_F^2 + h(X).

    Parameters
    ----------
    T : array_like
        (n, r), the target.
    h : Penalty or None
        The penalty, default none.

    Returns
    -------
    QuadraticProblem
        With C = 2 I, L = -2 T and const = ||T||_F^2.
    """
    T = as_data(T, "T")
    return QuadraticProblem(2.0 * np.eye(T.shape[0]), L=-2.0 * T, h=h, const=float(np.sum(T * T)))


def randn_covariance(m: int = 500, n: int = 1000, rng=None) -> np.ndarray:
    """The paper's "randn" data: A (m x n) Gaussian scaled to ||A||_F = 1, C = A^T A.

    Parameters
    ----------
    m : int
        Samples (rows of A).
    n : int
        Features (columns of A).
    rng : numpy.random.Generator or int or None
        The random source.

    Returns
    -------
    numpy.ndarray
        (n, n), C = A^T A (tr C = 1).
    """
    m, n = check_count(m, "m"), check_count(n, "n")
    rng = as_rng(rng)
    A = rng.standard_normal((m, n))
    A /= np.linalg.norm(A)
    return A.T @ A
