"""Optimality along the paper's hierarchy: critical ⊇ BS₂ ⊇ BS₃ ⊇ … ⊇ global (Section 3).

* :mod:`.block_stationarity` — BS_k (Definition 3.6): ``block_gaps``, ``is_block_stationary``;
  ``riemannian_gradient_norm`` (criticality for h = 0).
"""
from .block_stationarity import block_gaps, is_block_stationary, riemannian_gradient_norm

__all__ = ["block_gaps", "is_block_stationary", "riemannian_gradient_norm"]
