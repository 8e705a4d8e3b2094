"""``dep_edges.EdgeWriter`` builds the nodes it adds with ``make_trusted``: the dependencies
(``DerivedDep`` of a TaskId's name, ``CellDep`` of a cell's name), the ``CellSet`` and join barrier
after a source task, and the rewritten task (its other fields are its input's; its dependencies
its own and those it made). Inside ``trusted_checked()`` ``make_trusted`` is the checked ``make``:
both passes that use the writer (``order_write_after_read``, ``derive_auto_scope_dependencies``)
must give the same output both ways (and raise nothing when checked) on every example, golden and
found program, the bench shapes and random programs (manual scopes too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FOUND, corpus_tests, bench_file, pass_inputs, random_file, running, trusted_both_ways

from nanopass.errors import GrammarError
from nanopass.language import trusted_checked
from nanopass.languages import DIRECTED
from nanopass.passes.derive_auto_scope_dependencies import DeriveAutoScopeDependencies
from nanopass.passes.order_write_after_read import OrderWriteAfterRead

SEEDS = range(16)
PASSES = (OrderWriteAfterRead, DeriveAutoScopeDependencies)


def check(path: Path) -> None:
    for pass_cls in PASSES:
        trusted_both_ways(pass_cls, path)


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("path", sorted(FOUND.glob("*.py")), ids=lambda p: p.stem)
def test_found_programs(path):
    check(path)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    for seed in SEEDS:
        check(random_file(tmp_path, seed, manual=manual))


def test_the_checked_constructor_refuses_what_the_trusted_one_takes():
    # (so the comparison above can fail: a wrong value passes make_trusted, not the checked make)
    wrong = DIRECTED.CellDep.make_trusted(7)
    assert wrong.cell == 7
    with trusted_checked(), pytest.raises(GrammarError):
        DIRECTED.CellDep.make_trusted(7)


def test_the_scopes_shape_gets_its_joins_through_the_writer(tmp_path):
    # (the shape's tasks each wait for a join and chain a barrier after them: the nodes made trusted)
    (given,) = pass_inputs(bench_file(tmp_path, "scopes", 8), OrderWriteAfterRead.name)
    out = running(OrderWriteAfterRead)(given)
    from nanopass.passes.util import iter_stmts

    kinds = [s._production for s in iter_stmts(out.orch.body)]
    assert kinds.count("Dummy") >= 1 and kinds.count("CellSet") >= 1
    assert any(d._production == "CellDep" for s in iter_stmts(out.orch.body) if s._production == "Task" for d in s.deps)
