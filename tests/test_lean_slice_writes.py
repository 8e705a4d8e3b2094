"""A counted loop of constant bounds that runtime_order does not walk iteration by iteration
(more iterations than ``UNROLL``, or too many with the loops walked so around it) whose task
writes a view sliced at an offset computed from the loop variable (issue 24, lean edges): each
iteration ran, so a later view of a region one iteration wrote is ordered after what that
iteration's writer was ordered after (``_Walker.summarize_slice_writes``). The figures are the
emitted program's (tools/measure_edges.py), computed by hand in each test; every program also
passes the hazard checker on every trip count tried."""

from __future__ import annotations

from nanopass.api import run_pipeline
from nanopass.loader import load_programs
from nanopass.passes.runtime_order import runtime_order
from nanopass.passes.util import iter_stmts

from dsl_header import header, orch
from test_lean_edges import OFF, checked_clean, insertions

ROW = "pl.Tensor[[8, 16], pl.FP32]"

HEADER = header([f"copy(a: {ROW}, out: pl.Out[{ROW}])", f"acc(a: {ROW}, y: pl.InOut[{ROW}])"])

# Nine writers of the 8-row blocks of ``big`` (block j at row 8 * j), then a read of block 1
# into a tensor of its own, in a loop of unknown trip count. The writers of the next outer
# iteration wait for every read before them (a join: the reads write tensors of their own, and
# the compiler orders each writer after them all).
NINE_BLOCKS = HEADER + orch(
    f"x: {ROW}, big: pl.InOut[pl.Tensor[[72, 16], pl.FP32]], n: pl.Scalar[pl.INT64]",
    """
        for i in pl.range(n):
            for j in pl.range(9):
                s = pl.tensor.slice(big, [8, 16], [j * 8, 0])
                s = self.acc(x, s)
            r = pl.tensor.slice(big, [8, 16], [8, 0])
            t = pl.create_tensor([8, 16], dtype=pl.FP32)
            t = self.copy(r, t)
        return big
""",
    returns="pl.Tensor[[72, 16], pl.FP32]",
)

# As above, with three blocks in a loop inside a ``while`` of three iterations, which
# runtime_order walks one by one (three times three is past ``UNROLL``: the inner loop is walked
# with a back edge), and a writer of block 1 on odd iterations.
IN_A_WHILE = HEADER + orch(
    f"x: {ROW}, big: pl.InOut[pl.Tensor[[32, 16], pl.FP32]], n: pl.Scalar[pl.INT64]",
    """
        for (i,) in pl.while_(init_values=(0,)):
            pl.cond(i < 3)
            for j in pl.range(3):
                s = pl.tensor.slice(big, [8, 16], [(j % 4) * 8, 0])
                s = self.acc(x, s)
            r = pl.tensor.slice(big, [8, 16], [8, 0])
            t = pl.create_tensor([8, 16], dtype=pl.FP32)
            t = self.copy(r, t)
            if i % 2 == 1:
                r = self.acc(x, r)
            (k,) = pl.yield_(i + 1)
        return big
""",
    returns="pl.Tensor[[32, 16], pl.FP32]",
)


def _order(text: str, tmp_path):
    path = tmp_path / "slice_writes.py"
    path.write_text(text)
    stages = run_pipeline(load_programs(str(path))[0], stop_after="expand_manual_phase_fence",
                          keep_tree=lambda stage: True)
    tree = stages[-1].tree
    tasks = [s for s in iter_stmts(tree.orch.body) if s._production == "Task"]
    order = runtime_order(tree, track=tasks)
    return order, {t.kernel + str(k): order.number[id(t)] for k, t in enumerate(tasks)}


def test_a_read_of_a_block_a_loop_of_nine_writers_wrote_is_ordered_after_the_read_before_it(tmp_path):
    """runtime_order: the read of block 1 looks up the entry the writer of iteration j = 1
    inserted, and that writer waited for every earlier read (the join): each read is ordered
    after the one before. The writers' runs are not ordered among themselves (nine blocks)."""
    order, number = _order(NINE_BLOCKS, tmp_path)
    assert order.is_ordered(number["copy1"], number["copy1"])
    assert not order.is_ordered(number["acc0"], number["acc0"])


def test_the_join_of_reads_chained_through_a_loop_of_slice_writers_is_their_latest_run():
    """drop_chained_join_barriers: the reads are chained (above), so the join cell stores the
    latest read and no barrier is submitted. Each writer of outer iteration i >= 1 waits on the
    cell: 9 entries per such iteration, 0, 9 and 18 for n = 1, 2, 3, the minimum. Without the
    lean passes (and before the rule), the join takes a barrier of two entries (the join so
    far, the new read) after each read past the first: 0, 9 + 2 and 18 + 4, one and two dummies."""
    for n, expected in ((0, 0), (1, 0), (2, 9), (3, 18)):
        after = insertions(NINE_BLOCKS, n)
        assert (after.insertions, after.redundant, after.dummies, after.minimum) == (expected, 0, 0, expected)
    before = {n: insertions(NINE_BLOCKS, n, OFF) for n in (2, 3)}
    assert {n: (f.insertions, f.dummies) for n, f in before.items()} == {2: (11, 1), 3: (22, 2)}
    checked_clean(NINE_BLOCKS, (0, 1, 2, 3))


def test_a_loop_of_slice_writers_in_a_while_walked_by_iteration_chains_the_reads_too(tmp_path):
    """As above, the inner loop walked with a back edge because the ``while`` around it is
    walked iteration by iteration. Three outer iterations whatever n: the writers of blocks
    0, 1, 2 in iterations 1 and 2 wait on the latest read (6 cell entries; the writer of
    block 1 in iteration 2 is ordered after it by the runtime too: it looks up block 1, which
    the odd writer of iteration 1 wrote after waiting for that read, so 1 of them is
    redundant), and the odd writer of block 1 waits for the read before it by the runtime (its
    InOut lookup finds nothing of the read: the read wrote ``t``; so an edge on the read, 1):
    7 entries, no dummy. Without the lean passes (and before the rule), the join's barrier in
    iterations 1 and 2 too: 2 entries each, 11 entries and 2 dummies."""
    order, number = _order(IN_A_WHILE, tmp_path)
    assert order.is_ordered(number["copy1"], number["copy1"])
    for n in (0, 3):
        after = insertions(IN_A_WHILE, n)
        assert (after.insertions, after.redundant, after.dummies) == (7, 1, 0)
        before = insertions(IN_A_WHILE, n, OFF)
        assert (before.insertions, before.dummies) == (11, 2)
    checked_clean(IN_A_WHILE, (0, 3))


def _many_blocks(trips: int) -> str:
    """NINE_BLOCKS with ``trips`` writers of blocks (``big`` of ``trips`` blocks)."""
    return NINE_BLOCKS.replace("pl.range(9)", f"pl.range({trips})").replace("[[72, 16]", f"[[{8 * trips}, 16]")


def test_a_loop_past_summarized_writes_no_region_per_iteration(tmp_path, monkeypatch):
    """``summarize_slice_writes`` writes a region per iteration: a loop of 100,000 tiles would
    cost 100,000 regions in each of runtime_order's walks (seconds, and memory in proportion).
    Past ``SUMMARIZED`` iterations it is not asked: the walk looks at the slice's region a
    handful of times (the body's walk, not once per iteration), and the reads are not known
    to be chained (what the back-edge walk finds: the lookup of block 1 finds no writer's facts
    of its own), so the join keeps its barriers, as before the rule."""
    from nanopass.passes import runtime_order as ro

    calls = []
    region = ro._Walker.region
    monkeypatch.setattr(ro._Walker, "region", lambda self, value, state: calls.append(1) or region(self, value, state))
    order, number = _order(_many_blocks(100_000), tmp_path)
    assert len(calls) < 1000
    assert not order.is_ordered(number["copy1"], number["copy1"])
    calls.clear()
    order, number = _order(_many_blocks(ro.SUMMARIZED), tmp_path)
    assert len(calls) >= ro.SUMMARIZED  # (at the cap: a region per iteration, and the reads chained)
    assert order.is_ordered(number["copy1"], number["copy1"])


def test_a_loop_past_summarized_keeps_the_join_and_every_order():
    """Past the cap (65 blocks) the join of the reads keeps a barrier of two entries and a
    dummy after each read past the first, as without the rule: n = 2, 65 writer entries on
    the join and 2 barrier entries, 67 and 1 dummy; the hazard checker on n = 0..2."""
    text = _many_blocks(65)
    after = insertions(text, 2)
    assert (after.insertions, after.dummies) == (67, 1)
    checked_clean(text, (0, 1, 2))
