"""Solvers for min f(X) + h(X) on St(n, r): one module per method, one signature, one Result.

Every solver is called as ::

    solver(problem, X0, *, max_iter=None, time_limit=None, rng=None, callback=None,
           log_every=..., **options) -> Result

and declines a problem it cannot handle with an ``UnsupportedProblemError`` (a ``NotImplementedError``)
naming the penalty,
before doing any work. The infeasible (splitting / penalty) baselines "soc", "radmm" and "psm"
return their copy of X on St(n, r), scored honestly (:mod:`obcd_lite.solvers.infeasible`).
OBCD's nearest relatives, each dropping one of its ingredients (docs/relatives.md): "rcd"
(Riemannian coordinate descent: one angle step, rotations only), "obcd_rot" (the exact search on
rotations only) and "obcd_step" (one Cayley step per block instead of the global solve).
:data:`SOLVERS` maps the registry names to the functions; the modules are
``obcd_lite.solvers.<name>`` (``from obcd_lite import obcd`` is the function).
"""
from __future__ import annotations

from .cayley import cayley_method
from .manpg import manpg, manpg_ada, manpg_subproblem
from .obcd import obcd, working_sets
from .obcd_rot import obcd_rot
from .obcd_step import obcd_step
from .psm import psm
from .radmm import radmm
from .rcd import rcd
from .rsubgrad import rsubgrad
from .soc import soc

#: Registry name -> solver function.
SOLVERS = {
    "obcd": obcd,
    "cayley": cayley_method,
    "manpg": manpg,
    "manpg_ada": manpg_ada,
    "rsubgrad": rsubgrad,
    "soc": soc,
    "radmm": radmm,
    "psm": psm,
    "rcd": rcd,
    "obcd_rot": obcd_rot,
    "obcd_step": obcd_step,
}


def get_solver(name: str):
    """The solver registered as ``name``.

    Parameters
    ----------
    name : str
        A key of :data:`SOLVERS`.

    Returns
    -------
    callable
        ``solver(problem, X0, *, max_iter, time_limit, rng, callback, log_every, **options) -> Result``.

    Raises
    ------
    ValueError
        If ``name`` is unknown (the message lists the valid ones).
    """
    try:
        return SOLVERS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown solver {name!r}; valid names: {', '.join(sorted(SOLVERS))}") from None


__all__ = ["SOLVERS", "get_solver", "obcd", "cayley_method", "working_sets", "manpg", "manpg_ada",
           "manpg_subproblem", "rsubgrad", "soc", "radmm", "psm", "rcd", "obcd_rot", "obcd_step"]
