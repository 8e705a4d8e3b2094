"""The passes around manual scopes that skip an analysis their input cannot need give what the full
analysis gives.

``expand_manual_phase_fence`` lists the function's binders (looking for TaskId arrays, which its
fences are for) only when a parameter is a TaskId array or a ``pl.array`` makes one
(``makes_task_id_arrays``). Each test counts the skipped work on a benchmark shape that needs
none, checks the condition against the full search, and compares the pass's output with the
output of the pass made to run the full analysis, on every example and golden program and on
random control-flow programs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, REPO, fuzz_budget, load_program
from program_gen import control_flow_programs
from test_middle_pass_shortcuts import compile_bench, counting

from nanopass.api import run_pipeline
from nanopass.languages.terms import DType
from nanopass.passes import expand_manual_phase_fence as phase_fence
from nanopass.passes.pipeline import PIPELINE
from nanopass.rewrite import PassContext

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROGRAMS = sorted(EXAMPLES.glob("*.py")) + sorted((REPO / "tests" / "golden").glob("*.py"))


def test_scopes_without_task_id_arrays_list_no_binders(tmp_path, monkeypatch):
    listed = counting(monkeypatch, phase_fence, "_binders")
    asked = counting(monkeypatch, phase_fence, "makes_task_id_arrays")
    compile_bench(tmp_path, "scopes", 16)
    assert len(asked) == 1 and listed == []


def test_a_task_id_array_lists_the_binders(tmp_path, monkeypatch):
    listed = counting(monkeypatch, phase_fence, "_binders")
    run_pipeline(load_program(REPO / "tests" / "golden" / "phase_fence.py"))
    assert len(listed) == 1


def fence_input(program):
    """The pipeline's input to ``expand_manual_phase_fence``."""
    stages = run_pipeline(program)
    return stages[PIPELINE.names().index("expand_manual_phase_fence")].tree


def check_phase_fence(program) -> None:
    before = fence_input(program)
    func = before.orch
    arrays = [b for b in phase_fence._binders(func)
              if b.type._production == "ArrayType" and b.type.dtype is DType.TASK_ID]
    assert not arrays or phase_fence.makes_task_id_arrays(func)  # the condition misses no array
    fast = phase_fence.ExpandManualPhaseFence(PassContext()).run(before)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(phase_fence, "makes_task_id_arrays", lambda func: True)
        full = phase_fence.ExpandManualPhaseFence(PassContext()).run(before)
    assert fast == full


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_programs(path: Path):
    check_phase_fence(load_program(path))


@PROPERTY
@given(control_flow_programs())
def test_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    check_phase_fence(load_program(path))
