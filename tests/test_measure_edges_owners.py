"""Whose insertions the measure counts as the user's (tools/measure_edges.py, issue 24): the
entries the program's own dependencies put in the arrays, however the compiler lowers them (a
TaskId array named whole, the user's ``task_dummy``, a phase fence), against the compiler's own
(cells, derived edges, its join barriers); and the compiler minimum, the covering pairs that
neither the runtime nor the user's entries order. Every figure is computed by hand in a comment."""

from __future__ import annotations

from test_measure_edges import Traces, verdicts

from nanopass.tools.measure_edges import main, measure_file, measure_trace
from nanopass.tools.measure_generated import excess, line

# -- hand-built traces -------------------------------------------------------------------------------


def test_of_a_users_entry_and_a_compilers_naming_one_task_the_compilers_is_the_duplicate():
    b = Traces("x")
    b.scope("manual")
    reader = b.task(("x", "INPUT"), mode="manual")
    writer = b.task(("x", "INOUT"), deps=[reader, reader], mode="manual")
    # the compiler's cell comes first in the array, the user's deps= entry second
    figures = measure_trace(b.trace, {b.trace.events[writer].id: ["cell", "user"]})
    assert verdicts(b.trace, figures)[writer] == ["duplicate", None]
    assert figures.by_kind == {"cell": 1, "user": 1}
    assert figures.redundant_by_kind == {"cell": 1}
    # one covering pair (reader, writer), which the user's entry orders: the compiler's entry is
    # implied by the runtime and the user's
    assert (figures.minimum, figures.compiler_minimum, figures.implied_by_user) == (1, 0, 1)


def test_the_compiler_minimum_leaves_out_the_pairs_a_users_barrier_orders():
    b = Traces("x", "y", "z0", "z1", "z2")
    b.scope("manual")
    producers = [b.task(("x", "INOUT"), mode="manual"), b.task(("y", "INOUT"), mode="manual")]
    fence = b.dummy(producers, mode="manual")  # the user's task_dummy
    consumers = [b.task((f"z{i}", "INOUT"), deps=[fence], mode="manual") for i in range(3)]
    join = b.dummy(consumers, mode="manual")  # a join barrier of the compiler's
    writer = b.task(("x", "INOUT"), deps=[join], mode="manual")
    ids = {name: b.trace.events[index].id for name, index in [("fence", fence), ("join", join), ("writer", writer)]}
    kinds = {ids["fence"]: ["user", "user"], ids["join"]: ["barrier"] * 3, ids["writer"]: ["cell"]}
    kinds.update({b.trace.events[c].id: ["user"] for c in consumers})
    figures = measure_trace(b.trace, kinds)
    # insertions: user 2 + 3, barrier 3, cell 1; nothing redundant. Covering pairs (nothing is
    # the runtime's in a manual scope): 2 * 3 producer-consumer pairs through the fence, 3
    # consumer-writer pairs through the join: minimum 9; the user's entries order the first 6,
    # so the compiler minimum is 3, which the compiler's join carries with 4 entries
    assert figures.by_kind == {"user": 5, "barrier": 3, "cell": 1}
    assert (figures.insertions, figures.redundant, figures.dummies) == (9, 0, 2)
    assert (figures.minimum, figures.compiler_minimum, figures.implied_by_user) == (9, 3, 0)


def test_a_compiler_entry_the_users_chain_implies_is_implied_by_the_users_and_one_another_implies_is_not():
    b = Traces("x", "y", "z")
    b.scope("manual")
    first = b.task(("x", "INOUT"), mode="manual")
    second = b.task(("y", "INOUT"), deps=[first], mode="manual")
    third = b.task(("z", "INOUT"), deps=[second], mode="manual")
    last = b.task(("x", "INOUT"), deps=[first, third, first, second], mode="manual")
    kinds = {b.trace.events[second].id: ["user"], b.trace.events[third].id: ["cell"],
             b.trace.events[last].id: ["cell", "cell", "derived", "user"]}
    figures = measure_trace(b.trace, kinds)
    # last's entries: the cell on first is implied (first -> second -> last), and the user's chain
    # first -> second -> last orders it; the cell on third is needed; the derived entry on first
    # duplicates the cell's; the user's on second is implied through third (a compiler's cell).
    # Implied by the runtime and the user's: the two entries on first (first is in U(last),
    # through second), not the one on third (neither third -> last nor second -> third is the
    # user's).
    assert verdicts(b.trace, figures)[last] == ["implied", None, "duplicate", "implied"]
    assert figures.implied_by_user == 2
    # covering pairs: (first, second), (second, third), (third, last); the user's order the first
    assert (figures.minimum, figures.compiler_minimum) == (3, 2)


# -- a compiled program, read by hand -----------------------------------------------------------------

# A manual scope: two fills whose TaskIds an array holds, a task waiting on the whole array, a
# task_dummy over the array and three tasks waiting on it; after the scope (AUTO) n readers of
# x and a fill of x reading b, which waits for the readers (a join barrier of the compiler's
# and a cell of the latest run) and for the manual fills (t0 reads x, t1 writes b: two cells).
OWNED = """import nanopass.dsl as pl


@pl.program
class Owned:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def use(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def read(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], b: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], z: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             w: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            ids = pl.array.create(2, pl.TASK_ID)
            a, t0 = pl.submit(self.fill, x, a, deps=[])
            ids[0] = t0
            b, t1 = pl.submit(self.fill, x, b, deps=[])
            ids[1] = t1
            y, u = pl.submit(self.use, a, b, y, deps=[ids])
            fence = pl.system.task_dummy(deps=[ids])
            z, v = pl.submit(self.use, a, b, z, deps=[fence])
            w, v2 = pl.submit(self.use, a, b, w, deps=[fence])
            z, v3 = pl.submit(self.use, b, a, z, deps=[fence])
        for i in pl.range(n):
            t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.read(x, t)
        x = self.fill(b, x)
        return y
"""

# n -> (by_kind, redundant, minimum, compiler minimum, dummies). The user's: the array's 2 valid
# slots for u, the task_dummy's 2 entries (submitted: it has two), 1 for each of v, v2, v3: 7.
# The covering pairs in the scope (the runtime orders nothing there, nor between the readers,
# which read x and write tensors of their own): (t0|t1, u) and (t0|t1, v|v2|v3), 8, all the
# user's; after it, (t0|t1|each reader, the last fill): 2 + n, the compiler minimum.
# n = 0: the last fill's cells on t0 and t1. n = 1: and a cell on the one reader (the join
# before it has no valid entry, not submitted). n = 3: the join before the third reader has
# the first two (2 barrier entries), the last fill waits on it and on the third (2 cells):
# 6 entries for 5 pairs.
OWNED_FIGURES = {
    0: ({"user": 7, "cell": 2}, 0, 10, 2, 1),
    1: ({"user": 7, "cell": 3}, 0, 11, 3, 1),
    3: ({"user": 7, "cell": 4, "barrier": 2}, 0, 13, 5, 2),
}


def test_the_users_array_and_task_dummy_entries_are_the_users_and_the_join_the_compilers(tmp_path):
    path = tmp_path / "owned.py"
    path.write_text(OWNED)
    for n, (kinds, redundant, minimum, compiler_minimum, dummies) in OWNED_FIGURES.items():
        figures, _ = measure_file(str(path), {"n": str(n)})
        assert figures.by_kind == kinds, n
        assert (figures.redundant, figures.minimum, figures.compiler_minimum, figures.dummies) == (
            redundant, minimum, compiler_minimum, dummies), n
        assert figures.implied_by_user == 0, n  # (nothing of the compiler's is redundant)


def test_the_command_prints_the_compiler_minimum(tmp_path, capsys):
    path = tmp_path / "owned.py"
    path.write_text(OWNED)
    assert main([str(path), "--set", "n=3"]) == 0
    out = capsys.readouterr().out
    assert "insertions 13 (user 7, cell 4, barrier 2)" in out
    assert "minimum    13 (beyond the user's entries 5)" in out


def test_the_last_figure_sets_the_insertions_against_the_users_plus_the_compiler_minimum():
    # OWNED_FIGURES' runs summed: 9 + 10 + 13 insertions, 21 of them the user's, compiler
    # minimum 2 + 3 + 5: 32 / 31 - 1 = +3.2 %, one entry over (the join at n = 3); against the
    # minimum (34) -5.9 %, fewer through the user's task_dummy
    from collections import Counter

    total = Counter({"runs": 3, "insertions": 32, "by_kind user": 21, "by_kind cell": 9, "by_kind barrier": 2,
                     "minimum": 34, "compiler_minimum": 10})
    assert excess(total) == 1
    assert line(total).endswith("insertions -5.9% against the minimum, +3.2% against the user's entries plus "
                                "the compiler minimum")
