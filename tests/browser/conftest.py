"""A private JupyterLab server and a headless Chromium for the browser tests.

The server runs on 127.0.0.1 on a free port, with its own config, data, runtime, settings and
workspace folders (nothing of the user's Jupyter set-up leaks in, nothing leaks out), autosave and
news off and the extension manager read-only (no outbound lookups). It serves a temporary root that
holds a copy of ``notebooks/`` (so nothing the tests do is written into the real notebooks) with
``pyproject.toml`` and the package linked beside it (notebook 00's install check looks for them).

Without ``/usr/bin/chromium`` or the ``playwright`` package the tests skip, saying which is missing,
except when the environment variable ``CI`` is set: CI must run them, so there they fail instead.
Playwright only drives Debian's chromium; its own browser download (``playwright install``) is never used.

Every wait here and in the tests is a liveness bound of minutes (:data:`LIVENESS`): it fails only on a hang,
never on slowness (a notebook's Run All takes 13-29 s on a quiet machine and 50-160 s at load 9-12, and nothing
bounds a loaded CI machine). Latencies are measured in ``benchmarks/``, not asserted here. A check that sees a
definite error (a cell's traceback, math shown without MathJax, a widget that failed to render) fails at once.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
#: Chromium flags that keep a headless run local and quiet (no GPU, sync, updates or QUIC).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: A common laptop screen: the screenshots show what a student sees at this size.
VIEWPORT = {"width": 1366, "height": 900}
#: Seconds: the bound of every wait (a liveness bound: only a hang reaches it, never a slow machine).
LIVENESS = 15 * 60.0
#: Resolves once MathJax 2 has typeset the page (its queue runs our callback after the typesetting).
TYPESET_JS = """() => new Promise(resolve => {
    const wait = () => (window.MathJax && MathJax.Hub && MathJax.isReady)
        ? MathJax.Hub.Queue(() => resolve(true)) : setTimeout(wait, 50);
    wait();
})"""
#: Seconds the server has to shut its kernels down before SIGKILL (teardown, not a check; minutes, so that a
#: loaded machine's slow shutdown is never cut short).
SERVER_STOP_TIMEOUT = 180.0
#: Lab settings written into the private settings folder: (plugin file, settings).
LAB_SETTINGS = {
    # No news / update toast over the bottom-right corner.
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    # Autosave would write outputs into the served copies while a test runs.
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    # Every cell in the DOM: the checks read all outputs, not only the cells scrolled into view.
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
}


def liveness_message(what: str, bound: float = LIVENESS) -> str:
    """``what`` did not happen within ``bound``, said as the liveness bound it is (not a speed check)."""
    return (f"{what} within {bound / 60:.0f} min; this is a liveness bound (only a hang or a lost event reaches it, "
            "never a slow machine: latencies belong in benchmarks/)")


@contextlib.contextmanager
def liveness(what: str, bound: float = LIVENESS):
    """Turn a Playwright timeout (a click, a navigation, an expectation) inside the block into a failure
    that names ``what`` and says the bound was a liveness bound; other errors pass through."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        yield
    except PlaywrightTimeoutError as exc:
        pytest.fail(f"{liveness_message(what + ': a wait did not end', bound)}\n{exc}", pytrace=False)


def _missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.is_file():
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="session")
def _browser_available() -> None:
    """Skip the browser tests where they cannot run; in CI (``CI`` set) fail instead."""
    reason = _missing_browser()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests, but {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


@dataclass
class Lab:
    """A running JupyterLab: its base ``url``, the served ``root`` and its ``runtime`` folder and ``log``."""

    url: str
    root: Path
    runtime: Path
    log: Path
    process: subprocess.Popen

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def _served_root(base: Path) -> Path:
    root = base / "root"
    shutil.copytree(ROOT / "notebooks", root / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    for name in ("pyproject.toml", "obcd_lite"):
        (root / name).symlink_to(ROOT / name)
    return root


def _jupyter_env(base: Path) -> dict:
    env = dict(os.environ)
    for var, folder in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                        ("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces")):
        (base / folder).mkdir()
        env[var] = str(base / folder)
    for plugin, values in LAB_SETTINGS.items():
        path = base / "settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    # Kernels import the package under test (this checkout), whatever is installed in the venv.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    # ipykernel picks the inline backend only when MPLBACKEND is unset.
    env.pop("MPLBACKEND", None)
    return env


def _server_url(runtime: Path, process: subprocess.Popen, log: Path) -> str:
    """The URL from the server's info file in our runtime folder, once it answers."""
    deadline = time.monotonic() + LIVENESS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {process.returncode}:\n{log.read_text(errors='replace')}")
        for info in runtime.glob("jpserver-*.json"):
            try:
                url = json.loads(info.read_text())["url"].rstrip("/")
                with urllib.request.urlopen(f"{url}/api/status", timeout=LIVENESS):  # refused at once until it listens
                    return url
            except (OSError, ValueError, KeyError):
                pass  # info file half written or server not listening yet
        time.sleep(0.2)
    raise RuntimeError(liveness_message("JupyterLab did not answer") + f":\n{log.read_text(errors='replace')}")


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM (the server shuts its kernels down), then SIGKILL what is left of its process group."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(SERVER_STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    try:  # kernels left behind (they share the server's process group, which we created)
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@pytest.fixture(scope="session")
def lab(_browser_available, tmp_path_factory) -> Lab:
    """JupyterLab serving a temporary copy of the notebooks; stopped with its kernels at the end."""
    base = tmp_path_factory.mktemp("jupyterlab")
    root = _served_root(base)
    env = _jupyter_env(base)
    log = base / "server.log"
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
               "--ServerApp.ip=127.0.0.1", "--ServerApp.port=0", "--IdentityProvider.token=",
               f"--ServerApp.root_dir={root}", "--LabApp.extension_manager=readonly",
               "--LabApp.news_url=None"]
    with log.open("wb") as log_file:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=log_file, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        url = _server_url(base / "runtime", process, log)
        yield Lab(url=url, root=root, runtime=base / "runtime", log=log, process=process)
    finally:
        _stop(process)


@pytest.fixture(scope="session")
def browser(_browser_available):
    """One headless Debian Chromium for the session (each test opens its own context); Playwright's
    expectations wait up to :data:`LIVENESS` (their default is 5 s)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=LIVENESS * 1000)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def lab_page(browser):
    """A fresh browser context and page at :data:`VIEWPORT`, and the list its console errors go to."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(LIVENESS * 1000)  # clicks, navigations and waits without a bound of their own
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    yield page, errors
    context.close()


def watched_page(context, local_host: str = "127.0.0.1"):
    """A new page of ``context`` that may load only from ``local_host``: returns the page and the lists
    it fills — requests to other hosts (aborted), failed requests, console errors and uncaught errors."""
    from urllib.parse import urlsplit

    outside: list[str] = []
    failed: list[str] = []
    errors: list[str] = []

    def only_local(route):
        url = urlsplit(route.request.url)
        if url.hostname == local_host or url.scheme in ("data", "blob", "about"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    page.set_default_timeout(LIVENESS * 1000)  # navigations and waits without a bound of their own
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    page.on("requestfailed", lambda req: failed.append(f"{req.url}: {req.failure}"))
    return page, outside, failed, errors


@contextlib.contextmanager
def served(folder: Path, local_host: str = "127.0.0.1"):
    """``folder`` served by ``http.server`` on ``local_host`` at a free port: yields the base URL."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format, *args):  # keep the test output clean
            pass

    server = http.server.ThreadingHTTPServer((local_host, 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://{local_host}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
