"""The --dump-all report opened in a real (headless) browser: every stage renders, and the page
logs no error. Debian's chromium is required (.ci/run installs it)."""

from __future__ import annotations

import re
import shutil
import subprocess

from conftest import PROGRAMS, run_cli

from nanopass.passes.pipeline import PASSES

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--enable-logging=stderr", "--v=0", "--dump-dom",
]


def test_report_renders_every_stage_in_chromium_without_console_errors(tmp_path):
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is required for this test (apt-get install chromium; .ci/run does)"
    out = tmp_path / "dump"
    result = run_cli("run", str(PROGRAMS / "graph_features.py"), "--dump-all", str(out), "-q")
    assert result.returncode == 0, result.stderr
    browser = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", (out / "index.html").as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert browser.returncode == 0, browser.stderr[-2000:]
    stages = len(PASSES) + 1
    # the page's script ran after layout and found each stage's graph on screen
    assert f'<p id="render-status" data-ok="yes">rendered {stages} of {stages} stages</p>' in browser.stdout
    assert browser.stdout.count('data-rendered="yes"') == stages
    assert browser.stdout.count("<svg") >= stages
    console = [line for line in browser.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
    assert any(f"nanopass-report: rendered {stages} of {stages} stages" in line for line in console), (
        "the console log is not captured, so errors would go unseen:\n" + browser.stderr[-2000:]
    )
    errors = [line for line in console if "nanopass-report:" not in line]
    assert not errors, "\n".join(errors)
    assert not re.search(r"ERR_FILE_NOT_FOUND|Failed to load resource", browser.stderr)
