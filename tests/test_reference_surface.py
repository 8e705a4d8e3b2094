"""The constructs of ``shared/spec/reference-surface.md`` as golden programs, in both ABIs.

Each ``tests/golden/surface/<name>.py`` is compiled and compared byte for byte with
``<name>.expected.cpp`` (the default ABI) and ``<name>.l2.expected.cpp`` (``--abi l2``), both read
against the spec's "essential lines the existing compiler emits"; the output of each ABI is compiled
with g++ against the stand-in header, and the program is run by the hazard checker (the reference
and emission interpreters must agree, and no dependency may be missing).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO, compile_check, load_program

import nanopass
from nanopass.tools.check import check_program
from nanopass.tools.check_values import as_set_text, choose_values

SURFACE = REPO / "tests" / "golden" / "surface"
PROGRAMS = sorted(SURFACE.glob("*.py"))
ABIS = {"seed": ".expected.cpp", "l2": ".l2.expected.cpp"}


def expected_file(source: Path, abi: str) -> Path:
    return source.with_name(source.stem + ABIS[abi])


@pytest.mark.parametrize("abi", sorted(ABIS))
@pytest.mark.parametrize("source", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_surface_golden(source, abi, tmp_path):
    expected = expected_file(source, abi)
    if not expected.exists():
        pytest.fail(f"{expected.name} is missing")
    result = nanopass.generate_orchestration(load_program(source), abi=abi)
    assert result.code == expected.read_text()
    compile_check(result.code, tmp_path, f"{source.stem}.{abi}.cpp")


@pytest.mark.parametrize("source", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_surface_program_has_no_hazard(source):
    program = load_program(source)
    runs = choose_values(program.surface(), {}).runs
    assert runs
    for values in runs:
        result = check_program(program, as_set_text(values))
        assert result.emission.tasks, "the run submitted no task"
        assert not result.failing and result.fatal is None, "\n".join(result.lines())


def test_there_are_surface_goldens():
    assert len(PROGRAMS) >= 2


def test_outlined_and_spmd_kernels_have_the_metadata_the_spec_states():
    # reference-surface.md section 3 (AtDemo) and section 4 (the section-1 program)
    at = nanopass.generate_orchestration(load_program(SURFACE / "at_demo.py"), abi="l2").metadata()
    assert at["func_name_to_id"] == {"sum_stage": 0, "mul_stage": 1}
    assert at["func_name_to_signature"] == {"sum_stage": ["IN", "IN", "OUT"], "mul_stage": ["IN", "IN", "INOUT"]}
    assert at["orchestration_signature"] == ["IN", "IN", "OUT"]
    grid = nanopass.generate_orchestration(load_program(SURFACE / "spmd_submit.py"), abi="l2").metadata()
    assert grid["func_name_to_id"] == {"rowblk": 0}
    assert grid["func_name_to_signature"] == {"rowblk": ["IN", "OUT"]}
    assert grid["orchestration_signature"] == ["IN", "OUT", "OUT"]
