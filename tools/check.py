"""``nanopass check``: compile a program, run it three ways, and check its dependencies.

``check_program`` compiles a program, interprets it at the SSA level and at the emission level,
and, on request, compiles the printed C++ with g++ and runs it on the recording runtime. The
reference is the last ``directed`` stage: every pass that decides dependencies (write-after-read
ordering, derived dependencies, phase fences) has run, and only lowering follows. The traces
must agree (an internal error otherwise). The first ``directed`` stage (the program as written)
must be *refined* by the reference (``refines``): the same tasks and host accesses, with at least
its ordering.
The hazard checker then runs on the emission trace (whose scopes are the runtime scopes the C++
opens) with the reference's ``pl.parallel`` annotations, and the runtime model's lifetime
warnings are collected. Values (``values``): every read of the emitted program must observe the
write it observes in the program as written (``written_program``: the front end's program with
call directions, each ``pl.assemble`` still the copy it means); a difference is a miscompile
that no ordering check can see. ``stage_report`` does the same for every stage of the pipeline that an
interpreter can run, for ``--dump-all``.

Inputs: each scalar parameter and each ``pl.dynamic`` dimension needs a value (``--set
NAME=VALUE``); entry tensors are zero-filled, with their declared shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nanopass.errors import InternalError, UsageError, UserError
from nanopass.languages.terms import DType

from .cvalues import convert, ctype_of, to_u64
from .hazards import Hazard, failing, find_hazards, summary, with_parallel
from .interpret_emission import interpret_emission
from .interpret_ssa import interpret, launch_table
from .runtime_model import Model, model
from .sim_runtime import EntryTensor, Inputs
from .trace import HostWrite, Task, Trace, compare
from .values import Mismatch, compare_values


class TraceMismatch(InternalError):
    """Two traces of one program disagree: a pass (or the printer) changed what the program does."""


@dataclass
class CheckResult:
    inputs: Inputs
    reference: Trace
    emission: Trace
    compiled: Trace | None
    runtime: Model
    hazards: list[Hazard] = field(default_factory=list)
    written: Trace | None = None  # the program as written (``written_program``), when it was run
    mismatches: list[Mismatch] = field(default_factory=list)  # reads whose values the compile changed

    @property
    def failing(self) -> list[Hazard]:
        return failing(self.hazards)

    @property
    def fatal(self) -> str | None:
        """The runtime error that ends the run early, if any (the rest of the program never runs)."""
        event = self.emission.fatal()
        return event.message if event is not None else None

    def lines(self) -> list[str]:
        trace = with_parallel(self.reference, self.emission)
        fatal = [f"fatal: the runtime stops the program: {self.fatal}"] if self.fatal else []
        values = [f"value mismatch: {m}" for m in self.mismatches]
        return fatal + values + summary(trace, self.hazards, self.runtime)


def parse_value(text: str, dtype: DType, name: str) -> Any:
    """A ``--set`` value for a parameter of ``dtype``."""
    try:
        if dtype is DType.BOOL:
            lowered = text.lower()
            if lowered not in ("true", "false", "1", "0"):
                raise ValueError(text)
            return lowered in ("true", "1")
        if dtype.is_float:
            return float(text)
        return int(text, 0)
    except ValueError:
        raise UsageError(f"--set {name}={text}: not a {dtype.name} value") from None


def value_types(surface_program) -> dict[str, DType]:
    """Each scalar parameter's and dynamic dimension's name -> its type (dimensions: INT64)."""
    func = surface_program.orch
    types = {p.name: p.type.dtype for p in func.params if p.type._production == "ScalarType"}
    types.update((d.name, DType.INT64) for d in func.dyn_dims)
    return types


def check_values(surface_program, values: dict[str, str]) -> None:
    """Refuse (``UsageError``) a value for a name that is no scalar parameter or dynamic dimension,
    or that does not parse as its type; values may be missing."""
    from nanopass.suggest import did_you_mean

    types = value_types(surface_program)
    for name in sorted(values):
        if name not in types:
            known = ", ".join(sorted(types)) or "none"
            hint = did_you_mean(name, types)
            raise UsageError(f"--set {name}: not a scalar parameter or dynamic dimension (these are: {known})",
                             hint=hint)
        parse_value(values[name], types[name], name)


def program_inputs(surface_program, values: dict[str, str]) -> Inputs:
    """The entry arguments of a program for ``values`` (NAME -> text), as ``--set`` gives them."""
    func = surface_program.orch
    check_values(surface_program, values)
    missing = missing_values(surface_program, values)
    if missing:
        raise UserError(
            f"'{func.name}' needs a value for {', '.join(repr(m) for m in missing)}",
            hint="give each with --set NAME=VALUE",
        )
    tensors, slots = [], []
    for param in func.params:
        ty = param.type
        if ty._production == "TensorType":
            shape = []
            for dim in ty.shape:
                if dim._production == "Int":
                    shape.append(dim.value)
                else:
                    shape.append(parse_value(values[dim.name], DType.INT64, dim.name))
            if any(d <= 0 for d in shape):
                raise UsageError(f"parameter '{param.name}' would have shape {shape}; dimensions must be positive")
            tensors.append(EntryTensor(tuple(shape), ty.dtype.runtime, param.name))
        else:
            ctype = ctype_of(ty.dtype)
            value = convert(parse_value(values[param.name], ty.dtype, param.name), ctype)
            slots.append(to_u64(value, ctype))
    return Inputs(tuple(tensors), tuple(slots))


def missing_values(surface_program, values: dict[str, str]) -> list[str]:
    """The scalar parameters and dynamic dimensions ``values`` gives no value for."""
    func = surface_program.orch
    names = [p.name for p in func.params if p.type._production == "ScalarType"] + sorted(d.name for d in func.dyn_dims)
    return [name for name in names if name not in values]


def sample_values(surface_program, integer: int = 3) -> dict[str, str]:
    """Values for every scalar parameter and dynamic dimension, for programs run without --set:
    integers ``integer``, floats 1.5, bools true, dynamic dimensions 32."""
    func = surface_program.orch
    values = {d.name: "32" for d in func.dyn_dims}
    for param in func.params:
        if param.type._production == "ScalarType":
            dtype = param.type.dtype
            values[param.name] = "true" if dtype is DType.BOOL else "1.5" if dtype.is_float else str(integer)
    return values


def directed_stages(stages) -> list:
    from nanopass.languages import DIRECTED

    found = [stage for stage in stages if stage.language is DIRECTED]
    if not found:
        raise InternalError("the pipeline has no stage in the directed language")
    return found


def reference_stage(stages):
    """The last stage in the ``directed`` language (the reference interpreter's input): the
    dependencies are decided, nothing is lowered yet."""
    return directed_stages(stages)[-1]


def source_stage(stages):
    """The first stage in the ``directed`` language: the program's own dependencies only."""
    return directed_stages(stages)[0]


def refines(before: Trace, after: Trace, names: tuple[str, str] = ("before", "after"), launches=None) -> str | None:
    """None when ``after`` does what ``before`` does with at least its ordering, else why not.

    The kernel tasks and host element writes must agree apart from what only orders them (dummy
    barriers, explicit dependencies, scope modes; host element reads, which a pass may remove
    when their value is dead); every explicit dependency of ``before`` (through its barriers)
    must be ordered by the runtime in ``after``; and ``after`` may leave unordered no
    conflicting pair of those nodes that ``before`` orders. That is what a pass that adds
    dependencies, fences or compiler scopes, or removes dead values, may do. (The hazards of
    the reference trace, host reads included, are checked on their own.)"""
    difference = compare(before, after, names, launches, ordering=False)
    if difference:
        return difference
    nodes_a, nodes_b = _nodes(before), _nodes(after)
    position = {index: k for k, index in enumerate(nodes_a)}
    ma, mb = model(before), model(after)
    nearest = _nearest_explicit(before, position)
    for k, index in enumerate(nodes_a):
        for earlier in sorted(nearest.get(index, ())):
            if earlier in position and not mb.ordered(nodes_b[position[earlier]], nodes_b[k]):
                return (
                    f"{names[1]} does not order node {position[earlier]} before node {k}, which {names[0]} "
                    f"orders by an explicit dependency"
                )
    found = _hazard_pairs(after, mb, nodes_b)
    # only the pairs ``after`` leaves unordered matter: ``before``'s other pairs (a program as
    # written may leave nearly every pair unordered, which the compiler then orders) are not made
    among: dict[int, int] = {}
    for first, second, _ in found:
        among[nodes_a[second]] = among.get(nodes_a[second], 0) | 1 << nodes_a[first]
    new = found - _hazard_pairs(before, ma, nodes_a, among)
    if new:
        return f"{names[1]} leaves conflicting pairs unordered that {names[0]} orders: {sorted(new)}"
    return None


def _nodes(trace: Trace) -> list[int]:
    """Event indices of the kernel tasks and host element writes."""
    return [i for i, e in enumerate(trace.events) if (isinstance(e, Task) and e.kind == "kernel") or isinstance(e, HostWrite)]


def _nearest_explicit(trace: Trace, nodes: dict[int, int]) -> dict[int, set[int]]:
    """Event index of a task -> the nodes (event indices in ``nodes``) it waits for through explicit
    dependencies, directly or through tasks that are no nodes (dummy barriers) only. A node's
    transitive explicit predecessors are ordered before it wherever each of these nearest pairs
    is (an ordering is transitive), and the sets stay as large as the dependencies: a chain of
    n tasks costs O(n), where its transitive closure holds O(n^2) pairs."""
    by_id: dict[int, int] = {}
    out: dict[int, set[int]] = {}
    for index, event in enumerate(trace.events):
        if not isinstance(event, Task):
            continue
        near: set[int] = set()
        for dep in event.deps:
            if dep in by_id:
                pred = by_id[dep]
                if pred in nodes:
                    near.add(pred)
                else:
                    near |= out[pred]
        by_id[event.id] = index
        out[index] = near
    return out


def _hazard_pairs(trace: Trace, runtime: Model, nodes: list[int], among: dict[int, int] | None = None) -> set[tuple[int, int, str]]:
    """(position of the first node, of the second, kind) of every failing hazard between nodes
    (``_nodes``), or of those ``among`` names (``find_hazards``)."""
    position = {index: k for k, index in enumerate(nodes)}
    return {
        (position[h.first], position[h.second], h.kind)
        for h in failing(find_hazards(trace, runtime, among=among))
        if h.first in position and h.second in position
    }


def written_program(surface_program, options: dict | None = None, loop_allocations_placed: bool = True):
    """The program as written, in the ``directed`` language: the pipeline's passes up to its first
    ``directed`` stage, without the ones that place a tensor in another's buffer: an assemble's
    source inside its target (so each ``pl.assemble`` is still the copy it means;
    ``interpret(..., copies=True)`` runs it) and a returned output parameter's create in the
    parameter (the create is still a new buffer). Without ``loop_allocations_placed``, also
    without ``place_loop_allocations_before_scopes``: an allocation in a loop in a ``with`` block
    is then a new buffer on every run, as written, where placed before the block the runs share
    one (or rotate a few); the interpreters free no buffer at a scope's end, so such a run is
    still whole."""
    from nanopass.languages import DIRECTED
    from nanopass.passes.pipeline import PASSES
    from nanopass.pipeline import Pipeline, PipelineError
    from nanopass.rewrite import PassContext

    end = next(i for i, p in enumerate(PASSES) if p.target is DIRECTED)
    placing = ("fuse_create_assemble_to_slice", "place_returned_creates_in_output_params")
    if not loop_allocations_placed:
        placing += ("place_loop_allocations_before_scopes",)
    passes = [p for p in PASSES[: end + 1] if p.name not in placing]
    try:
        return Pipeline(passes).run(surface_program, PassContext(options=dict(options or {})))[-1].tree
    except PipelineError as failure:
        raise failure.error from None


def kernel_directions(program) -> dict[str, tuple[str, ...]]:
    """Kernel name -> the declared direction (``In``, ``Out``, ``InOut``) of each of its tensor
    parameters, in order: what a task's tensor slots read and write (``compare_values``)."""
    return {
        kernel.name: tuple(p.dir.value for p in kernel.params if p.type._production == "TensorType")
        for kernel in program.kernels
    }


def output_params(program) -> dict[int, str]:
    """Entry tensor slot -> name of each ``Out`` / ``InOut`` tensor parameter of the program's
    function: what the caller holds at the end (``compare_values``' final reads)."""
    tensors = [p for p in program.orch.params if p.type._production == "TensorType"]
    return {slot: p.name for slot, p in enumerate(tensors) if p.dir.name != "In"}


def trace_of(stage, inputs: Inputs) -> Trace:
    """The trace of one stage; an interpreter's internal error names the stage's pass."""
    from nanopass.languages import EMISSION

    try:
        if stage.language is EMISSION:
            return interpret_emission(stage.tree, inputs)
        return interpret(stage.tree, inputs)
    except InternalError as error:
        if error.pass_name is None:
            error.pass_name = stage.name
        raise


class InterpretedStages:
    """The interpreter's runs of the stages of one pipeline run on one set of inputs, each made
    once and shared by whoever asks: ``stage_report`` (``hazards.txt``) and
    ``tools.instances.StageRuns`` (the report's instance graphs and hazards) of one
    ``--dump-all``, and ``check_stages`` of the same inputs.

    ``trace(stage)`` is ``trace_of(stage, self.inputs)``, raising what it raised: a stage whose
    tree (the same object) an earlier stage ran with the same interpreter shares that trace, and
    a trace equal to the one made before it is that one (most passes change the program's text,
    not what it asks of the runtime), so that equal traces are held once; a failure is kept per
    stage (its error names the stage's pass). ``checked(trace)`` is the runtime model and hazards
    of ``trace``, made once per trace object."""

    def __init__(self, inputs: Inputs):
        self.inputs = inputs
        self._traces: dict[tuple[int, bool], tuple[Any, Trace]] = {}  # (id(tree), emission?) -> (tree, trace)
        self._failures: dict[int, Exception] = {}  # stage index -> the error its run raised
        self._checked: dict[int, tuple[Trace, Model, list[Hazard]]] = {}  # id(trace) -> (trace, model, hazards)
        self._last: Trace | None = None  # the trace made last

    def trace(self, stage) -> Trace:
        from nanopass.languages import EMISSION

        if stage.index in self._failures:
            raise self._failures[stage.index]
        key = (id(stage.tree), stage.language is EMISSION)
        made = self._traces.get(key)
        if made is not None and made[0] is stage.tree:
            return made[1]
        try:
            trace = trace_of(stage, self.inputs)
        except (InternalError, UserError) as error:
            self._failures[stage.index] = error
            raise
        if trace == self._last:
            trace = self._last
        self._last = trace
        self._traces[key] = (stage.tree, trace)  # the tree held: its id is not reused
        return trace

    def known(self, stages) -> dict[int, Trace]:
        """Stage index -> trace, of the ``stages`` already run (``check_stages``' ``known``)."""
        from nanopass.languages import EMISSION

        out = {}
        for stage in stages:
            made = self._traces.get((id(stage.tree), stage.language is EMISSION))
            if made is not None and made[0] is stage.tree:
                out[stage.index] = made[1]
        return out

    def checked(self, trace: Trace) -> tuple[Model, list[Hazard]]:
        made = self._checked.get(id(trace))
        if made is None or made[0] is not trace:
            runtime = model(trace)
            made = (trace, runtime, find_hazards(trace, runtime))
            self._checked[id(trace)] = made  # the trace held: its id is not reused
        return made[1], made[2]


def check_stages(
    stages, inputs: Inputs, *, gxx: bool = False, known: dict[int, Trace] | None = None, options: dict | None = None,
    written=None,
) -> CheckResult:
    """Check a compiled program's stages on ``inputs``; ``known`` holds traces already made (by
    stage index), which are not made again. The values of the emitted program are compared with
    the program as written: ``written`` (``written_program``'s tree), or made from ``stages[0]``,
    the front end's output, with ``options``. The cyclic collector is paused throughout (traces,
    models and values are acyclic, freed by reference counting: ``nanopass/collector.py``); it
    would walk every event made so far, again and again as they age: a fifth of a large check)."""
    from nanopass.collector import collector_paused

    with collector_paused():
        return _check_stages(stages, inputs, gxx, known or {}, options, written)


def _check_stages(stages, inputs: Inputs, gxx: bool, known: dict[int, Trace], options: dict | None, written) -> CheckResult:
    from nanopass.api import result_from_stages


    def traced(stage) -> Trace:
        return known[stage.index] if stage.index in known else trace_of(stage, inputs)

    program = next(s.tree for s in reversed(stages) if hasattr(s.tree, "kernels"))
    launches = launch_table(program)
    reference = traced(reference_stage(stages))
    if source_stage(stages) is not reference_stage(stages):
        difference = refines(traced(source_stage(stages)), reference, ("the program", "reference"), launches)
        if difference:
            raise TraceMismatch(f"the reference trace does not refine the program's own trace: {difference}")
    emission = traced(stages[-1])
    difference = compare(reference, emission, ("reference", "emission"), launches)
    if difference:
        raise TraceMismatch(f"the emission program's trace differs from the reference trace: {difference}")
    compiled = None
    if gxx:
        from .recorder import record

        compiled = record(result_from_stages(stages).code, inputs)
        difference = compare(emission, compiled, ("emission", "compiled C++"), launches, scopes=True)
        if difference:
            raise TraceMismatch(f"the compiled C++'s trace differs from the emission trace: {difference}")
    checked = with_parallel(reference, emission)
    runtime = model(checked)
    as_written, mismatches = None, []
    if written is None and stages[0].tree is not None:
        written = written_program(stages[0].tree, options)
    if written is not None:
        as_written, mismatches = against_written(emission, written, inputs)
    return CheckResult(
        inputs, reference, emission, compiled, runtime, find_hazards(checked, runtime), as_written, mismatches
    )


def against_written(emission: Trace, written, inputs: Inputs) -> tuple[Trace | None, list[Mismatch]]:
    """(the trace of the program as written, the reads whose values the compile changed): the
    values part of ``check_stages``, for an emission trace that did not go fatal (else
    ``(None, [])``); ``written``: ``written_program``'s tree."""
    if emission.fatal() is not None:
        return None, []
    as_written = interpret(written, inputs, copies=True)
    if as_written.fatal() is not None:
        return as_written, []
    try:
        return as_written, compare_values(as_written, emission, kernel_directions(written), output_params(written))
    except ValueError as error:
        raise TraceMismatch(f"the emitted program against the program as written: {error}") from None


def value_mismatches(stages, runs: list[Inputs], options: dict | None = None) -> list[list[Mismatch]]:
    """The value comparison of ``check_stages`` alone (no reference trace, refinement, hazards or
    runtime model), for each of ``runs``: the emitted program interpreted against the program as
    written (made once). What the adversarial tester runs on every program it compiles."""
    written = written_program(stages[0].tree, options)
    return [against_written(trace_of(stages[-1], inputs), written, inputs)[1] for inputs in runs]


def check_program(
    program, values: dict[str, str], *, func_name: str | None = None, gxx: bool = False, options: dict | None = None
) -> CheckResult:
    """Compile ``program`` with ``options`` (as ``run_pipeline`` takes them) and check it on ``values``."""
    from nanopass.api import run_pipeline, surface_of
    from nanopass.pipeline import PipelineError

    inputs = program_inputs(surface_of(program, func_name), values)
    try:
        stages = run_pipeline(program, func_name, options=options)
    except PipelineError as failure:
        raise failure.error from None
    return check_stages(stages, inputs, gxx=gxx, options=options)


@dataclass
class StageTrace:
    stage: Any
    trace: Trace | None
    error: Exception | None = None
    difference: str | None = None  # how the trace differs from what it must match (None: it agrees)
    refined: bool = False  # compared with the previous stage by ``refines`` (a dependency pass)


def stage_traces(stages, inputs: Inputs, interpreted: InterpretedStages | None = None) -> list[StageTrace]:
    """The trace of every stage from the first ``directed`` one on: up to the reference stage each
    must refine the stage before it (passes that add dependencies), from there on each must agree
    with the reference exactly. A stage whose pass returned the tree it was given shares the
    previous stage's trace (and its agreement: refining itself, or the reference's verdict).
    The traces are ``interpreted``'s (made on ``inputs`` when None)."""
    interpreted = interpreted if interpreted is not None else InterpretedStages(inputs)
    program = next(s.tree for s in reversed(stages) if hasattr(s.tree, "kernels"))
    launches = launch_table(program)
    start = stages.index(source_stage(stages))
    ref_index = stages.index(reference_stage(stages))
    reference = previous = None
    out = []
    for position, stage in enumerate(stages[start:], start):
        if out and out[-1].trace is not None and _same_program(out[-1].stage, stage):
            last = out[-1]
            refined = position <= ref_index
            out.append(StageTrace(stage, last.trace, None, None if refined else last.difference, refined=refined))
            if position == ref_index:
                reference = last.trace
            continue
        try:
            trace = interpreted.trace(stage)
        except (InternalError, UserError) as error:
            out.append(StageTrace(stage, None, error))
            continue
        if position <= ref_index:
            difference = None if previous is None else refines(previous, trace, ("the previous stage", stage.name), launches)
            out.append(StageTrace(stage, trace, None, difference, refined=previous is not None))
            previous = trace
            if position == ref_index:
                reference = trace
            continue
        if reference is None:
            out.append(StageTrace(stage, trace, None, "the reference stage was not interpreted"))
            continue
        out.append(StageTrace(stage, trace, None, compare(reference, trace, ("reference", stage.name), launches)))
    return out


def _same_program(before, after) -> bool:
    """The stages hold one tree, read by the same interpreter (``trace_of``)."""
    from nanopass.languages import EMISSION

    return after.tree is before.tree and (after.language is EMISSION) == (before.language is EMISSION)


@dataclass
class StageCheck:
    """One stage's trace (with the reference's ``pl.parallel`` annotations), model and hazards."""

    item: StageTrace
    trace: Trace | None
    runtime: Model | None = None
    hazards: list[Hazard] = field(default_factory=list)

    def agreement(self, stages) -> str:
        item = self.item
        if item.refined:
            return "refines the previous stage" if item.difference is None else f"DIFFERS from the previous stage: {item.difference}"
        if item.stage is source_stage(stages):
            return "the program as written"
        return "agrees with the reference" if item.difference is None else f"DIFFERS from the reference: {item.difference}"


def stage_checks(stages, inputs: Inputs, interpreted: InterpretedStages | None = None) -> list[StageCheck]:
    """The trace, runtime model and hazards of every stage from the first ``directed`` one on
    (``interpreted``'s, made on ``inputs`` when None)."""
    from nanopass.languages import EMISSION

    interpreted = interpreted if interpreted is not None else InterpretedStages(inputs)
    items = stage_traces(stages, inputs, interpreted)
    ref = reference_stage(stages)
    reference = next((item.trace for item in items if item.stage is ref), None)
    out = []
    for item in items:
        trace = item.trace
        if trace is None:
            out.append(StageCheck(item, None))
            continue
        if out and out[-1].item.trace is trace and out[-1].item.difference == item.difference:
            out.append(StageCheck(item, out[-1].trace, out[-1].runtime, out[-1].hazards))  # one tree
            continue
        if item.stage.language is EMISSION and item.difference is None and reference is not None:
            trace = with_parallel(reference, trace)  # only the reference interpreter annotates iterations
        runtime, hazards = interpreted.checked(trace)
        out.append(StageCheck(item, trace, runtime, hazards))
    return out


def stage_report(stages, inputs: Inputs, interpreted: InterpretedStages | None = None) -> str:
    """For every stage an interpreter runs: its trace's size, agreement with the reference, hazards
    (from ``interpreted``'s runs, made on ``inputs`` when None)."""
    lines = [f"inputs: {inputs.to_json()}", ""]
    for check in stage_checks(stages, inputs, interpreted):
        stage = check.item.stage
        head = f"{stage.index:02d}_{stage.name} ({stage.language.name})"
        if check.trace is None:
            lines += [f"{head}: not interpreted: {check.item.error}", ""]
            continue
        count = len(failing(check.hazards))
        lines.append(f"{head}: {len(check.trace.tasks())} tasks, {count} hazards; {check.agreement(stages)}")
        lines += ["  " + line for line in summary(check.trace, check.hazards, check.runtime)]
        lines.append("")
    return "\n".join(lines)
