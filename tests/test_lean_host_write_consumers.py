"""A host write waits for the consumers of its tensor's TensorMap producers (runtime-api.md
section 11: ``set_tensor_data`` waits for each producer's consumers to finish), so every task
submitted after it is ordered after them: ``runtime_order`` follows a task's dependency on the
TaskId binder of a producer's run (``_Walker.producers``), and drops the edges that wait implies
and the host fences it makes needless (docs/semantics.md gap 5). Only while the producer's scope
is open: the wait is ``fanout_refcount >= fanout_count-1``, the reference it leaves out being the
scope's, so after the scope released it any one consumer may still run (docs/decisions.md,
"set_tensor_data after the producer's scope"); a producer of an earlier iteration, whose scope
ended, orders no consumer before the write (seed 48054 of measure_generated was 30 insertions over
under the stronger reading, and keeps them). A write that may cover the producer's entry (another
InOut writer of the tensor) ends the wait. Figures (tools/measure_edges.py) by hand, and the hazard
checker on each trip count."""

from __future__ import annotations

from dsl_header import load_store_kernel, program
from test_lean_edges import checked_clean, insertions

T = "pl.Tensor[[8, 8], pl.FP32]"
PARAMS = f"x: {T}, a: pl.InOut[{T}], u: pl.InOut[{T}], v: pl.InOut[{T}], n: pl.Scalar[pl.INT64]"
ACC = load_store_kernel(f"acc(a: {T}, acc: pl.InOut[{T}])", "acc")

# In each iteration: a host write of a; X = acc(x, v) writes v; P = acc(u, a) reads u, writes a;
# C = acc(v, u) reads v, writes u: a write-after-read on P's read of u (a derived edge on P's
# TaskId), and X of the next iteration writes v, which C read (an edge on C's latest run).
HOST_WRITE = program([ACC], PARAMS, """
    for i in pl.range(n):
        pl.tensor.write(a, [0, 0], 1.0)
        v = self.acc(x, v)
        a = self.acc(u, a)
        u = self.acc(v, u)
    return a
""", returns=T, name="HostWrite")

# The same with a second writer of a after C: it covers P's entry of a (its lookup finds P, and
# it is the producer the host write waits for now), and nothing orders it after C.
COVERED = program([ACC], PARAMS, """
    for i in pl.range(n):
        pl.tensor.write(a, [0, 0], 1.0)
        v = self.acc(x, v)
        a = self.acc(u, a)
        u = self.acc(v, u)
        a = self.acc(x, a)
    return a
""", returns=T, name="HostWrite")

# The write of HOST_WRITE through o1, which the swap loop of two trips before (a task in its
# second iteration alone) leaves holding a: the hazard passes, which do not follow the swap, fence
# the host write on P's Input read of a; P is a's producer, so drop_implied_dependencies drops
# the fence's edge and the fence, and walks its output again (without the fence, which wrote o1
# in the first walk and so covered P's entry).
FENCED = program(
    [ACC, load_store_kernel(f"mm(a: {T}, b: {T}, out: pl.InOut[{T}])", "out")],
    f"x: {T}, a: pl.InOut[{T}], u: pl.InOut[{T}], v: pl.InOut[{T}], w: pl.InOut[{T}], n: pl.Scalar[pl.INT64]",
    """
    for k, (p, q) in pl.range(2, init_values=(a, v)):
        if k >= 1:
            q = self.acc(x, q)
        o1, o2 = pl.yield_(q, p)
    for i in pl.range(n):
        pl.tensor.write(o1, [0, 0], 1.0)
        w = self.acc(x, w)
        o1 = self.mm(u, a, o1)
        u = self.acc(w, u)
    return a
""", returns=T, name="HostWrite")

# The two gap-5 programs' kernels and parameters.
GAP5 = ([load_store_kernel(f"copy(a: {T}, out: pl.Out[{T}])", "out"), ACC],
        f"x: {T}, y: pl.InOut[{T}], z: pl.InOut[{T}], n: pl.Scalar[pl.INT64]")

# docs/semantics.md gap 5: a host write of y after an Input reader of y (acc of z) that looked y
# up while y's producer (acc of y, in the same block) was in scope: the reader is a consumer of
# the producer, which the write waits for.
READER = program(*GAP5, """
    y = self.acc(x, y)
    z = self.acc(y, z)
    pl.tensor.write(y, [0, 0], 1.0)
    return z
""", returns=T, name="Gap5")

# READER with the producer and its reader in a `with pl.scope()` that ends before the write.
READER_SCOPED = program(*GAP5, """
    with pl.scope():
        y = self.acc(x, y)
        z = self.acc(y, z)
    pl.tensor.write(y, [0, 0], 1.0)
    return z
""", returns=T, name="Gap5", auto_scope=False)

# READER in a loop: the producer, its reader and the host write in one iteration.
IN_ITERATION = program(*GAP5, """
    for i in pl.range(n):
        y = self.acc(x, y)
        z = self.acc(y, z)
        pl.tensor.write(y, [0, 0], 1.0)
    return z
""", returns=T, name="Gap5")

# The reader looks y up in the iterations after the first, where y's producer ran in the
# iteration before: that iteration's scope has ended and the producer may have retired (the
# reader is then no consumer of it: runtime-api.md 11, a retired producer is skipped).
READER_AFTER_SCOPE = program(*GAP5, """
    for i in pl.range(3):
        z = self.acc(y, z)
        if i >= 1:
            pl.tensor.write(y, [0, 0], 1.0)
        y = self.acc(x, y)
    return z
""", returns=T, name="Gap5")


def figures(text: str, n: int) -> tuple:
    found = insertions(text, n)
    return found.insertions, found.redundant, found.minimum, found.dummies


def test_a_host_write_after_the_producers_scope_orders_none_of_its_consumers():
    """By hand: C waits on P in each iteration (its lookup of u finds the C before, not P): n
    edges. X at i >= 1 writes v, which C at i - 1 read; its lookup of v finds X at i - 1, before
    C. The host write of a at i waits for a's producer P at i - 1, whose iteration's scope has
    ended: not for its consumer C at i - 1. X keeps its edge on C's latest run from i = 1 on:
    (2n - 1, 0, 2n - 1, 0) for n >= 1. (Under the reading that the write waits for the consumers
    whatever the scope, the edge went: (n, 0, n, 0), a race on the runtime.)"""
    assert [figures(HOST_WRITE, n) for n in (0, 1, 2, 3, 4)] == [(0, 0, 0, 0)] + [(2 * n - 1, 0, 2 * n - 1, 0) for n in (1, 2, 3, 4)]
    checked_clean(HOST_WRITE, trips=(0, 1, 2, 3, 4))


def test_a_host_write_in_the_producers_iteration_orders_its_consumers():
    """By hand: in iteration i, P = acc of y, C = acc of z reads y (a consumer of P: its lookup
    finds P, in the open scope of the iteration), then the host write of y, fenced by the hazard
    passes on C's read: the write waits for P and its consumer C, so the fence goes. The next
    iteration's P writes y after C read it (a write-after-read) and comes after the write: implied
    too. Nothing is inserted: (0, 0, 0, 0) for every n; without the rule the fence stays, one
    entry and one dummy per iteration."""
    assert [figures(IN_ITERATION, n) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0)] * 4
    checked_clean(IN_ITERATION, trips=(0, 1, 2, 3))


def test_a_writer_that_covers_the_producers_entry_keeps_the_edge():
    """By hand: the second writer of a covers P's entry and becomes the producer the host write
    of the next iteration waits for, with its consumers; C is neither (the second writer looks
    a up, not u). X keeps its edge on C from i = 1 on: n edges of C on P, n - 1 of X on C, none
    redundant: (2n - 1, 0, 2n - 1, 0) for n >= 1."""
    assert [figures(COVERED, n) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0)] + [(2 * n - 1, 0, 2 * n - 1, 0) for n in (1, 2, 3)]
    checked_clean(COVERED, trips=(0, 1, 2, 3))


def test_a_host_write_whose_fence_goes_waits_for_the_producer_itself():
    """By hand: o1 is a after the swap loop (two trips). The hazard passes fence the host write on
    P's Input read of a; P wrote o1, the same buffer, and is its producer: the write waits for P,
    so the fence goes. As in HOST_WRITE, n edges of C on P, and X at i >= 1 keeps its edge on C
    (the write waits for no consumer of P at i - 1, whose scope ended): (2n - 1, 0, 2n - 1, 0)
    for n >= 1."""
    assert [figures(FENCED, n) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0)] + [(2 * n - 1, 0, 2 * n - 1, 0) for n in (1, 2, 3)]
    checked_clean(FENCED, trips=(0, 1, 2, 3))


def test_a_host_fence_on_a_consumer_of_the_producer_goes():
    """By hand: the hazard passes fence the host write of y on acc of z's read of y (1 entry,
    1 dummy); that reader's lookup found acc of y's entry in the function's scope, so the write
    waits for it without the fence: (0, 0, 0, 0)."""
    assert figures(READER, 1) == (0, 0, 0, 0)
    checked_clean(READER, trips=(1,))


def test_a_reader_after_the_producers_scope_keeps_its_fence():
    """By hand: in iterations 1 and 2 the host write is fenced on that iteration's read of y (2
    entries, 2 dummies); acc of y waits on the read in iteration 0 (1 entry: in the later ones
    the fence before it orders it). The read's lookup finds acc of y of the iteration before,
    whose scope ended: the fences stay, (3, 0, 3, 2)."""
    assert figures(READER_AFTER_SCOPE, 1) == (3, 0, 3, 2)
    checked_clean(READER_AFTER_SCOPE, trips=(1,))


def test_a_host_write_after_the_producers_scope_keeps_its_fence():
    """By hand: as READER, but the scope of the producer and its reader ends before the write,
    releasing its reference on the producer: the write's wait may leave the reader running, so
    the fence on the reader stays: 1 entry, 1 dummy, needed: (1, 0, 1, 1). (Session 31's rule
    dropped it: (0, 0, 0, 0), a race the hazard checker now reports.)"""
    assert figures(READER_SCOPED, 1) == (1, 0, 1, 1)
    checked_clean(READER_SCOPED, trips=(1,))


# attack seed 5260, program 10 (minimised): k3 in a manual scope depends on k1, the producer of w
# (InOut), and on k2, which ran after k1 where n > 1; the host write of w comes after the scope.
REROUTED = '''
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def k1(self, p0: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]], p2: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> tuple[pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[4, 4], pl.FP32]]:
        return p0, p1, p2

    @pl.function(type=pl.FunctionType.AIV)
    def k2(self, p0: pl.Tensor[[4, 4], pl.FP32], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.AIV)
    def k3(self, p0: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], p1: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], p2: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> tuple[pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[4, 4], pl.FP32], pl.Tensor[[8, 4], pl.FP32]]:
        return p0, p1, p2

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        b, a, w = self.k1(b, a, w)
        if n > 1:
            t2 = pl.create_tensor([4, 4], dtype=pl.FP32)
            r3 = self.k2(t2, a)
        with pl.manual_scope():
            m4 = None
            (r6, w, a), m4 = pl.submit(self.k3, b, w, a, deps=[m4])
        pl.tensor.write(w, [2, 3], 5.0)
        return a
'''.lstrip("\n")


def test_a_task_whose_dependency_names_the_producer_is_not_counted_as_its_consumer():
    """By hand: k3's dependency on k1 makes it k1's consumer only while nothing reroutes it;
    merge_cells_into_chains, after the analysis, chains it through k2 where k2 ran (k2 is ordered
    after k1), and k3 then waits on k2 alone: no consumer of k1, so the host write of w does not
    wait for k3 (set_tensor_data waits for k1 and its consumers). The host fence on k3 must stay
    (before: it was dropped, a write-after-write race at n = 2 that the attack oracle reported)."""
    assert figures(REROUTED, 2)[3] == 1  # (dummies: the host fence)
    checked_clean(REROUTED, trips=(0, 1, 2))
