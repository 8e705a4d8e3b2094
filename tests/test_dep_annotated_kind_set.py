"""dep-annotated's ``check_no_alloc`` and ``check_no_declare`` ask whether a kind is among the
statements' kinds in one lookup (``statement_kind_set``, kept with ``statement_kinds``): the set
is the list's, kept as long as the list, and an ``Alloc`` or a ``Declare`` anywhere in a body
(nested in a loop, or the body's last statement) is still refused, in a session that checked a
good tree before and in a fresh one."""

from __future__ import annotations

import pytest

from test_dep_annotated_statement_kinds import errors, replaced, stage_tree

from nanopass.languages import DEP_ANNOTATED
from nanopass.languages.dep_annotated import statement_kind_set, statement_kinds
from nanopass.languages.statements import iter_stmts, reusing_walks


def test_the_set_is_the_kinds_of_the_same_list_kept_with_them():
    with reusing_walks():
        stmts = [type("S", (), {"_production": kind})() for kind in ("Task", "Let", "Task")]
        kinds = statement_kinds(stmts)
        assert statement_kind_set(stmts) == frozenset(kinds) == {"Task", "Let"}
        assert statement_kinds(stmts) is kinds  # asking for the set made no new list
        assert statement_kind_set(stmts) is statement_kind_set(stmts)
        other = stmts[:1]
        assert statement_kind_set(other) == {"Task"}
    assert statement_kind_set(stmts) == {"Task", "Let"}  # (outside a session: made, not kept)


@pytest.mark.parametrize("where", ["nested", "last"])
def test_an_alloc_or_a_declare_anywhere_is_refused(tmp_path, where):
    A = DEP_ANNOTATED
    good = stage_tree(tmp_path, "resolve_dep_edges")
    stmts = list(iter_stmts(good.orch.body))
    tasks = [s for s in stmts if s._production == "Task"]
    task = tasks[-1] if where == "last" else tasks[len(tasks) // 2]
    binder = task.outs[0] if task.outs[0]._production == "Binder" else task.outs[0].var
    alloc = A.Alloc.make([A.Create.make(A.Binder.make("fresh_t", binder.type), (), binder.type.dtype, False, None)])
    declare = A.Declare.make(A.Binder.make("fresh_d", binder.type))
    assert all("an Alloc before batch_tensor_creates" in e for e in errors(A, good, replaced(good, task, [task, alloc])))
    assert all("a Declare before hoist_scope_escapes" in e for e in errors(A, good, replaced(good, task, [task, declare])))
    A.verify(good)
