"""A compiler edge of a task on its own previous run, which the runtime makes needless on the
later iterations of its loop (issue 24): ``drop_edges_after_first_run`` routes it through a cell
copied from the task's cell before the loop and cleared after the task. Figures
(tools/measure_edges.py) computed by hand; the hazard checker checks the program."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import TILE, checked_clean, insertions

# each iteration of the parallel loop makes a tensor q that ``copy`` reads and writes (Out) n
# times in a while; q is written after the loop, so ``copy`` waits on its latest run (a
# write-after-read edge through a cell: the buffers of two iterations may be one)
COPY_IN_A_WHILE = program(
    [f"copy(x: {TILE}, out: pl.Out[{TILE}])", f"acc(x: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        q = x
        for k in pl.parallel(0, 4, 2):
            q = pl.create_tensor([16, 16], dtype=pl.FP32)
            for (j,) in pl.while_(init_values=(0,)):
                pl.cond(j < n)
                q = self.copy(q, q)
                (w,) = pl.yield_(j + 1)
        y = self.acc(q, y)
        return y
""",
    returns=TILE,
)


def test_an_edge_on_the_own_previous_run_is_inserted_on_the_first_iteration_of_each_run_of_the_loop():
    """By hand, n >= 1: copy runs 2n times, n per run of the while. Without the rule it waits on
    its latest run on every run but the very first: 2n - 1 insertions; the runtime orders each
    later iteration's run after the run before (it looks up q, which that run wrote): 2(n - 1)
    redundant; minimum 1 (the first run of the second while on the last of the first). With the
    rule the first while's first run finds the copied cell empty and the later runs find it
    cleared: 1 insertion for any n >= 1, none for n = 0."""
    for n in range(4):
        after = insertions(COPY_IN_A_WHILE, n)
        assert (after.insertions, after.redundant, after.minimum, after.dummies) == (min(n, 1), 0, min(n, 1), 0)
    checked_clean(COPY_IN_A_WHILE, trips=(0, 1, 2, 3))


def test_the_copied_cell_is_one_assignment_in_the_cpp(tmp_path):
    """The copy before the while is ``copy_entry = copy_all;`` (read from the program: copy's
    latest-run cell is ``copy_all``, the cell its first run in each while waits on is
    ``copy_entry``), the one statement between the allocation of q and the while's counter; no
    dummy task is declared or submitted anywhere (the program has no dummy)."""
    from conftest import load_program
    from nanopass.api import generate_orchestration

    path = tmp_path / "copy_in_a_while.py"
    path.write_text(COPY_IN_A_WHILE)
    lines = [line.strip() for line in generate_orchestration(load_program(path)).code.splitlines()]
    start = lines.index("const Tensor& q__ssa_v3 = alloc_0.get_ref(0);")
    assert lines[start + 1:start + 3] == ["copy_entry = copy_all;", "int64_t w = 0;"]
    assert lines.count("copy_entry = copy_all;") == 1
    assert not any("dummy" in line or "barrier" in line for line in lines)


def test_the_copy_reads_the_copied_cell_for_the_passes_after_it():
    """After drop_edges_after_first_run, copy's latest-run cell (``copy_all__war_v0``) is read by
    the copy alone (the task waits on ``copy_entry__entry_v0``): ``cell_readers`` counts the copy as
    a reader other than a task (so clear_cells_after_waiters leaves the cell alone, as it left it
    for the dummy the copy was), and ``runtime_order``'s prelude as a cell dependency (so copy's
    task stays relevant, and the budget counts it as it counted the dummy's dependency). The
    copied cell is cleared after the task: no latest-run cell, and no TaskId binder is stored in it
    but ``no_task``'s (the copy stores none: ``None``, not the copied cell's name)."""
    from nanopass.passes.cells import cell_readers, latest_run_cells
    from nanopass.passes.runtime_order import _prelude
    from nanopass.passes.util import iter_stmts
    from nanopass.tools.properties import compile_text

    stages, _ = compile_text(COPY_IN_A_WHILE, {})
    program = stages["drop_edges_after_first_run"].tree
    waiters, others = cell_readers(list(iter_stmts(program.orch.body)))
    assert {cell: [s._production for s in tasks] for cell, tasks in waiters.items()} == {"copy_entry__entry_v0": ["Task"]}
    assert {cell: [(s._production, s.cell) for s in stmts] for cell, stmts in others.items()} == {
        "copy_all__war_v0": [("CellSet", "copy_entry__entry_v0")]}
    cell_deps = _prelude(program)[5]
    assert [dep.cell for dep in cell_deps] == ["copy_all__war_v0", "copy_entry__entry_v0"]
    cells = latest_run_cells(program.orch, _prelude(program)[2])
    assert cells.task == {"copy_all__war_v0": 0}
    assert cells.tids["copy_entry__entry_v0"] == {None, "no_task__none_v0"}
