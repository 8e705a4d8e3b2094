"""The --dump-all report opened in a real (headless) browser: every stage opens and renders,
the page logs no error, and a large program's report opens, with a stage's graphs, within a time
budget. Needs Debian's chromium (.ci/run installs it); skipped, with the reason, without it."""

from __future__ import annotations

import re
import shutil
import subprocess
import time

import pytest

from conftest import PROGRAMS, run_cli

from nanopass.passes.pipeline import PASSES

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--enable-logging=stderr", "--v=0", "--dump-dom",
]
LOAD_BUDGET_MS = 3000  # a large report's page with one stage open, as the page measures it


def chromium() -> str:
    path = shutil.which("chromium")
    if not path:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run installs it)")
    return path


def open_page(url: str, profile) -> subprocess.CompletedProcess:
    return subprocess.run([chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", url],
                          capture_output=True, text=True, timeout=180)


def console_lines(browser: subprocess.CompletedProcess) -> list[str]:
    return [line for line in browser.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


def status(dom: str) -> dict[str, str]:
    match = re.search(r'<p id="render-status"([^>]*)>([^<]*)</p>', dom)
    assert match, "no #render-status in the page"
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', match.group(1)))
    attrs["text"] = match.group(2)
    return attrs


def test_report_opens_every_stage_in_chromium_without_console_errors(tmp_path):
    chromium()
    out = tmp_path / "dump"
    result = run_cli("run", str(PROGRAMS / "graph_features.py"), "--dump-all", str(out), "-q")
    assert result.returncode == 0, result.stderr
    browser = open_page((out / "index.html").as_uri() + "#all", tmp_path / "profile")
    assert browser.returncode == 0, browser.stderr[-2000:]
    stages = len(PASSES) + 1
    found = status(browser.stdout)
    assert found["data-ok"] == "yes" and found["text"].startswith(f"opened {stages} of {stages} stages; {stages} rendered")
    assert browser.stdout.count('data-rendered="yes"') == stages
    assert browser.stdout.count("<svg") >= stages  # the pictures, loaded into the page
    assert browser.stdout.count('class="zoom"') >= stages  # each with its pan and zoom buttons
    console = console_lines(browser)
    assert any(f"nanopass-report: opened {stages} of {stages} stages" in line for line in console), (
        "the console log is not captured, so errors would go unseen:\n" + browser.stderr[-2000:]
    )
    errors = [line for line in console if "nanopass-report:" not in line]
    assert not errors, "\n".join(errors)
    assert not re.search(r"ERR_FILE_NOT_FOUND|Failed to load resource", browser.stderr)


def test_a_large_report_opens_with_a_stage_within_the_time_budget(tmp_path):
    from nanopass.tools.report_programs import layered

    chromium()
    source = tmp_path / "layered.py"
    source.write_text(layered(600))
    out = tmp_path / "dump"
    result = run_cli("run", str(source), "--dump-all", str(out), "-q")
    assert result.returncode == 0, result.stderr
    page = out / "index.html"
    assert page.stat().st_size < 150_000  # the stages' bodies and pictures are files of their own
    war = next(out.glob("*_order_write_after_read.stage.js")).name.split("_", 1)[0]
    start = time.monotonic()
    browser = open_page(page.as_uri() + f"#stage-{war}", tmp_path / "profile")
    seconds = time.monotonic() - start
    assert browser.returncode == 0, browser.stderr[-2000:]
    found = status(browser.stdout)
    print(f"large report: {page.stat().st_size} bytes, {found['text']}; chromium ran {seconds:.1f} s")
    assert found["data-ok"] == "yes" and found["data-opened"] == "1", found
    assert int(found["data-ms"]) < LOAD_BUDGET_MS, found
    opened = re.search(rf'<section class="stage" id="stage-{war}".*?</section>', browser.stdout, flags=re.S).group(0)
    assert 'data-rendered="yes"' in opened and opened.count("<svg") >= 2  # the task and instance graphs
    assert browser.stdout.count('data-rendered="yes"') == 1  # the other stages were not loaded
    errors = [line for line in console_lines(browser) if "nanopass-report:" not in line]
    assert not errors, "\n".join(errors)


def test_the_search_box_marks_the_tasks_of_a_kernel(tmp_path):
    chromium()
    out = tmp_path / "dump"
    result = run_cli("run", str(PROGRAMS / "graph_features.py"), "--dump-all", str(out), "-q")
    assert result.returncode == 0, result.stderr
    browser = open_page((out / "index.html").as_uri() + "#stage-00;find=k_acc", tmp_path / "profile")
    assert browser.returncode == 0, browser.stderr[-2000:]
    hits = re.findall(r'<g id="node\d+" class="node hit">\s*<title>(\w+)</title>', browser.stdout)
    assert hits and all(re.search(rf"<title>{h}</title>.*?k_acc", browser.stdout, flags=re.S) for h in hits)
    assert re.search(r'<span id="found">\d+ in 1 graph \(Enter: next\)</span>', browser.stdout)
