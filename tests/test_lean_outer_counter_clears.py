"""An edge routed through a first-run cell (``drop_edges_after_first_run``) that is implied in
every run of its task where the counter of an outer loop has given values: the cell is cleared
before the inner loop there. Figures (tools/measure_edges.py) computed by hand; the hazard
checker checks the program."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import TILE, checked_clean, insertions

# ``q`` is y0 in the first iteration and y1 in the later ones (the loop yields y1); ``add`` reads
# y1 and writes q twice an iteration, ``acc`` writes y1 from the second iteration on
ROTATED_INTO_AN_INNER_LOOP = program(
    [f"add(a: {TILE}, y: pl.InOut[{TILE}])", f"acc(x: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: {TILE}, y0: pl.InOut[{TILE}], y1: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for i, (q,) in pl.range(3, init_values=(y0,)):
            for k in pl.range(2):
                q = self.add(y1, q)
            if i > 0:
                y1 = self.acc(x, y1)
            (o,) = pl.yield_(y1)
        return o
""",
    returns=TILE,
)


def test_an_edge_implied_where_the_outer_counter_says_is_cleared_before_the_inner_loop_there():
    """By hand (n is unused): add waits on its own previous run on the first iteration of the
    inner loop (drop_edges_after_first_run: later ones look up q, which the run before wrote).
    i = 0: no previous run. i = 1: add's first run writes y1 after add's runs of i = 0 read it:
    needed, 1 insertion (the minimum). i = 2: add's first run looks up y1 and finds acc's run
    of i = 1, which looked up y1 after add's runs of i = 1 wrote it: the edge is implied. With
    the rule the cell is cleared before the inner loop where i is 0 or 2: 1 insertion. Without
    it the edge was inserted at i = 2 too: 2 insertions, 1 redundant."""
    for n in (0, 1):
        after = insertions(ROTATED_INTO_AN_INNER_LOOP, n)
        assert (after.insertions, after.redundant, after.minimum, after.dummies) == (1, 0, 1, 0)
    checked_clean(ROTATED_INTO_AN_INNER_LOOP, trips=(0, 1))


def test_the_clear_is_one_if_on_the_outer_counter_before_the_inner_loop(tmp_path):
    """The emitted C++ clears the cell in an ``if`` on ``i == 0 || i == 2`` (the iterations
    where the edge is implied, or the cell holds no run), between the copy of add's latest-run
    cell (``add_last``) and the inner loop, once."""
    from nanopass.api import generate_orchestration
    from conftest import load_program

    path = tmp_path / "p.py"
    path.write_text(ROTATED_INTO_AN_INNER_LOOP)
    cpp = generate_orchestration(load_program(path)).code
    copy = cpp.index("add_entry = add_last;")
    clear = cpp.index("if (i == 0 || i == 2) {", copy)
    assert cpp.index("add_entry = no_task;", clear) < cpp.index("for (int64_t k = 0;", copy)
    assert cpp.count("if (i == 0 || i == 2) {") == 1
