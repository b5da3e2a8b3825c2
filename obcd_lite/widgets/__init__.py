"""ipywidgets wiring only, one pattern (:mod:`.base`): compute in ``teaching``, figures in ``viz``."""
from .base import Explorer, explorer

__all__ = ["Explorer", "explorer"]
