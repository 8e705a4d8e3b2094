"""A ``pl.parallel`` loop of constant bounds that runs leaves with the facts of a run of its body
(``loop_facts.surely_runs``): the orchestration thread submits its iterations in order, as a
sequential loop's. Figures (tools/measure_edges.py) computed by hand; the hazard checker checks
the program."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import TILE, checked_clean, insertions

# ``q`` is y0 in the first iteration and y1 in the later ones (the loop yields y1); ``add`` reads
# y1 and writes q twice an iteration, ``acc`` writes y1 from the second iteration on
ROTATED_INTO_A_PARALLEL_LOOP = program(
    [f"add(a: {TILE}, y: pl.InOut[{TILE}])", f"acc(x: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: {TILE}, y0: pl.InOut[{TILE}], y1: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for i, (q,) in pl.range(3, init_values=(y0,)):
            for k in pl.parallel(2):
                q = self.add(y1, q)
            if i > 0:
                y1 = self.acc(x, y1)
            (o,) = pl.yield_(y1)
        return o
""",
    returns=TILE,
)


def test_a_task_after_a_parallel_loop_that_runs_is_ordered_after_its_runs():
    """By hand (n is unused): i = 0, add runs twice, reading y1 and writing y0 (each run after
    the one before: InOut y0). i = 1: add's first run writes y1 after the two runs of i = 0 read
    it: 1 needed edge (the minimum); its second run looks up the first. acc writes y1 after the
    reads of y1 by add's runs of i = 1, which wrote y1 too: its lookup of y1 orders it after
    them, no edge needed. i = 2: add's first run looks up y1 and finds acc's run of i = 1, which
    came after add's runs of i = 1 (its edge on them is implied: drop_edges_after_first_run
    clears its cell before the loop where i is 2, test_lean_outer_counter_clears.py); acc as at
    i = 1. With the rule, acc's write-after-read edge on add goes (the runtime orders it): 1
    insertion. Without it the model took the parallel loop for one that may not run, where
    acc's lookup of y1 finds no run of add, and add's edge at i = 2 looked needed too: acc kept
    its edge at i = 1 and 2, and add its edge at i = 2, 4 insertions, 3 redundant."""
    for n in (0, 1):
        after = insertions(ROTATED_INTO_A_PARALLEL_LOOP, n)
        assert (after.insertions, after.redundant, after.minimum, after.dummies) == (1, 0, 1, 0)
    checked_clean(ROTATED_INTO_A_PARALLEL_LOOP, trips=(0, 1))
