"""The join of a task's runs that stays a chain of barriers (a waiter in another loop waits on
it again and again), where the counter of the loop around the task says which runs the runtime
orders after every earlier run (drop_latest_runs_from_joins, ``RuntimeOrder.chained_each``,
issue 24): there the join takes the run itself (``if v == k or ...: join = tid``), and its
barrier, two entries and a dummy, goes. The figures are the emitted program's
(tools/measure_edges.py), computed by hand; the program also passes the hazard checker."""

from __future__ import annotations

from test_lean_edges import checked_clean, insertions

T = "pl.Tensor[[8, 8], pl.FP32]"

SWAP = f"""import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, a: {T}, out: pl.Out[{T}]) -> {T}:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, a: {T}, y: pl.InOut[{T}]) -> {T}:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {T}, y: pl.InOut[{T}], n: pl.Scalar[pl.INT64]) -> {T}:
        m: {T} = pl.create_tensor([8, 8], dtype=pl.FP32, manual_dep=True)
        for i, (p, q) in pl.range(3, init_values=(y, m)):
            t: {T} = pl.create_tensor([8, 8], dtype=pl.FP32)
            t = self.copy(p, t)
            if i >= 1:
                q = self.acc(t, q)
            r, s = pl.yield_(q, p)
        for j in pl.range(n):
            r = self.acc(x, r)
        return y
"""


def figures(n: int):
    f = insertions(SWAP, n)
    return f.insertions, f.redundant, f.dummies, f.minimum


def test_the_swap_loops_reader_takes_the_join_where_its_run_comes_after_every_earlier_one():
    """The carries swap: copy reads y, m, y in iterations 0, 1, 2; acc (i >= 1) writes y, then
    m (the manual tensor), each after copy's runs so far (a join of them). The loop after it
    writes m (r) n times, each after every copy run (m is tracked by no TensorMap: its writes
    are not ordered among themselves), so the join stays a chain. copy's run in iteration 2 reads
    y, which acc wrote in iteration 1 after copy's runs 0 and 1: the join takes that run with no
    barrier (and iteration 0's barrier has one entry, the run: not submitted). Entries: iteration 1's barrier (the join
    holding run 0, and run 1) 2 and a dummy; acc's 1 in each of iterations 1 and 2 (the second
    implied: acc reads t, which copy's run 2 wrote); each run of the loop after 1: 2 + 2 + n,
    1 dummy. Before the rule iteration 2's barrier cost 2 more and a dummy (its entry on the
    join implied). Needed: copy's run 0 before acc's run 1, and copy's run 1 before each write
    of m after the loop: 1 + n."""
    assert figures(0) == (4, 1, 1, 1)
    assert figures(1) == (5, 1, 1, 2)
    assert figures(2) == (6, 1, 1, 3)
    checked_clean(SWAP, (0, 1, 2))
