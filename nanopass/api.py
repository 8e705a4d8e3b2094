"""The library entry points: compile a program (DSL class or surface tree) to orchestration C++."""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from nanopass.errors import InternalError, UserError
from nanopass.pipeline import Pipeline, PipelineError, Stage, Stages
from nanopass.rewrite import Pass, PassContext


@dataclass
class OrchestrationResult:
    """What ``generate_orchestration`` returns; it pickles (stages, trees and languages too: a
    language is unpickled by its name, so the receiving process needs it defined, as it is for
    the pipeline's languages on first use)."""

    func_name: str
    code: str
    files: dict[str, str]
    kernel_ids: dict[str, int]  # kernel name -> kernel id (D5)
    core_types: dict[str, str]  # kernel name -> "AIC" | "AIV" | "MIX"
    orchestration_signature: list[str]  # "IN" | "OUT" | "INOUT" per tensor parameter
    expected_arg_count: int
    # the program after every pass, in order; also by pass name: stages["bind_task_ids"]
    stages: Stages = field(default_factory=Stages, repr=False)


def surface_of(program: Any, func_name: str | None = None):
    """The ``surface`` tree of a ``@pl.program`` object, or the tree itself if one is given."""
    from nanopass.languages import SURFACE

    if SURFACE.is_program(program):
        return program
    surface = getattr(program, "surface", None)
    if callable(surface):
        return surface(func_name)
    raise TypeError(f"expected a @pl.program or a surface-language Program, got {type(program).__name__}")


def run_pipeline(
    program: Any,
    func_name: str | None = None,
    *,
    options: dict[str, Any] | None = None,
    verify: bool = True,
    stop_after: str | None = None,
    observer: Callable[[Stage], None] | None = None,
    keep_tree: Callable[[Stage], bool] | None = None,
    passes: Sequence[type[Pass]] | None = None,
    front_end_seconds: float | None = None,
) -> list[Stage]:
    """Front end + every pass; returns the stages (index 0 is the front end's output).

    ``passes`` replaces the pipeline's list (``nanopass.stage_names.chosen_passes`` builds one
    that connects). A program class in the existing compiler's printed form (``program.hints``)
    runs them with ``convert_printed_ssa`` for ``convert_to_ssa``, its hints checked
    (``nanopass.printed_hints``). Stage 0's ``seconds`` is the front end's time: measured here, or
    ``front_end_seconds`` when the caller ran it (``surface_of``) and passes the tree instead.

    ``keep_tree`` is ``Pipeline.run``'s: by default every stage keeps its tree;
    ``keep_tree=needed_by_result`` keeps only what ``result_from_stages`` reads.
    Raises ``PipelineError`` (with the stages reached) on a compiler error in a pass, and
    ``UserError`` for a mistake the front end finds.
    """
    from nanopass.languages.statements import reusing_walks
    from nanopass.passes.pipeline import PIPELINE

    with collector_paused():
        start = time.perf_counter()
        tree = surface_of(program, func_name)
        seconds = time.perf_counter() - start if front_end_seconds is None else front_end_seconds
        if hasattr(program, "hints") and program.hints(func_name) is not None:  # the existing compiler's printed IR
            from nanopass.printed_hints import HintChecker
            from nanopass.printed_ir import printed_passes
            from nanopass.progress import fan_out

            passes = printed_passes(passes)
            observer = fan_out([HintChecker.of(program, func_name), observer])
        ctx = PassContext(options=dict(options or {}))
        pipeline = PIPELINE if passes is None else Pipeline(passes, source=PIPELINE.source)
        with reusing_walks():
            return pipeline.run(
                tree, ctx, input_name="parse_dsl", verify=verify, stop_after=stop_after, observer=observer,
                keep_tree=keep_tree, input_seconds=seconds,
            )


@contextmanager
def collector_paused():
    """Pause Python's cyclic garbage collector (compiler data is acyclic; see Pipeline.run).

    Pause it once around a whole compile (front end, passes, printer): resumed in between, its
    first collection would walk every node built so far, and later ones again as they age."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def needed_by_result(stage: Stage) -> bool:
    """Whether ``result_from_stages`` reads this stage's tree (besides the last stage's): the
    encoded program's kernels and parameters."""
    from nanopass.languages import ENCODED

    return stage.language is ENCODED


def result_from_stages(stages: list[Stage], abi: str = "seed") -> OrchestrationResult:
    from nanopass.languages import EMISSION, ENCODED
    from nanopass.languages.terms import ParamDir
    from nanopass.printer.cpp import print_cpp

    final = stages[-1]
    if final.language is not EMISSION:
        raise ValueError("the pipeline stopped before the emission language")
    unit = final.tree
    program = next(s.tree for s in reversed(stages) if s.language is ENCODED)
    try:
        code = print_cpp(unit, abi)
    except (UserError, InternalError):
        raise
    except Exception as error:  # noqa: BLE001 - a printer crash is a compiler bug in print_cpp
        raise InternalError(f"{type(error).__name__}: {error}", pass_name="print_cpp") from error
    kernel_ids: dict[str, int] = {}
    core_types: dict[str, str] = {}
    for kernel in program.kernels:
        if kernel.id is not None:
            kernel_ids[kernel.name] = kernel.id
        core_types[kernel.name] = kernel.core.name
    signature = [
        {ParamDir.In: "IN", ParamDir.Out: "OUT", ParamDir.InOut: "INOUT"}[p.dir]
        for p in program.orch.params
        if p.type._production == "TensorType"
    ]
    return OrchestrationResult(
        func_name=unit.func,
        code=code,
        files={f"orchestration/{unit.func}.cpp": code},
        kernel_ids=dict(sorted(kernel_ids.items(), key=lambda kv: kv[1])),
        core_types=core_types,
        orchestration_signature=signature,
        expected_arg_count=unit.arg_count,
        stages=stages if isinstance(stages, Stages) else Stages(stages),
    )


def generate_orchestration(
    program: Any,
    func_name: str | None = None,
    *,
    abi: str = "seed",
    analyze_auto_scopes_for_deps: bool = False,
    order_write_after_read: bool = True,
    verify: bool = True,
    keep_stages: bool = True,
) -> OrchestrationResult:
    """Compile one orchestration function of ``program`` to C++.

    ``program`` is a ``@pl.program`` class or a ``surface``-language ``Program`` built directly.
    With ``keep_stages=False`` the result's stages keep only the trees it was made from (the
    others are released as the compile goes, which is faster on large programs).
    Raises ``UserError`` for mistakes in the program and ``InternalError`` for compiler bugs.
    """
    options = {"analyze_auto_scopes_for_deps": analyze_auto_scopes_for_deps, "order_war": order_write_after_read}
    with collector_paused():
        try:
            stages = run_pipeline(
                program, func_name, options=options, verify=verify,
                keep_tree=None if keep_stages else needed_by_result,
            )
        except PipelineError as failure:
            raise failure.error from failure.error.__cause__
        return result_from_stages(stages, abi)


__all__ = [
    "InternalError",
    "OrchestrationResult",
    "UserError",
    "generate_orchestration",
    "needed_by_result",
    "result_from_stages",
    "run_pipeline",
    "surface_of",
]
