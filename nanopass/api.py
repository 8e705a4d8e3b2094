"""The library entry points: compile a program (DSL class or surface tree) to orchestration C++."""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from nanopass.collector import collector_paused
from nanopass.errors import InternalError, UserError
from nanopass.inline_copies import note_error, note_warnings
from nanopass.pipeline import Pipeline, PipelineError, Stage, Stages
from nanopass.rewrite import Pass, PassContext


@dataclass
class OrchestrationResult:
    """What ``generate_orchestration`` returns; it pickles (stages, trees and languages too: a
    language is unpickled by its name, so the receiving process needs it defined, as it is for
    the pipeline's languages on first use).

    The reference's metadata (``nanopass/metadata.py``, reference-behaviour.md section 14.1) is
    here under its names: ``func_name_to_id``, ``func_name_to_core_type`` (``"VECTOR"`` /
    ``"CUBE"``), ``func_name_to_signature``, ``orchestration_signature``, ``expected_arg_count``;
    ``metadata()`` is all of them as one dictionary. ``kernel_ids`` and ``core_types`` are the
    earlier names (``core_types`` covers every kernel: ``"AIC"`` / ``"AIV"`` / ``"MIX"``).
    """

    func_name: str
    code: str
    files: dict[str, str]
    kernel_ids: dict[str, int]  # kernel name -> kernel id (D5)
    core_types: dict[str, str]  # kernel name -> "AIC" | "AIV" | "MIX"
    orchestration_signature: list[str]  # "IN" | "OUT" | "INOUT" per tensor parameter
    expected_arg_count: int
    # the program after every pass, in order; also by pass name: stages["bind_task_ids"]
    stages: Stages = field(default_factory=Stages, repr=False)
    # every orchestration function compiled with this one, by name (this one included)
    functions: dict[str, "OrchestrationResult"] = field(default_factory=dict, repr=False, compare=False)
    func_name_to_core_type: dict[str, str] = field(default_factory=dict)  # launched kernel -> VECTOR | CUBE
    func_name_to_signature: dict[str, list[str]] = field(default_factory=dict)  # kernel -> its tensor directions

    @property
    def func_name_to_id(self) -> dict[str, int]:
        return self.kernel_ids

    def metadata(self) -> dict[str, Any]:
        """The reference's metadata of this function, and the file its C++ goes to."""
        return {
            "file": f"orchestration/{self.func_name}.cpp",
            "func_name_to_id": dict(self.func_name_to_id),
            "func_name_to_core_type": dict(self.func_name_to_core_type),
            "func_name_to_signature": {name: list(dirs) for name, dirs in self.func_name_to_signature.items()},
            "orchestration_signature": list(self.orchestration_signature),
            "expected_arg_count": self.expected_arg_count,
        }


def abi_options(abi: str) -> dict[str, Any]:
    """The pass options an ABI sets: the facts about its runtime that passes read (the ABI table's
    ``max_creates_per_alloc``). No pass reads which ABI it is (D1)."""
    from nanopass.printer.cpp import ABIS

    return {"max_creates_per_alloc": ABIS[abi].max_creates_per_alloc}


def check_backend(backend: str) -> None:
    from nanopass.printer.cpp import BACKENDS

    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: one of {', '.join(sorted(BACKENDS))}")


_FUNCTION_NAMES: "weakref.WeakKeyDictionary[Any, list[str]]" = weakref.WeakKeyDictionary()


def orchestration_functions(program: Any) -> list[str]:
    """The names of ``program``'s orchestration functions, sorted: the first is the one the
    existing compiler takes by default (reference-surface.md section 7)."""
    from nanopass.languages import SURFACE
    from nanopass.passes.frontend.parse_dsl import orchestration_function_names

    if SURFACE.is_program(program):
        return [program.orch.name]
    names = _FUNCTION_NAMES.get(program)
    if names is not None:
        return list(names)
    source = getattr(program, "source", None)
    if callable(source):
        names = sorted(orchestration_function_names(source()))
        _FUNCTION_NAMES[program] = names  # reading the source may parse the file: once per program
        return list(names)
    raise TypeError(f"expected a @pl.program or a surface-language Program, got {type(program).__name__}")


def surface_of(program: Any, func_name: str | None = None):
    """The ``surface`` tree of a ``@pl.program`` object (for ``func_name``, or the first of its
    orchestration functions by name), or the tree itself if one is given."""
    from nanopass.languages import SURFACE

    if SURFACE.is_program(program):
        return program
    surface = getattr(program, "surface", None)
    if callable(surface):
        return surface(_read_function(program, func_name))
    raise TypeError(f"expected a @pl.program or a surface-language Program, got {type(program).__name__}")


def front_end_warnings_of(program: Any, func_name: str | None = None) -> list:
    """The front end's warnings for the function ``surface_of`` reads (none for a tree)."""
    warnings = getattr(program, "warnings", None)
    return list(warnings(_read_function(program, func_name))) if callable(warnings) else []


def inline_copies_of(program: Any, func_name: str | None = None) -> list:
    """The front end's records of the inline functions' copies (``nanopass.inline_copies``) in the
    function ``surface_of`` reads (none for a tree)."""
    copies = getattr(program, "inline_copies", None)
    return list(copies(_read_function(program, func_name))) if callable(copies) else []


def _read_function(program: Any, func_name: str | None) -> str | None:
    """The function name a ``@pl.program``'s front end is asked for: ``func_name``, or for a
    program of several orchestration functions the first by name (None: its only one)."""
    if func_name is None:
        names = orchestration_functions(program)
        func_name = names[0] if len(names) > 1 else None
    return func_name


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
    front_end_warnings: list | None = None,
    inline_copies: list | None = None,
    recheck_preserved: bool = False,
) -> list[Stage]:
    """Front end + every pass; returns the stages (index 0 is the front end's output).

    ``passes`` replaces the pipeline's list (``nanopass.stage_names.chosen_passes`` builds one
    that connects). A program class in the existing compiler's printed form (``program.hints``)
    runs them with ``convert_printed_ssa`` for ``convert_to_ssa``, its hints checked
    (``nanopass.printed_hints``). Stage 0's ``seconds`` is the front end's time: measured here, or
    ``front_end_seconds`` when the caller ran it (``surface_of``) and passes the tree instead; its
    ``warnings`` are the front end's (``front_end_warnings_of``: read here, or given with the tree).
    ``inline_copies`` are the front end's records of the inline functions' copies
    (``inline_copies_of``: read here, or given with the tree): a pass's ``UserError`` and every
    pass's warnings get their ``notes`` from them (``nanopass.inline_copies.copy_notes``).

    ``keep_tree`` is ``Pipeline.run``'s: by default every stage keeps its tree;
    ``keep_tree=needed_by_result`` keeps only what ``result_from_stages`` reads.
    ``recheck_preserved`` is ``Pipeline.run``'s: every pass's output is checked for the
    invariants the pass declares it preserves too (a test of the declarations, ``Pass.preserves``).
    Raises ``PipelineError`` (with the stages reached) on a compiler error in a pass, and
    ``UserError`` for a mistake the front end finds.
    """
    from nanopass.languages.statements import reusing_walks
    from nanopass.passes.pipeline import PIPELINE

    with collector_paused():
        start = time.thread_time()
        tree = surface_of(program, func_name)
        seconds = time.thread_time() - start if front_end_seconds is None else front_end_seconds
        if front_end_warnings is None:
            front_end_warnings = front_end_warnings_of(program, func_name)
        if inline_copies is None:
            inline_copies = inline_copies_of(program, func_name)
        if hasattr(program, "hints") and program.hints(func_name) is not None:  # the existing compiler's printed IR
            from nanopass.printed_hints import HintChecker
            from nanopass.printed_ir import printed_passes
            from nanopass.progress import fan_out

            passes = printed_passes(passes)
            observer = fan_out([HintChecker.of(program, func_name), observer])
        ctx = PassContext(options=dict(options or {}))
        pipeline = PIPELINE if passes is None else Pipeline(passes, source=PIPELINE.source)
        try:
            with reusing_walks():
                stages = pipeline.run(
                    tree, ctx, input_name="parse_dsl", verify=verify, stop_after=stop_after, observer=observer,
                    keep_tree=keep_tree, input_seconds=seconds, input_warnings=front_end_warnings,
                    recheck_preserved=recheck_preserved,
                )
        except PipelineError as failure:
            if isinstance(failure.error, UserError):
                note_error(failure.error, inline_copies)
            for stage in failure.stages:
                note_warnings(stage.warnings, inline_copies)
            raise
        for stage in stages:
            note_warnings(stage.warnings, inline_copies)
        return stages


def needed_by_result(stage: Stage) -> bool:
    """Whether ``result_from_stages`` reads this stage's tree (besides the last stage's): the
    encoded program's kernels and parameters."""
    from nanopass.languages import ENCODED

    return stage.language is ENCODED


def result_from_stages(stages: list[Stage], abi: str = "seed", backend: str = "Ascend910B") -> OrchestrationResult:
    from nanopass.languages import EMISSION, ENCODED
    from nanopass.metadata import kernel_metadata
    from nanopass.printer.cpp import print_cpp

    final = stages[-1]
    if final.language is not EMISSION:
        raise ValueError("the pipeline stopped before the emission language")
    unit = final.tree
    program = next(s.tree for s in reversed(stages) if s.language is ENCODED)
    try:
        code = print_cpp(unit, abi, backend)
    except (UserError, InternalError):
        raise
    except Exception as error:  # noqa: BLE001 - a printer crash is a compiler bug in print_cpp
        raise InternalError(f"{type(error).__name__}: {error}", pass_name="print_cpp") from error
    facts = kernel_metadata(program)
    result = OrchestrationResult(
        func_name=unit.func,
        code=code,
        files={f"orchestration/{unit.func}.cpp": code},
        kernel_ids=facts["func_name_to_id"],
        core_types={kernel.name: kernel.core.name for kernel in program.kernels},
        orchestration_signature=facts["orchestration_signature"],
        expected_arg_count=unit.arg_count,
        stages=stages if isinstance(stages, Stages) else Stages(stages),
        func_name_to_core_type=facts["func_name_to_core_type"],
        func_name_to_signature=facts["func_name_to_signature"],
    )
    result.functions = {result.func_name: result}
    return result


def generate_orchestration(
    program: Any,
    func_name: str | None = None,
    *,
    abi: str = "seed",
    backend: str = "Ascend910B",
    analyze_auto_scopes_for_deps: bool = False,
    order_write_after_read: bool = True,
    lean_edges: bool = True,
    verify: bool = True,
    keep_stages: bool = True,
    recheck_preserved: bool = False,
) -> OrchestrationResult:
    """Compile ``program``'s orchestration functions to C++: ``func_name``, or each of them.

    ``program`` is a ``@pl.program`` class or a ``surface``-language ``Program`` built directly.
    Without ``func_name``, a program with several orchestration functions compiles each: the
    result is the first's by name (the existing compiler's default), its ``functions`` holds every
    function's result and its ``files`` every file (``orchestration/<name>.cpp``).
    ``lean_edges=False`` keeps every dependency the hazard passes insert (the passes that drop
    the ones the runtime or other edges imply, and merge cells into chains, do nothing).
    With ``keep_stages=False`` the result's stages keep only the trees it was made from (the
    others are released as the compile goes, which is faster on large programs).
    ``backend="Ascend950"`` spells an SPMD task's block count ``launch_spec.set_core_num(N)``
    (``set_block_num(N)`` on the default, ``Ascend910B``).
    With ``recheck_preserved`` (and ``verify``) every pass's output is checked for every invariant
    of its language, those the pass declares it preserves included (``Pass.preserves``): the
    testers compile so, and a wrong declaration fails as that pass's verification.
    Raises ``UserError`` for mistakes in the program and ``InternalError`` for compiler bugs.
    """
    check_backend(backend)
    options = {
        "analyze_auto_scopes_for_deps": analyze_auto_scopes_for_deps,
        "order_war": order_write_after_read,
        "lean_edges": lean_edges,
        **abi_options(abi),
    }
    # none at all: the front end says so
    names = (orchestration_functions(program) or [None]) if func_name is None else [func_name]
    results: dict[str, OrchestrationResult] = {}
    with collector_paused():
        for name in names:
            try:
                stages = run_pipeline(
                    program, name if len(names) > 1 else func_name, options=options, verify=verify,
                    keep_tree=None if keep_stages else needed_by_result, recheck_preserved=recheck_preserved,
                )
            except PipelineError as failure:
                raise failure.error from failure.error.__cause__
            result = result_from_stages(stages, abi, backend)
            results[result.func_name] = result
    first = next(iter(results.values()))
    first.functions = results
    first.files = {path: code for result in results.values() for path, code in result.files.items()}
    return first


__all__ = [
    "InternalError",
    "collector_paused",
    "OrchestrationResult",
    "UserError",
    "abi_options",
    "generate_orchestration",
    "inline_copies_of",
    "needed_by_result",
    "orchestration_functions",
    "result_from_stages",
    "run_pipeline",
    "surface_of",
]
