"""Coordinate-wise separable penalties h(X) = sum_ij h(X_ij) (assumption Asm-ii).

* :mod:`.base` — the interface every penalty implements (:class:`~.base.Penalty`: value, pieces along a
  line for the breakpoint search, sweep code, prox, subgradient, limiting subdifferential) and the zero
  rule (:func:`~.base.snap_zeros`, :func:`~.base.count_nonzeros`);
* :mod:`.builtin` — :class:`~.builtin.Zero`, :class:`~.builtin.L0`, :class:`~.builtin.L1`,
  :class:`~.builtin.CappedL1`, :class:`~.builtin.NonNeg`, each registered under its ``name`` in the one
  registry (:func:`~.base.penalty_class`, :func:`~.base.registered_name`; by name with weights:
  :func:`~.builtin.penalty_by_name`, the built-ins' names :data:`~.builtin.PENALTY_NAMES`);
* :mod:`.template` — a documented template for a penalty of your own (not imported here; the guide:
  ``docs/adding_a_penalty.md``).

Every name is imported from here: ``from obcd_lite.penalties import L1, penalty_by_name``.
"""
from .base import (CAPPED_KIND, L0_KIND, L1_KIND, NONNEG_KIND, ZERO_KIND, Penalty, build_penalty, count_nonzeros,
                   penalty_class, piece_midpoints, registered_name, registered_names, snap_zeros, zero_at,
                   zero_crossings)
from .builtin import PENALTY_NAMES, CappedL1, L0, L1, NonNeg, Zero, penalty_by_name

__all__ = ["CAPPED_KIND", "L0_KIND", "L1_KIND", "NONNEG_KIND", "ZERO_KIND", "Penalty", "build_penalty",
           "count_nonzeros", "penalty_class", "piece_midpoints", "registered_name", "registered_names",
           "snap_zeros", "zero_at", "zero_crossings", "PENALTY_NAMES", "CappedL1", "L0", "L1", "NonNeg", "Zero",
           "penalty_by_name"]
