"""How many dependency insertions a compiled program makes, how many it could do without.

    python -m nanopass.tools.measure_edges FILE.py [--set NAME=VALUE ...] [--pairs] [--json]
    python -m nanopass.tools.measure_edges --table FILE.py ... [--shapes SIZE] [--before]

For one run of a program (values from ``--set``, the others chosen as ``nanopass check`` chooses
them: integers 3, floats 1.5, bools true, dynamic dimensions 32) the program is compiled and
its emitted program is run: the emission interpreter runs the C++ statements (every entry of
every ``set_dependencies`` array, duplicates included), and the reference interpreter runs the
last stage before it (``encoded``, which must agree with it), whose dependency edges still say
who wrote them. The runtime model (``runtime_model``, runtime-api.md section 11) gives the
order the runtime makes by itself. The figures of the run:

- **insertions**: the explicit dependency entries the tasks are submitted with, per kind: ``user``
  (what the program's own dependencies put in a task's or a dummy's array, however the compiler
  lowers them: a ``deps=`` entry, each valid slot of a TaskId array named whole, the entries of
  the user's ``task_dummy`` and of the barriers the compiler builds from the user's entries, a
  phase fence over a TaskId array or the join of a TaskId carried through a ``pl.parallel``
  loop: the stage before the emission marks them ``user``), ``derived`` (an edge the compiler
  derived on a TaskId), ``cell`` (a compiler edge through a cell or a join cell), ``barrier``
  (an entry of the compiler's own dummies: the joins of a loop's runs and the chains' barriers;
  a host fence's entries count as ``derived`` or ``cell``);
- **dummies**: the dummy tasks submitted;
- **redundant**: the entries implied by the other orderings (definition below);
- **minimum**: the fewest direct task-to-task insertions that keep the same order (below);
- **compiler minimum**: the fewest direct insertions a compiler must add to the user's entries,
  submitted as written, for the same order (below). The fewest entries a compiler that keeps the
  user's can reach is the user's insertions plus it (``tools/measure_generated.py``'s last figure);
  **implied by the runtime and the user's**: the compiler's entries ``u -> t`` where ``u`` is in
  ``U(t)`` (below): redundant without any other entry of the compiler's, for a compiler that read
  the user's entries as it reads the runtime's order.

Definitions. The *nodes* are the trace's tasks, dummies, allocs and host element accesses, in
submission order. ``R`` is the runtime's own order: creator retention and TensorMap edges,
the host accesses' waits, and the orchestration thread's order (a host access blocks it, so it
comes before every later node; an alloc completes when it is made, so it comes before every
later node too). ``E`` are the explicit entries, each an edge from the task it names to the
task it is submitted with. ``O = (R | E)+`` restricted to the *real* nodes (kernel tasks and
host accesses; the program's dummies carry no tensors, so they only relay order) is the order
the run has.

An entry ``u -> t`` is *redundant* when ``O`` stays the same without it, for one of these reasons
(``why``): ``duplicate``, an earlier entry of ``t`` names ``u`` too (the ``user`` entries count as
earlier than the compiler's: of a user's entry and a compiler's naming one node, the compiler's is
the duplicate); ``runtime``, ``R`` orders the pair by an edge of its own (or ``u`` is an alloc);
``implied``, ``u`` reaches ``t`` through another predecessor of ``t`` in ``R | E``; ``empty``, ``u``
is a dummy that no real node comes before; ``dead``, ``t`` is a dummy that no real node comes after.
All of them can be removed at once: the graph is acyclic, so an implied entry has a path whose edges
each span a shorter stretch of the submission order (induction on that length), and a path between
real nodes never passes an empty or a dead dummy.

The *minimum* is the number of covering pairs of ``O`` (``u < v`` with no real node between)
that ``R`` does not order: every covering pair must be an edge of any relation whose closure is
``O``, and the covering pairs alone have closure ``O``, so a program that orders its real nodes
by direct entries needs exactly that many and no more. Barriers are not counted in it: a dummy
that joins ``P`` tasks before ``C`` tasks carries ``P * C`` covering pairs with ``P + C``
entries, so a program with phase fences may insert fewer entries than the minimum (finding the
fewest entries with barriers allowed is a covering problem that is NP-hard in general). The
*compiler minimum* counts the covering pairs of ``O`` that ``U = (R | E_user)+`` does not order,
``E_user`` being the ``user`` entries: a covering pair is ordered by a path of ``R | E`` through
non-real nodes only, so each one ``U`` leaves needs an entry of the compiler's of its own (or a
barrier of the compiler's), and those pairs as direct entries with ``R`` and ``E_user`` give
``O``. Without dummies the user's needed entries are covering pairs, so the user's insertions
plus the compiler minimum is the minimum plus the user's redundant entries; with the user's
barriers (``P + C`` entries for ``P * C`` pairs) it is fewer.

Algorithm: one pass over the nodes in submission order with bitsets over event indices (the runtime
model's ``reach``: node -> the nodes ordered before it). A real node ``v``'s covering predecessors
lie on paths that reach ``v`` through non-real nodes only: with ``F(v)`` the real nodes that reach
``v`` that way and ``S(v)`` the union of their ``reach``, the covers are ``F(v) - S(v)``; ``RF(v)``
is ``F(v)`` along ``R`` edges alone (an ``R`` path from a cover cannot pass a real node either), so
the minimum counts ``F(v) - S(v) - RF(v)``, and the compiler minimum those of them not in ``U(v)``,
the nodes ``U`` orders before ``v`` (one more bitset a node: the union over its ``R`` and ``user``
predecessors of theirs and themselves). ``F``, ``S``, ``RF`` of a non-real node are kept for its
successors. A redundant entry ``u -> t`` is a bit of the union of ``t``'s other predecessors'
``reach`` (plus themselves for ``R`` predecessors). Each edge costs a constant number of unions of
bitsets of ``n`` bits: ``O((n + e) * n / w)`` word operations for ``n`` nodes, ``e`` edges and words
of ``w`` bits, and ``O(n^2)`` bits of memory (the model's ``reach``: 32 MB at 16,000 nodes in a
chain; ``U`` as much again). ``--max-tasks`` stops a run that submits more than that many tasks and
allocs before it is measured.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field

from nanopass.errors import InternalError

from .gen_programs import options_of
from .interpret_emission import EmissionInterpreter
from .interpret_ssa import Interpreter
from .runtime_model import model
from .sim_runtime import Inputs
from .trace import Alloc, HostRead, HostWrite, Task, Trace

KINDS = ("user", "derived", "cell", "barrier")
DEFAULT_MAX_TASKS = 60_000


class TooManyTasks(Exception):
    """The run submits more tasks and allocs than the measure was allowed."""


@dataclass
class EdgeMeasure:
    tasks: int = 0  # kernel tasks submitted
    dummies: int = 0
    host: int = 0  # host element accesses
    insertions: int = 0
    redundant: int = 0
    minimum: int = 0
    compiler_minimum: int = 0  # the covering pairs the runtime and the user's entries leave (docstring)
    implied_by_user: int = 0  # the compiler's entries on a node the runtime and the user's entries order before
    by_kind: Counter = field(default_factory=Counter)  # kind -> insertions
    redundant_by_kind: Counter = field(default_factory=Counter)
    # (source site, target site, kind, why) -> redundant entries (why: see ``measure_trace``)
    redundant_sites: Counter = field(default_factory=Counter)
    needed_sites: Counter = field(default_factory=Counter)  # (site, site) -> covering pairs R leaves to E
    verdicts: dict = field(default_factory=dict)  # task id -> per entry, why it is redundant (None: needed)
    kinds: dict = field(default_factory=dict)  # task id -> per entry, its kind (``measure_trace``'s ``kinds``)
    fatal: str | None = None

    def to_json(self) -> dict:
        return {
            "tasks": self.tasks, "dummies": self.dummies, "host": self.host, "insertions": self.insertions,
            "by_kind": {k: self.by_kind[k] for k in KINDS if self.by_kind[k]}, "redundant": self.redundant,
            "redundant_by_kind": {k: self.redundant_by_kind[k] for k in KINDS if self.redundant_by_kind[k]},
            "minimum": self.minimum, "compiler_minimum": self.compiler_minimum,
            "implied_by_user": self.implied_by_user, "fatal": self.fatal,
            "redundant_sites": [list(key) + [n] for key, n in sorted(self.redundant_sites.items())],
            "needed_sites": [list(key) + [n] for key, n in sorted(self.needed_sites.items())],
        }

    def lines(self, pairs: bool = False) -> list[str]:
        kinds = ", ".join(f"{k} {self.by_kind[k]}" for k in KINDS if self.by_kind[k]) or "none"
        out = [
            f"{self.tasks} tasks, {self.dummies} dummies, {self.host} host accesses",
            f"insertions {self.insertions} ({kinds})",
            f"redundant  {self.redundant}"
            + (f" ({', '.join(f'{k} {self.redundant_by_kind[k]}' for k in KINDS if self.redundant_by_kind[k])})"
               if self.redundant else "")
            + (f"; of the compiler's, implied by the runtime and the user's {self.implied_by_user}"
               if self.implied_by_user else ""),
            f"minimum    {self.minimum}" + (f" (beyond the user's entries {self.compiler_minimum})"
                                            if self.by_kind["user"] else ""),
        ]
        if self.fatal:
            out.insert(0, f"fatal: the runtime stops the program: {self.fatal} (measured up to there)")
        if pairs:
            out += [f"  redundant {n}x {src} -> {dst} ({kind}, {why})"
                    for (src, dst, kind, why), n in sorted(self.redundant_sites.items())]
            out += [f"  needed {n}x {src} -> {dst}" for (src, dst), n in sorted(self.needed_sites.items())]
        return out


def _real(event) -> bool:
    return (isinstance(event, Task) and event.kind == "kernel") or isinstance(event, (HostRead, HostWrite))


def _label(event) -> str:
    if isinstance(event, Task):
        return event.site or event.kernel or f"task{event.id}"
    if isinstance(event, (HostRead, HostWrite)):
        what = "get" if isinstance(event, HostRead) else "set"
        return f"{what}@{event.line}" if event.line else what
    return "alloc"


def default_kinds(trace: Trace) -> dict[int, list[str]]:
    """Entry kinds as a trace alone tells them: a dummy's entries are ``barrier``, a task's
    ``derived`` when listed in ``Task.derived`` (reference traces), else ``user`` (a trace does
    not tell who wrote a dummy: ``measure_stages`` reads that from the IR)."""
    return {
        e.id: ["barrier" if e.kind == "dummy" else "derived" if d in e.derived else "user" for d in e.deps]
        for e in trace.events if isinstance(e, Task)
    }


def measure_trace(trace: Trace, kinds: dict[int, list[str]] | None = None) -> EdgeMeasure:
    """The figures of one trace; ``kinds`` gives each task's entries' kinds (task id -> one kind
    per entry of ``Task.deps``; default ``default_kinds``)."""
    kinds = kinds if kinds is not None else default_kinds(trace)
    runtime = model(trace)
    reach = runtime.reach
    own: dict[int, list[int]] = {}  # node -> its predecessors by R's own edges
    for edge in runtime.edges + runtime.shadowed:
        if edge.reason != "explicit":
            own.setdefault(edge.dst, []).append(edge.src)
    out = EdgeMeasure(kinds=kinds)
    fatal = trace.fatal()
    out.fatal = fatal.message if fatal is not None else None
    by_id: dict[int, int] = {}
    allocs: set[int] = set()
    relay: dict[int, tuple[int, int, int]] = {}  # non-real node -> (F, S, RF)
    pending: dict[int, list[tuple[int, int, str]]] = {}  # dummy -> its entries not yet found redundant
    host = None  # the latest host access: every later node comes after it
    users: dict[int, int] = {}  # node -> U(node): the nodes R and the user's entries order before it
    events = trace.events
    for index in runtime.nodes:
        event = events[index]
        rpreds = own.get(index, [])
        if host is not None:
            rpreds = rpreds + [host]
        epreds = [by_id[d] for d in event.deps] if isinstance(event, Task) else []
        entry_kinds = kinds.get(event.id) if isinstance(event, Task) else None
        by_user = 0
        for k, pred in [(None, p) for p in rpreds] + list(enumerate(epreds)):
            if k is None or _kind_at(entry_kinds, k) == "user":
                by_user |= users[pred] | (1 << pred)
        users[index] = by_user
        if isinstance(event, Task):
            out.tasks += event.kind == "kernel"
            out.dummies += event.kind == "dummy"
            out.implied_by_user += sum(by_user >> pred & 1 for k, pred in enumerate(epreds)
                                       if _kind_at(entry_kinds, k) != "user")
            kept = _entries(out, event, epreds, rpreds, reach, allocs, relay, entry_kinds, events)
            if event.kind == "dummy":
                pending[index] = kept
        out.host += isinstance(event, (HostRead, HostWrite))
        covers_from = reached = runtime_from = 0
        for pred, by_runtime in [(p, True) for p in rpreds] + [(p, False) for p in epreds]:
            if pred in relay:
                f, s, rf = relay[pred]
                covers_from |= f
                reached |= s
                runtime_from |= rf if by_runtime else 0
            else:
                covers_from |= 1 << pred
                reached |= reach[pred]
                runtime_from |= (1 << pred) if by_runtime else 0
        if _real(event):
            needed = covers_from & ~reached & ~runtime_from
            out.minimum += needed.bit_count()
            out.compiler_minimum += (needed & ~by_user).bit_count()
            while needed:
                low = needed & -needed
                out.needed_sites[(_label(events[low.bit_length() - 1]), _label(event))] += 1
                needed ^= low
        else:
            relay[index] = (covers_from, reached, runtime_from)
        if isinstance(event, (Task, Alloc)):
            by_id[event.id] = index
        allocs.update([index] if isinstance(event, Alloc) else [])
        host = index if isinstance(event, (HostRead, HostWrite)) else host
    _dead_entries(out, runtime, pending, events)
    return out


def _entries(out, task, epreds, rpreds, reach, allocs, relay, kinds, events) -> list[tuple[int, str]]:
    """Count ``task``'s entries and the redundant ones; the others, as (position, predecessor, kind)."""
    implied = 0
    for pred in rpreds:
        implied |= reach[pred] | (1 << pred)
    for pred in set(epreds):
        implied |= reach[pred]
    own = set(rpreds)
    seen: set[int] = set()
    kept = []
    verdicts = out.verdicts[task.id] = [None] * len(epreds)
    # (the user's entries first: of two entries naming one node, the compiler's is the duplicate)
    for k, pred in sorted(enumerate(epreds), key=lambda entry: _kind_at(kinds, entry[0]) != "user"):
        kind = _kind_at(kinds, k)
        out.insertions += 1
        out.by_kind[kind] += 1
        if pred in seen:
            why = "duplicate"
        elif pred in own or pred in allocs:
            why = "runtime"
        elif implied >> pred & 1:
            why = "implied"
        elif pred in relay and not relay[pred][0]:
            why = "empty"  # a dummy that no kernel task or host access comes before
        else:
            why = None
            kept.append((k, pred, kind))
        verdicts[k] = why
        seen.add(pred)
        if why is not None:
            _redundant(out, events[pred], task, kind, why)
    return kept


def _kind_at(kinds: list[str] | None, k: int) -> str:
    """The kind of entry ``k`` (``user`` where ``kinds`` does not say)."""
    return kinds[k] if kinds is not None and k < len(kinds) else "user"


def _redundant(out, source, target, kind: str, why: str) -> None:
    out.redundant += 1
    out.redundant_by_kind[kind] += 1
    out.redundant_sites[(_label(source), _label(target), kind, why)] += 1


def _dead_entries(out, runtime, pending, events) -> None:
    """The entries of dummies that no kernel task or host access comes after are redundant too."""
    successors: dict[int, list[int]] = {}
    for edge in runtime.edges:
        if edge.src in pending:
            successors.setdefault(edge.src, []).append(edge.dst)
    live: set[int] = set()
    for dummy in sorted(pending, reverse=True):
        if any(after in live or _real(events[after]) for after in successors.get(dummy, ())):
            live.add(dummy)
        else:
            for k, pred, kind in pending[dummy]:
                out.verdicts[events[dummy].id][k] = "dead"
                _redundant(out, events[pred], events[dummy], kind, "dead")


# -- a compiled program's run ----------------------------------------------------------------------------


def _limit(runtime, max_tasks: int | None, on_submit=None) -> None:
    """Make ``runtime`` (a SimRuntime) raise ``TooManyTasks`` past ``max_tasks`` submits and allocs;
    ``on_submit(task_id)`` is called after each submit that made a task."""
    submit, alloc = runtime.submit, runtime.alloc
    count = [0]

    def tick() -> None:
        count[0] += 1
        if max_tasks is not None and count[0] > max_tasks:
            raise TooManyTasks(f"the run submits more than {max_tasks} tasks and allocs")

    def submitted(*args, **kwargs):
        tick()
        task_id, outputs = submit(*args, **kwargs)
        if task_id is not None and on_submit is not None:
            on_submit(task_id)
        return task_id, outputs

    def allocated(*args, **kwargs):
        tick()
        return alloc(*args, **kwargs)

    runtime.submit, runtime.alloc = submitted, allocated


class _KindInterpreter(Interpreter):
    """The reference interpreter, noting the kind of each task id a submit's dependencies name."""

    def __init__(self, program, inputs: Inputs, max_tasks: int | None):
        super().__init__(program, inputs)
        self.kinds: dict[int, list[tuple[int, str]]] = {}  # task id -> [(dependency id, kind)]
        self.pending: list[tuple[int, str]] = []
        self.barrier = False
        _limit(self.rt, max_tasks, lambda task_id: self.kinds.__setitem__(task_id, self.pending))

    def exec_Dummy(self, dummy) -> None:
        self.barrier = True
        try:
            super().exec_Dummy(dummy)
        finally:
            self.barrier = False

    def dep_ids(self, deps):
        self.pending = []
        for dep in deps:
            ids, _ = super().dep_ids([dep])
            kind = _kind(dep)
            kind = "barrier" if self.barrier and kind != "user" else kind
            self.pending += [(tid, kind) for tid in sorted(ids)]
        return super().dep_ids(deps)


def _kind(dep) -> str:
    production = dep._production
    if production == "DepEdge":
        return "user" if dep.user else "cell" if dep.source.name == "cell" else "derived"
    return {"DepVar": "user", "DepItem": "user", "DerivedDep": "derived", "CellDep": "cell"}[production]


def _ordinals(trace: Trace) -> dict[int, tuple]:
    """Task id -> what names it across traces of one program: the n-th task, or any alloc."""
    out, n = {}, 0
    for event in trace.events:
        if isinstance(event, Task):
            out[event.id] = ("task", n)
            n += 1
        elif isinstance(event, Alloc):
            out[event.id] = ("alloc",)
    return out


def entry_kinds(reference: Trace, noted: dict[int, list[tuple[int, str]]], emission: Trace) -> dict[int, list[str]]:
    """The kind of every entry of the emission trace's tasks, from the reference's notes."""
    ref_tasks = [e for e in reference.events if isinstance(e, Task)]
    em_tasks = [e for e in emission.events if isinstance(e, Task)]
    if len(ref_tasks) != len(em_tasks):
        raise InternalError(f"the emission program submits {len(em_tasks)} tasks, the encoded stage {len(ref_tasks)}")
    ref_names, em_names = _ordinals(reference), _ordinals(emission)
    out = {}
    for n, (ref, em) in enumerate(zip(ref_tasks, em_tasks)):
        named = [(ref_names[tid], kind) for tid, kind in noted.get(ref.id, [])]
        kinds = []
        for dep in em.deps:
            name = em_names.get(dep)
            found = next((i for i, (other, _) in enumerate(named) if other == name), None)
            if found is not None:
                kinds.append(named.pop(found)[1])
            else:
                again = next((kind for other, kind in ((ref_names[t], k) for t, k in noted.get(ref.id, [])) if other == name), None)
                if again is None:
                    raise InternalError(f"task {n} of the emission program depends on {name}, which the encoded stage's does not")
                kinds.append(again)  # a second entry for one id (the runtime drops duplicates)
        out[em.id] = kinds
    return out


def measure_stages(stages, inputs: Inputs, max_tasks: int | None = DEFAULT_MAX_TASKS) -> EdgeMeasure:
    """The figures of a compile's emitted program run on ``inputs``."""
    from nanopass.languages import EMISSION

    emitted = stages[-1]
    if emitted.language is not EMISSION or emitted.tree is None:
        raise InternalError("the last stage is no emission program")
    encoded = next(s for s in reversed(stages[:-1]) if s.tree is not None)
    recorder = _KindInterpreter(encoded.tree, inputs, max_tasks)
    reference = recorder.run()
    runner = EmissionInterpreter(emitted.tree, inputs)
    _limit(runner.rt, max_tasks)
    emission = runner.run()
    return measure_trace(emission, entry_kinds(reference, recorder.kinds, emission))


def run_values(surface, values: dict[str, str]) -> dict[str, str]:
    """``values`` completed as ``nanopass check`` completes a run's values."""
    from .check import check_values, sample_values

    check_values(surface, values)
    return {**sample_values(surface), **values}


def measure_file(path: str, values: dict[str, str] | None = None, max_tasks: int | None = DEFAULT_MAX_TASKS,
                 options: dict | None = None) -> tuple[EdgeMeasure, dict[str, str]]:
    """Compile the program in ``path`` (with its ``# options:`` line) and measure one run: the
    figures and the values of the run."""
    from nanopass.api import needed_by_result, run_pipeline, surface_of
    from nanopass.loader import load_programs
    from nanopass.pipeline import PipelineError

    from .check import program_inputs

    with open(path) as handle:
        options = {**options_of(handle.read()), **(options or {})}
    surface = surface_of(load_programs(path)[0])
    chosen = run_values(surface, dict(values or {}))
    try:
        stages = run_pipeline(surface, options=options, keep_tree=needed_by_result)
    except PipelineError as failure:
        raise failure.error from None
    return measure_stages(stages, program_inputs(surface, chosen), max_tasks), chosen


# -- the command ---------------------------------------------------------------------------------------


def table_row(name: str, figures: EdgeMeasure | None, values: dict[str, str], why: str = "",
              before: EdgeMeasure | None = None) -> str:
    shown = " ".join(f"{k}={v}" for k, v in sorted(values.items())) or "-"
    if figures is None:
        return f"| {name} | {shown} | {why} | | | | |" + (" |" if before is not None else "")
    row = (f"| {name} | {shown} | {figures.tasks} | {figures.insertions} | {figures.redundant} | "
           f"{figures.minimum} | {figures.dummies} |")
    if before is not None:
        row += f" {before.insertions} / {before.redundant} / {before.minimum} / {before.dummies} |"
    return row


TABLE_HEAD = ("| program | values | tasks | insertions | redundant | minimum | dummies |\n"
              "|---|---|---:|---:|---:|---:|---:|")
BEFORE_HEAD = ("| program | values | tasks | insertions | redundant | minimum | dummies | without the lean passes |\n"
               "|---|---|---:|---:|---:|---:|---:|---:|")
LEAN_OFF = {"lean_edges": False}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", metavar="FILE.py")
    parser.add_argument("--set", dest="values", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--pairs", action="store_true", help="list the redundant entries and the needed pairs by site")
    parser.add_argument("--json", action="store_true", help="one JSON object per file on stdout")
    parser.add_argument("--table", action="store_true", help="a markdown table row per program (README)")
    parser.add_argument("--shapes", type=int, metavar="SIZE",
                        help="with --table: also the benchmark's shapes at SIZE (tools/bench.py), run with n=1")
    parser.add_argument("--max-tasks", type=int, default=DEFAULT_MAX_TASKS)
    parser.add_argument("--before", action="store_true", help="with --table: also the figures of the compile "
                        "without the passes that drop and merge insertions (option lean_edges=False), as "
                        "insertions / redundant / minimum / dummies")
    parser.add_argument("--no-lean-edges", action="store_true", help="compile with the option lean_edges=False")
    args = parser.parse_args(argv)
    values = dict(v.split("=", 1) for v in args.values)
    options = LEAN_OFF if args.no_lean_edges else None
    if args.table:
        print(BEFORE_HEAD if args.before else TABLE_HEAD)
    for path in args.files:
        figures, chosen = measure_file(path, values, args.max_tasks, options)
        if args.table:
            before = measure_file(path, values, args.max_tasks, LEAN_OFF)[0] if args.before else None
            print(table_row(path, figures, chosen, before=before), flush=True)
        elif args.json:
            print(json.dumps({"file": path, "values": chosen, **figures.to_json()}))
        else:
            shown = " ".join(f"{k}={v}" for k, v in sorted(chosen.items()))
            print(f"{path}{f' ({shown})' if shown else ''}:")
            print("\n".join("  " + line for line in figures.lines(args.pairs)))
    if args.table and args.shapes:
        befores = dict((shape, f) for shape, f, _ in shape_measures(args.shapes, args.max_tasks, options=LEAN_OFF)) \
            if args.before else {}
        for shape, figures, why in shape_measures(args.shapes, args.max_tasks, options=options):
            print(table_row(f"bench {shape} N={args.shapes}", figures, {"n": BENCH_N}, why, befores.get(shape)), flush=True)
    return 0


BENCH_N = "1"  # the benchmark shapes' scalar: its loops over n run once


def shape_measures(size: int, max_tasks: int | None = DEFAULT_MAX_TASKS, shapes=None, options=None):
    """(shape, figures or None, why not) for each benchmark shape at ``size``, run with n=1."""
    import os
    import tempfile

    from . import bench

    for shape in shapes or bench.ALL_SHAPES:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, f"bench_{shape}_{size}.py")
            with open(path, "w") as handle:
                handle.write(bench.source_of(shape, size))
            try:
                figures, _ = measure_file(path, {"n": BENCH_N}, max_tasks, options)
            except TooManyTasks as error:
                yield shape, None, str(error)
                continue
            yield shape, figures, ""


if __name__ == "__main__":
    sys.exit(main())
