"""Matplotlib figures only (one style and palette: :mod:`.style`); every number comes from the layers below."""
