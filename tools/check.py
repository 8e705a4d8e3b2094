"""``nanopass check``: compile a program, run it three ways, and check its dependencies.

``check_program`` compiles a program, interprets it at the SSA level (the first ``directed``
stage: the reference) and at the emission level, and, on request, compiles the printed C++ with
g++ and runs it on the recording runtime. The traces must agree (an internal error otherwise).
The hazard checker then runs on the emission trace (whose scopes are the runtime scopes the C++
opens) with the reference's ``pl.parallel`` annotations, and the runtime model's lifetime
warnings are collected. ``stage_report`` does the same for every stage of the pipeline that an
interpreter can run, for ``--dump-all``.

Inputs: each scalar parameter and each ``pl.dynamic`` dimension needs a value (``--set
NAME=VALUE``); entry tensors are zero-filled, with their declared shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nanopass.errors import InternalError, UserError
from nanopass.languages.terms import DType

from .cvalues import convert, ctype_of, to_u64
from .hazards import Hazard, failing, find_hazards, summary, with_parallel
from .interpret_emission import interpret_emission
from .interpret_ssa import interpret, launch_table
from .runtime_model import Model, model
from .sim_runtime import EntryTensor, Inputs
from .trace import Trace, compare


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
        return fatal + summary(trace, self.hazards, self.runtime)


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
        raise UserError(f"--set {name}={text}: not a {dtype.name} value") from None


def program_inputs(surface_program, values: dict[str, str]) -> Inputs:
    """The entry arguments of a program for ``values`` (NAME -> text), as ``--set`` gives them."""
    func = surface_program.orch
    dyn = {d.name for d in func.dyn_dims}
    scalars = {p.name: p.type.dtype for p in func.params if p.type._production == "ScalarType"}
    unknown = sorted(set(values) - dyn - set(scalars))
    if unknown:
        known = ", ".join(sorted(dyn | set(scalars))) or "none"
        raise UserError(f"--set {unknown[0]}: not a scalar parameter or dynamic dimension (these are: {known})")
    missing = [n for n in list(scalars) + sorted(dyn) if n not in values]
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
                raise UserError(f"parameter '{param.name}' would have shape {shape}; dimensions must be positive")
            tensors.append(EntryTensor(tuple(shape), ty.dtype.runtime, param.name))
        else:
            ctype = ctype_of(ty.dtype)
            value = convert(parse_value(values[param.name], ty.dtype, param.name), ctype)
            slots.append(to_u64(value, ctype))
    return Inputs(tuple(tensors), tuple(slots))


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


def reference_stage(stages):
    """The first stage in the ``directed`` language (the reference interpreter's input)."""
    from nanopass.languages import DIRECTED

    for stage in stages:
        if stage.language is DIRECTED:
            return stage
    raise InternalError("the pipeline has no stage in the directed language")


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


def check_stages(stages, inputs: Inputs, *, gxx: bool = False) -> CheckResult:
    from nanopass.api import result_from_stages

    program = next(s.tree for s in reversed(stages) if hasattr(s.tree, "kernels"))
    launches = launch_table(program)
    reference = trace_of(reference_stage(stages), inputs)
    emission = trace_of(stages[-1], inputs)
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
    return CheckResult(inputs, reference, emission, compiled, runtime, find_hazards(checked, runtime))


def check_program(program, values: dict[str, str], *, func_name: str | None = None, gxx: bool = False) -> CheckResult:
    from nanopass.api import run_pipeline, surface_of
    from nanopass.pipeline import PipelineError

    inputs = program_inputs(surface_of(program, func_name), values)
    try:
        stages = run_pipeline(program, func_name)
    except PipelineError as failure:
        raise failure.error from None
    return check_stages(stages, inputs, gxx=gxx)


@dataclass
class StageTrace:
    stage: Any
    trace: Trace | None
    error: Exception | None = None
    difference: str | None = None  # how the trace differs from the reference (None: it agrees)


def stage_traces(stages, inputs: Inputs) -> list[StageTrace]:
    """The trace of every stage from the reference stage on, each compared with the reference."""
    program = next(s.tree for s in reversed(stages) if hasattr(s.tree, "kernels"))
    launches = launch_table(program)
    start = stages.index(reference_stage(stages))
    reference = None
    out = []
    for stage in stages[start:]:
        try:
            trace = trace_of(stage, inputs)
        except (InternalError, UserError) as error:
            out.append(StageTrace(stage, None, error))
            continue
        if reference is None:
            reference = trace
        out.append(StageTrace(stage, trace, None, compare(reference, trace, ("reference", stage.name), launches)))
    return out


def stage_report(stages, inputs: Inputs) -> str:
    """For every stage an interpreter runs: its trace's size, agreement with the reference, hazards."""
    lines = [f"inputs: {inputs.to_json()}", ""]
    reference = None
    for item in stage_traces(stages, inputs):
        stage, trace, difference = item.stage, item.trace, item.difference
        head = f"{stage.index:02d}_{stage.name} ({stage.language.name})"
        if trace is None:
            lines += [f"{head}: not interpreted: {item.error}", ""]
            continue
        reference = reference or trace
        checked = with_parallel(reference, trace) if difference is None else trace
        runtime = model(checked)
        hazards = find_hazards(checked, runtime)
        agreement = "agrees with the reference" if difference is None else f"DIFFERS from the reference: {difference}"
        lines.append(f"{head}: {len(trace.tasks())} tasks, {len(failing(hazards))} hazards; {agreement}")
        lines += ["  " + line for line in summary(checked, hazards, runtime)]
        lines.append("")
    return "\n".join(lines)
