"""A loop whose two carries start as one tensor and one of which is given another tensor from
the second iteration on (issue 24, seed 36196 of measure_generated): ``runtime_order`` walks
the second iteration of such a loop apart from the third on (in the second the carry holds the
new tensor, but the task's run before it wrote the first), and a task after the loop is walked
from the exits after one trip and after two or more apart (after a loop of constant bounds of
two trips or more, from the second alone). Figures (tools/measure_edges.py) by hand, and the
hazard checker on each trip count."""

from __future__ import annotations

from test_lean_edges import checked_clean, insertions

# In each iteration i of the inner loop the host reads p (always y), then fscale reads and
# writes q: y at i = 0 (both carries start as y), z from i = 1 on (the yield gives q z). After
# the loop add reads o2 (q's last tensor) and writes y. The compiler orders each run of fscale
# after the one before (it writes q) and add after fscale's latest run.
ALIASED = """# options: analyze_auto_scopes_for_deps=True
import nanopass.dsl as pl


@pl.program
class Aliased:
    @pl.function(type=pl.FunctionType.AIV)
    def fscale(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]], s: pl.Scalar[pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
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
        z: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        for k in pl.range(n):
            for i, (p, q) in pl.range(TRIPS, init_values=(y, y)):
                h = pl.tensor.read(p, [i % 8, 1])
                q = self.fscale(q, q, h)
                o1, o2 = pl.yield_(p, z)
            y = self.add(o2, x, y)
        return y
"""


def figures(trips: str, n: int) -> tuple:
    found = insertions(ALIASED.replace("TRIPS", trips), n)
    return found.insertions, found.redundant, found.minimum, found.dummies


def test_a_carry_aliased_then_replaced_orders_by_the_runtime_alone():
    """By hand: fscale at i = 1 is ordered after its run at i = 0 (which wrote y) by the host
    read of p = y before it; at i >= 2 after its run at i - 1 (which wrote z) by its lookup of
    z. add looks up o2, z after two trips or more (fscale's latest run wrote it), y after one
    (fscale wrote it, and add's InOut y looks it up), and after none its InOut y finds the add
    before it, which came after every fscale so far; the next outer iteration's first host
    read of y waits for that add. So the runtime orders every pair: 0 insertions for each n,
    minimum 0. Before the rule, with 9 trips (more than the walk unrolls): each run of fscale
    but the first waited on the previous one (9n - 1: 8, 17, 26), all redundant; with n trips:
    n * n entries (1, 4, 9: n - 1 per outer iteration on fscale, 1 of add)."""
    assert [figures("9", n) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0)] * 4
    assert [figures("n", n) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0)] * 4
    checked_clean(ALIASED.replace("TRIPS", "9"), trips=(0, 1, 2))
    checked_clean(ALIASED.replace("TRIPS", "n"), trips=(0, 1, 2, 3))
