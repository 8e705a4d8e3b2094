"""The runtime model's closure (a floor plus a bitset of the rest, ``tools/runtime_model.py``)
answers exactly as the plain transitive closure of its edges and its host rule: on random small
traces, on the traces of the examples, golden programs and bench shapes, and for the union and
normalisation on their own."""

from __future__ import annotations

import random

from conftest import EXAMPLES_AND_GOLDEN, compiled_stages, load_program, sample_paths

from nanopass.api import surface_of
from nanopass.errors import UserError
from nanopass.tools.check import program_inputs, reference_stage, sample_values, trace_of
from nanopass.tools.runtime_model import _nodes_from, model, normalised, union
from nanopass.tools.trace import (
    Alloc,
    Buffer,
    HostRead,
    HostWrite,
    ScopeBegin,
    ScopeEnd,
    Task,
    TensorArg,
    Trace,
    View,
    row_major_strides,
)

SHAPE = (8, 4)


def plain_closure(runtime) -> dict[int, set[int]]:
    """Node -> the nodes ordered before it: its edges' sources and what is ordered before them,
    and every host access before it with what is ordered before that (the orchestration thread
    blocks on a host access), as sets, node by node."""
    preds: dict[int, set[int]] = {}
    for edge in runtime.edges:
        preds.setdefault(edge.dst, set()).add(edge.src)
    before: dict[int, set[int]] = {}
    host: set[int] = set()
    for node in runtime.nodes:
        ordered = set(host)
        for pred in preds.get(node, ()):
            ordered |= before[pred] | {pred}
        before[node] = ordered
        if isinstance(runtime.trace.events[node], (HostRead, HostWrite)):
            host = ordered | {node}
    return before


def as_bits(indices) -> int:
    return sum(1 << i for i in indices)


def assert_closure_agrees(trace: Trace) -> int:
    """Every query of the model against ``plain_closure``; returns the node count."""
    runtime = model(trace)
    expected = plain_closure(runtime)
    assert sorted(expected) == runtime.nodes
    reach = runtime.reach
    assert set(reach) == set(runtime.nodes) and len(reach) == len(runtime.nodes)
    for second in runtime.nodes:
        want = expected[second]
        assert runtime.ordered_before(second) == as_bits(want), second
        assert reach[second] == as_bits(want)
        for first in range(len(trace.events)):
            assert runtime.ordered(first, second) == (first in want), (first, second)
    return len(runtime.nodes)


def random_trace(rng: random.Random, length: int) -> Trace:
    """Allocations, tasks (every tag, row ranges, explicit dependencies, manual mode, manual_dep),
    host reads and writes, nested scopes, in random order."""
    trace = Trace()
    owners: dict[str, int | None] = {}
    for slot, name in enumerate(("A", "B")):
        trace.buffers[name] = Buffer(name, SHAPE, "FLOAT32", "entry", slot)
        owners[name] = None
    tasks: list[int] = []
    ids = iter(range(10**6))
    depth = 0
    trace.events.append(ScopeBegin("auto"))

    def view() -> tuple[str, View]:
        name = rng.choice(sorted(owners))
        first = rng.randrange(SHAPE[0])
        rows = rng.randint(1, SHAPE[0] - first)
        return name, View(name, first * SHAPE[1], (rows, SHAPE[1]), row_major_strides(SHAPE))

    for _ in range(length):
        roll = rng.random()
        if roll < 0.1:
            name = f"t{len(trace.buffers)}"
            trace.buffers[name] = Buffer(name, SHAPE, "FLOAT32", "alloc", manual_dep=rng.random() < 0.2)
            owners[name] = next(ids)
            trace.events.append(Alloc(owners[name], (name,)))
        elif roll < 0.2:
            name, v = view()
            cls = HostWrite if rng.random() < 0.5 else HostRead
            trace.events.append(cls(v, (0, 0), 0, rng.random() < 0.1, owners[name]))
        elif roll < 0.3:
            if depth and rng.random() < 0.5:
                trace.events.append(ScopeEnd())
                depth -= 1
            else:
                trace.events.append(ScopeBegin(rng.choice(("auto", "manual"))))
                depth += 1
        else:
            task_id = next(ids)
            args = []
            for _ in range(rng.randint(1, 3)):
                name, v = view()
                tag = rng.choice(("INPUT", "INOUT", "OUTPUT_EXISTING", "NO_DEP", "INPUT"))
                args.append(TensorArg(v, tag, rng.random() < 0.1, owners[name]))
            outputs = ()
            if rng.random() < 0.2:
                name = f"o{len(trace.buffers)}"
                trace.buffers[name] = Buffer(name, SHAPE, "FLOAT32", "output")
                owners[name] = task_id
                outputs = (name,)
                args.append(TensorArg(View(name, 0, SHAPE, row_major_strides(SHAPE)), "OUTPUT", False, task_id))
            deps = tuple(sorted(set(rng.sample(tasks, min(len(tasks), rng.randint(0, 2))))))
            mode = "manual" if rng.random() < 0.3 else "auto"
            kind = "dummy" if rng.random() < 0.1 else "kernel"
            trace.events.append(Task(task_id, kind, None, tuple(args), (), deps, mode, outputs))
            tasks.append(task_id)
    trace.events += [ScopeEnd()] * (depth + 1)
    return trace


def test_the_closure_is_the_plain_transitive_closure_on_random_traces():
    rng = random.Random(20261207)
    nodes = sum(assert_closure_agrees(random_trace(rng, rng.randint(1, 60))) for _ in range(300))
    assert nodes > 5000


def test_the_closure_is_the_plain_transitive_closure_on_the_traces_of_programs(tmp_path):
    checked = 0
    for path in [*EXAMPLES_AND_GOLDEN, *sample_paths(tmp_path, seeds=range(6), manual=lambda seed: seed % 2 == 1)]:
        try:
            stages = compiled_stages(path)
            surface = surface_of(load_program(path))
            inputs = program_inputs(surface, sample_values(surface, integer=2))
            traces = [trace_of(reference_stage(stages), inputs), trace_of(stages[-1], inputs)]
        except Exception as error:
            if isinstance(getattr(error, "error", error), UserError):
                continue  # (a program the compiler refuses, or that needs other values: no trace)
            raise
        for trace in traces:
            assert_closure_agrees(trace)
            checked += 1
    assert checked >= 100


def expanded(floor: int, rest: int, nodes: set[int]) -> set[int]:
    """The nodes a (floor, rest) pair stands for."""
    return {n for n in nodes if n < floor or rest >> (n - floor) & 1}


def test_a_union_keeps_the_hole_below_the_higher_floor_open():
    # events 0..7 all nodes; one set has every node below 5, the other nodes 0..2 and 6:
    # node 5 is a hole, so the floor stops at 5 and node 6 stays in the rest
    nodes_from = list(range(9))
    floor, rest = union([(5, 0), (0, 0b1000111)], [], nodes_from)
    assert (floor, rest) == (5, 0b10)
    assert expanded(floor, rest, set(range(8))) == {0, 1, 2, 3, 4, 6}
    # adding node 5 closes the hole: the floor rises past 6 to the next node not in the set
    assert union([(floor, rest)], [5], nodes_from) == (7, 0)


def test_the_floor_rises_past_events_that_are_no_nodes_but_stops_at_a_missing_node():
    # events 0, 2, 3 and 6 are nodes; 1, 4, 5 are scope events
    events = [Task(0, "kernel", None, (), (), (), "auto"), ScopeBegin("auto"), Alloc(1, ()),
              Task(2, "kernel", None, (), (), (), "auto"), ScopeEnd(), ScopeBegin("auto"),
              Task(3, "kernel", None, (), (), (), "auto")]
    nodes_from = _nodes_from(events)
    assert nodes_from == [0, 2, 2, 3, 6, 6, 6, 7]
    assert normalised(0, 0b1, nodes_from) == (2, 0)  # node 0, then event 1 (no node): up to node 2
    assert normalised(0, 0b1101, nodes_from) == (6, 0)  # nodes 0, 2, 3, then events 4 and 5
    assert normalised(0, 0b1001, nodes_from) == (2, 0b10)  # node 2 missing: 3 stays in the rest
    assert normalised(0, 0b1001101, nodes_from) == (7, 0)  # every node


def test_union_and_normalisation_agree_with_sets_on_random_pairs():
    rng = random.Random(7)
    for _ in range(2000):
        size = rng.randint(1, 40)
        node_set = {e for e in range(size) if rng.random() < 0.7}
        events = [Task(e, "kernel", None, (), (), (), "auto") if e in node_set else ScopeEnd() for e in range(size)]
        nodes_from = _nodes_from(events)
        sets, want = [], set()
        for _ in range(rng.randint(0, 3)):
            members = {n for n in node_set if rng.random() < 0.6}
            floor = normalised(0, as_bits(members), nodes_from)
            assert expanded(*floor, node_set) == members
            assert floor[0] == size or floor[0] in node_set - members  # as high as it can be
            sets.append(floor)
            want |= members
        singles = {n for n in node_set if rng.random() < 0.2}
        got = union(sets, singles, nodes_from)
        assert expanded(*got, node_set) == want | singles
        assert got[0] == size or got[0] in node_set - want - singles
