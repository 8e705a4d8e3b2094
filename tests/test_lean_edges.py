"""The passes that drop or merge the compiler's dependency insertions (issue 24):
drop_chained_join_barriers, drop_implied_dependencies, drop_latest_runs_from_joins, merge_cells_into_chains,
drop_edges_after_first_run, clear_cells_after_waiters, clear_edges_where_implied, drop_unwaited_dummies,
split_joins_by_iteration, drop_cells_implied_through_edges, drop_overwritten_cell_stores. Their figures
come from tools/measure_edges.py; every removal is checked by the hazard checker on generated
programs (nothing the program before the passes orders is left unordered, values agree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nanopass.tools.measure_edges import measure_file, measure_stages, options_of

from dsl_header import program

ROOT = Path(__file__).resolve().parent.parent
OFF = {"lean_edges": False}
TILE = "pl.Tensor[[16, 16], pl.FP32]"


def if_chain(k: int, chained_readers: bool) -> str:
    """docs/semantics.md gap 4: ``k`` ifs, each writing ``y`` in one branch and reading it in the
    other (the reads come first for small ``n``, so the writes after them wait for them). With
    ``chained_readers`` each read is an InOut writer of one tensor ``t`` (the runtime orders the
    reads among themselves), else each read writes a tensor of its own."""
    lines = []
    for i in range(k):
        lines += [f"        if n <= {i}:", "            y = self.acc(x, y)", "        else:"]
        if chained_readers:
            lines.append("            t = self.step(y, t)")
        else:
            lines += [f"            s{i} = pl.create_tensor([16, 16], dtype=pl.FP32)", f"            s{i} = self.step(y, s{i})"]
    return chain_program("\n".join(lines))


def chain_program(body: str, x: str = TILE) -> str:
    """A program of two kernels, ``acc`` (an InOut ``y`` after an input) and ``step`` (an InOut
    ``t`` after an input), whose orchestration function ``orch(x, y, t, n)`` (``x`` of type
    ``x``, ``y`` and ``t`` InOut, a scalar ``n``) runs ``body`` and returns ``y``."""
    return program(
        [f"acc(x: {TILE}, y: pl.InOut[{TILE}])", f"step(y: {TILE}, t: pl.InOut[{TILE}])"],
        f"x: {x}, y: pl.InOut[{TILE}], t: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
        f"""
{body}
        return y
""",
        returns=TILE, name="Chain",
    )


def most_insertions(path: Path, k: int, options=None) -> int:
    return max(measure_file(str(path), {"n": str(n)}, options=options)[0].insertions for n in range(k + 1))


@pytest.mark.parametrize("chained", [True, False], ids=["chained-readers", "own-outputs"])
def test_the_if_chain_of_gap_4_costs_insertions_linear_in_k(tmp_path, chained):
    before, after = {}, {}
    for k in range(2, 7):
        path = tmp_path / f"chain{k}.py"
        path.write_text(if_chain(k, chained))
        before[k] = most_insertions(path, k, OFF)
        after[k] = most_insertions(path, k)
    # one edge per earlier read: floor(k / 2) reads before ceil(k / 2) writes at worst
    assert before == {k: (k // 2) * ((k + 1) // 2) for k in range(2, 7)}
    if chained:
        assert after == {k: k - 1 for k in range(2, 7)}  # one edge per write: the latest read
    else:
        assert all(after[k] <= min(before[k], 2 * k) for k in after), after


def test_ping_pong_and_derive_fallback_lose_the_edges_the_runtime_makes():
    for name in ("ping_pong", "derive_fallback"):
        path = str(ROOT / "tests/golden" / f"{name}.py")
        before, _ = measure_file(path, options=OFF)
        after, _ = measure_file(path)
        assert before.insertions == before.redundant > 0
        assert (after.insertions, after.redundant, after.minimum) == (0, 0, 0)


def test_war_loop_then_writer_waits_for_the_last_read_without_a_barrier_per_run():
    path = str(ROOT / "tests/golden/war_loop_then_writer.py")
    for n in (1, 3, 5):
        before, _ = measure_file(path, {"n": str(n)}, options=OFF)
        after, _ = measure_file(path, {"n": str(n)})
        # the hazard analysis alone already stores the last read's TaskId (issue 21's join cells)
        assert before.dummies == 0 and before.insertions >= 1
        assert (after.dummies, after.insertions, after.redundant, after.minimum) == (0, 1, 0, 1)


def test_an_edge_from_a_manual_scope_writer_stays():
    """A write in a manual scope is not in the TensorMap: the edge that orders a later AUTO
    reader's run after it is the only order there is."""
    text = program(
        [f"write(x: {TILE}, y: pl.InOut[{TILE}])"],
        f"x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}]",
        """
        with pl.manual_scope():
            y = self.write(x, y)
        z = self.write(y, z)
        return z
""",
        returns=TILE,
    )
    from nanopass.tools.properties import compile_text

    stages, _ = compile_text(text)
    lean, _ = compile_text(text, OFF)
    assert _entries(stages) == _entries(lean) >= 1


def test_a_cell_a_host_fence_waits_on_keeps_its_declaration():
    """The parallel loop's readers of ``y`` are joined in a cell that the conditional writer's
    edge (implied, so dropped) and the host fence before the manual scope's write of ``y``'s
    alias ``w`` read. Dropping the cell with the edge left the fence naming an undeclared cell
    (an internal error; found by fuzz_deps --tally --seed 5, reduced)."""
    _assert_fence_cells_declared("z: pl.Out[{TILE}], n: pl.Scalar[pl.INT64]", """\
        for i, (p, q) in pl.range(n, init_values=(y, z)):
            a, w = pl.yield_(q, p)
        for j in pl.parallel(1, 2):
            t: {TILE} = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(y, t)
            if j > 1:
                y = self.acc(t, y)
        with pl.manual_scope():
            pl.tensor.write(w, [3, 6], 9.5)
""")


def test_cells_a_host_fence_waits_on_are_not_merged_into_a_chain():
    """The host fence after the loop waits for the latest runs of both tasks of the manual
    scope, as the next iteration's copy does. merge_cells_into_chains merged the two cells into
    a chain for the copy and left the fence naming cells it had removed (an internal error;
    found by tests/test_hazard_walk.py, reduced)."""
    _assert_fence_cells_declared("n: pl.Scalar[pl.INT64]", """\
        for w in pl.range(n):
            with pl.manual_scope():
                t: {TILE} = pl.create_tensor([16, 16], dtype=pl.FP32)
                t, a = pl.submit(self.copy, y, t, deps=[])
                if w > 0:
                    y, b = pl.submit(self.acc, t, y, deps=[a])
        pl.tensor.write(y, [6, 3], 1.5)
""")


def _assert_fence_cells_declared(params: str, body: str) -> None:
    """Compile ``body`` (an orchestration body over ``y`` and ``params``, kernels ``copy`` and
    ``acc``, returning ``y``): every cell a host fence waits on is declared."""
    from nanopass.languages.statements import iter_stmts
    from nanopass.tools.properties import compile_text

    text = program(
        [f"copy(y: {TILE}, t: pl.Out[{TILE}])", f"acc(x: {TILE}, y: pl.InOut[{TILE}])"],
        f"y: pl.InOut[{TILE}], {params.format(TILE=TILE)}",
        f"""
{body.format(TILE=TILE)}        return y
""",
        returns=TILE,
    )
    stages, _ = compile_text(text)
    assert stages[-1].language.name == "emission", stages[-1].language.name
    tree = next(s.tree for s in reversed(stages) if s.tree is not None and s.language.name == "directed")
    stmts = list(iter_stmts(tree.orch.body))
    declared = {s.cell for s in stmts if s._production == "CellDecl"}
    fence_cells = {d.cell for s in stmts if s._production == "HostFence" for d in s.deps if d._production == "CellDep"}
    assert fence_cells and fence_cells <= declared


def _entries(stages) -> int:
    from nanopass.languages.statements import iter_stmts

    tree = next(s.tree for s in reversed(stages) if s.tree is not None and s.language.name == "directed")
    return sum(len(s.deps) for s in iter_stmts(tree.orch.body) if s._production in ("Task", "Dummy"))


SAMPLE = 24  # generated programs checked with the passes on (a few seconds each)


def test_generated_programs_keep_every_order_and_value_with_the_passes():
    """The hazard checker on a sample of generated programs: each pass's output must refine the
    stage before it (every explicit dependency still ordered, no conflicting pair left
    unordered), the emission agrees with the reference, the values with the program as written;
    and the passes make fewer insertions in all (a merged chain may cost more on one run than
    the edges it replaces: it is chosen by the program text's count)."""
    from nanopass.api import surface_of
    from nanopass.tools.check import program_inputs
    from nanopass.tools.fuzz_deps import manual_failures
    from nanopass.tools.gen_programs import RandomChooser, generate
    from nanopass.tools.properties import Findings, check_text, compile_text

    findings = Findings()
    before_total = after_total = 0
    for seed in range(SAMPLE):
        program = generate(RandomChooser(seed), manual=seed % 4 == 3, max_statements=9)
        refused = findings.refused_by_design
        if program.manual:
            deps, failures = manual_failures(program, seed, findings)
            text = program.render(deps)
        else:
            text = program.render()
            failures = check_text(text, program.value_sets(), findings, options=options_of(text))
        assert not failures, failures[0].message
        if findings.refused_by_design > refused:  # a correct refusal (no correct compilation exists)
            continue
        lean, dsl = compile_text(text, options_of(text))
        full, _ = compile_text(text, {**options_of(text), **OFF})
        for values in program.value_sets():
            inputs = program_inputs(surface_of(dsl), values)
            after, before = measure_stages(lean, inputs), measure_stages(full, inputs)
            before_total += before.insertions
            after_total += after.insertions
    assert findings.programs == SAMPLE and findings.refused_by_design <= SAMPLE // 3
    assert 0 < after_total < before_total


def test_the_generated_totals_command_prints_both_sums(capsys):
    from nanopass.tools.measure_generated import main

    assert main(["--seeds", "6", "--before"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("5 AUTO programs") and len(out) == 3
    after, before = (int(line.split("insertions ")[1].split()[0]) for line in out[1:])
    assert 0 < after < before


def test_the_user_redundant_entries_are_counted_apart():
    """Seed 27000's program (4 runs) writes a ``deps=`` from t4 to t5 that the runtime implies on
    each run (3 entries a run, `measure_edges --pairs`): its 28 insertions against a minimum of 16
    are 12 over, all of them the user's, which the compiler submits as written (the user's 12
    entries order none of the 16 covering pairs: the compiler minimum is 16)."""
    from nanopass.tools.measure_generated import generated_totals, line

    total = generated_totals([27000])
    assert (total["insertions"], total["minimum"], total["redundant"], total["redundant user"]) == (28, 16, 12, 12)
    assert (total["by_kind user"], total["compiler_minimum"]) == (12, 16)
    assert line(total).endswith("+75.0% against the minimum, +0.0% against the user's entries plus the compiler minimum")


# -- one rule each: a program, its insertions before and after, the checker on trip counts 0-2 ------


def checked_clean(text: str, trips=(0, 1, 2)) -> None:
    """The hazard checker (every stage refines the one before, the emission agrees, the values
    with the program as written) on each trip count of ``n``."""
    from nanopass.tools.properties import Findings, check_text

    for n in trips:
        findings = Findings()
        failures = check_text(text, [{"n": str(n)}], findings, options=options_of(text))
        assert not failures, failures[0].message
        assert findings.refused_by_design == 0


def insertions(text: str, n: int, options=None):
    from nanopass.api import surface_of
    from nanopass.tools.check import program_inputs
    from nanopass.tools.properties import compile_text

    stages, dsl = compile_text(text, {**options_of(text), **(options or {})})
    return measure_stages(stages, program_inputs(surface_of(dsl), {"n": str(n)}))


def loop_after_manual_scope(chained: bool) -> str:
    """A manual scope's task writes ``tmp``; a loop's task reads it ``n`` times. With ``chained``
    the loop's task is an InOut writer of ``b`` (the runtime orders each run after the one
    before), else each run writes a tensor of its own."""
    body = ("            b = self.acc(tmp, b)" if chained else
            "            t = pl.create_tensor([16, 16], dtype=pl.FP32)\n            t = self.make(tmp, t)")
    return program(
        [f"make(x: {TILE}, out: pl.Out[{TILE}])", f"acc(x: {TILE}, y: pl.InOut[{TILE}])"],
        f"x: {TILE}, b: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
        f"""
        with pl.manual_scope():
            tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
            tmp, t1 = pl.submit(self.make, x, tmp)
        for i in pl.range(n):
{body}
        return b
""",
        returns=TILE,
    )


def test_a_loop_task_the_runtime_chains_waits_for_a_task_before_the_loop_on_its_first_run_only():
    """drop_edges_after_first_run: the edge goes through a cell the first run clears."""
    text = loop_after_manual_scope(chained=True)
    for n in range(4):
        before, after = insertions(text, n, OFF), insertions(text, n)
        assert before.insertions == n  # one edge per run on the manual scope's task
        assert (after.insertions, after.redundant, after.minimum) == (min(n, 1), 0, min(n, 1))
    checked_clean(text)


def test_a_loop_task_whose_runs_are_not_chained_keeps_its_edge_on_every_run():
    text = loop_after_manual_scope(chained=False)
    for n in range(4):
        after = insertions(text, n)
        assert (after.insertions, after.redundant, after.minimum) == (n, 0, n)
    checked_clean(text)


def test_derived_edges_join_the_chain_of_a_loop_task_and_the_task_before_the_loop():
    """merge_cells_into_chains with DerivedDep edges: derive_boxes' loop task waits for the task
    before the loop and its own previous run, the task after the loop for both: one chain cell."""
    text = (ROOT / "tests/golden/derive_boxes.py").read_text()
    for n in range(4):
        before, after = insertions(text, n, OFF), insertions(text, n)
        # t3 on t1; t2 (in the loop) on t0 every run and on its previous run; t4 on t0 and the latest t2
        assert before.insertions == 1 + n + max(n - 1, 0) + 1 + min(n, 1)
        assert (after.insertions, after.redundant, after.minimum) == (1 + n + 1, 0, 1 + n + 1)
    checked_clean(text, (0, 1, 2, 3))


def host_write_in_a_loop(manual_dep: bool) -> str:
    """Two readers of ``y1`` (the second an InOut writer of ``y0`` after the first), then a host
    write of ``y1`` in a loop: its fence waits for both; with ``manual_dep`` the program also has
    a ``manual_dep`` tensor (which runtime_order once gave up on)."""
    extra = ("        m = pl.create_tensor([16, 16], dtype=pl.FP32, manual_dep=True)\n"
             "        m = self.scale(x, m)\n") if manual_dep else ""
    return program(
        [f"scale(x: {TILE}, y: pl.InOut[{TILE}])", f"add(a: {TILE}, b: {TILE}, y: pl.InOut[{TILE}])"],
        f"x: {TILE}, y0: pl.InOut[{TILE}], y1: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
        f"""
{extra}        y0 = self.scale(y1, y0)
        y0 = self.add(y0, y1, y0)
        for i in pl.range(n):
            pl.tensor.write(y1, [1, 2], 5.5)
        return y0
""",
        returns=TILE,
    )


@pytest.mark.parametrize("manual_dep", [False, True], ids=["plain", "with-a-manual-dep-tensor"])
def test_a_host_fence_drops_the_edge_its_other_edges_imply_and_waits_on_its_first_run_only(manual_dep):
    """drop_implied_dependencies on host fences: the fence's edge on the first reader is implied
    by its edge on the second, which the runtime orders after the first (InOut of y0); and
    drop_edges_after_first_run: a later run of the fence comes after the first one's access."""
    text = host_write_in_a_loop(manual_dep)
    for n in range(4):
        before, after = insertions(text, n, OFF), insertions(text, n)
        assert (before.insertions, before.redundant) == (2 * n, n + max(n - 1, 0))
        # the first run's fence waits for the second reader; the later ones come after the host
        # write before them, which waited for it (a host access blocks the thread): no edge, and
        # so no fence is submitted (drop_edges_after_first_run)
        assert (after.insertions, after.redundant, after.dummies) == (min(n, 1), 0, min(n, 1))
    checked_clean(text)


def test_a_join_cell_is_cleared_after_a_writer_that_the_later_writers_wait_for():
    """clear_cells_after_waiters: the readers of y in the loop (each writing a tensor of its
    own) are joined by a barrier per run; the InOut writer of y in the loop waits for the join,
    and every later writer of y (itself again, the one after the loop) waits for it through the
    TensorMap, so the join is cleared after it: the next barrier has one entry, not two, and
    the writer after the loop no edge."""
    text = program(
        [f"copy(a: {TILE}, out: pl.Out[{TILE}])", f"acc(a: {TILE}, y: pl.InOut[{TILE}])"],
        f"x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
        """
        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(y, t)
            if i > 0:
                y = self.acc(t, y)
        y = self.acc(x, y)
        return y
""",
        returns=TILE,
    )
    for n in range(5):
        before, after = insertions(text, n, OFF), insertions(text, n)
        # a barrier per read (none on the first: one entry, the read's own TaskId; then 2), the
        # loop's writer (n - 1 runs) and the last on the join (each run's copy writes a new t: no
        # edge on the earlier run's reader of the old one)
        assert before.insertions == (3 * n - 2 if n else 0)
        # the join leaves each run's read out until the next run starts (the loop's writer reads
        # the read's output: the TensorMap orders it after the latest run), the writer after the
        # loop waits for the join and the latest read; run 1: the join is run 0's TaskId (no
        # barrier), the writer's one edge on it, and both cells are cleared (every later writer
        # looks the loop's writer up); each later run: an empty join, no edge; after the loop:
        # the first read (n = 1) or nothing (n >= 2): the minimum, one edge
        assert (after.insertions, after.redundant, after.dummies) == ((1, 0, 0) if n else (0, 0, 0))
        assert after.minimum == (1 if n else 0)
    checked_clean(text, (0, 1, 2, 3))


def test_a_join_cell_stays_when_a_later_waiter_is_not_ordered_after_the_writer():
    """The writer of z after the loop waits for the join of the loop's readers (they read z
    too) but not for the loop's writer of y: clearing the join after that writer would leave
    it unordered after the earlier reads (the checker finds it when the pass skips the test)."""
    text = program(
        [f"add(a: {TILE}, b: {TILE}, out: pl.Out[{TILE}])",
         f"copy(a: {TILE}, out: pl.Out[{TILE}])",
         f"acc(a: {TILE}, y: pl.InOut[{TILE}])"],
        f"x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
        """
        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.add(y, z, t)
            if i > 0:
                y = self.acc(t, y)
        z = self.copy(x, z)
        return y
""",
        returns=TILE,
    )
    before, after = insertions(text, 2, OFF), insertions(text, 2)
    # before: a barrier of 2 entries (the first read's one entry is its own TaskId), an edge each
    # writer; after: the join holds the older reads only (the loop's writer reads the latest
    # read's output), so the loop's writer waits for run 0 alone (no barrier) and the writer of z
    # for the join (run 0) and the latest read (run 1), uncleared
    assert before.insertions == 4
    assert (after.insertions, after.dummies) == (3, 0)
    checked_clean(text, (0, 1, 2, 3))


def test_a_cell_a_host_fence_reads_is_not_merged_into_a_chain():
    """tests/semantics/merged_cell_read_by_a_host_fence.py: the fence kept its edge on a merged
    cell, which merge_cells_into_chains no longer declared (an internal error)."""
    checked_clean((ROOT / "tests/semantics/merged_cell_read_by_a_host_fence.py").read_text(), (0, 2, 3))


UNWAITED_DUMMIES = program(
    [f"step(x: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        y, tid = pl.submit(self.step, x, y, deps=[])
        unwaited = pl.system.task_dummy(deps=[tid, None])
        for i in pl.range(n):
            again = pl.system.task_dummy(deps=[tid])
        waited = pl.system.task_dummy(deps=[tid])
        y, after = pl.submit(self.step, x, y, deps=[waited])
        return y
""",
    returns=TILE, name="Unwaited",
)


def test_dummies_nothing_waits_for_go_and_the_waited_one_stays(tmp_path):
    path = tmp_path / "unwaited.py"
    path.write_text(UNWAITED_DUMMIES)
    for n in (0, 2):
        before, _ = measure_file(str(path), {"n": str(n)}, options=OFF)
        after, _ = measure_file(str(path), {"n": str(n)})
        # (the waited barrier has one entry: it is tid itself, no dummy)
        assert (before.dummies, before.insertions) == (1 + n, 2 + n)
        assert (after.dummies, after.insertions) == (0, 1)
    from conftest import load_program
    from nanopass.api import generate_orchestration

    program = load_program(path)
    assert generate_orchestration(program).code.count("rt_submit_dummy_task(") == 1
    assert generate_orchestration(program, lean_edges=False).code.count("rt_submit_dummy_task(") == 3


HOST_READ_BETWEEN = program(
    [f"step(x: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: pl.InOut[{TILE}], y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        y = self.step(x, y)
        if n > 1:
            h = pl.tensor.read(y, [0, 0])
            pl.tensor.write(z, [0, 0], h)
        x = self.step(z, x)
        return x
""",
    returns=TILE, name="HostRead",
)


def test_a_host_read_that_waited_for_a_reader_makes_the_write_after_it_need_no_edge(tmp_path):  # (runtime_order)
    # the host read of y waits for step (y's producer), which read x, and blocks the
    # orchestration thread: the write of x after it needs no edge on the runs that read y
    path = tmp_path / "host_read.py"
    path.write_text(HOST_READ_BETWEEN.replace("        if n > 1:\n", "").replace("            h =", "        h =")
                    .replace("            pl.tensor.write", "        pl.tensor.write"))
    before, _ = measure_file(str(path), {"n": "3"}, options=OFF)
    after, _ = measure_file(str(path), {"n": "3"})
    assert (before.insertions, before.redundant, before.minimum, before.host) == (1, 1, 0, 2)
    assert (after.insertions, after.minimum, after.host) == (0, 0, 2)
    # a read in a branch that may not run orders nothing, nor one in a loop that may not run;
    # where the loop made a trip (n = 3) its read did: the edge is inserted where it made none
    # (drop_implied_dependencies' guard on the loop's trips)
    for text, expected in ((HOST_READ_BETWEEN, (1, 1)),
                           (HOST_READ_BETWEEN.replace("if n > 1:", "for i in pl.range(n):"), (1, 0))):
        path.write_text(text)
        got = tuple(measure_file(str(path), {"n": str(n)})[0].insertions for n in (0, 3))
        assert got == expected
    # a loop of constant bounds runs its body: the state after it is the state after a run
    path.write_text(HOST_READ_BETWEEN.replace("if n > 1:", "for i in pl.range(1, 3):"))
    assert measure_file(str(path), {"n": "0"})[0].insertions == 0
    path.write_text(HOST_READ_BETWEEN.replace("if n > 1:", "for i in pl.range(3, 3):"))
    assert measure_file(str(path), {"n": "0"})[0].insertions == 1


# BODY: each test's body (8 columns in)
JOIN_WAITERS = program(
    [f"copy(a: {TILE}, out: pl.Out[{TILE}])", f"acc(x: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: {TILE}, y: pl.InOut[{TILE}], w: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    "        BODY\n        return w",
    returns=TILE, name="Joins",
).replace("        BODY", "BODY")

# copy reads w into a tensor of its own (its runs are not ordered among themselves); acc, an
# InOut writer of y, reads that tensor, so each run of acc comes after every run of copy so far
READERS_THEN_WRITER = """        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(w, t)
            y = self.acc(t, y)
        if n > 1:
            y = self.acc(x, y)
        w = self.acc(y, w)"""

# a swap-carry loop in a loop that runs once: each run of copy reads what the acc before wrote
SWAP_IN_A_LOOP_THAT_RUNS_ONCE = """        for k in pl.parallel(1, 2):
            for i, (p, q) in pl.range(n, init_values=(y, w)):
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.copy(p, t)
                q = self.acc(t, q)
                p2, q2 = pl.yield_(q, p)"""


@pytest.mark.parametrize("body", [READERS_THEN_WRITER, SWAP_IN_A_LOOP_THAT_RUNS_ONCE], ids=["after-every-run", "runs-once"])
def test_a_join_of_runs_the_waiter_is_ordered_after_goes_with_its_barriers(body):
    """runtime_order: a task ordered after the latest run of a task that came after every run of
    the joined one (``w = self.acc(y, w)`` looks y up, last written by acc, which read each
    copy's tensor after the runs before it) waits for them all, and so does one whose joined
    runs are chained (each copy reads what the acc before it wrote, in a loop that runs once):
    the join's edge goes, and its barriers with it."""
    text = JOIN_WAITERS.replace("BODY", body)
    for n in (2, 3):
        before, after = insertions(text, n, OFF), insertions(text, n)
        assert before.dummies == n - 1 and before.insertions > 0
        assert (after.insertions, after.dummies, after.minimum) == (0, 0, 0)
    checked_clean(text, trips=(0, 1, 2, 3))


# a swap-carry loop of constant bounds whose writer skips the first iteration
CONDITIONAL_SWAP = """        for i, (p, q) in pl.range(3, init_values=(y, w)):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(p, t)
            if i >= 1:
                q = self.acc(t, q)
            p2, q2 = pl.yield_(q, p)
        y = self.acc(p2, y)"""


def test_a_loop_of_constant_bounds_with_an_if_on_its_variable_is_walked_iteration_by_iteration():
    """runtime_order walks each of the 3 iterations with i known, so the acc of the last
    iteration is known to have run: the task after the loop, which reads what it wrote, needs no
    edge on copy's join, and each acc, which reads its iteration's copy, is ordered after the
    latest copy by the runtime and after the acc before it: drop_latest_runs_from_joins leaves
    the latest copy out of the join and clears it after each acc. The one edge left is the
    minimum: the acc of the second iteration waits for the first copy (7 insertions and 2
    dummies without the passes)."""
    text = JOIN_WAITERS.replace("BODY", CONDITIONAL_SWAP)
    before, after = insertions(text, 0, OFF), insertions(text, 0)
    assert (before.insertions, before.dummies, before.minimum) == (7, 2, 1)
    assert (after.insertions, after.dummies, after.minimum) == (1, 0, 1)
    checked_clean(text, trips=(0,))


# copy's runs read w into tensors of their own; after the loop acc writes w (its lookups find
# nothing copy wrote) or reads copy's last tensor first
JOIN_THEN_WRITER = """        for i, (u,) in pl.range(n, init_values=(x,)):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(w, t)
            (last,) = pl.yield_(t)
        LATER"""


@pytest.mark.parametrize("later, lagged", [("w = self.acc(x, w)", False), ("w = self.acc(last, w)", True)],
                         ids=["not-ordered-after-the-latest", "reads-what-the-latest-wrote"])
def test_a_join_leaves_out_the_latest_run_only_where_the_runtime_orders_its_waiters_after_it(later, lagged):
    """drop_latest_runs_from_joins: a waiter that reads copy's last tensor is ordered after the
    latest copy by the runtime, so the join chains each run of copy only when the next one
    starts (one barrier fewer); one that is not (outside every loop: it runs once a chain) waits
    on that join and on a cell of the latest run, one entry more for the barrier saved."""
    text = JOIN_WAITERS.replace("BODY", JOIN_THEN_WRITER.replace("LATER", later))
    for n in (1, 2, 3):
        before, after = insertions(text, n, OFF), insertions(text, n)
        assert (before.insertions, before.dummies) == (2 * n - 1, n - 1)
        assert (after.insertions, after.dummies) == ((2 * n - 3, max(n - 2, 0)) if lagged and n > 1 else
                                                     (0, 0) if lagged else (max(2 * n - 2, 1), max(n - 2, 0)))
    checked_clean(text, trips=(0, 1, 2, 3))


def test_a_while_loop_whose_carries_end_it_runs_that_many_times(tmp_path):  # (runtime_order)
    path = tmp_path / "host_read.py"
    loop = "for (i,) in pl.while_(init_values=(0,)):\n            pl.cond(i < STOP)"
    text = HOST_READ_BETWEEN.replace("if n > 1:", loop).replace(
        "pl.tensor.write(z, [0, 0], h)", "pl.tensor.write(z, [0, 0], h)\n            (j,) = pl.yield_(i + 1)")
    for stop, edges in ((2, 0), (0, 1), ("n", 1)):
        path.write_text(text.replace("STOP", str(stop)))
        assert measure_file(str(path), {"n": "3"})[0].insertions == edges


# copy's runs read y; a loop of two writes a carry that is y on its second iteration (a host fence
# after the readers), then a writer of y
FENCED_THEN_WRITER = """        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(y, t)
        for j, (a,) in pl.range(2, init_values=(w,)):
            pl.tensor.write(a, [0, 0], 1.5)
            (b,) = pl.yield_(y)
        y = self.copy(x, y)"""


def test_a_host_fence_orders_the_lookups_of_its_tensor_after_what_it_waits_for():
    """runtime_order: the fence before the host write waits for every run of copy and is a
    producer of the tensor, which the host write waits for and then blocks the orchestration:
    the writer of y after it needs no edge on copy's join."""
    text = JOIN_WAITERS.replace("BODY", FENCED_THEN_WRITER)
    before, after = insertions(text, 3, OFF), insertions(text, 3)
    # (without the lean passes: 7 insertions, 2 redundant, until the hazard dataflow followed the
    # loop of two iteration by iteration, its carry a being w, then y; the edge it no longer adds
    # was a redundant one)
    assert (before.insertions, before.redundant, before.minimum) == (6, 1, 3)
    assert (after.insertions, after.redundant, after.minimum) == (5, 0, 3)
    checked_clean(text, trips=(0, 1, 2, 3))


# a swap-carry loop of n iterations in a loop of two; a writer of w (the swap's init) after it
SWAP_IN_A_LOOP_OF_TWO = """        for k in pl.parallel(1, 3):
            for i, (p, q) in pl.range(n, init_values=(y, w)):
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.copy(p, t)
                q = self.acc(t, q)
                p2, q2 = pl.yield_(q, p)
            w = self.acc(p2, w)"""


def test_the_first_iteration_of_a_loop_is_walked_apart_and_the_rest_of_the_block_on_each_exit():
    """runtime_order: the later iterations' state is a fixpoint from the end of the first, not
    from the state before the loop: the acc of the second outer iteration's first run writes w,
    which the writer of w after the first inner loop left ordered after every copy, and each
    later copy reads what the acc before it wrote, so no acc waits on copy's join. The writer of
    w after the inner loop is walked once after the loop ran (it reads the carry the last acc
    wrote) and once after it did not (w was last written by the writer before, after every
    copy): it needs no edge either, so nothing waits on the join (18 insertions without the
    passes at n = 3; the minimum is 0)."""
    text = JOIN_WAITERS.replace("BODY", SWAP_IN_A_LOOP_OF_TWO)
    before, after = insertions(text, 3, OFF), insertions(text, 3)
    assert (before.insertions, before.dummies, before.minimum) == (18, 5, 0)
    assert (after.insertions, after.dummies, after.minimum) == (0, 0, 0)
    checked_clean(text, trips=(0, 1, 2, 3))


# a loop of two swaps w and y: after it p2 is w and q2 is y; a writer of y, then a host write of q2
SWAP_THEN_HOST_WRITE = """        for i, (p, q) in pl.range(2, init_values=(w, y)):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(p, t)
            q = self.acc(t, q)
            p2, q2 = pl.yield_(q, p)
        y = self.acc(p2, y)
        pl.tensor.write(q2, [0, 0], 1.5)"""


def test_a_name_of_a_tensor_shares_its_facts_through_a_loop_of_swaps():  # (runtime_order)
    """runtime_order: the swap loop of constant bounds is walked iteration by iteration, and a
    carry, a loop result or a task result that holds a parameter's tensor shares the facts of
    that name: the host write of q2 (y) waits for y's producers, the writer of y among them, so
    its host fence needs no edge and is not submitted (while q2 had facts of its own, both
    stayed: seeds 21 and 70 of measure_generated)."""
    text = JOIN_WAITERS.replace("BODY", SWAP_THEN_HOST_WRITE)
    before, after = insertions(text, 0, OFF), insertions(text, 0)
    assert (before.insertions, before.redundant, before.minimum, before.dummies) == (6, 4, 0, 2)
    assert (after.insertions, after.redundant, after.minimum, after.dummies) == (0, 0, 0, 0)
    checked_clean(text, trips=(0,))


# copy's runs read w into tensors of their own in a loop of three; a writer of w after it
READERS_IN_A_LOOP_OF_THREE = """        for i in pl.range(3):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(w, t)
        w = self.acc(x, w)"""


def test_a_join_of_the_runs_of_a_loop_of_constant_bounds_becomes_a_cell_per_iteration():
    """split_joins_by_iteration: the writer after the loop waits for each of the three runs of
    copy, which nothing orders among themselves; the join chained them through two barriers (five
    insertions, the minimum is three); a cell per iteration holds each run, and the writer waits
    on the three cells. runtime_order does not take such a cell, set in an ``if`` on the
    iteration, for one holding copy's latest run (only the first would stay)."""
    text = JOIN_WAITERS.replace("BODY", READERS_IN_A_LOOP_OF_THREE)
    before, after = insertions(text, 0, OFF), insertions(text, 0)
    assert (before.insertions, before.minimum, before.dummies) == (5, 3, 2)
    assert (after.insertions, after.redundant, after.minimum, after.dummies) == (3, 0, 3, 0)
    checked_clean(text, trips=(0,))


def test_a_task_id_read_from_an_array_slot_orders_like_the_run_it_holds():  # (runtime_order)
    """runtime_order follows the TaskIds an array's slots hold (the loop of two that sets
    ``ids[j]`` is walked iteration by iteration): ``p = ids[1]`` is the latest run of the manual
    scope's task, which waited for the latest run of the loop's task before it, so the last
    task's compiler edge on that run, implied by its user edge on ``p``, goes."""
    after, _ = measure_file(str(ROOT / "tests/golden/surface_phi_names.py"))
    assert (after.insertions, after.redundant, after.minimum) == (4, 0, 4)
    assert after.by_kind["user"] == 1


def test_the_lean_passes_are_the_ones_the_option_turns_off():
    """Each pass of the module docstring above is a ``LeanPass`` (the one place that reads the
    option): with ``lean_edges=False`` it hands its input on as it is; on, some of them change
    ping_pong's tree."""
    from nanopass.api import run_pipeline
    from nanopass.loader import load_programs, pick_program
    from nanopass.passes.lean import LeanPass
    from nanopass.passes.pipeline import PASSES
    from nanopass.rewrite import PassContext

    names = {"drop_chained_join_barriers", "drop_implied_dependencies", "drop_latest_runs_from_joins",
             "merge_cells_into_chains", "drop_edges_after_first_run", "clear_cells_after_waiters",
             "drop_unwaited_dummies", "split_joins_by_iteration", "clear_edges_where_implied",
             "drop_cells_implied_through_edges", "drop_overwritten_cell_stores"}
    lean = {cls.name: cls for cls in PASSES if isinstance(cls, type) and issubclass(cls, LeanPass)}
    assert set(lean) == names
    path = str(ROOT / "tests/golden/ping_pong.py")
    stages = run_pipeline(pick_program(load_programs(path), None, path), options=OFF)
    changed = 0
    for before, stage in zip(stages, stages[1:]):
        if stage.name in lean:
            cls = lean[stage.name]
            assert cls(PassContext(options=OFF)).run(before.tree) is before.tree
            changed += cls(PassContext()).run(before.tree) is not before.tree
    assert changed


def test_the_lean_page_lists_every_lean_pass_in_pipeline_order():
    """docs/lean-edges.md's table of the passes matches the pipeline."""
    import re

    from conftest import REPO

    from nanopass.passes.lean import LeanPass
    from nanopass.passes.pipeline import PASSES

    page = (REPO / "docs" / "lean-edges.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \|", page, re.M)
    assert rows == [p.name for p in PASSES if issubclass(p, LeanPass)]
