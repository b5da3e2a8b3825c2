"""Where the paper's unnumbered text (equations, appendix prose, Listing 1) is wrong, incomplete or only slipped.

Errata of the numbered statements (theorems, lemmas, remarks, ...) and of their proofs live in the
ledger, :data:`obcd_lite.teaching.ledger.LEDGER` (field ``errata``), so nothing is listed twice;
:func:`all_errata` and :func:`errata_rows` give both together (rendered as a table by
:func:`obcd_lite.viz.tables.errata_html`).

Each row of :data:`ERRATA` says where (``where``), what the paper writes (``paper``), what holds
(``correct``), how much it matters (``kind``), a concrete instance, the notebook that shows it and
the test in ``tests/teaching/test_errata.py`` that decides it (a sympy or numpy check). Kinds:

* ``"wrong"`` — followed literally, it gives a wrong answer;
* ``"over-count"`` — a count or candidate set larger than needed: harmless, only wasted work;
* ``"gap"`` — the statement holds, but the text does not show it (or omits a case);
* ``"slip"`` — a typo or notation error that the surrounding argument does not depend on.

Theorem numbers follow the paper's own counters (one counter per section for theorems, lemmas,
remarks and definitions; appendix lemmas A.x, B.x, C.x), checked in ``tests/teaching/test_errata.py``.
"""
from __future__ import annotations

from .ledger import LEDGER

KINDS = ("wrong", "over-count", "gap", "slip")

#: The suite's one errata table: a dict per finding with the keys above, notebook by notebook.
#:
#: :meta hide-value:
ERRATA = (
    # --- notebook 01: the 2x2 examples of Appendix C.1 ----------------------------------------------------
    {"where": "Appendix C.1, the examples of Remark 2.6", "notebook": "01", "kind": "wrong",
     "paper": "F2(V) = ||V - B||^2 + 5||V||_1 has 8 critical points",
     "correct": "16: the 8 kinks (local minima) and 8 smooth local maxima, all satisfying Definition 3.4",
     "instance": "B = [[1, 0], [1, 2]], mu = 5", "test": "test_f2_has_16_critical_points"},
    {"where": "Appendix C.1, BS2-points", "notebook": "01", "kind": "gap",
     "paper": "each example has one unique BS2-point",
     "correct": "only for small alpha: K = F(VX) + alpha/2 ||V - I||^2 and ||V - I||^2 = 4 on reflections; "
                "F1: 2 BS2-points for alpha >= sqrt 5 - 1, all 4 for alpha >= sqrt 5 + 1; F2: 4 for 2 <= alpha < 4, "
                "the 8 kinks for 4 <= alpha < 2 sqrt 5, then smooth maxima join, all 16 for alpha >= 10",
     "instance": "bs2_points_2x2(T, mu, alpha) on a grid of alpha, checked by a brute-force minimization of K",
     "test": "test_bs2_points_depend_on_alpha"},
    {"where": "eq. (11), first line", "notebook": "02", "kind": "slip",
     "paper": "F(X_B(V)) <= f(X) + <V - I, [grad f(X) X^T]_BB> + 1/2 ||V - I||^2_(Q + alpha I) + h(V U_B^T X)",
     "correct": "+ h(U_Bc^T X) is missing (the constant c'' of the second line has it); at V = I the line "
                "would claim F(X) <= f(X) + h(U_B^T X)",
     "instance": "sparse PCA with L1: at V = I the first line fails by h(U_Bc^T X)",
     "test": "test_eq_11_needs_the_other_rows_of_h"},
    {"where": "text after eq. (11)", "notebook": "02", "kind": "slip",
     "paper": "<[grad f(X)]_(B,:)^T [X]_(B,:), V>",
     "correct": "[grad f(X)]_(B,:) [X]_(B,:)^T = [grad f(X) X^T]_BB, a k x k matrix (the paper's product is r x r)",
     "instance": "n = 6, r = 3, k = 2: shapes (3, 3) vs (2, 2)", "test": "test_linear_term_is_k_by_k"},
    {"where": "notation list (Appendix A)", "notebook": "02", "kind": "slip",
     "paper": "capped-l1: ||max(|X|, tau)||_1 = sum max(|X_ij|, tau)",
     "correct": "sum min(|X_ij|, tau), as in Asm-ii; the max version is >= tau n r and promotes no sparsity",
     "instance": "X = 0: min version 0, max version tau n r", "test": "test_capped_l1_uses_min"},
    {"where": "l0 and l1, case (i)", "notebook": "02", "kind": "wrong", "paper": "breakpoints t = x_i / y_i",
     "correct": "t = -x_i / y_i (root of x_i + t y_i = 0)",
     "instance": "random_instance(0), L0(0.3): the paper's set ends 0.26 above the minimum",
     "test": "test_breakpoint_sign"},
    {"where": "l1, case (ii)", "notebook": "02", "kind": "over-count",
     "paper": "4r cuts +-x_i/y_i, 4r+1 intervals, <= 2r + 4(4r+1) points",
     "correct": "o changes only at the 2r kinks: 2r+1 intervals suffice; the extra cuts split intervals where o is "
                "constant, so the paper's candidates still contain the minimum (harmless, only wasted work)",
     "instance": "random_instance(0), rot, r=2: 9 intervals, 5 distinct o; same minimum", "test": "test_l1_interval_count"},
    {"where": "'we assume y_i != 0'", "notebook": "02", "kind": "wrong", "paper": "entries with y_i = 0 can be removed",
     "correct": "not for l1 / capped-l1 (lam|x_i|/rho depends on t); NonNeg: sigma x_i < 0 makes "
                "the half circle infeasible; l0: fine",
     "instance": "random_instance(5), Z21 = 0, L1(0.5): 0.0138 above the minimum", "test": "test_zero_y_entries"},
    {"where": "quartic roots", "notebook": "02", "kind": "wrong", "paper": "1 <= j <= 4 real roots",
     "correct": "0 <= j <= 4; j = 0 needs c4 = 0",
     "instance": "(a, b, w, d) = (0, 3, 1, 0): -5t^2 - 9 = 0", "test": "test_quartic_can_have_no_real_root"},
    {"where": "quartic", "notebook": "02", "kind": "gap", "paper": "'for some suitable c4, ..., c0'",
     "correct": "c4=d^2-a^2, c3=2ab+4dw, c2=4w^2-2d^2-a^2-b^2, c1=2ab-4dw, c0=d^2-b^2",
     "instance": "sympy identity", "test": "test_quartic_closed_form"},
    {"where": "squaring", "notebook": "02", "kind": "gap", "paper": "not discussed",
     "correct": "real roots = stationary points of p and of p~; score or sign-check them",
     "instance": "random_instance(0), rot: 2 real roots, both stationary for p~, none for p",
     "test": "test_squaring_mixes_p_and_p_tilde"},
    {"where": "Qt = varsigma I", "notebook": "02", "kind": "gap", "paper": "not discussed",
     "correct": "w = d = 0: quartic -(at-b)^2(1+t^2), double root t = b/a: use it directly",
     "instance": "Qt = 2 I", "test": "test_identity_qt_double_root"},
    # --- notebook 03: Listing 1 --------------------------------------------------------------------------------
    {"where": "Listing 1, footnote of point c)", "notebook": "03", "kind": "slip",
     "paper": "alternatively use the reflection diag(-1, 1) instead of -I at lines 7-10",
     "correct": "then every sign fix is a reflection: point d)'s single reflection at the end (iff det D = -1) no "
                "longer holds; det +1 matrices can get 2 or more reflections",
     "instance": "random D in O(6): reflections counted with both variants",
     "test": "test_listing_1_footnote_moves_the_reflection"},
)


def all_errata() -> tuple[dict, ...]:
    """The errata of unnumbered text (ERRATA), then those the ledger keeps with its numbered statements.

    Returns
    -------
    tuple of dict
        One dict per erratum (the keys of :data:`ERRATA`).
    """
    return ERRATA + tuple(e for row in LEDGER for e in row.get("errata", ()))


def errata_rows(notebook: str | None = None) -> list[dict]:
    """The rows of :func:`all_errata` shown in ``notebook``, or all of them.

    Parameters
    ----------
    notebook : str, optional
        "01", "02", "03", "05", ...; None for all.

    Returns
    -------
    list of dict
        The rows.

    Raises
    ------
    ValueError
        If no erratum is shown in ``notebook``.
    """
    rows = all_errata()
    if notebook is not None and notebook not in {r["notebook"] for r in rows}:
        raise ValueError(f"notebook must be one of {sorted({r['notebook'] for r in rows})}, got {notebook!r}")
    return [r for r in rows if notebook is None or r["notebook"] == notebook]

