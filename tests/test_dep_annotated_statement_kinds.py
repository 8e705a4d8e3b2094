"""dep-annotated's and batched's statement invariants read the statements' kinds once per stage.

``check_capacity``, ``check_no_alloc``, ``check_no_declare`` and ``check_alloc_size`` each ask
``statement_kinds`` of the statements they have to check: the productions read in C, kept while
the same list (the body's walk) is asked again, and the statements of other kinds skipped in C.
A malformed program is refused as before, with the same first error (the invariants run in the
language's order, each over its own statements).
"""

from __future__ import annotations

import pytest

from conftest import load_program

from nanopass.api import run_pipeline
from nanopass.errors import VerifyError
from nanopass.languages import BATCHED, DEP_ANNOTATED
from nanopass.languages.dep_annotated import statement_kinds
from nanopass.languages.statements import BODY_FIELDS, iter_stmts, reusing_walks
from nanopass.tools.bench import source_of


def stage_tree(tmp_path, name: str, shape: str = "nested"):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 4))
    return run_pipeline(load_program(path))[name].tree


def replaced(tree, target, new):
    """``tree`` with the statement ``target`` replaced by the statements ``new``."""

    def rebuild(stmts):
        out = []
        for stmt in stmts:
            if stmt is target:
                out += new
                continue
            if stmt._production in BODY_FIELDS:
                stmt = stmt.replace(**{f: rebuild(getattr(stmt, f)) for f in BODY_FIELDS[stmt._production]})
            out.append(stmt)
        return tuple(out)

    return tree.replace(orch=tree.orch.replace(body=rebuild(tree.orch.body)))


def errors(language, good, bad) -> list[str]:
    """The error of ``bad`` after ``good`` passed in one session, and with nothing remembered."""
    out = []
    with reusing_walks():
        language.verify(good)
        with pytest.raises(VerifyError) as info:
            language.verify(bad)
        out.append(str(info.value))
    with pytest.raises(VerifyError) as fresh:
        language.verify(bad)
    out.append(str(fresh.value))
    return out


def test_kinds_are_kept_for_the_same_list_only():
    with reusing_walks():
        stmts = [type("S", (), {"_production": "Task"})(), type("S", (), {"_production": "Let"})()]
        kinds = statement_kinds(stmts)
        assert kinds == ["Task", "Let"]
        assert statement_kinds(stmts) is kinds
        other = list(stmts[:1])
        assert statement_kinds(other) == ["Task"]


def test_the_first_error_is_unchanged(tmp_path):
    A = DEP_ANNOTATED
    good = stage_tree(tmp_path, "resolve_dep_edges")
    task = next(s for s in iter_stmts(good.orch.body) if s._production == "Task")
    binder = task.outs[0] if task.outs[0]._production == "Binder" else task.outs[0].var
    alloc = A.Alloc.make([A.Create.make(A.Binder.make("fresh_t", binder.type), (), binder.type.dtype, False, None)])
    declare = A.Declare.make(A.Binder.make("fresh_d", binder.type))
    unresolved = task.replace(deps=(*task.deps, A.DepVar.make(A.Var.make(binder.name))))
    # an unresolved dependency after an Alloc and a Declare: the dependencies' check runs first
    tree = replaced(good, task, [alloc, declare, unresolved])
    assert all("unresolved dependency" in e for e in errors(A, good, tree))
    # an Alloc and a Declare: the Alloc's check runs before the Declare's
    tree = replaced(good, task, [declare, alloc, task])
    assert all("an Alloc before batch_tensor_creates" in e for e in errors(A, good, tree))
    tree = replaced(good, task, [declare, task])
    assert all("a Declare before hoist_scope_escapes" in e for e in errors(A, good, tree))
    A.verify(good)


def test_batched_refuses_an_unbatched_create_and_an_empty_alloc(tmp_path):
    good = stage_tree(tmp_path, "batch_tensor_creates", shape="mixed")
    unbatched = stage_tree(tmp_path, "resolve_dep_edges", shape="mixed")
    assert all("a create_tensor let left unbatched" in e for e in errors(BATCHED, good, unbatched))
    alloc = next(s for s in iter_stmts(good.orch.body) if s._production == "Alloc")
    tree = replaced(good, alloc, [alloc.replace(creates=())])
    assert all("an Alloc must hold 1..32 creates" in e for e in errors(BATCHED, good, tree))
