"""An oracle for the static task graph (printer/dot.py), written from its contract and from
runtime-api.md section 11, independent of the compiler's hazard analysis.

``required_orderings(trace)`` reads one run's trace and says which submit site's instance each
task instance must be ordered after:

- *data*: for every element a task looks up (an ``INPUT`` or ``INOUT`` slot, in any scope mode:
  the graph draws MANUAL-scope data edges too, as ``data-untracked``), the task that wrote that
  element last (``OUTPUT``, ``OUTPUT_EXISTING`` or ``INOUT``); a host write makes the host the
  last writer (no task), and a ``pl.assemble`` copy (the program as written) hands each target
  element the last writer of its source element;
- *explicit*: every task whose TaskId the submit's dependencies hold (an ``alloc_tensors`` id is
  no submit site and is left out).

``missing_orderings(graph, orderings)`` lists the orderings the static graph does not show: a
data ordering needs a path of data edges, an explicit one a path of explicit edges, from the
earlier instance's site node to the later one's, whose inner nodes are merge or barrier nodes
(its docstring says why barriers).

Not orderings here: creator retention (a reader of a tensor waits for its creator; the creator
wrote it, so it is the last writer unless a later writer is, which waits for it in turn), and
the TensorMap entries of older producers that a later partial write does not cover (the runtime
orders after those too; the last writer of each element is what the program needs).

``violations(stages, program, value_sets)`` checks a compiled program's stages this way:
the surface program (its truth is the run of the program as written, ``written_program``, every
allocation a new buffer each time it runs and each kernel slot read by its declared direction),
the first ``directed`` stage, the stage after ``order_write_after_read``, the stage after
``resolve_dep_edges`` and the emission unit; each graph with merge nodes as shipped, everywhere
(``MERGED_WRITERS`` 1) and nowhere (10**9). ``python -m nanopass.tools.graph_sweep`` runs it on
generated programs; ``tests/test_task_graph_oracle.py`` on the examples and chosen seeds.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from nanopass.tools.trace import Alloc, Copy, Fatal, HostWrite, Task, Trace, View

LOOKUP_TAGS = frozenset({"INPUT", "INOUT"})
WRITE_TAGS = frozenset({"OUTPUT", "OUTPUT_EXISTING", "INOUT"})
DATA_KINDS = frozenset({"data", "data-untracked"})
EXPLICIT_KINDS = frozenset({"explicit", "explicit-user", "explicit-compiler"})

# A kernel parameter's declared direction -> the slot tag it stands for before call directions
# are derived; an ``Out`` parameter the task creates stays ``OUTPUT``, and an argument the
# program wraps in ``pl.no_dep`` stays ``NO_DEP``.
DECLARED_TAG = {"In": "INPUT", "InOut": "INOUT", "Out": "OUTPUT_EXISTING"}
KEPT_TAGS = frozenset({"OUTPUT", "NO_DEP"})


@dataclass(frozen=True)
class Ordering:
    """Site ``dst``'s instance (task ``later``) must run after site ``src``'s (task ``earlier``)."""

    src: str
    dst: str
    kind: str  # "data" | "explicit"
    earlier: int  # task ids of one witnessing pair of instances
    later: int
    why: str  # the buffer element, or "deps"


@functools.lru_cache(maxsize=1 << 14)
def elements(view: View) -> tuple[int, ...]:
    """The flat buffer offsets of a view's elements, in the view's row-major order."""
    flats = [view.offset]
    for stride, extent in zip(view.strides, view.shape):
        flats = [f + i * stride for f in flats for i in range(extent)]
    return tuple(flats)


def required_orderings(trace: Trace, declared: dict[str, tuple[str, ...]] | None = None) -> dict[tuple, Ordering]:
    """(src site, dst site, kind) -> one witnessing ``Ordering``, for every ordering the run needs.

    ``declared`` (kernel name -> its tensor parameters' declared directions) reads each kernel
    task's slots by the kernel's declaration instead of the trace's tags: the program before its
    call directions are derived."""
    last_writer: dict[tuple[str, int], Task | None] = {}
    tasks_by_id: dict[int, Task] = {}
    out: dict[tuple, Ordering] = {}

    def need(earlier: Task, later: Task, kind: str, why: str) -> None:
        key = (earlier.site, later.site, kind)
        if key not in out:
            out[key] = Ordering(earlier.site, later.site, kind, earlier.id, later.id, why)

    for event in trace.events:
        if isinstance(event, Fatal):
            break
        if isinstance(event, Alloc):
            for buffer in event.outputs:
                for flat in range(_size(trace, buffer)):
                    last_writer[(buffer, flat)] = None
        elif isinstance(event, HostWrite):
            flat = event.view.offset + sum(i * s for i, s in zip(event.index, event.view.strides))
            last_writer[(event.view.buffer, flat)] = None
        elif isinstance(event, Copy):
            sources = [last_writer.get((event.source.buffer, f)) for f in elements(event.source)]
            for flat, writer in zip(elements(event.target), sources):
                last_writer[(event.target.buffer, flat)] = writer
        elif isinstance(event, Task):
            tags = _tags(event, declared)
            for arg, tag in zip(event.tensors, tags):
                if tag in LOOKUP_TAGS:
                    for flat in elements(arg.view):
                        writer = last_writer.get((arg.view.buffer, flat))
                        if writer is not None:
                            need(writer, event, "data", f"{arg.view.buffer}[{flat}]")
            for dep in event.deps:
                if dep in tasks_by_id:
                    need(tasks_by_id[dep], event, "explicit", "deps")
            for arg, tag in zip(event.tensors, tags):
                if tag in WRITE_TAGS:
                    for flat in elements(arg.view):
                        last_writer[(arg.view.buffer, flat)] = event
            tasks_by_id[event.id] = event
    return out


def _tags(task: Task, declared: dict[str, tuple[str, ...]] | None) -> list[str]:
    tags = [arg.tag for arg in task.tensors]
    if declared is None or task.kind != "kernel" or task.kernel not in declared:
        return tags
    directions = declared[task.kernel]
    assert len(directions) == len(tags), (task.kernel, directions, tags)
    return [tag if tag in KEPT_TAGS else DECLARED_TAG[d] for tag, d in zip(tags, directions)]


def _size(trace: Trace, buffer: str) -> int:
    size = 1
    for extent in trace.base(buffer):
        size *= extent
    return size


def reachable(graph, kinds: frozenset[str], through_barriers: bool = False) -> dict[str, set[str]]:
    """Each non-merge node -> the nodes a path of ``kinds`` edges leads to whose inner nodes are
    all merge nodes (and, ``through_barriers``, barrier nodes)."""
    succ: dict[str, set[str]] = {node: set() for node in graph.nodes}
    for edge in graph.edges.values():
        if edge.kind in kinds:
            succ[edge.src].add(edge.dst)

    def passes(node) -> bool:
        return node.merge or (through_barriers and node.barrier)

    out: dict[str, set[str]] = {}
    for start, node in graph.nodes.items():
        if node.merge:
            continue
        found: set[str] = set()
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in succ[todo.pop()]:
                if not graph.nodes[nxt].merge:
                    found.add(nxt)
                if passes(graph.nodes[nxt]) and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out[start] = found
    return out


def missing_orderings(graph, orderings: dict[tuple, Ordering]) -> list[Ordering]:
    """The orderings ``graph`` does not show. Inner nodes of a path may be merge nodes and barrier
    nodes (a barrier or host fence is a real node ordered after its sources: a path through one
    shows the ordering; a barrier that joins one TaskId is not even submitted, its holders hold
    that TaskId):

    - a data ordering needs a path of data edges; into a barrier or host fence (a dummy task
      whose slots the runtime looks up, but no task that reads for the program), a path of
      edges of any kind;
    - an explicit ordering needs a path of explicit edges."""
    data = reachable(graph, DATA_KINDS, through_barriers=True)
    any_kind = reachable(graph, DATA_KINDS | EXPLICIT_KINDS, through_barriers=True)
    explicit = reachable(graph, EXPLICIT_KINDS, through_barriers=True)
    missing = []
    for (src, dst, kind), ordering in sorted(orderings.items()):
        assert src in graph.nodes and dst in graph.nodes, f"no node for a site of {ordering}"
        if kind == "explicit":
            shown = explicit[src]
        else:
            shown = any_kind[src] if graph.nodes[dst].barrier else data[src]
        if dst not in shown:
            missing.append(ordering)
    return missing


CHECKED_STAGES = ("derive_call_directions", "order_write_after_read", "resolve_dep_edges", "lower_to_emission")
MERGE_SETTINGS = (None, 1, 10**9)  # MERGED_WRITERS: as shipped, merge nodes everywhere, never


def violations(stages, program, value_sets, options=None, surface_stage: bool = True) -> list[str]:
    """One line per ordering a run of ``program`` needs that a checked stage's graph does not show
    (under any of ``MERGE_SETTINGS``); without ``surface_stage``, the stages after the front end's
    alone. The surface stage's truth is the program as written, its kernels' declarations those
    of the program as written too (an outlined block's result is an ``Out`` parameter there,
    ``materialize_result_buffers``)."""
    from nanopass.api import surface_of
    from nanopass.printer import dot
    from nanopass.tools.check import kernel_directions, program_inputs, trace_of, written_program
    from nanopass.tools.interpret_ssa import interpret

    surface = surface_of(program)
    written = written_program(stages[0].tree, options, loop_allocations_placed=False) if surface_stage else None
    declared = kernel_directions(written) if surface_stage else None
    by_name = {stage.name: stage for stage in stages}
    found = []
    for values in value_sets:
        inputs = program_inputs(surface, values)
        runs = [("parse_dsl", stages[0].tree, interpret(written, inputs, copies=True), declared)] if surface_stage else []
        runs += [(name, by_name[name].tree, trace_of(by_name[name], inputs), None) for name in CHECKED_STAGES]
        for name, tree, trace, directions in runs:
            orderings = required_orderings(trace, directions)
            for merged in MERGE_SETTINGS:
                saved = dot.MERGED_WRITERS
                if merged is not None:
                    dot.MERGED_WRITERS = merged
                try:
                    graph = dot.static_graph(tree)
                finally:
                    dot.MERGED_WRITERS = saved
                same_sites(name, graph, trace)
                for missing in missing_orderings(graph, orderings):
                    found.append(f"{name} {values} MERGED_WRITERS={merged}: {missing}")
    return found


def same_sites(stage: str, graph, trace) -> None:
    """Every task of the run names a node of the graph that is its kernel's (or a barrier)."""
    for task in trace.tasks():
        node = graph.nodes.get(task.site)
        assert node is not None, f"{stage}: task {task.id} names no node ({task.site!r})"
        if task.kind == "kernel" and task.kernel is not None:  # (an outlined block's task may name none)
            assert node.label.startswith(f"{task.site}: {task.kernel}"), (stage, node.label, task)
