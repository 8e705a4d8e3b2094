"""Shared helpers: paths, the CLI in a subprocess, g++ against the stand-in runtime header."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# The test command draws the same examples on every run (a seed derived from each property), so
# that a red CI means a changed program, not a lucky draw. A long fuzzing run draws new ones:
# NANOPASS_FUZZ_SCALE above 1, or NANOPASS_FUZZ_RANDOM=1 at the default budget.
settings.register_profile("nanopass-fixed", derandomize=True)
settings.register_profile("nanopass-random", derandomize=False)
settings.load_profile(
    "nanopass-random"
    if os.environ.get("NANOPASS_FUZZ_RANDOM") == "1" or os.environ.get("NANOPASS_FUZZ_SCALE", "1") != "1"
    else "nanopass-fixed"
)

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
TOOLS = REPO / "tools"
PROGRAMS = REPO / "tests" / "programs"


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m nanopass ARGS`` in a subprocess (what a user types)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "nanopass", *args],
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        env=full_env,
        timeout=120,
    )


def gpp() -> str:
    path = shutil.which("g++")
    assert path, "g++ is required: the generated C++ is compiled in tests"
    return path


def compile_check(code: str, tmp_path: Path, name: str = "orch.cpp", extra: tuple[str, ...] = ()) -> None:
    """Assert that ``code`` passes ``g++ -std=c++17 -fsyntax-only -Wall -Werror`` against the stand-in."""
    source = tmp_path / name
    source.write_text(code)
    result = subprocess.run(
        [gpp(), "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", f"-I{TOOLS}", *extra, str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, f"g++ rejected the generated code:\n{result.stderr}\n---\n{code}"


def load_program(path: Path, name: str | None = None):
    from nanopass.loader import load_programs, pick_program

    return pick_program(load_programs(str(path)), name, str(path))


@pytest.fixture
def example():
    def get(stem: str, name: str | None = None):
        return load_program(EXAMPLES / f"{stem}.py", name)

    return get


def fuzz_budget(examples: int) -> int:
    """``max_examples`` for a property: sized for CI, multiplied by ``NANOPASS_FUZZ_SCALE`` for
    long fuzzing runs (``NANOPASS_FUZZ_SCALE=50 python -m pytest -k random``)."""
    scale = os.environ.get("NANOPASS_FUZZ_SCALE", "1")
    if not scale.isdigit() or int(scale) < 1:
        raise ValueError(f"NANOPASS_FUZZ_SCALE must be a positive integer, not {scale!r}")
    return examples * int(scale)
