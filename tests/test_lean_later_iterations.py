"""A compiler edge on a task outside a loop that the runtime implies in every iteration of the
loop after its first (issue 24): ``drop_implied_dependencies`` routes it through a cell set
before the loop (or set with the latest-run cell it waits on) and cleared at the end of its body. Figures (tools/measure_edges.py) computed by
hand; the hazard checker checks each program on its trip counts."""

from __future__ import annotations

from dsl_header import header, orch
from test_lean_edges import checked_clean, insertions

T8 = "pl.Tensor[[8, 8], pl.FP32]"


def program(loops: str, offset: str) -> str:
    """``read`` reads rows 16-23 of ``big`` once; then, in ``loops``, ``write`` writes the rows
    of ``big`` at ``offset`` (InOut): each run waits for ``read`` (write after read), on its
    TaskId, as ``order_write_after_read`` orders every writer of ``big`` after the loop."""
    return header([f"read(x: {T8}, y: pl.InOut[{T8}])", f"write(x: {T8}, y: pl.InOut[{T8}])"]) + orch(
        f"x: {T8}, big: pl.InOut[pl.Tensor[[24, 8], pl.FP32]], y: pl.InOut[{T8}], n: pl.Scalar[pl.INT64]",
        f"""
        s = pl.tensor.slice(big, [8, 8], [16, 0])
        y = self.read(s, y)
{loops}                v = pl.tensor.slice(big, [8, 8], [{offset}, 0])
                v = self.write(x, v)
        return y
""",
        returns=T8,
    )


# n iterations of an outer loop, three of an inner one writing rows 0-7, 8-15, 16-23
RANGE_OF_ROWS = program("        for i in pl.range(n):\n            for j in pl.range(3):\n", "j * 8")
# the same with a while around a pl.parallel loop
WHILE_OF_ROWS = program("        for (i,) in pl.while_(init_values=(0,)):\n            pl.cond(i < n)\n"
                        "            for j in pl.parallel(0, 3):\n", "j * 8").replace(
    "                v = self.write(x, v)\n", "                v = self.write(x, v)\n            (w,) = pl.yield_(i + 1)\n")
# every run writes rows 16-23: the runtime orders each run of write after the one before
SAME_ROWS = program("        for i in pl.range(n):\n            for j in pl.range(3):\n", "16")


def figures(text: str, n: int) -> tuple:
    got = insertions(text, n)
    return got.insertions, got.redundant, got.minimum, got.dummies


def test_an_edge_the_runtime_implies_after_the_first_iteration_of_the_outer_loop_is_inserted_in_it_only():
    """By hand, n >= 1: write runs 3n times, at rows 0, 8, 16 in each outer iteration. Without
    the rule each run waits for read: 3n insertions. The runs of the first outer iteration
    write three disjoint regions, none ordered after another: the 3 edges are the minimum. A
    run of a later iteration looks up its rows, whose last writer (the run at the same j one
    iteration before) came after read: 3(n - 1) redundant. With the rule the 3 runs of the first
    outer iteration wait for read and no other: 3 insertions, 0 redundant; none for n = 0."""
    for n in range(4):
        assert figures(RANGE_OF_ROWS, n) == (3 * min(n, 1), 0, 3 * min(n, 1), 0)
    checked_clean(RANGE_OF_ROWS, trips=(0, 1, 2, 3))


def test_a_while_around_a_parallel_loop_inserts_the_edge_in_its_first_iteration_only():
    """As above with a while of n trips around a pl.parallel loop of 3: 3 insertions for n >= 1
    (3n without the rule, 3(n - 1) of them redundant), none for n = 0."""
    for n in range(4):
        assert figures(WHILE_OF_ROWS, n) == (3 * min(n, 1), 0, 3 * min(n, 1), 0)
    checked_clean(WHILE_OF_ROWS, trips=(0, 1, 2, 3))


def test_a_writer_whose_runs_are_chained_keeps_its_single_edge():
    """Every run writes rows 16-23: each is ordered after the one before (its lookup), so
    drop_edges_after_first_run inserts the edge on the first run only; the rule, which would
    insert it on the 3 runs of the first outer iteration, leaves it: 1 insertion for n >= 1."""
    for n in range(4):
        assert figures(SAME_ROWS, n) == (min(n, 1), 0, min(n, 1), 0)
    checked_clean(SAME_ROWS, trips=(0, 1, 3))


def test_the_rule_leaves_a_note_naming_the_loop():
    from nanopass.tools.properties import compile_text

    from test_lean_edges import options_of

    stages, _ = compile_text(RANGE_OF_ROWS, options_of(RANGE_OF_ROWS))
    notes = [str(note) for stage in stages for note in getattr(stage, "notes", ())]
    assert any("in the iterations of the loop over i after its first" in note for note in notes), notes


# read runs in a loop of 2 before the outer loop: the writers wait on read's latest-run cell
# (read's TaskId is bound in that loop's body), not on its TaskId
CELL_OF_ROWS = RANGE_OF_ROWS.replace("        y = self.read(s, y)\n",
                                     "        for k in pl.range(2):\n            y = self.read(s, y)\n")
# the same in each of 2 iterations of a loop m around both: the writers' loop is entered twice
CELL_OF_ROWS_TWICE = program("        for m in pl.range(2):\n            for k in pl.range(2):\n"
                             "                y = self.read(s, y)\n"
                             "            for i in pl.range(n):\n                for j in pl.range(3):\n",
                             "j * 8").replace("        y = self.read(s, y)\n", "", 1).replace(
    "                v = pl.tensor.slice", "                    v = pl.tensor.slice").replace(
    "                v = self.write", "                    v = self.write")


def test_an_edge_on_a_latest_run_cell_implied_after_the_first_iteration_is_inserted_in_it_only():
    """By hand, as RANGE_OF_ROWS with read's two runs chained (each InOut on y): every write
    waits for read's latest run through its cell. Without the rule 3n insertions, 3(n - 1) of
    them redundant (the run at the same j one outer iteration before came after read), the
    minimum 3 for n >= 1. With the rule (the cell of the edge a copy of read's cell made before the loop, cleared at
    the end of the first outer iteration) 3 insertions for n >= 1, none for n = 0."""
    for n in range(4):
        assert figures(CELL_OF_ROWS, n) == (3 * min(n, 1), 0, 3 * min(n, 1), 0)
    checked_clean(CELL_OF_ROWS, trips=(0, 1, 2, 3))


def test_an_edge_on_a_latest_run_cell_of_a_loop_entered_again_is_inserted_in_its_first_iteration():
    """By hand, CELL_OF_ROWS in each of 2 iterations of m: the edge's cell is a copy of read's
    latest-run cell made before each entry of the writers' loop (read's run of that m
    iteration), cleared at the end of its first iteration: each m iteration inserts 3 for
    n >= 1 (the first i iteration's j = 0, 1, 2), none redundant: 6 in all, the minimum
    (without the rule 3n per m iteration, 3(n - 1) of them redundant)."""
    for n in range(4):
        assert figures(CELL_OF_ROWS_TWICE, n) == (6 * min(n, 1), 0, 6 * min(n, 1), 0)
    checked_clean(CELL_OF_ROWS_TWICE, trips=(0, 1, 2))
