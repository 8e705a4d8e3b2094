"""The dependency-insertion measure (tools/measure_edges.py): hand-built traces whose figures are
known, compiled programs whose C++ was read by hand, and generated programs against a brute-force
oracle of the definitions."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_runtime_model import Builder

from nanopass.tools.measure_edges import main, measure_file, measure_trace
from nanopass.tools.runtime_model import model
from nanopass.tools.trace import Alloc, Buffer, HostRead, HostWrite, Task, TensorArg, Trace, View, row_major_strides

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = 60  # generated programs (the CI test stays well under a minute)


class Traces(Builder):
    def dummy(self, deps=(), mode="auto") -> int:
        ids = tuple(self.id_of(d) for d in deps)
        return self.add(Task(self.take(), "dummy", None, (), (), ids, mode))


def verdicts(trace: Trace, figures) -> dict[int, list]:
    """Event index -> the verdict of each entry of that task."""
    return {i: figures.verdicts[e.id] for i, e in enumerate(trace.events) if isinstance(e, Task)}


# -- hand-built traces -------------------------------------------------------------------------------


def test_an_entry_another_path_of_entries_implies_is_redundant_and_the_minimum_keeps_the_chain():
    b = Traces("x")
    b.scope("manual")
    first = b.task(("x", "INOUT"), mode="manual")
    second = b.task(("x", "INOUT"), deps=[first], mode="manual")
    third = b.task(("x", "INOUT"), deps=[first, second], mode="manual")
    figures = measure_trace(b.trace)
    assert (figures.insertions, figures.redundant, figures.minimum, figures.dummies) == (3, 1, 2, 0)
    assert verdicts(b.trace, figures)[third] == ["implied", None]
    assert verdicts(b.trace, figures)[second] == [None]


def test_an_entry_on_the_creator_of_a_tensor_the_task_reads_is_the_runtimes_own_edge():
    b = Traces("x")
    maker = b.task(("x", "INPUT"), outputs=["t"])
    reader = b.task(("t", "INPUT"), deps=[maker])
    figures = measure_trace(b.trace)
    assert (figures.insertions, figures.redundant, figures.minimum) == (1, 1, 0)
    assert verdicts(b.trace, figures)[reader] == ["runtime"]


def test_an_entry_on_an_earlier_writer_is_implied_through_the_tensormap_chain():
    b = Traces("x")
    first = b.task(("x", "INOUT"))
    b.task(("x", "INOUT"))  # the TensorMap orders it after first, and the reader after it
    reader = b.task(("x", "INPUT"), deps=[first])
    figures = measure_trace(b.trace)
    assert (figures.insertions, figures.redundant, figures.minimum) == (1, 1, 0)
    assert verdicts(b.trace, figures)[reader] == ["implied"]


def test_a_write_after_read_entry_is_needed_and_is_the_minimum():
    b = Traces("x")
    reader = b.task(("x", "INPUT"))
    writer = b.task(("x", "INOUT"), deps=[reader])
    figures = measure_trace(b.trace)
    assert (figures.insertions, figures.redundant, figures.minimum) == (1, 0, 1)
    assert verdicts(b.trace, figures)[writer] == [None]
    assert figures.needed_sites == {("task0", "task1"): 1}


def test_a_host_access_orders_every_later_task_after_what_it_waited_for():
    b = Traces("x")
    writer = b.task(("x", "INOUT"))
    b.host("x")  # get_tensor_data waits for the writer and blocks the orchestration thread
    later = b.task(("x", "NO_DEP"), deps=[writer])
    figures = measure_trace(b.trace)
    assert (figures.insertions, figures.redundant, figures.minimum, figures.host) == (1, 1, 0, 1)
    assert verdicts(b.trace, figures)[later] == ["implied"]


def test_a_barrier_carries_every_producer_consumer_pair_with_fewer_entries_than_the_minimum():
    b = Traces("x", "y")
    b.scope("manual")
    producers = [b.task(("x", "INPUT"), mode="manual") for _ in range(2)]
    barrier = b.dummy(producers, mode="manual")
    consumers = [b.task(("y", "INPUT"), deps=[barrier], mode="manual") for _ in range(3)]
    figures = measure_trace(b.trace)
    assert (figures.insertions, figures.redundant, figures.dummies, figures.minimum) == (5, 0, 1, 6)
    assert figures.by_kind == {"barrier": 2, "user": 3}
    assert all(verdicts(b.trace, figures)[c] == [None] for c in consumers)


def test_a_join_barrier_per_loop_run_over_readers_the_runtime_chains_needs_one_entry_at_most():
    # war_loop_then_writer's shape: readers of x that are INOUT writers of y (so chained by the
    # TensorMap), a join barrier after each, and a writer of x after the last join
    b = Traces("x", "y")
    join = None
    for _ in range(3):
        read = b.task(("x", "INPUT"), ("y", "INOUT"))
        join = b.dummy(([join] if join is not None else []) + [read])
    writer = b.task(("x", "INOUT"), deps=[join])
    figures = measure_trace(b.trace)
    assert (figures.insertions, figures.redundant, figures.dummies, figures.minimum) == (6, 0, 3, 1)
    assert verdicts(b.trace, figures)[writer] == [None]


def test_duplicate_empty_dead_and_alloc_entries_are_redundant():
    b = Traces("x")
    b.scope("manual")
    scratch = b.alloc("s")
    empty = b.dummy(mode="manual")  # nothing before it
    first = b.task(("x", "INPUT"), mode="manual")
    b.dummy([first], mode="manual")  # nothing after it
    last = b.task(("x", "INOUT"), deps=[first, first, empty, scratch], mode="manual")
    figures = measure_trace(b.trace)
    assert verdicts(b.trace, figures)[last] == [None, "duplicate", "empty", "runtime"]
    dead = [i for i, e in enumerate(b.trace.events) if isinstance(e, Task) and e.kind == "dummy"][1]
    assert verdicts(b.trace, figures)[dead] == ["dead"]
    assert (figures.insertions, figures.redundant, figures.minimum, figures.dummies) == (5, 4, 1, 2)


def test_a_manual_scope_has_no_runtime_edges_so_a_creator_entry_there_is_needed():
    b = Traces("x")
    b.scope("manual")
    maker = b.task(("x", "INPUT"), outputs=["t"], mode="manual")
    reader = b.task(("t", "INPUT"), deps=[maker], mode="manual")
    figures = measure_trace(b.trace)
    assert (figures.redundant, figures.minimum) == (0, 1)
    assert verdicts(b.trace, figures)[reader] == [None]


def test_the_runtime_model_indexes_many_entries_of_one_buffer_by_rows():
    trace = Trace()
    shape = (64, 4)
    trace.buffers["big"] = Buffer("big", shape, "FLOAT32", "entry", 0)
    strides = row_major_strides(shape)

    def rows(lo, hi):
        return View("big", lo * 4, (hi - lo, 4), strides)

    def task(tag, lo, hi):
        trace.events.append(Task(len(trace.events), "kernel", (-1, 0, -1), (TensorArg(rows(lo, hi), tag),), (), (), "auto"))
        return len(trace.events) - 1

    writers = [task("OUTPUT_EXISTING", i, i + 1) for i in range(40)]  # past the 32 entries a scan takes
    reader = task("INPUT", 10, 12)
    cover = task("INOUT", 0, 20)
    after = task("INPUT", 5, 6)
    far = task("INPUT", 30, 31)
    whole = task("INPUT", 0, 64)
    for _ in range(40):  # retire and re-add: the index is rebuilt from the live entries
        last = task("INOUT", 0, 64)
    final = task("INPUT", 63, 64)
    preds = {}
    for edge in model(trace).edges:
        preds.setdefault(edge.dst, set()).add(edge.src)
    assert preds[reader] == {writers[10], writers[11]}
    assert preds[cover] == set(writers[:20])
    assert preds[after] == {cover}
    assert preds[far] == {writers[30]}
    assert preds[whole] == {cover} | set(writers[20:])
    assert preds[final] == {last}


# -- compiled programs, read by hand ----------------------------------------------------------------


# (insertions, redundant, minimum, dummies) of runs whose C++ was read against the figures
HAND_CHECKED = {
    # each of the 12 inner runs reads the buffer the run before wrote (INOUT): the TensorMap orders
    # it, so drop_implied_dependencies left no write-after-read edge (test_lean_edges has before)
    "tests/golden/ping_pong.py": (0, 0, 0, 0),
    # the readers are chained by their INOUT of y: the writer's one edge is on the last read, with
    # no join barrier per run (drop_chained_join_barriers)
    "tests/golden/war_loop_then_writer.py": (1, 0, 1, 0),
    # the second loop's task j waits for all 8 slots: the slots before j hold the earlier tasks of
    # its own loop (all but the latest implied), the others the first loop's tasks (implied by j-1)
    "tests/golden/fence_array_updated.py": (64, 49, 15, 0),
    # 64 producers and 64 consumers through one fence barrier: 128 entries for 4096 pairs
    "tests/golden/phase_fence.py": (128, 0, 4096, 1),
    # n=3: the barrier names fourth twice (chosen = fourth), and `empty` has nothing before it
    "tests/golden/tid_sources.py": (10, 2, 7, 2),
    # two INOUT writers of y: the TensorMap orders them, the derived edge is gone
    "tests/golden/derive_fallback.py": (0, 0, 0, 0),
    # the loop's first run waits for the manual scope's task through a cell that the run then
    # clears: the second and third runs wait for the first through b (INOUT), with no edge
    # (drop_edges_after_first_run; before it, 3 insertions, 2 of them redundant)
    "tests/golden/scope_escape.py": (1, 0, 1, 0),
    # n=3: the loop's task waits for the task before the loop, then for its own previous run,
    # and the task after the loop for the latest of them, all through one chain cell
    # (merge_cells_into_chains; before it, 8 insertions, 3 of them redundant)
    "tests/golden/derive_boxes.py": (5, 0, 5, 0),
    "examples/manual_phases.py": (32, 0, 32, 0),
    "examples/basic.py": (0, 0, 0, 0),
}


@pytest.mark.parametrize("path", sorted(HAND_CHECKED))
def test_figures_of_programs_read_by_hand(path):
    figures, _ = measure_file(str(ROOT / path))
    assert (figures.insertions, figures.redundant, figures.minimum, figures.dummies) == HAND_CHECKED[path]


def test_the_measure_finds_the_redundant_write_after_read_edge_of_ping_pong_and_its_kind():
    figures, values = measure_file(str(ROOT / "tests/golden/ping_pong.py"), options={"lean_edges": False})
    assert values == {}
    assert figures.redundant_sites == {("t1", "t1", "cell", "runtime"): 11}
    assert figures.by_kind == {"cell": 11}
    without, _ = measure_file(str(ROOT / "tests/golden/ping_pong.py"), options={"order_war": False})
    assert (without.insertions, without.redundant, without.minimum) == (0, 0, 0)


def test_kinds_come_from_the_ir_user_derived_cell_and_barrier(tmp_path):
    figures, values = measure_file(str(ROOT / "tests/golden/war_manual_boundary.py"))
    assert values == {"n": "3"}
    assert figures.by_kind == {"user": 1, "derived": 2, "cell": 1}
    (tmp_path / "joined.py").write_text(JOINED_READERS)
    figures, _ = measure_file(str(tmp_path / "joined.py"), {"n": "5"})
    # (the join takes each read when the next one starts, drop_latest_runs_from_joins: its first
    # barrier has one entry, read 0's own TaskId, no dummy; the writer waits on the join and on
    # the latest read)
    assert figures.by_kind == {"cell": 2, "barrier": 6} and figures.dummies == 3


# Readers of x unordered among themselves (each writes a tensor of its own), a writer of x after
# the loop: the writer waits for every run through a join cell of dummy barriers, one per run but
# the latest, and a cell of the latest run.
JOINED_READERS = """import nanopass.dsl as pl


@pl.program
class JoinedReaders:
    @pl.function(type=pl.FunctionType.AIV)
    def read(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def write(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], z: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(n):
            t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.read(x, t)
        x = self.write(z, x)
        return x
"""


def test_the_command_prints_the_figures_and_a_table(capsys):
    assert main([str(ROOT / "tests/golden/war_loop_then_writer.py"), "--set", "n=2", "--pairs"]) == 0
    out = capsys.readouterr().out
    assert "(n=2)" in out and "insertions 1 (cell 1)" in out and "minimum    1" in out
    assert "needed 1x t0 -> t1" in out
    assert main(["--table", str(ROOT / "examples/basic.py")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| program |") and lines[-1].endswith("| 2 | 0 | 0 | 0 | 0 |")


# -- generated programs against the definitions ------------------------------------------------------


def real_order(trace: Trace, reach: dict[int, int]) -> set[tuple[int, int]]:
    real = [i for i, e in enumerate(trace.events)
            if (isinstance(e, Task) and e.kind == "kernel") or isinstance(e, (HostRead, HostWrite))]
    return {(u, v) for v in real for u in real if reach[v] >> u & 1}


def covering(order: set[tuple[int, int]]) -> set[tuple[int, int]]:
    after: dict[int, set[int]] = {}
    for u, v in order:
        after.setdefault(u, set()).add(v)
    return {(u, v) for u, v in order if not any(v in after.get(w, ()) for w in after[u] if w != v)}


def without_entries(trace: Trace, keep) -> Trace:
    """The trace with only the entries ``keep(task, position)`` holds."""
    events = [
        Task(e.id, e.kind, e.launch, e.tensors, e.scalars, tuple(d for k, d in enumerate(e.deps) if keep(e, k)),
             e.mode, e.outputs, e.kernel, e.line, e.par, e.derived, e.site) if isinstance(e, Task) else e
        for e in trace.events
    ]
    return Trace(trace.buffers, events)


def test_generated_programs_meet_the_definitions(tmp_path):
    """On a sample of generated programs (AUTO and manual, dependencies derived from their true
    hazards): the minimum is the number of covering pairs of the order that the runtime alone does
    not order, the compiler minimum those that the runtime and the user's entries do not order,
    removing every redundant entry at once keeps the order, and without dummies every needed entry
    is one of those pairs (so the compiler minimum is the minimum less the user's needed entries)."""
    from nanopass.tools.check import program_inputs
    from nanopass.tools.fuzz_deps import compile_generated
    from nanopass.tools.gen_programs import RandomChooser, generate
    from nanopass.tools.measure_edges import measure_stages
    from nanopass.api import surface_of

    checked = entries = refused = 0
    for seed in range(SAMPLE):
        program = generate(RandomChooser(seed), manual=seed % 4 == 3, max_statements=9)
        compiled = compile_generated(program, seed)
        if compiled is None:  # refused: no compilation of it is correct
            refused += 1
            continue
        text, stages, dsl = compiled
        for values in program.value_sets():
            figures_trace = _emission_trace(stages, program_inputs(surface_of(dsl), values))
            figures = measure_trace(figures_trace)
            full = model(figures_trace)
            order = real_order(figures_trace, full.reach)
            alone = model(without_entries(figures_trace, lambda task, k: False))
            assert figures.minimum == len({p for p in covering(order) if not alone.reach[p[1]] >> p[0] & 1}), text
            lean = without_entries(figures_trace, lambda task, k: figures.verdicts[task.id][k] is None)
            assert real_order(lean, model(lean).reach) == order, text
            if figures.dummies == 0:
                assert figures.minimum == figures.insertions - figures.redundant, text
            assert sum(figures.by_kind.values()) == figures.insertions
            measured = measure_stages(stages, program_inputs(surface_of(dsl), values))
            assert (measured.insertions, measured.redundant, measured.minimum) == (
                figures.insertions, figures.redundant, figures.minimum)
            by_user = users_order(figures_trace, full, measured.kinds)
            assert measured.compiler_minimum == len({p for p in covering(order) if p[0] not in by_user[p[1]]}), text
            index_of = {e.id: i for i, e in enumerate(figures_trace.events) if isinstance(e, (Task, Alloc))}
            assert measured.implied_by_user == sum(
                index_of[dep] in by_user[i] for i, e in enumerate(figures_trace.events) if isinstance(e, Task)
                for k, dep in enumerate(e.deps) if measured.kinds[e.id][k] != "user"), text
            if measured.dummies == 0:
                assert measured.compiler_minimum == measured.minimum - (
                    measured.by_kind["user"] - measured.redundant_by_kind["user"]), text
            checked += 1
            entries += figures.insertions
    assert checked == 4 * (SAMPLE - refused) and refused <= SAMPLE // 3 and entries > 0


def users_order(trace: Trace, full, kinds: dict[int, list[str]]) -> dict[int, set[int]]:
    """Node -> the nodes ordered before it by the runtime's own edges, the ``user`` entries and
    the host accesses (each before every later node), by a search over those edges."""
    preds: dict[int, set[int]] = {}
    for edge in full.edges + full.shadowed:
        if edge.reason != "explicit":
            preds.setdefault(edge.dst, set()).add(edge.src)
    index_of = {e.id: i for i, e in enumerate(trace.events) if isinstance(e, (Task, Alloc))}
    for i, event in enumerate(trace.events):
        if isinstance(event, Task):
            for k, dep in enumerate(event.deps):
                if kinds[event.id][k] == "user":
                    preds.setdefault(i, set()).add(index_of[dep])
    hosts = [i for i in full.nodes if isinstance(trace.events[i], (HostRead, HostWrite))]
    for v in full.nodes:
        preds.setdefault(v, set()).update(h for h in hosts if h < v)
    out = {}
    for v in full.nodes:
        seen, stack = set(), list(preds[v])
        while stack:
            u = stack.pop()
            if u not in seen:
                seen.add(u)
                stack.extend(preds.get(u, ()))
        out[v] = seen
    return out


def _emission_trace(stages, inputs) -> Trace:
    from nanopass.tools.interpret_emission import interpret_emission

    return interpret_emission(stages[-1].tree, inputs)
