"""The emission language names TaskIds by identifier: a dependency entry (``PushDep``) holds its
TaskId variable's identifier, and a ``Submit`` declares its task's TaskId itself (``tid``: ``PTO2TaskId
tid = outs.task_id();`` after the submit), which it can only with its outputs captured (``outs``)."""

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, compiled_stages
from nanopass.errors import VerifyError
from nanopass.languages import emission
from nanopass.printer.cpp import print_cpp


def _submits_and_pushes(unit):
    submits, pushes = [], []
    for node in emission.statements(unit.body):
        if node._production == "Submit":
            submits.append(node)
        elif node._production in ("Deps", "GuardedDummy"):
            pushes += [p for p in node.pushes if p._production == "PushDep"]
    return submits, pushes


def test_a_submit_declaring_its_task_id_without_its_outputs_is_refused(tmp_path):
    unit = compiled_stages(bench_file(tmp_path, "scopes", 8))[-1].tree
    submit = next(s for s in emission.statements(unit.body) if s._production == "Submit" and s.tid is not None)
    emission.check_task_heads(unit)
    with pytest.raises(VerifyError, match="declared without its outputs"):  # (its constructor's node rule)
        type(submit)(submit.args, submit.launch, None, submit.tid)
    with pytest.raises(VerifyError, match="declared without its outputs"):
        submit.replace(outs=None)


@pytest.mark.parametrize("path", [*EXAMPLES_AND_GOLDEN, *SHAPES], ids=lambda p: p if isinstance(p, str) else p.stem)
def test_each_task_id_is_declared_by_its_submit_and_pushed_by_identifier(tmp_path, path):
    unit = compiled_stages(bench_file(tmp_path, path, 8) if isinstance(path, str) else path)[-1].tree
    submits, pushes = _submits_and_pushes(unit)
    for push in pushes:
        assert type(push.tid) is str
    text = print_cpp(unit)
    for submit in submits:
        if submit.tid is not None:
            assert f"PTO2TaskId {submit.tid} = {submit.outs}.task_id();" in text
    if path == "scopes":  # (a task whose TaskId a later dependency reads)
        assert any(s.tid is not None for s in submits)
