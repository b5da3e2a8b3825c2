"""The sandbox itself (tools/grading/sandbox.py), on small scripts: what it hides, what it limits, what it kills."""
from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from grading import sandbox  # noqa: E402

pytestmark = pytest.mark.skipif(not sandbox.bwrap_works() and not os.environ.get("CI"),
                                 reason="bubblewrap (bwrap) cannot start a sandbox here (under CI this fails instead)")
UID = 1_000_000 + (os.getpid() % 100_000) * 1000 + 999 if os.geteuid() == 0 else None


def run(script: str, **limits):
    """Run ``script`` in a bwrap sandbox; returns the outcome and what the script wrote to result.json."""
    base = Path(tempfile.mkdtemp(prefix="obcd-sandbox-test-"))
    os.chmod(base, 0o711)
    box = base / "box"
    box.mkdir()
    (box / "script.py").write_text(script)
    outcome = sandbox.run(box, [sys.executable, "{box}/script.py"], sandbox.Limits(**limits), UID, ROOT,
                          base / "log.txt")
    result = box / "result.json"
    return outcome, json.loads(result.read_text()) if result.exists() else None, (base / "log.txt").read_text()


def test_the_file_system_holds_the_scratch_folder_and_read_only_code_only(tmp_path):
    """The sandbox sees the package and the Python it runs (read-only), never the notebooks or the hidden tests,
    cannot write into the package, and has no network: a server listening on the grader's own loopback (the
    only address this test ever connects to) is out of its reach."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    secret = ROOT / "notebooks" / "01_rotation_vs_reflection.ipynb"
    outcome, result, log = run(f'''
import json, os, socket
seen = {{"notebooks": os.path.exists({str(secret)!r}), "repo": sorted(os.listdir({str(ROOT)!r})),
        "cwd": os.getcwd(), "pid1": open("/proc/1/cmdline").read().split(chr(0))[0]}}
try:
    open({str(ROOT / "obcd_lite" / "planted.py")!r}, "w")
    seen["wrote_package"] = True
except OSError:
    seen["wrote_package"] = False
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=3)
    seen["network"] = True
except OSError:
    seen["network"] = False
json.dump(seen, open("result.json", "w"))
''')
    server.close()
    assert outcome.mode == "bwrap" and outcome.returncode == 0, log
    # the venv the sandbox runs is mounted read-only; where it lies inside the checkout (make's .venv) it shows
    venv = Path(sys.prefix).resolve()
    inside = [venv.relative_to(ROOT).parts[0]] if venv.is_relative_to(ROOT) else []
    assert result == {"notebooks": False, "repo": sorted(["obcd_lite", *inside]), "cwd": sandbox.INSIDE,
                      "pid1": result["pid1"], "wrote_package": False, "network": False}
    assert not accepted  # nothing reached the grader's loopback from inside
    assert "assign.py" not in result["pid1"]  # PID 1 is the sandbox's, not the grader


def test_a_setsid_daemon_is_killed_with_the_sandbox():
    outcome, _, log = run('''
import subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "obcd-sandbox-daemon"], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
''')
    assert outcome.returncode == 0, log
    assert not [p for p in psutil.process_iter(["cmdline"])
                if "obcd-sandbox-daemon" in " ".join(p.info["cmdline"] or [])]


def test_the_wall_clock_budget_stops_a_sleeping_script():
    outcome, _, _ = run("import time\ntime.sleep(600)", wall=5.0)
    assert outcome.timed_out and outcome.returncode is None


def test_cpu_memory_and_output_limits():
    outcome, _, _ = run("while True:\n    pass", cpu=2, wall=120.0)
    assert not outcome.timed_out and outcome.returncode != 0  # SIGXCPU
    outcome, result, log = run('''
import json
try:
    block = bytearray(3 << 30)
    grew = True
except MemoryError:
    grew = False
try:
    open("big", "wb").write(bytes(4 << 20))
    wrote = True
except OSError:
    wrote = False
json.dump({"grew": grew, "wrote": wrote}, open("result.json", "w"))
''', memory=2 << 30, output=1 << 20)
    assert result == {"grew": False, "wrote": False}, log


def test_a_fork_bomb_meets_the_process_limit():
    if UID is None:
        pytest.skip("RLIMIT_NPROC bounds a sandbox only under a user id of its own, i.e. when the grader runs as root")
    bomb = (Path(__file__).with_name("spoofs") / "fork_bomb.py").read_text()
    outcome, result, log = run(bomb + '\nimport json\njson.dump({"children": children}, open("result.json", "w"))\n',
                               nproc=40)
    assert result is not None and result["children"] < 40, log
    assert not [p for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == UID]
