"""drop_overwritten_cell_stores: a cell store that a later store of the same cell in the same
statement list overwrites, with no mention of the cell between, goes; every dependency stays."""

from __future__ import annotations

import re

from conftest import compiled_stages, cpp_of, random_file

from nanopass.languages.statements import BODY_FIELDS
from nanopass.pipeline import PipelineError
from nanopass.passes.drop_overwritten_cell_stores import DropOverwrittenCellStores
from nanopass.passes.util import iter_stmts

from test_lean_edges import checked_clean

# Generated program 50 (AUTO). In the `else` branch clear_edges_where_implied clears the cell
# k_add_unless_implied after each of the three tasks there that imply its edge (k_copy, k_copy,
# k_add); nothing reads the cell between the three clears (the two k_copy tasks have no
# dependencies), so the first two are overwritten and go, the last stays: 5 lines naming a
# store of it (its declaration, the `then` branch's set, three clears) become 3.
THREE_CLEARS = """import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k_add(self, a: pl.Tensor[[8, 8], pl.FP32], b: pl.Tensor[[8, 8], pl.FP32], out: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x0: pl.Tensor[[8, 8], pl.FP32], x1: pl.Tensor[[8, 8], pl.FP32], y0: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
             big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 8], pl.FP32]:
        for (i6,) in pl.while_(init_values=(0,)):
            pl.cond(i6 < n)
            if n % 2 == 0:
                for i7 in pl.range(1, 3):
                    a8: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
                    a8 = self.k_copy(x1, a8)
                    big = pl.assemble(big, a8, [24, 0])
                    s9 = pl.tensor.slice(big, [8, 8], [24, 0])
                    y0 = self.k_add(s9, x0, y0)
            else:
                s12 = pl.tensor.slice(big, [8, 8], [8, 0])
                s12 = self.k_copy(x1, s12)
                a13: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
                a13 = self.k_copy(x0, a13)
                big = pl.assemble(big, a13, [8, 0])
                s14 = pl.tensor.slice(big, [8, 8], [8, 0])
                y0 = self.k_add(s14, x0, y0)
            (w15,) = pl.yield_(i6 + 1)
        return y0
"""


def stores(cpp: str, cell: str) -> int:
    return len(re.findall(rf"\b{cell} = ", cpp))


def dependency_lines(cpp: str) -> list[str]:
    return [line.strip() for line in cpp.splitlines() if "_deps[" in line or "set_dependencies" in line]


def without_the_pass(monkeypatch):
    monkeypatch.setattr(DropOverwrittenCellStores, "lean", lambda self, program: program)


def test_the_clears_a_later_clear_overwrites_go(tmp_path, monkeypatch):
    path = tmp_path / "three_clears.py"
    path.write_text(THREE_CLEARS)
    (cpp,) = cpp_of([path])
    with monkeypatch.context() as m:
        without_the_pass(m)
        (before,) = cpp_of([path])
    assert stores(before, "k_add_unless_implied") == 5
    assert stores(cpp, "k_add_unless_implied") == 3
    assert dependency_lines(cpp) == dependency_lines(before)
    checked_clean(THREE_CLEARS, trips=(0, 1, 2, 3))


def overwritten(stmts) -> list:
    """The stores of ``stmts`` (at any depth) followed in their list by a store of the same cell
    with no statement between naming the cell (by its name anywhere in the statement's text)."""
    found = []
    for k, stmt in enumerate(stmts):
        if stmt._production == "CellSet" and not (stmt.value._production == "Var" and stmt.value.name == stmt.cell):
            for later in stmts[k + 1:]:
                if later._production == "CellSet" and later.cell == stmt.cell:
                    found.append(stmt)
                    break
                if re.search(rf"\b{stmt.cell}\b", repr(later)):
                    break
        for field in BODY_FIELDS.get(stmt._production, ()):
            found += overwritten(getattr(stmt, field))
    return found


def test_no_overwritten_store_is_left(tmp_path):
    """On generated programs (AUTO and manual): afterwards no store is overwritten in its list
    before a mention of its cell (the contract), and the pass dropped exactly the stores its input
    had overwritten (this test's own search, by the cell's name in the statements' text); the
    sample has some (10 in seeds 0-39 when this test was written)."""
    dropped = 0
    for seed in range(40):
        path = random_file(tmp_path, seed, manual=seed % 2 == 1, max_statements=9)
        try:
            stages = compiled_stages(path)
        except PipelineError:  # (a program the compiler refuses)
            continue
        before = stages["split_joins_by_iteration"].tree
        after = stages["drop_overwritten_cell_stores"].tree
        assert overwritten(list(after.orch.body)) == []
        sets_before = sum(1 for s in iter_stmts(before.orch.body) if s._production == "CellSet")
        sets_after = sum(1 for s in iter_stmts(after.orch.body) if s._production == "CellSet")
        assert sets_before - sets_after == len(overwritten(list(before.orch.body)))
        dropped += sets_before - sets_after
    assert dropped > 0
