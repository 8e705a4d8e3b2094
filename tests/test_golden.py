"""Golden programs: each DSL program next to the C++ it must compile to (reviewed against the spec).

Every ``examples/<name>.py`` and ``tests/golden/<name>.py`` with a ``<name>.expected.cpp`` beside
it is compiled and compared byte for byte, and the expected C++ is compiled with g++ against the
stand-in runtime header.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, compile_check, load_program

import nanopass

GOLDEN_DIRS = [EXAMPLES, REPO / "tests" / "golden"]
GOLDENS = sorted(p for d in GOLDEN_DIRS for p in d.glob("*.expected.cpp"))  # the default ABI's


def _source_of(expected: Path) -> Path:
    return expected.with_name(expected.name.replace(".expected.cpp", ".py"))


def golden_options(source: Path) -> dict:
    """Compiler options a golden program asks for on a ``# options: name=True, ...`` line."""
    options = {}
    for line in source.read_text().splitlines():
        if line.startswith("# options:"):
            for item in line.split(":", 1)[1].split(","):
                key, value = (part.strip() for part in item.split("="))
                options[key] = value == "True"
    return options


@pytest.mark.parametrize("expected", GOLDENS, ids=[p.name.replace(".expected.cpp", "") for p in GOLDENS])
def test_golden_output(expected, tmp_path):
    source = _source_of(expected)
    result = nanopass.generate_orchestration(load_program(source), **golden_options(source))
    assert result.code == expected.read_text()
    compile_check(result.code, tmp_path, expected.name.replace(".expected", ""))
    assert warnings_of(result) == []  # the front end's (stage 0) and the passes'


def warnings_of(result) -> list[str]:
    """The warnings of compiling every orchestration function of ``result``, located."""
    return [f"{w.span}: {w.message}" for function in result.functions.values() for stage in function.stages
            for w in stage.warnings]


# The --abi l2 goldens of tests/golden programs that pin a reference-surface.md non-DSL row (S2's
# phase-fence barrier, analyze_auto_scopes_for_deps: a compiler-made manual scope, derived edges on
# constant slices, a fallback to the runtime's tracking; the TaskId sources of a manual scope); the
# surface_* programs' are compared in test_reference_surface.
L2_GOLDENS = sorted(p for p in (REPO / "tests" / "golden").glob("*.expected.l2.cpp") if not p.name.startswith("surface_"))


@pytest.mark.parametrize("expected", L2_GOLDENS, ids=[p.name.replace(".expected.l2.cpp", "") for p in L2_GOLDENS])
def test_golden_output_under_l2(expected, tmp_path):
    source = expected.with_name(expected.name.replace(".expected.l2.cpp", ".py"))
    result = nanopass.generate_orchestration(load_program(source), abi="l2", **golden_options(source))
    assert result.code == expected.read_text()
    compile_check(result.code, tmp_path, expected.name.replace(".expected.l2", ".l2"))


def test_the_non_dsl_rows_have_l2_goldens():
    assert {p.name.replace(".expected.l2.cpp", "") for p in L2_GOLDENS} >= {
        "phase_fence", "derive_manual_region", "derive_boxes", "derive_fallback", "tid_sources"}


def test_every_example_has_a_golden():
    missing = [p.name for p in EXAMPLES.glob("*.py") if not p.with_name(p.stem + ".expected.cpp").exists()]
    assert not missing
    assert len(list(EXAMPLES.glob("*.py"))) >= 9
