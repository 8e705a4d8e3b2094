"""Edges the runtime or other edges imply (issue 24, the straight half): each rule of
``runtime_order`` or ``drop_implied_dependencies`` on a small program whose figures
(tools/measure_edges.py: insertions, redundant, minimum, dummies) are computed by hand, before
and after the lean passes, and checked by the hazard checker."""

from __future__ import annotations

import pytest

from test_lean_edges import OFF, chain_program, checked_clean, insertions

# u is t's tensor on both branches (acc's result on its InOut t, or t itself); step then
# writes t and reads y; the last acc reads u and writes y after step's read of y (a
# write-after-read edge on step)
IF_RESULT_THEN_WRITER = """        if n >= 1:
            u = self.acc(x, t)
        else:
            u = t
        t = self.step(y, t)
        y = self.acc(u, y)"""


def test_an_if_result_shares_the_facts_of_the_tensor_both_branches_yield():  # (runtime_order)
    """The if's result ``u`` is ``t`` on both branches, so the last acc's lookup of ``u`` finds
    step's entry on ``t`` (step wrote ``t`` after the if): the write-after-read edge step -> acc
    is the runtime's. While an if's result had a copy of its facts, taken at the if, step's
    write after it was not in them and the edge stayed (seed 24082 of measure_generated, where
    the if is in a swap loop of constant bounds and the result is a loop result after it).
    Figures by hand, for n = 0 and 1: 2 or 3 tasks, one derived edge step -> acc, which the
    runtime orders (redundant 1, minimum 0); after: none."""
    text = chain_program(IF_RESULT_THEN_WRITER)
    for n in (0, 1):
        before, after = insertions(text, n, OFF), insertions(text, n)
        assert (before.insertions, before.redundant, before.minimum, before.dummies) == (1, 1, 0, 0)
        assert (after.insertions, after.redundant, after.minimum, after.dummies) == (0, 0, 0, 0)
    checked_clean(text, trips=(0, 1))


# half writes rows 8-15 of t through the view v (after a read of y); fold reads the same rows
# through another view w of t, and writes y
VIEWS_OF_ONE_REGION = """        v = pl.tensor.slice(t, [8, 16], [8, 0])
        v = self.half(y, v)
        w = pl.tensor.slice(t, [8, 16], [8, 0])
        y = self.fold(w, y)"""

HALF_KERNELS = """    @pl.function(type=pl.FunctionType.AIV)
    def half(self, y: pl.Tensor[[16, 16], pl.FP32], h: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return h

    @pl.function(type=pl.FunctionType.AIV)
    def fold(self, h: pl.Tensor[[8, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

"""


def with_half_kernels(body: str) -> str:
    orch = "    @pl.function(type=pl.FunctionType.Orchestration)"
    return chain_program(body).replace(orch, HALF_KERNELS + orch)


def test_views_of_one_region_share_their_facts():  # (runtime_order)
    """``w`` and ``v`` are slices of ``t`` at the same constant offsets and extents: fold's
    lookup of ``w`` finds the TensorMap entry half inserted for ``v``, so the write-after-read
    edge half -> fold (half reads ``y``, fold writes it) is the runtime's. While every view
    started from no facts, the edge stayed (seeds 24044, 24110, 24121 of measure_generated: an
    assemble's placed source, then a slice of the same rows). Figures by hand: 2 tasks, one
    derived edge, redundant (runtime), minimum 0; after: none."""
    text = with_half_kernels(VIEWS_OF_ONE_REGION)
    before, after = insertions(text, 0, OFF), insertions(text, 0)
    assert (before.insertions, before.redundant, before.minimum, before.dummies) == (1, 1, 0, 0)
    assert (after.insertions, after.redundant, after.minimum, after.dummies) == (0, 0, 0, 0)
    checked_clean(text, trips=(0,))


def test_views_of_other_regions_keep_the_edge():  # (runtime_order)
    """The same with ``w`` at rows 0-7: fold's lookup of ``w`` misses half's entry (a disjoint
    region of ``t``), so the edge half -> fold is needed and stays (redundant 0, minimum 1)."""
    text = with_half_kernels(VIEWS_OF_ONE_REGION.replace("w = pl.tensor.slice(t, [8, 16], [8, 0])",
                                                         "w = pl.tensor.slice(t, [8, 16], [0, 0])"))
    after = insertions(text, 0)
    assert (after.insertions, after.redundant, after.minimum, after.dummies) == (1, 0, 1, 0)
    checked_clean(text, trips=(0,))


# fold reads rows 8-15 of t and writes y; half's runs in the loop read y (fold's) and write rows
# 0-7, then 8-15; the last half writes rows 8-15 again
SLICES_AT_THE_LOOP_VARIABLE = """        w = pl.tensor.slice(t, [8, 16], [8, 0])
        y = self.fold(w, y)
        for i in pl.range(2):
            v = pl.tensor.slice(t, [8, 16], [i * 8, 0])
            v = self.half(y, v)
        u = pl.tensor.slice(t, [8, 16], [8, 0])
        u = self.half(x, u)"""


def test_a_loop_that_slices_at_its_variable_is_walked_iteration_by_iteration():  # (runtime_order)
    """The loop of two slices ``t`` at ``i * 8``: walked iteration by iteration, its second
    run's view is the region of ``u``, so the last half's InOut lookup of ``u`` finds that run,
    which the runtime ordered after fold (its lookup of ``y``): the last half's write-after-read
    edge on fold (fold read rows 8-15) is implied (seed 24056 of measure_generated). Figures by
    hand: 4 tasks; 3 derived edges on fold (each run of the loop's half, and the last half), the
    first two the runtime's (half reads ``y``), the third implied through the second run;
    minimum 0. While the loop was walked to a fixpoint its view had no region, and the last
    edge stayed."""
    text = with_half_kernels(SLICES_AT_THE_LOOP_VARIABLE)
    before, after = insertions(text, 0, OFF), insertions(text, 0)
    assert (before.insertions, before.redundant, before.minimum, before.dummies) == (3, 3, 0, 0)
    assert before.by_kind["derived"] == 3
    assert (after.insertions, after.redundant, after.minimum, after.dummies) == (0, 0, 0, 0)
    checked_clean(text, trips=(0,))


# the user's deps= on acc's TaskId, which step's lookup of y orders it after anyway
USER_DEP_THE_RUNTIME_IMPLIES = """        y, p = pl.submit(self.acc, x, y)
        t, q = pl.submit(self.step, y, t, deps=[p])"""


def test_a_user_dependency_the_runtime_implies_stays():  # (drop_implied_dependencies)
    """docs/semantics.md, "The user's dependencies stay": step's ``deps=[p]`` is the runtime's
    own edge (step looks up ``y``, which acc wrote), and it is submitted as written, as the
    existing compiler's reference outputs do (reference-surface.md: ``at_demo``'s ``deps=[s_tid]``
    on the creator of the tensor the task reads). Figures by hand: 2 tasks, 1 user insertion,
    redundant (runtime), minimum 0, with the lean passes or without."""
    text = chain_program(USER_DEP_THE_RUNTIME_IMPLIES)
    for options in (OFF, None):
        found = insertions(text, 0, options)
        assert (found.insertions, found.redundant, found.minimum, found.dummies) == (1, 1, 0, 0)
        assert found.by_kind["user"] == 1


def figures(text: str, n: int = 0, options=None) -> tuple:
    found = insertions(text, n, options)
    return found.insertions, found.redundant, found.minimum, found.dummies


# half reads y and writes t through a view (a transpose of all of t, or its rows 8-15); acc reads
# all of t and writes y (a write-after-read edge on half)
WRITE_THROUGH_A_TRANSPOSE = """        s = pl.tensor.transpose(t, 0, 1)
        s = self.step(y, s)
        y = self.acc(t, y)"""
WRITE_THROUGH_A_SLICE = """        v = pl.tensor.slice(t, [8, 16], [8, 0])
        v = self.half(y, v)
        y = self.acc(t, y)"""


@pytest.mark.parametrize("body", [WRITE_THROUGH_A_TRANSPOSE, WRITE_THROUGH_A_SLICE], ids=["transpose", "slice"])
def test_a_lookup_of_a_tensor_finds_what_a_view_of_it_wrote(body):  # (runtime_order)
    """acc's lookup of ``t`` overlaps the TensorMap entry the view's writer inserted, so the
    write-after-read edge half -> acc (step -> acc) is the runtime's (the outside checker's
    ``tensors4470000013``: a transpose's InOut; seed 24010 of measure_generated). While a view's
    facts stayed the view's, the edge stayed. Figures by hand: 2 tasks, 1 derived edge, redundant
    (runtime), minimum 0; after: none."""
    text = with_half_kernels(body)
    assert figures(text, options=OFF) == (1, 1, 0, 0)
    assert figures(text) == (0, 0, 0, 0)
    checked_clean(text, trips=(0,))


# half writes rows 8-15 of t after reading y; the host reads one element of t (row ROW) and
# writes another of row 1; acc writes y
HOST_READ_AFTER_A_SLICE_WRITE = """        v = pl.tensor.slice(t, [8, 16], [8, 0])
        v = self.half(y, v)
        h = pl.tensor.read(t, [ROW, 0])
        pl.tensor.write(t, [1, 1], h)
        y = self.acc(x, y)"""


def test_a_host_read_of_an_element_a_slice_holds_waits_for_its_writer():  # (runtime_order)
    """The host read of ``t[9, 0]`` waits for half (a TensorMap producer of rows 8-15), and
    blocks the orchestration thread until half completes: acc, submitted after it, needs no
    edge on half (the outside checker's ``surface4470000070``). Figures by hand: 2 tasks, 2 host
    accesses, 1 derived edge, redundant (runtime: the host read's wait), minimum 0; after: none."""
    text = with_half_kernels(HOST_READ_AFTER_A_SLICE_WRITE.replace("ROW", "9"))
    assert figures(text, options=OFF) == (1, 1, 0, 0)
    assert figures(text) == (0, 0, 0, 0)
    checked_clean(text, trips=(0,))


def test_a_host_read_of_an_element_no_written_slice_holds_waits_for_no_writer():  # (runtime_order)
    """The host read of ``t[0, 0]`` overlaps no entry of half's (rows 8-15): it waits for
    nothing, and acc's edge on half is needed and stays (minimum 1). A view's facts given to its
    tensor as its own (not partial) would make the read wait for half, and drop the edge."""
    text = with_half_kernels(HOST_READ_AFTER_A_SLICE_WRITE.replace("ROW", "0"))
    assert figures(text) == (1, 0, 1, 0)
    checked_clean(text, trips=(0,))


# step reads y before the loop and, where n >= 1, in each iteration after acc, the loop's InOut
# writer of y (each run of acc looks up y, so the runs are chained)
CHAIN_STORED_BEFORE_AND_IN_A_LOOP = """        t = self.step(y, t)
        for i in pl.range(3):
            y = self.acc(x, y)
            if n >= 1:
                t = self.step(y, t)"""


def test_a_loop_task_waits_on_a_chain_cell_on_its_first_run_after_each_store_only():  # (drop_edges_after_first_run)
    """acc's write-after-read edges on the step before the loop and on the step of the previous
    iteration become one chain cell (merge_cells_into_chains), stored before the loop and in the
    loop's ``if``; acc's runs are chained (each looks up ``y``), so each waits on the cell's
    value only on its first run after a store of it (seed 24085 of measure_generated, n = 0).
    Figures by hand, n = 0: 4 tasks, acc's 3 edges on the first step, 2 of them implied through
    acc's previous run (minimum 1): after, 1. n = 1: 7 tasks, 5 edges (3 on the first step, 2 on
    the previous step), 2 implied (minimum 3): after, 3. While such a cell was left alone, n = 0
    kept its 3."""
    text = chain_program(CHAIN_STORED_BEFORE_AND_IN_A_LOOP)
    assert figures(text, 0, OFF) == (3, 2, 1, 0)
    assert figures(text, 1, OFF) == (5, 2, 3, 0)
    assert figures(text, 0) == (1, 0, 1, 0)
    assert figures(text, 1) == (3, 0, 3, 0)
    checked_clean(text, trips=(0, 1, 2))


# q is y in the first iteration and t in the second (the yield gives it t, a name bound before
# the loop); the first step reads y and writes q, the second reads t and writes q, acc writes y
CARRY_REPLACED_BY_A_TENSOR_BEFORE_THE_LOOP = """        for i, (p, q) in pl.range(2, init_values=(y, y)):
            q = self.step(p, q)
            q = self.step(t, q)
            y = self.acc(x, y)
            p2, q2 = pl.yield_(p, t)"""


def test_a_loop_that_yields_a_carry_another_tensor_is_walked_iteration_by_iteration():  # (runtime_order)
    """Walked iteration by iteration, the second iteration's ``q`` is ``t``: its first step's
    write-after-read edge on the previous second step (which read ``t``) is implied, since that
    first step looks up ``y``, which acc wrote after that second step wrote ``y`` (seed 25066 of
    measure_generated, 44 insertions). Figures by hand: 6 tasks; the first acc's edge on the
    first step (implied through the second step, which looked up ``y``), the second iteration's
    first step's edge on the second step of the first (implied: above), the second acc's edge on
    the second iteration's first step (needed): 3 insertions, redundant 2, minimum 1; after: the
    cell edge goes, and acc's edge (one program point: implied where ``i`` is 0, needed where it
    is 1) is inserted only where ``i`` is not 0: 1 insertion, the needed one."""
    text = chain_program(CARRY_REPLACED_BY_A_TENSOR_BEFORE_THE_LOOP)
    assert figures(text, 0, OFF) == (3, 2, 1, 0)
    assert figures(text) == (1, 0, 1, 0)
    checked_clean(text, trips=(0,))
