"""check_output_params_written stops reading writes once every output parameter is written
(``STOP_WHEN_WRITTEN``): on every example and golden program, the bench shapes and random
programs, its warnings equal the ones made with every statement read, and the walk stops early
where an output is written before the last task (counted): after it, only the written names are
looked up (for the In parameters' writes, read in the same walk: one walk, counted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, counting, pass_runs, run_both_ways, sample_paths

from nanopass.languages.statements import iter_stmts, reusing_walks
from nanopass.languages.terms import ParamDir
from nanopass.passes.hazards import WRITES
from nanopass.passes import check_output_params_written
from nanopass.passes.check_output_params_written import CheckOutputParamsWritten
from nanopass.rewrite import PassContext


def warned(tree) -> tuple:
    """The program the pass returns and its warnings (message, span, hint)."""
    ctx = PassContext()
    with reusing_walks():
        out = CheckOutputParamsWritten(ctx).run(tree)
    return out, [(w.message, w.span, w.hint) for w in ctx.warnings]


def warned_both_ways(path: Path, refusals: bool = False) -> list[tuple]:
    out = []
    for given, compiled in pass_runs(path, CheckOutputParamsWritten.name, refusals=refusals):
        fast, full = run_both_ways(warned, given, [(check_output_params_written, "STOP_WHEN_WRITTEN", False)])
        assert fast[0] is given and full[0] is given  # (a check: its input, unchanged)
        assert compiled is None or fast[0] == compiled
        out.append((fast, full))
    return out


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_the_stop_changes_no_warning(path: Path):
    for fast, full in warned_both_ways(path):
        assert fast == full


def test_the_stop_changes_no_warning_of_a_shape_or_random_program(tmp_path):
    compiled = warnings = 0
    for path in sample_paths(tmp_path, SHAPES, 24, range(4300, 4340), manual=lambda seed: seed % 3 == 1):
        for fast, full in warned_both_ways(path, refusals=path.name.startswith("random_")):
            assert fast == full, path.name
            compiled += 1
            warnings += len(full[1])
    assert compiled >= len(SHAPES) + 20
    assert warnings  # (some program warns: the comparison covers warnings, not only their absence)


@pytest.mark.parametrize("shape, stops", [("nested", True), ("straight", False)])
def test_the_walk_stops_at_the_task_writing_the_last_output(tmp_path, monkeypatch, shape, stops):
    # nested's first task writes its InOut y: one task read; straight's last task writes y: every
    # task read
    (given,) = [g for g, _ in pass_runs(bench_file(tmp_path, shape, 8), CheckOutputParamsWritten.name)]
    asked = []

    class Counted(dict):
        def get(self, name, default=None):
            asked.append(name)
            return super().get(name, default)

    original = check_output_params_written.storage_map
    monkeypatch.setattr(check_output_params_written, "storage_map", lambda func, kernels: Counted(original(func, kernels)))
    _, warnings = warned(given)
    tasks = [s for s in iter_stmts(given.orch.body) if s._production == "Task"]
    assert len(tasks) > 1 and not warnings
    tensor_args = [a.value.name for t in tasks for a in t.args if a.value._production == "Var"]
    returned = [v.name for s in given.orch.body if s._production == "Return" for v in s.values]
    if stops:  # (after the first task, the written names alone, for the In parameter x; then the
        # returned values, asked by the return's check)
        written_args = [a.value.name for t in tasks[1:] for a in t.args if a.value._production == "Var" and a.dir in WRITES]
        assert len(written_args) == len(tasks) - 1
        assert asked == [a.value.name for a in tasks[0].args if a.value._production == "Var"] + written_args + returned
    else:
        assert asked == tensor_args + returned


@pytest.mark.parametrize("shape", ["straight", "nested", "assembles"])
def test_one_walk_of_the_body(tmp_path, monkeypatch, shape):
    # the output parameters' writes and reads, the In parameters' writes and the returns are read
    # in one walk (two before: the In parameters' writes had a walk of their own)
    (given,) = [g for g, _ in pass_runs(bench_file(tmp_path, shape, 8), CheckOutputParamsWritten.name)]
    walks = counting(monkeypatch, check_output_params_written, "iter_stmts")
    assert any(p.dir is ParamDir.In and p.type._production == "TensorType" for p in given.orch.params)
    warned(given)
    assert len(walks) == 1
