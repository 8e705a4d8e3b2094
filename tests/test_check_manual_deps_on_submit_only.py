"""check_manual_deps_on_submit_only: a plain kernel call (a Task without a TaskId) that carries a
user-written edge (``DepVar``/``DepItem``) is refused as an internal error; a submit's user edges,
and the compiler's edges (``DerivedDep``) on any task, pass. The program is returned as it is."""

from __future__ import annotations

import pytest

from conftest import bench_file, pass_input

from nanopass.errors import InternalError
from nanopass.languages import DIRECTED
from nanopass.languages.statements import iter_stmts
from nanopass.passes.check_manual_deps_on_submit_only import CheckManualDepsOnSubmitOnly
from nanopass.rewrite import PassContext

PASS = "check_manual_deps_on_submit_only"


def run(program):
    return CheckManualDepsOnSubmitOnly(PassContext()).run(program)


def with_body(program, body):
    return program.replace(orch=program.orch.replace(body=tuple(body)))


def submits(tmp_path):
    """The pass's input on the scopes shape (submits with user edges), and its submits."""
    given = pass_input(bench_file(tmp_path, "scopes", 3), PASS)
    tasks = [s for s in iter_stmts(given.orch.body) if s._production == "Task"]
    assert tasks and all(t.tid is not None and any(d._production == "DepVar" for d in t.deps) for t in tasks)
    return given, tasks


def test_submits_with_user_edges_pass_unchanged(tmp_path):
    given, _ = submits(tmp_path)
    assert run(given) is given


@pytest.mark.parametrize("edges", ["user", "user_last"])
def test_a_plain_call_with_a_user_edge_is_refused(tmp_path, edges):
    given, tasks = submits(tmp_path)
    task = tasks[0]
    deps = task.deps if edges == "user" else (*[d for d in task.deps if d._production != "DepVar"],
                                              *[d for d in task.deps if d._production == "DepVar"])
    plain = task.replace(tid=None, deps=deps)
    with pytest.raises(InternalError, match="plain kernel call carries user-written dependency edges"):
        run(with_body(given, [*given.orch.body, plain]))


def test_a_plain_call_with_derived_edges_only_passes(tmp_path):
    given, tasks = submits(tmp_path)
    derived = tuple(DIRECTED.DerivedDep(d.value) if d._production == "DepVar" else d for d in tasks[0].deps)
    plain = tasks[0].replace(tid=None, deps=derived)
    program = with_body(given, [*given.orch.body, plain])
    assert run(program) is program
