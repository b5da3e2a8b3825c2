"""Measure how the notebooks' explorers look in JupyterLab at 1280 x 720 (headless Chromium).

    .venv/bin/python tools/measure_layout.py 01_rotation_vs_reflection.ipynb [...]

Serves a temporary copy of notebooks/ (with pyproject.toml and obcd_lite beside it, so notebook 00's
install check works), opens each notebook, runs all cells and prints per notebook: each explorer's
height and width in CSS px, its sliders' parts (label, track, readout widths), the natural and
displayed widths of its figures, the output area's width and the notebook panel's height.
Needs playwright (Python package) and /usr/bin/chromium; not part of `make test`.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
root = Path(tempfile.mkdtemp())
shutil.copytree(ROOT / "notebooks", root / "notebooks")
(root / "pyproject.toml").symlink_to(ROOT / "pyproject.toml")
(root / "obcd_lite").symlink_to(ROOT / "obcd_lite")
cfg = Path(tempfile.mkdtemp())
settings = cfg / "settings"
(settings / "@jupyterlab/apputils-extension").mkdir(parents=True)
(settings / "@jupyterlab/apputils-extension/notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
(settings / "@jupyterlab/docmanager-extension").mkdir(parents=True)
(settings / "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings").write_text('{"autosave": false}')
env = dict(os.environ, PYTHONPATH=str(ROOT), JUPYTER_CONFIG_DIR=str(cfg / "c"), JUPYTER_DATA_DIR=str(cfg / "d"),
           JUPYTER_RUNTIME_DIR=str(cfg / "r"), JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTERLAB_WORKSPACES_DIR=str(cfg / "w"))
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
server = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
                           "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", f"--ServerApp.root_dir={root}",
                           "--LabApp.extension_manager=readonly", "--LabApp.news_url=None"], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
base = f"http://127.0.0.1:{port}"
time.sleep(4)
results = {}
try:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        for nb in sys.argv[1:]:
            page.goto(f"{base}/lab/tree/notebooks/{nb}?reset")
            page.wait_for_function("""() => [...document.querySelectorAll('.jp-StatusBar-Item')].some(e => /\\(ipykernel\\) \\| Idle/.test(e.textContent))""", timeout=60000)
            page.click(".lm-MenuBar-itemLabel:text('Run')")
            page.click(".lm-Menu-item[data-command='runmenu:run-all']")
            page.wait_for_function("""() => [...document.querySelectorAll('.jp-StatusBar-Item')].some(e => /\\(ipykernel\\) \\| Idle/.test(e.textContent)) && document.querySelectorAll('.widget-output img').length > 0""", timeout=240000)
            time.sleep(3)
            page.wait_for_function("""() => [...document.querySelectorAll('.jp-StatusBar-Item')].some(e => /\\(ipykernel\\) \\| Idle/.test(e.textContent))""", timeout=240000)
            info = page.evaluate("""() => {
              const boxes = [...document.querySelectorAll('.jp-OutputArea-output .widget-vbox')].filter(b => !b.parentElement.closest('.widget-vbox'));
              const out = boxes.map(b => {const r = b.getBoundingClientRect();
                 const sliders = [...b.querySelectorAll('.widget-hslider')].map(s => [...s.children].map(c => c.className.split(' ')[0] + ':' + Math.round(c.getBoundingClientRect().width) + ':' + getComputedStyle(c).marginLeft + '/' + getComputedStyle(c).marginRight));
                 const imgs = [...b.querySelectorAll('img')].map(i => [i.naturalWidth, Math.round(i.getBoundingClientRect().width)]);
                 return {height: Math.round(r.height), width: Math.round(r.width), sliders, imgs};});
              const figs = [...document.querySelectorAll('.jp-OutputArea-output > img, .jp-RenderedImage img')].map(i => [i.naturalWidth, Math.round(i.getBoundingClientRect().width)]);
              const area = document.querySelector('.jp-OutputArea-output');
              return {explorers: out, figures: figs, outputWidth: Math.round(area.getBoundingClientRect().width), viewport: [innerWidth, innerHeight],
                      panel: Math.round(document.querySelector('.jp-WindowedPanel-outer, .jp-Notebook').getBoundingClientRect().height)};}""")
            errors = page.evaluate("""() => [...document.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')].map(e => e.innerText.slice(0, 120))""")
            info["stderr_outputs"] = errors
            results[nb] = info
            print(nb, json.dumps(info), flush=True)
        browser.close()
finally:
    server.terminate(); server.wait(timeout=20)
