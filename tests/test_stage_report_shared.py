"""tools/check.stage_report (the --dump-all hazards report) interprets a stage whose pass returned the
tree it was given once: such stages share the previous stage's trace, model and hazards (and so
do stages whose runs are equal: ``InterpretedStages`` holds equal traces once), and the report
is the one made by interpreting every stage on its own."""

from __future__ import annotations

import pytest

from nanopass.api import run_pipeline
from nanopass.loader import load_programs
from nanopass.tools import check
from nanopass.tools.check import program_inputs, sample_values, stage_checks, stage_report

PROGRAMS = ["tests/golden/ping_pong.py", "tests/golden/war_loop_then_writer.py", "examples/manual_phases.py", "examples/loop_scalar.py"]


@pytest.mark.parametrize("path", PROGRAMS)
def test_a_report_with_shared_stages_is_the_report_of_every_stage(path):
    stages = run_pipeline(load_programs(path)[0])
    surface = stages[0].tree
    inputs = program_inputs(surface, sample_values(surface))
    checks = stage_checks(stages, inputs)
    shared = [c for before, c in zip(checks, checks[1:]) if c.trace is before.trace]
    assert shared and len(shared) < len(checks) - 1  # some stages share, some do not
    for before, c in zip(checks, checks[1:]):
        if c.item.stage.tree is before.item.stage.tree:
            assert c.trace is before.trace
        elif c.trace is before.trace:  # different trees whose runs are equal
            assert check.trace_of(c.item.stage, inputs) == check.trace_of(before.item.stage, inputs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(check, "_same_program", lambda before, after: False)
        patch.setattr(check.InterpretedStages, "trace", lambda self, stage: check.trace_of(stage, self.inputs))
        patch.setattr(check.InterpretedStages, "checked", lambda self, trace: _model_and_hazards(trace))
        alone = stage_report(stages, inputs)
    assert stage_report(stages, inputs) == alone


def _model_and_hazards(trace):
    runtime = check.model(trace)
    return runtime, check.find_hazards(trace, runtime)
