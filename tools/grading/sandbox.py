"""Run a command on a scratch folder, confined: bubblewrap where it works, else process group + rlimits.

**bwrap mode** (``bwrap`` on PATH and able to start a sandbox here): new mount, PID, network, IPC and UTS
namespaces (no network, no view of the grader's processes or its command line); run by a normal user
also a user namespace (``--unshare-all``); run by root, no user namespace but the command drops to a
user id of its own inside (so that ``RLIMIT_NPROC`` bounds it and it owns nothing of the grader's).
The file system holds only ``/usr``, ``/etc``, the Python environment and the ``obcd_lite``
package, all read-only, a private ``/tmp`` and ``/proc``, and the scratch folder at ``/grade``
(a copy of the submission, nothing else of the grader). ``--die-with-parent``: the sandbox dies with
the grader. When the command ends or runs out of time, its PID namespace is torn down, which kills
every process it started (``setsid`` daemons included).

**fallback mode** (no bwrap): the command runs in its own session (process group), with the same
rlimits, in the scratch folder, with a clean environment; at the end its process group is killed.
Run as root, where Python is readable by other users (:func:`fallback_uid_works`), it also runs under a
user id of its own (so ``RLIMIT_NPROC`` bounds it, it cannot write the grader's files, and every process
of that id is killed at the end, daemons included). It does NOT
hide the file system: a submission can read every world-readable file (the instructor notebooks too).

In both modes: ``RLIMIT_CPU`` (CPU seconds), ``RLIMIT_AS`` (memory), ``RLIMIT_FSIZE`` (the largest file
it may write), ``RLIMIT_NPROC`` (processes and threads) and a wall-clock budget; stdout and stderr go to
files, never to a pipe the grader waits on.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

#: Where the scratch folder appears inside a bwrap sandbox.
INSIDE = "/grade"


@dataclasses.dataclass(frozen=True)
class Limits:
    """The budget of one sandboxed run.

    Attributes
    ----------
    wall : float
        Wall-clock seconds before the whole run is killed (a liveness bound).
    cell : float
        Seconds one cell may run before the kernel is interrupted.
    cpu : int
        CPU seconds of each process (RLIMIT_CPU).
    memory : int
        Bytes of address space of each process (RLIMIT_AS).
    output : int
        Bytes of the largest file it may write (RLIMIT_FSIZE).
    nproc : int
        Processes and threads of its user id (RLIMIT_NPROC; root is exempt unless it runs under its own id).
    """

    wall: float = 900.0
    cell: float = 300.0
    cpu: int = 900
    memory: int = 6 << 30
    output: int = 64 << 20
    nproc: int = 512

    def __post_init__(self):
        for name in ("wall", "cell", "cpu", "memory", "output", "nproc"):
            value = getattr(self, name)
            if not value > 0:
                raise ValueError(f"Limits.{name} must be positive, got {value!r}")


@dataclasses.dataclass
class Outcome:
    """What happened to a sandboxed run: its return code (None if killed), whether the wall budget ran out."""

    returncode: int | None
    timed_out: bool
    mode: str
    leftovers: int = 0  # processes of its user id still alive after the end (killed then)


@functools.lru_cache(maxsize=1)
def bwrap_works() -> bool:
    """Whether ``bwrap`` is installed and can start a sandbox here (as root: namespaces without a user
    namespace, then a user id of its own; otherwise: all namespaces, as the grader's user)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return False
    probe = [sys.executable, "-c", "import os"]
    if os.geteuid() == 0:
        probe = [sys.executable, "-c", _LAUNCH.format(uid=64999, argv=["/bin/true"])]
    try:
        done = subprocess.run(_bwrap_command(probe, None), capture_output=True, timeout=120, start_new_session=True)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


#: Inside the sandbox (root only): become the grading user id, then run the command.
_LAUNCH = "import os; os.setgroups([]); os.setgid({uid}); os.setuid({uid}); os.execv({argv}[0], {argv})"


def _bwrap_command(command: list[str], box: Path | None) -> list[str]:
    if os.geteuid() == 0:  # privileged bwrap: no user namespace, so that the user id of its own is a real one
        unshare = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    else:
        unshare = ["--unshare-all"]
    binds, dirs = _system_binds(), []
    for path in dict.fromkeys([Path(sys.prefix), Path(sys.base_prefix), *_package_paths()]):
        if str(path.resolve()).startswith("/usr/"):
            continue
        for parent in reversed(path.parents[:-1]):  # parents made traversable (/root is 0700 on the host)
            if str(parent) not in dirs and parent != Path("/tmp"):  # /tmp: the sandbox's own tmpfs, as is
                dirs += [str(parent)]
        binds += ["--ro-bind", str(path), str(path)]
    made = [arg for d in dirs for arg in ("--perms", "0755", "--dir", d)]
    scratch = ["--bind", str(box), INSIDE, "--chdir", INSIDE] if box is not None else []
    # The private /tmp first, then the binds: a checkout or venv that lies under /tmp (a CI clone) is mounted
    # on top of it instead of being hidden by it.
    return [shutil.which("bwrap"), *unshare, "--die-with-parent", "--new-session", "--tmpfs", "/tmp", *made,
            *binds, "--proc", "/proc", "--dev", "/dev", *scratch, "--", *command]


def _package_paths() -> list[Path]:
    import obcd_lite

    return [Path(obcd_lite.__file__).resolve().parent]


@functools.lru_cache(maxsize=1)
def fallback_uid_works() -> bool:
    """Whether (as root) Python runs under a user id of its own here: not when it is installed where only
    root can read (e.g. under /root). Without, the fallback runs as the grader's user (docs/course.md)."""
    if os.geteuid() != 0:
        return False
    try:
        done = subprocess.run([sys.executable, "-c", "import nbclient, obcd_lite"], capture_output=True, timeout=120,
                              preexec_fn=_drop_to(64998), cwd="/", env={"PYTHONPATH": str(_package_paths()[0].parent)})
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _system_binds() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
    for top in ("/bin", "/sbin", "/lib", "/lib64", "/lib32"):
        path = Path(top)
        if path.is_symlink():
            args += ["--symlink", os.readlink(top), top]
        elif path.is_dir():
            args += ["--ro-bind", top, top]
    return args


def _drop_to(uid: int | None):
    """A preexec function: own session, and (as root) the given user id with no groups."""
    def preexec():
        os.setsid()
        if uid is not None:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
    return preexec


def _rlimits(limits: Limits, uid: int | None):
    nproc = limits.nproc
    drop = uid if uid is not None and uid >= 0 else None
    if uid is None:  # our own user id: the limit counts every process of the user, so add theirs
        nproc += _processes_of(os.getuid())

    def preexec():
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 5))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory, limits.memory))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.output, limits.output))
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        _drop_to(drop)()
    return preexec


def _processes_of(uid: int) -> int:
    """The tasks (threads included: RLIMIT_NPROC counts them) of the user ``uid``."""
    import psutil

    return sum(p.info["num_threads"] or 1 for p in psutil.process_iter(["uids", "num_threads"])
               if p.info["uids"] and p.info["uids"].real == uid)


def kill_user(uid: int) -> int:
    """SIGKILL every process of ``uid`` (a grading uid: nothing else runs under it); returns how many."""
    import psutil

    if uid in (0, os.getuid()):
        raise ValueError(f"uid must be a grading user id, not {uid}")
    killed = 0
    for _ in range(5):  # a fork bomb may spawn while we kill: repeat until none is left
        victims = [p for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == uid]
        if not victims:
            break
        for p in victims:
            try:
                p.kill()
                killed += 1
            except psutil.Error:
                pass
        psutil.wait_procs(victims, timeout=5)
    return killed


def numba_cache_copy(package: Path, dest: Path) -> None:
    """Copy the package's compiled numba cache (``__pycache__/*.nbi, *.nbc``) into ``dest`` laid out as
    numba's ``NUMBA_CACHE_DIR`` expects, so that the sandbox (whose package is read-only) loads it instead
    of compiling for minutes; a copy per run, so one submission cannot poison another's cache."""
    for cache in package.rglob("__pycache__"):
        files = [f for f in cache.iterdir() if f.suffix in (".nbi", ".nbc")]
        if not files:
            continue
        source_dir = str(cache.parent.resolve())
        target = dest / f"{Path(source_dir).name}_{hashlib.sha1(source_dir.encode()).hexdigest()}"
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            shutil.copyfile(f, target / f.name)


def run(box: Path, argv: list[str], limits: Limits, uid: int | None, package_root: Path,
        log: Path, use_bwrap: bool | None = None) -> Outcome:
    """Run ``argv`` (paths inside the box written as ``{box}``) confined to the scratch folder ``box``.

    Parameters
    ----------
    box : pathlib.Path
        The scratch folder (owned by ``uid``): the only writable place.
    argv : list of str
        The command; ``{box}`` in an argument is replaced by where the box is seen from inside.
    limits : Limits
        The budget.
    uid : int or None
        A user id of its own (root only), or None to run as the grader's user.
    package_root : pathlib.Path
        The folder holding ``obcd_lite`` (bound read-only; nothing else of it is).
    log : pathlib.Path
        Receives stdout and stderr (a file, so that a left-over child holding it cannot stall the grader).
    use_bwrap : bool, optional
        Force a mode (default: bwrap where :func:`bwrap_works`).

    Returns
    -------
    Outcome
        The return code and whether the wall budget ran out.
    """
    if uid is not None and os.geteuid() != 0:
        raise ValueError(f"uid={uid} needs the grader to run as root")
    use_bwrap = bwrap_works() if use_bwrap is None else use_bwrap
    inside = INSIDE if use_bwrap else str(box)
    env = {"HOME": inside, "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "LANG": "C.UTF-8",
           "PYTHONPATH": str(package_root), "MPLCONFIGDIR": f"{inside}/.config/matplotlib", "MPLBACKEND": "agg",
           "JUPYTER_RUNTIME_DIR": f"{inside}/.jupyter", "JUPYTER_CONFIG_DIR": f"{inside}/.jupyter",
           "IPYTHONDIR": f"{inside}/.ipython", "NUMBA_CACHE_DIR": f"{inside}/.numba", "TMPDIR": f"{inside}/.tmp",
           "PYDEVD_DISABLE_FILE_VALIDATION": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "NUMBA_NUM_THREADS": "1"}
    (box / ".tmp").mkdir(exist_ok=True)
    numba_cache_copy(package_root / "obcd_lite", box / ".numba")
    command = [a.replace("{box}", inside) for a in argv]
    if use_bwrap:
        if uid is not None:  # bwrap runs as root (to mount); the command as the grading user id
            command = [sys.executable, "-c", _LAUNCH.format(uid=uid, argv=command)]
        command = _bwrap_command(command, box)
        preexec = _rlimits(limits, None if uid is None else -1)
    else:
        if uid is not None and not fallback_uid_works():
            uid = None  # Python is unreadable to other users here: the fallback runs as the grader's user
        preexec = _rlimits(limits, uid)
    if uid is not None:
        for path in [box, *box.rglob("*")]:
            os.lchown(path, uid, uid)
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, cwd=box, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                preexec_fn=preexec, close_fds=True)
        timed_out = False
        try:
            returncode = proc.wait(timeout=limits.wall)
        except subprocess.TimeoutExpired:
            timed_out, returncode = True, None
        finally:
            _kill_group(proc.pid)
            proc.wait()
    leftovers = kill_user(uid) if uid is not None else 0
    return Outcome(returncode, timed_out, "bwrap" if use_bwrap else "fallback", leftovers)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
