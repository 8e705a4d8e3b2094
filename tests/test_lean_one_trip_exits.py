"""A swap loop of unknown trips whose task runs from its second iteration on (``if i >= 1``,
the copy-and-accumulate loop of issue 24, seeds 28078, 32094, 32041 of measure_generated):
``runtime_order`` walks what follows the loop from four exits apart, no trip, an even number,
one trip and an odd number of three or more (the one-trip exit was met with the last), so the
lean passes find the edges the runtime implies after two trips or more. Figures
(tools/measure_edges.py) by hand, and the hazard checker on each trip count."""

from __future__ import annotations

from test_lean_edges import checked_clean, insertions

# In each of two outer iterations: the inner loop's carries start as (y, z) and swap, so p is
# y in its even iterations and z in the odd ones, q the other; copy reads p into a new tensor,
# acc (from i = 1 on) reads it and writes q; add after the loop reads o1 (q of the last
# iteration) and writes y.
SWAP_AFTER_ONE = """import nanopass.dsl as pl


@pl.program
class Swap:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def add(self, a: pl.Tensor[[8, 8], pl.FP32], b: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        y: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        z: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        for k in pl.range(2):
            for i, (p, q) in pl.range(n, init_values=(y, z)):
                t: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
                t = self.copy(p, t)
                if i >= 1:
                    q = self.acc(t, q)
                o1, o2 = pl.yield_(q, p)
            y = self.add(o1, x, y)
        return y
"""


def figures(n: int) -> tuple:
    found = insertions(SWAP_AFTER_ONE, n)
    return found.insertions, found.redundant, found.minimum, found.dummies


def test_an_edge_after_a_swap_loop_needed_after_one_trip_alone_is_inserted_there():
    """By hand, per outer iteration: acc at i = 1 writes y, which copy at i = 0 read: an edge
    (the runtime orders acc after copy at i = 1 alone, by its lookup of t); acc at i >= 2 comes
    after copy at i (its lookup of t), which looked up p, written by acc at i - 1, which came
    after every copy before: no edge. add writes y: after one trip copy at i = 0 read it and
    nothing orders add after it (add looks up z and y, which the add before wrote): an edge;
    after two trips or more add's lookup of o1 finds acc's last run, which came after every
    copy: none. So 2 insertions (one per outer iteration), none redundant, minimum 2, for each
    n >= 1 (n = 1: add's edges; n >= 2: acc's). Before the rule (the walk met the exit after
    one trip with the one after three or more) acc waited on the join of copy's runs in each of
    its runs (n = 3: 2 more, n = 4: 4 more, redundant) and the join's cells were cleared after
    add only, which inserted them (4 more, redundant, for each n >= 2): (6, 4, 2, 0), (8, 6, 2,
    0), (10, 8, 2, 0) for n = 2, 3, 4; now acc waits on the join on its first run (its runs are
    chained) and the cells are cleared after it."""
    assert [figures(n) for n in (0, 1, 2, 3, 4)] == [(0, 0, 0, 0)] + [(2, 0, 2, 0)] * 4
    checked_clean(SWAP_AFTER_ONE, trips=(0, 1, 2, 3, 4))
