"""The stored records of ``benchmarks/own_problem.py`` (issue 36): loaded and checked here, drawn by
:func:`obcd_lite.viz.benchmark.own_problem_figure`.

The file (``docs/benchmarks/own_problem.json``, written by ``own_problem.py --json``) holds ``"smooth"``: one
record per (problem, n, solver) of the h = 0 table, and ``"l1"``: one per solver of the l1-PCA table, plus
``"meta"`` (sizes, repeats, budgets, load). A smooth record's ``seconds`` lists the time to trust regions'
final cost of each repeat, ``None`` where the run did not reach it within ``budget`` seconds; ``tr_median`` is
trust regions' median time to it. :func:`time_ratio` reads one record as the figure does.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

#: The committed run, relative to the repository root.
DEFAULT_RECORDS = Path(__file__).resolve().parents[2] / "docs" / "benchmarks" / "own_problem.json"
#: The keys every h = 0 record has, and their types.
SMOOTH_FIELDS = {"problem": str, "n": int, "r": int, "solver": str, "seconds": list, "tr_median": float,
                 "budget": float, "iterations": int, "gap": float, "stationarity": float, "load": float}


def load_own_problem(path=None) -> dict:
    """The records of a run of ``benchmarks/own_problem.py --json``, checked (:func:`check_records`).

    Parameters
    ----------
    path : str or pathlib.Path, optional
        The file; None: the committed run (:data:`DEFAULT_RECORDS`).

    Returns
    -------
    dict
        ``{"smooth": [...], "l1": [...], "meta": {...}}``.

    Raises
    ------
    FileNotFoundError
        Naming the path (a wheel without the repository's docs has no committed run: pass a path).
    ValueError
        For a file that is not JSON, or records :func:`check_records` refuses.
    """
    path = DEFAULT_RECORDS if path is None else Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no benchmark records at {path}: run benchmarks/own_problem.py --json {path}")
    try:
        records = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"the benchmark records at {path} are not JSON ({exc})") from exc
    return check_records(records)


def check_records(records) -> dict:
    """Check the structure of benchmark records; return them.

    Parameters
    ----------
    records : dict
        With a list ``"smooth"`` of dicts with the keys and types of :data:`SMOOTH_FIELDS` (``tr_median`` > 0;
        ``seconds`` a non-empty list of positive numbers or None; ``budget`` > 0).

    Returns
    -------
    dict
        ``records``, unchanged.

    Raises
    ------
    TypeError
        When ``records`` is not a dict or ``"smooth"`` not a list of dicts.
    ValueError
        Naming the record (its index, problem, n and solver) and the key that is missing or wrong.
    """
    if not isinstance(records, dict):
        raise TypeError(f"records must be a dict with a 'smooth' list, got {type(records).__name__}")
    smooth = records.get("smooth")
    if not isinstance(smooth, list) or not smooth:
        raise ValueError(f"records['smooth'] must be a non-empty list of records, got {smooth!r:.80}")
    for index, record in enumerate(smooth):
        if not isinstance(record, dict):
            raise TypeError(f"records['smooth'][{index}] must be a dict, got {type(record).__name__}")
        name = f"records['smooth'][{index}] ({record.get('problem')!r}, n = {record.get('n')!r}, " \
               f"{record.get('solver')!r})"
        for key, kind in SMOOTH_FIELDS.items():
            if key not in record:
                raise ValueError(f"{name} has no {key!r}")
            value = record[key]
            ok = (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
                  if kind is float else isinstance(value, kind) and not isinstance(value, bool))
            if not ok:
                raise ValueError(f"{name}: {key} must be a {'finite number' if kind is float else kind.__name__}, "
                                 f"got {key} = {value!r}")
        for key in ("tr_median", "budget"):
            if not record[key] > 0:
                raise ValueError(f"{name}: {key} must be > 0, got {key} = {record[key]!r}")
        seconds = record["seconds"]
        if not seconds or not all(s is None or (isinstance(s, (int, float)) and not isinstance(s, bool)
                                                and math.isfinite(s) and s > 0) for s in seconds):
            raise ValueError(f"{name}: seconds must be a non-empty list of positive times or None (not reached), "
                             f"got seconds = {seconds!r}")
    return records


def time_ratio(record: dict) -> tuple[float, bool]:
    """A record's time to trust regions' cost over trust regions' time.

    Parameters
    ----------
    record : dict
        A checked h = 0 record.

    Returns
    -------
    tuple
        ``(ratio, reached)``: the median time over ``tr_median`` when every repeat reached the cost; else
        ``budget / tr_median`` (a lower bound: the run had not reached it by then) and False.
    """
    seconds = record["seconds"]
    if any(s is None for s in seconds):
        return record["budget"] / record["tr_median"], False
    ordered = sorted(seconds)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else 0.5 * (ordered[middle - 1] + ordered[middle])
    return median / record["tr_median"], True
