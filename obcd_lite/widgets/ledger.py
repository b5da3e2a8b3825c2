"""The explorer of notebook 06: the ledger filtered by section and by verdict.

Compute: :func:`obcd_lite.teaching.ledger.ledger_rows`; figure:
:func:`obcd_lite.viz.ledger.verdict_figure`; wiring: :func:`obcd_lite.widgets.base.explorer`.
"""
from __future__ import annotations

import ipywidgets as widgets

from ..teaching.ledger import LEDGER, VERDICTS, ledger_rows, section_of
from ..viz.ledger import verdict_figure
from ..viz.tables import ledger_html
from .base import Explorer, explorer, slider_layout

SECTIONS = ("all", *sorted({section_of(r["label"]) for r in LEDGER}))


def select(section: str = "all", verdict: str = "all") -> list[dict]:
    """The ledger rows of one section with one verdict.

    Parameters
    ----------
    section : str, default "all"
        "all" or "2", "3", "4", "A", "B", "C".
    verdict : str, default "all"
        "all" or a verdict.

    Returns
    -------
    list of dict
        The rows.
    """
    return ledger_rows(None if section == "all" else section, None if verdict == "all" else verdict)


def build_explorer(section: str = "all", verdict: str = "all") -> Explorer:
    """Two dropdowns (section, verdict); shows the selected statements' verdicts and their table.

    Parameters
    ----------
    section, verdict : str
        The first selection, as for :func:`select`.

    Returns
    -------
    Explorer
        The explorer.
    """
    style = slider_layout()
    controls = {"section": widgets.Dropdown(options=SECTIONS, value=section, description="section", **style),
                "verdict": widgets.Dropdown(options=("all", *VERDICTS), value=verdict, description="verdict", **style)}
    return explorer(controls, select, lambda rows: verdict_figure(rows, f"{len(rows)} rows"),
                    summary=lambda rows: ledger_html(rows).html if rows else "no statement matches")
