"""Issue 7: every program runs the same three ways (reference interpreter, emission interpreter,
compiled C++ on the recording runtime), at every stage of the pipeline; issue 10: none of them
has a hazard with order_write_after_read on; issue 21: every read of the emitted program observes
the write it observes in the program as written.

The programs: ``examples/``, every golden program (``tests/golden/``, compiled with the options of
its ``# options:`` line), ``tests/semantics/`` and ``tests/programs/``. A program's inputs come
from ``VALUES`` below, or from its ``# check: NAME=VALUE ...`` comment lines (one input set per
line), or ``check.sample_values``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, PROGRAMS, REPO, load_program
from test_golden import golden_options

from nanopass.api import run_pipeline, surface_of
from nanopass.tools.check import check_stages, program_inputs, sample_values, stage_report
from nanopass.tools.hazards import in_one_manual_scope, manual_scopes, with_parallel

SEMANTICS = REPO / "tests" / "semantics"
GOLDEN = REPO / "tests" / "golden"

# Input sets for programs that need particular values (others get check.sample_values).
VALUES = {
    "loop_scalar": [{"alpha": "1.5", "steps": "3"}, {"alpha": "-0.25", "steps": "0"}, {"alpha": "2.0", "steps": "1"}],
    "carries": [{"n": "5", "scale": "2.0"}, {"n": "0", "scale": "-3.25"}, {"n": "2", "scale": "1e30"}],
    "manual_arrays": [{"k": "3"}, {"k": "1"}],
}


def programs() -> list[Path]:
    return (
        sorted(EXAMPLES.glob("*.py")) + sorted(GOLDEN.glob("*.py")) + sorted(SEMANTICS.rglob("*.py"))
        + sorted(PROGRAMS.glob("*.py"))
    )


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
    return run_pipeline(program, options=golden_options(path)), program_inputs(surface_of(program), values)


def test_every_example_and_golden_program_is_checked():
    checked = {c.values[0] for c in CASES}
    assert set(EXAMPLES.glob("*.py")) | set(GOLDEN.glob("*.py")) <= checked
    assert len(set(GOLDEN.glob("*.py"))) >= 23


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
    directed = [i for i, s in enumerate(stages) if s.language.name == "directed"]
    # the passes that decide dependencies each refine the stage before; lowering changes nothing
    assert report.count("refines the previous stage") == len(directed) - 1, report
    assert report.count("agrees with the reference") == len(stages) - 1 - directed[-1], report


@pytest.mark.slow
@pytest.mark.parametrize("path, values", CASES)
def test_compiled_cpp_trace_agrees(path, values):
    stages, inputs = _stages_and_inputs(path, values)
    result = check_stages(stages, inputs, gxx=True)
    assert result.compiled is not None and len(result.compiled.tasks()) == len(result.reference.tasks())


# Golden programs that show code shapes of manual scopes without ordering every conflicting pair:
# their hazards are the user's (both tasks in one manual scope, where the compiler adds nothing).
USER_OWNED_HAZARDS = {"tid_sources", "fence_array_updated", "fence_not_profitable"}


@pytest.mark.parametrize("path, values", CASES)
def test_issue10_no_program_has_a_hazard_with_war_ordering_on(path, values):
    stages, inputs = _stages_and_inputs(path, values)
    result = check_stages(stages, inputs)
    trace = with_parallel(result.reference, result.emission)
    scopes = manual_scopes(trace)
    compilers = [h for h in result.failing if not in_one_manual_scope(trace, h, scopes)]
    assert compilers == [] and result.fatal is None, "\n".join(result.lines())
    assert bool(result.failing) == (path.stem in USER_OWNED_HAZARDS), "\n".join(result.lines())
    # issue 21: every read observes the write it observes in the program as written
    assert result.written is not None and result.mismatches == [], "\n".join(result.lines())


def test_issue5_manual_phases_trace_is_three_fences_of_four(example):
    # shared/examples/manual_phases: run by the interpreter with its constants, 12 tasks; every
    # task of phase p > 0 depends on exactly the 4 tasks of phase p-1.
    stages = run_pipeline(example("manual_phases"))
    result = check_stages(stages, program_inputs(surface_of(example("manual_phases")), {}))
    for trace in (result.reference, result.emission):
        tasks = trace.tasks()
        assert len(tasks) == 12 and all(t.kind == "kernel" and t.mode == "manual" for t in tasks)
        for n, task in enumerate(tasks):
            phase = n // 4
            expected = {t.id for t in tasks[4 * (phase - 1): 4 * phase]} if phase else set()
            assert set(task.deps) == expected
    # the 4 branches of a phase all write `out` (disjoint rows): waived as pl.parallel iterations
    assert len(result.hazards) == 18 and all(h.waived for h in result.hazards)
