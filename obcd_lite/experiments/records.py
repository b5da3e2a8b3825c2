"""What the experiment runner keeps: records, histories and points of a grid (:class:`Experiment`), saving and
loading them, resuming a grid from them, checkpoints, and the time each run needs to reach its instance's best F.

Records hold one row per run (:data:`RECORD_COLUMNS`); a run that raised has stop reason :data:`FAILED`.
A grid resumes from a previous experiment of the same budget, sizes and data (:func:`reusable_runs`, checked
before any run): its finished runs are taken over, identified by :data:`IDENTITY`. The grid itself: :mod:`.runner`.

A checkpoint file cannot be lost: :func:`prepare_checkpoint` checks its folder and any experiment already in it
before the first run, and claims the file for this grid's settings; :func:`write_checkpoint` writes each time
through a temporary file of its own in the same folder, renamed over the file (``os.replace``, atomic) under an
exclusive lock (``fcntl.flock`` on ``<file>.lock``), after merging the runs another writer put there
(:func:`merge_experiments`). Two grids, threads or processes may share one checkpoint: it ends up with the runs of
both; a writer killed at any moment leaves the last complete file (and at worst a stray ``<file>.*.tmp``).
A file that is not a whole pickled :class:`Experiment` is named as corrupt/truncated (:func:`load_experiment`).
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import tempfile
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..validation import check_nonnegative

#: Relative tolerance of :func:`time_to_target`.
TARGET_RTOL = 1e-6
#: The stop reason of a run that raised (its error column holds the exception) or whose worker died.
FAILED = "failed"
#: Seconds between two writes of ``run_experiment(checkpoint=...)`` (and one at the end).
CHECKPOINT_EVERY = 10.0
#: The budget every run of a resumed grid or of one checkpoint file shares.
BUDGET_SETTINGS = ("time_limit", "max_iter", "options")
#: The sizes asked for that every run of a resumed grid or of one checkpoint file shares.
SIZE_SETTINGS = ("m", "n", "r")

#: The columns of the table :func:`~.runner.run_experiment` returns, one row per run.
RECORD_COLUMNS = ("run", "method", "problem", "dataset", "m", "n", "r", "lam", "scale", "seed", "start", "F",
                  "feasibility", "nnz", "density", "explained_variance", "negativity", "surrogate", "seconds",
                  "iterations", "stop_reason", "error")


@dataclass
class Experiment:
    """What :func:`~.runner.run_experiment` returns.

    Attributes
    ----------
    records : pandas.DataFrame
        One row per run (columns :data:`RECORD_COLUMNS`).
    histories : pandas.DataFrame
        The solvers' history rows, long format, with the run's identifying columns.
    points : dict
        run -> the returned X.
    datasets : dict
        (name, m, n, seed) -> the :class:`~obcd_lite.data.Dataset` used (empty once saved).
    settings : dict
        The budget (``time_limit``, ``max_iter``, ``options``), the sizes asked for (``m``, ``n``, ``r``) and
        the data digests (``digests``: (name, m, n, seed) -> digest), for ``resume`` and ``checkpoint``.
    """

    records: pd.DataFrame
    histories: pd.DataFrame
    points: dict = field(default_factory=dict, repr=False)
    datasets: dict = field(default_factory=dict, repr=False)
    settings: dict = field(default_factory=dict, repr=False)

    def save(self, path) -> None:
        """Write the experiment to ``path`` (a pickle; :func:`load_experiment` reads it back) without
        the data sets, which can be large (a 5000 x 5000 C) and are rebuilt from their seeds by
        :func:`~obcd_lite.data.load_dataset` (their digests stay in ``settings`` for ``resume``).
        The file is replaced whole (a temporary file of its own, then ``os.replace``): a save killed
        midway leaves the previous file.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write.
        """
        path = os.fspath(path)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)),
                                         prefix=f"{os.path.basename(path)}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as file:
                pickle.dump(dataclasses.replace(self, datasets={}), file)
                file.flush()
                os.fsync(file.fileno())  # on disk before the rename makes it the file
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


def load_experiment(path) -> Experiment:
    """An :class:`Experiment` written by :meth:`Experiment.save` (or by ``run_experiment(checkpoint=...)``).

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.

    Returns
    -------
    Experiment
        The saved experiment (its ``datasets`` empty).

    Raises
    ------
    ValueError
        If the file is corrupt/truncated: empty, cut short or not a pickle.
    TypeError
        If the file holds something else.
    """
    try:
        with open(path, "rb") as file:
            experiment = pickle.load(file)
    except OSError:
        raise  # no such file, no permission: said by the OS, naming the path
    except Exception as exc:  # noqa: BLE001 (any garbage: EOFError, UnpicklingError, ValueError, ...)
        raise ValueError(f"{os.fspath(path)!r} is corrupt/truncated: it is not a whole saved Experiment "
                         f"({type(exc).__name__}: {exc}); delete it or use another copy") from exc
    if not isinstance(experiment, Experiment):
        raise TypeError(f"{os.fspath(path)!r} holds a {type(experiment).__name__}, not an Experiment")
    return experiment


#: The columns that identify a run across calls (for ``resume``).
IDENTITY = ("method", "problem", "dataset", "m", "n", "r", "lam", "scale", "seed", "start")


def run_identity(row: dict) -> tuple:
    """The values of :data:`IDENTITY` of a run, NaN written "nan" (so that a nonneg run's NaN lam matches itself).

    Parameters
    ----------
    row : dict
        A record (or the identity of a run being set up).

    Returns
    -------
    tuple
        Hashable: the key of the run across calls.
    """
    return tuple("nan" if isinstance(row[k], float) and np.isnan(row[k]) else row[k] for k in IDENTITY)


def check_settings(saved: dict, settings: dict, what: str) -> None:
    """Raise unless runs of ``saved`` settings and of ``settings`` may stand in one experiment: the same
    budget (:data:`BUDGET_SETTINGS`), the same sizes (:data:`SIZE_SETTINGS`; not checked against a file
    written before they were recorded) and the same digest for every data set both have.

    Parameters
    ----------
    saved : dict
        The settings of the experiment already there (``Experiment.settings``).
    settings : dict
        This grid's settings.
    what : str
        How the error names the saved experiment ("resume: the previous experiment").

    Raises
    ------
    ValueError
        Naming each setting that differs, with both values, or the data set whose digest differs.
    """
    differ = [key for key in BUDGET_SETTINGS if saved.get(key) != settings[key]]
    differ += [key for key in SIZE_SETTINGS if key in saved and saved[key] != settings[key]]
    if differ:
        raise ValueError(f"{what} ran with " + ", ".join(f"{key} = {saved.get(key)!r}" for key in differ)
                         + ", this call has " + ", ".join(f"{key} = {settings[key]!r}" for key in differ)
                         + "; runs of one experiment share their budget, options and sizes")
    for key, digest in saved.get("digests", {}).items():
        if key in settings["digests"] and digest != settings["digests"][key]:
            raise ValueError(f"{what}: its data set {key} differs from this call's (another machine rounds "
                             "A^T A differently); rerun it instead")


def _runs(experiment: Experiment) -> dict:
    """:func:`run_identity` -> (record, history frame or None, X or None) of every run of ``experiment``."""
    histories = dict(tuple(experiment.histories.groupby("run"))) if len(experiment.histories) else {}
    return {run_identity(record): (record, histories.get(record["run"]), experiment.points.get(record["run"]))
            for record in experiment.records.to_dict("records")}


def reusable_runs(resume, settings: dict, grid) -> dict:
    """The finished runs of a previous experiment that this grid takes over; checked before any run.

    Parameters
    ----------
    resume : Experiment or str or os.PathLike or None
        The previous experiment, or the path of one saved by :meth:`Experiment.save`; None: nothing to take over.
    settings : dict
        This grid's settings (budget, sizes and digests, as ``Experiment.settings`` holds them).
    grid : iterable of dict
        The identities (:data:`IDENTITY`) of this grid's runs.

    Returns
    -------
    dict
        :func:`run_identity` -> (record, history frame or None, X or None), every run but the failed ones.

    Raises
    ------
    ValueError
        If the previous experiment ran with another budget, options or sizes, or on other data, if its file is
        corrupt/truncated, or if it has finished runs but none of them belongs to this grid (the values that
        differ are named).
    FileNotFoundError
        If ``resume`` names no file.
    """
    if resume is None:
        return {}
    if not isinstance(resume, Experiment):
        if not os.path.exists(resume):
            raise FileNotFoundError(f"resume = {os.fspath(resume)!r}: no such file")
        resume = load_experiment(resume)
    check_settings(resume.settings, settings, "resume: the previous experiment")
    finished = {key: run for key, run in _runs(resume).items() if run[0]["stop_reason"] != FAILED}
    grid = {run_identity(ident) for ident in grid}
    if finished and not set(finished) & grid:
        theirs = [set(column) for column in zip(*finished)]
        ours = [set(column) for column in zip(*grid)]
        disjoint = [i for i in range(len(IDENTITY)) if not theirs[i] & ours[i]] or range(len(IDENTITY))
        raise ValueError(f"resume: none of the previous experiment's {len(finished)} finished runs is a run of this "
                         "grid (" + "; ".join(f"{IDENTITY[i]}: it has {sorted(map(str, theirs[i]))}, this call "
                                              f"{sorted(map(str, ours[i]))}" for i in disjoint if theirs[i] != ours[i])
                         + "); drop resume= to run this grid afresh (one checkpoint file keeps the runs of several "
                         "grids of one budget)")
    return {key: run for key, run in finished.items() if key in grid}


def failed_record(ident: dict, error: BaseException) -> dict:
    """The record of a run that raised: its identity, the error, no values.

    Parameters
    ----------
    ident : dict
        The run's identifying columns (``run`` and :data:`IDENTITY`).
    error : BaseException
        What it raised (or what killed its worker).

    Returns
    -------
    dict
        The record, stop reason :data:`FAILED`.
    """
    return {**ident, "F": np.nan, "seconds": np.nan, "iterations": 0, "stop_reason": FAILED,
            "error": f"{type(error).__name__}: {error}"}


def assemble(records: dict, histories: dict, points: dict, data: dict, settings: dict) -> Experiment:
    """The :class:`Experiment` of the runs so far, sorted by run.

    Parameters
    ----------
    records : dict
        run -> its record.
    histories : dict
        run -> its history frame.
    points : dict
        run -> the returned X.
    data : dict
        (name, m, n, seed) -> the data set.
    settings : dict
        The budget and the data digests.

    Returns
    -------
    Experiment
        Records with the columns :data:`RECORD_COLUMNS`, histories in one long frame.
    """
    history_frame = (pd.concat([histories[run] for run in sorted(histories)], ignore_index=True) if histories
                     else pd.DataFrame(columns=["run", "iteration", "seconds", "F", "feasibility", "nnz"]))
    return Experiment(records=pd.DataFrame([records[run] for run in sorted(records)], columns=list(RECORD_COLUMNS)),
                      histories=history_frame, points=dict(sorted(points.items())), datasets=data,
                      settings=dict(settings))


def merge_experiments(saved: Experiment, new: Experiment) -> Experiment:
    """The runs of both, one per identity (:data:`IDENTITY`): ``new``'s, except that a finished run of
    ``saved`` is never replaced by a failed one; ``saved``'s order first, renumbered from 0.

    Parameters
    ----------
    saved : Experiment
        What a checkpoint file holds (possibly written by another grid).
    new : Experiment
        This grid's runs so far; its settings must pass :func:`check_settings` against ``saved``'s.

    Returns
    -------
    Experiment
        Records, histories and points of the union; ``new``'s settings with the digests of both.
    """
    settings = {**new.settings, "digests": {**saved.settings.get("digests", {}), **new.settings.get("digests", {})}}
    if not len(saved.records):
        return dataclasses.replace(new, settings=settings)
    runs = _runs(saved)
    for key, run in _runs(new).items():
        if not (run[0]["stop_reason"] == FAILED and key in runs and runs[key][0]["stop_reason"] != FAILED):
            runs[key] = run
    records, histories, points = {}, {}, {}
    for number, (record, history, X) in enumerate(runs.values()):
        records[number] = {**record, "run": number}
        if history is not None:
            histories[number] = history.assign(run=number)
        if X is not None:
            points[number] = X
    return assemble(records, histories, points, new.datasets, settings)


@contextlib.contextmanager
def _locked(path: str):
    """Hold an exclusive lock on ``<path>.lock`` (``flock``: between processes and between threads,
    each opening the file anew); released by the OS if the holder dies. Without ``fcntl`` (Windows)
    writes are not serialised: one checkpoint per grid there."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover (POSIX here)
        yield
        return
    with open(f"{path}.lock", "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def prepare_checkpoint(path, settings: dict) -> str:
    """Before the first run: the checkpoint's folder exists and takes a new file; an experiment already in
    the file is readable and of this grid's settings; an absent file is written (empty, with these settings),
    so that a grid of other settings started later is refused before its first run too.

    Parameters
    ----------
    path : str or os.PathLike
        The checkpoint file.
    settings : dict
        This grid's settings (budget, sizes and digests).

    Returns
    -------
    str
        ``path`` as a string.

    Raises
    ------
    ValueError
        If the folder is missing or not writable, the path is a folder, the file is corrupt/truncated or
        holds runs of other settings (naming them).
    TypeError
        If ``path`` is not a path or the file holds something other than an Experiment.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"checkpoint must be a file path (str or os.PathLike), got checkpoint = {path!r}")
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"checkpoint = {path!r}: its folder {folder!r} does not exist; create it first "
                         "(nothing has run)")
    if os.path.isdir(path):
        raise ValueError(f"checkpoint = {path!r} is a folder; give a file in it")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f"{os.path.basename(path)}.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ValueError(f"checkpoint = {path!r}: cannot write in its folder {folder!r} ({exc})") from exc
    with _locked(path):
        if os.path.exists(path):
            check_settings(load_experiment(path).settings, settings, f"checkpoint: the file {path!r}")
        else:
            assemble({}, {}, {}, {}, settings).save(path)
    return path


def write_checkpoint(experiment: Experiment, path) -> None:
    """Merge ``experiment`` into the checkpoint file and replace it atomically, under the file's lock: runs
    another writer put there are kept (:func:`merge_experiments`); a writer killed at any moment leaves the
    last complete file.

    Parameters
    ----------
    experiment : Experiment
        The experiment so far.
    path : str or os.PathLike
        The checkpoint file (checked by :func:`prepare_checkpoint` before the first run).

    Raises
    ------
    ValueError
        If the file now holds runs of other settings or is corrupt/truncated (written meanwhile by another program).
    """
    path = os.fspath(path)
    with _locked(path):
        if os.path.exists(path):
            saved = load_experiment(path)
            check_settings(saved.settings, experiment.settings, f"checkpoint: the file {path!r}")
            experiment = merge_experiments(saved, experiment)
        experiment.save(path)


def time_to_target(experiment: Experiment, rtol: float = TARGET_RTOL, feasibility_tol: float = 1e-8) -> pd.DataFrame:
    """Seconds each run needs to come within ``rtol`` (relative) of the best F of its instance.

    An instance is (problem, dataset, m, n, r, lam, seed). Its best F is the smallest F found by
    any method: at a returned point (the records) or at a logged iterate with
    ``||X^T X - I||_F <= feasibility_tol`` (the histories; an infeasible iterate cannot set the
    target). A run reaches the target at its first such history row with
    F <= F_best + rtol |F_best| (NaN if never).

    Parameters
    ----------
    experiment : Experiment
        The output of :func:`~.runner.run_experiment`.
    rtol : float
        The relative tolerance, >= 0.
    feasibility_tol : float
        The largest ``||X^T X - I||_F`` of a logged iterate that may set or reach the target.

    Returns
    -------
    pandas.DataFrame
        One row per run: run, method, start, the instance's keys, F, F_best and ``seconds_to_target``.
    """
    rtol = check_nonnegative(rtol, "rtol")
    keys = ["problem", "dataset", "m", "n", "r", "lam", "seed"]
    rec = experiment.records.copy()
    rec["lam"] = rec["lam"].fillna(-1.0)  # NaN lam (nonneg) must still group
    hist = experiment.histories
    feasible = hist[hist["feasibility"] <= feasibility_tol]
    best_logged = feasible.groupby("run")["F"].min()
    rec["F_found"] = np.fmin(rec["F"].to_numpy(), rec["run"].map(best_logged).to_numpy(dtype=float))
    rec["F_best"] = rec.groupby(keys)["F_found"].transform("min")
    rec["target"] = rec["F_best"] + rtol * rec["F_best"].abs()
    times = []
    for row in rec.itertuples():
        h = feasible[feasible["run"] == row.run]
        hit = h[h["F"] <= row.target]
        times.append(float(hit["seconds"].iloc[0]) if len(hit) else np.nan)
    rec["seconds_to_target"] = times
    rec["lam"] = rec["lam"].replace(-1.0, np.nan)
    return rec[["run", "method", "start", *keys, "F", "F_best", "seconds_to_target"]]
