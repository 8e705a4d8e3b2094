"""drop_overwritten_cell_stores walks a statement for the cells it mentions only while a later
store of its list may be overwritten (a mention matters only to such a store): on the scopes
benchmark shape, whose lists hold one store each, walking every statement's subtree cost 158 M
instructions of a 1,209 M compile (2,000 statements)."""

from __future__ import annotations

from nanopass.languages import DIRECTED as D
from nanopass.languages.terms import DType
from nanopass.passes.drop_latest_runs_from_joins import DropLatestRunsFromJoins
from nanopass.passes.drop_overwritten_cell_stores import DropOverwrittenCellStores
from nanopass.rewrite import PassContext

TID = D.ScalarType(DType.TASK_ID)


def dummy(name: str, *deps):
    return D.Dummy(D.Binder(name, TID), list(deps), None)


def test_statements_after_the_last_store_are_not_walked(monkeypatch):
    # [d0 = dummy(t), d1 = dummy(d0), c = d1, d2 = dummy(c)], walked from its end:
    #   d2: no store met yet, so no store to overwrite: not walked (walked before the change)
    #   c = d1: its value walked (1), c may now be overwritten
    #   d1, d0: walked (2, 3), c still pending (neither mentions it)
    # 3 walks, not 4; the list is kept as it is (one store: none overwritten).
    body = (
        dummy("d0", D.DerivedDep(D.Var("t"))),
        dummy("d1", D.DerivedDep(D.Var("d0"))),
        D.CellSet("c", D.Var("d1")),
        dummy("d2", D.CellDep("c")),
    )
    walked = []
    mentions = DropOverwrittenCellStores.mentions
    monkeypatch.setattr(DropOverwrittenCellStores, "mentions", lambda self, node: walked.append(node) or mentions(self, node))
    p = DropOverwrittenCellStores(PassContext())
    p.cells = {"c"}
    assert p.block(body) is body
    assert walked == [body[2].value, body[1], body[0]]


def test_a_store_is_still_dropped_across_unwalked_statements(monkeypatch):
    # [c = a, d0 = dummy(t), c = b, d1 = dummy(c)]: d1 is after the last store (not walked), the
    # store c = b is kept, d0 does not mention c, so c = a is overwritten before any read: it goes.
    body = (
        D.CellSet("c", D.Var("a")),
        dummy("d0", D.DerivedDep(D.Var("t"))),
        D.CellSet("c", D.Var("b")),
        dummy("d1", D.CellDep("c")),
    )
    p = DropOverwrittenCellStores(PassContext())
    p.cells = {"c"}
    assert p.block(body) == body[1:]


def test_no_list_is_walked_where_no_cell_is_stored_twice(tmp_path, monkeypatch):
    # (the shape as the benchmark compiles it: at its sizes the lean analysis gives up before
    # drop_latest_runs_from_joins folds a scope loop's join; at this size it would fold it)
    monkeypatch.setattr(DropLatestRunsFromJoins, "fold_after_loop", lambda self, *args: None)
    # The scopes shape of 3 scopes: each scope's loop stores the cell joining its runs once, the
    # next scope waits on it (each cell is stored once in the function: checked below, by hand
    # of the tree), so no store can overwrite another and the pass returns its input unwalked.
    from conftest import pass_input

    from nanopass.tools.bench import scopes
    from nanopass.passes.util import iter_stmts

    path = tmp_path / "scopes3.py"
    path.write_text(scopes(12))
    given = pass_input(path, "drop_overwritten_cell_stores")
    stored = [s.cell for s in iter_stmts(given.orch.body) if s._production == "CellSet"]
    assert stored and len(set(stored)) == len(stored)
    walked = []
    block = DropOverwrittenCellStores.block
    monkeypatch.setattr(DropOverwrittenCellStores, "block", lambda self, stmts: walked.append(stmts) or block(self, stmts))
    assert DropOverwrittenCellStores(PassContext()).run(given) is given
    assert walked == []
