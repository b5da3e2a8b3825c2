"""Compile a numba function once per penalty family, so that a notebook compiles only what it runs.

OBCD's compiled sweep handles every built-in penalty; numba compiles every function a kernel can
call, whichever penalty a run has, so the first l1 solve also compiled l0's candidate search and
capped l1's sort (about half the compile time of notebook 00's first picture). :func:`specialised`
makes copies of one plain Python function that read a few module-level flags (``HAS_L0``,
``HAS_CAPPED``, the callees to use) from their own globals: numba freezes globals as constants and
drops a branch such as ``if HAS_L0 and kind == L0_KIND`` before typing it, so a copy without l0
never compiles l0's functions. The code is written once; each copy runs exactly the same operations
as the all-penalty copy on the penalties it handles (the tests of equal iterates check).

Each copy is cached on disk on its own (``cache=True``: its own name, hence its own cache file).
A copy must only be called for the penalties its flags allow; :func:`family` names the copy of a
penalty kind.
"""
from __future__ import annotations

import types

from numba import njit

from .penalties import CAPPED_KIND, L0_KIND

#: Flags of each copy: "all" (every penalty: the public functions), and one per penalty family.
FAMILIES = {"all": {"HAS_L0": True, "HAS_CAPPED": True},
            "plain": {"HAS_L0": False, "HAS_CAPPED": False},   # h = 0, l1, X >= 0
            "l0": {"HAS_L0": True, "HAS_CAPPED": False},
            "capped": {"HAS_L0": False, "HAS_CAPPED": True}}   # capped l1 (it falls back to l1 per block)


def family(kind: int) -> str:
    """The copy that handles the penalty ``kind`` with the least compiled.

    Parameters
    ----------
    kind : int
        A penalty kind, ``penalties.*_KIND``.

    Returns
    -------
    str
        "l0", "capped" or "plain" (h = 0, l1, X >= 0): a key of :data:`FAMILIES`.
    """
    return {L0_KIND: "l0", CAPPED_KIND: "capped"}.get(kind, "plain")


def specialised(function: types.FunctionType, name: str, *, cache: bool = True, **constants) -> object:
    """``njit(cache=cache)`` of a copy of ``function`` named ``name`` whose globals are the module's
    with ``constants`` put in (numba reads them as compile-time constants).

    Parameters
    ----------
    function : function
        A plain Python function (not jitted) of the module.
    name : str
        The copy's name (also its cache file's); unique in the module.
    cache : bool
        Cache the compiled copy on disk (numba's ``cache=True``); the package's copies all do.
    **constants
        Globals that replace the module's in this copy: flags, or the jitted callees to use.

    Returns
    -------
    numba.core.registry.CPUDispatcher
        The jitted copy.

    Raises
    ------
    TypeError
        If ``function`` is not a plain Python function.
    """
    if not isinstance(function, types.FunctionType):
        raise TypeError(f"function must be a plain Python function, got {type(function).__name__}")
    copy = types.FunctionType(function.__code__, {**function.__globals__, **constants}, name,
                              function.__defaults__, function.__closure__)
    copy.__qualname__ = name
    copy.__doc__ = function.__doc__
    copy.__module__ = function.__module__
    return njit(cache=cache)(copy)
