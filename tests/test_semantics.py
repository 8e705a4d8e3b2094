"""Issue 7: every program runs the same three ways (reference interpreter, emission interpreter,
compiled C++ on the recording runtime), at every stage of the pipeline.

The programs: ``examples/``, ``tests/semantics/`` and every golden program under
``tests/programs/`` that compiles. A program's inputs come from ``VALUES`` below, or from its
``# check: NAME=VALUE ...`` comment lines (one input set per line), or ``check.sample_values``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, PROGRAMS, REPO, load_program

from nanopass.api import run_pipeline, surface_of
from nanopass.tools.check import check_stages, program_inputs, sample_values, stage_report

SEMANTICS = REPO / "tests" / "semantics"

# Input sets for programs that need particular values (others get check.sample_values).
VALUES = {
    "loop_scalar": [{"alpha": "1.5", "steps": "3"}, {"alpha": "-0.25", "steps": "0"}, {"alpha": "2.0", "steps": "1"}],
    "carries": [{"n": "5", "scale": "2.0"}, {"n": "0", "scale": "-3.25"}, {"n": "2", "scale": "1e30"}],
    "manual_arrays": [{"k": "3"}, {"k": "1"}],
}


def _compiles(path: Path) -> bool:
    try:
        run_pipeline(load_program(path))
    except Exception:  # noqa: BLE001 - golden programs that are meant to fail are not run
        return False
    return True


def programs() -> list[Path]:
    golden = sorted(PROGRAMS.rglob("*.py")) if PROGRAMS.exists() else []
    paths = sorted(EXAMPLES.glob("*.py")) + sorted(SEMANTICS.rglob("*.py")) + [p for p in golden if _compiles(p)]
    return paths


def value_sets(path: Path) -> list[dict[str, str]]:
    marked = [
        dict(item.split("=", 1) for item in line.split(":", 1)[1].split())
        for line in path.read_text().splitlines()
        if line.startswith("# check:")
    ]
    return VALUES.get(path.stem) or marked or [sample_values(surface_of(load_program(path)))]


CASES = [
    pytest.param(path, values, id=f"{path.relative_to(REPO).with_suffix('')}-{i}")
    for path in programs()
    for i, values in enumerate(value_sets(path))
]


def _stages_and_inputs(path, values):
    program = load_program(path)
    return run_pipeline(program), program_inputs(surface_of(program), values)


@pytest.mark.parametrize("path, values", CASES)
def test_reference_and_emission_traces_agree(path, values):
    stages, inputs = _stages_and_inputs(path, values)
    result = check_stages(stages, inputs)
    assert result.reference.tasks(), "the program submits no task: the check would be vacuous"
    assert len(result.reference.tasks()) == len(result.emission.tasks())


@pytest.mark.parametrize("path, values", CASES)
def test_every_interpretable_stage_agrees_with_the_reference(path, values):
    stages, inputs = _stages_and_inputs(path, values)
    report = stage_report(stages, inputs)
    assert "DIFFERS" not in report and "not interpreted" not in report, report
    assert report.count("agrees with the reference") == len(stages) - next(
        i for i, s in enumerate(stages) if s.language.name == "directed"
    )


@pytest.mark.slow
@pytest.mark.parametrize("path, values", CASES)
def test_compiled_cpp_trace_agrees(path, values):
    stages, inputs = _stages_and_inputs(path, values)
    result = check_stages(stages, inputs, gxx=True)
    assert result.compiled is not None and len(result.compiled.tasks()) == len(result.reference.tasks())


@pytest.mark.parametrize("path, values", [c for c in CASES if c.values[0].parent in (SEMANTICS, EXAMPLES)])
def test_hand_written_programs_have_no_hazard(path, values):
    stages, inputs = _stages_and_inputs(path, values)
    result = check_stages(stages, inputs)
    assert result.failing == [], "\n".join(result.lines())


def test_manual_phases_trace_is_three_fences_of_four(example):
    # shared/examples/manual_phases: 12 tasks; every task of phase p > 0 depends on exactly the
    # 4 tasks of phase p-1.
    stages = run_pipeline(example("manual_phases"))
    result = check_stages(stages, program_inputs(surface_of(example("manual_phases")), {}))
    tasks = result.emission.tasks()
    assert len(tasks) == 12
    for n, task in enumerate(tasks):
        phase = n // 4
        expected = {t.id for t in tasks[4 * (phase - 1): 4 * phase]} if phase else set()
        assert set(task.deps) == expected and task.mode == "manual"
    assert len(result.hazards) == 18 and all(h.waived for h in result.hazards)
