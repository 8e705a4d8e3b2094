"""The pipeline driver: one loop over an explicit list of passes, with instruments around it.

``Pipeline(passes)`` checks that the languages chain (each pass's source is the previous pass's
target). ``run`` applies the passes in order; after each one it verifies the output against the
pass's target language (grammar membership of the root, then the language's invariants; a pass
that returns its input object unchanged is not re-checked for invariants its input met, nor is
any output for those of them the pass declares it preserves, ``Pass.preserves``, among those
the input met or its grammar proves, ``Language.proves``; nor for those the next pass reflects,
``Pass.reflects``, which are checked on that pass's output instead), times
it, and hands the stage to an optional observer (dumps, progress). ``stop_after`` ends the run
after a named pass; ``keep_tree`` says which stages keep their trees once the next pass has read
them (by default all do; a compile that needs only its result lets the others go, so that the
memory they held is reused while it is still in the caches). Errors leave the driver as
``UserError`` (unchanged) or ``InternalError`` naming the pass; any other exception inside a pass
is a compiler bug and is wrapped as one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .collector import collector_paused
from .errors import InternalError, UserError
from .language import Language, Node
from .rewrite import Note, Pass, PassContext, PassWarning


@dataclass
class Stage:
    """The program after one pass (index 0 is the pipeline's input)."""

    index: int
    name: str
    language: Language
    tree: Node | None  # None once released (``Pipeline.run``'s ``keep_tree``)
    seconds: float = 0.0  # CPU seconds of the thread that ran the pass (``time.thread_time``): other load does not count
    notes: list[Note] = field(default_factory=list)
    contract: str = ""
    warnings: list[PassWarning] = field(default_factory=list)  # what the pass warned the user of


class Stages(list):
    """The stages of a run in order (a list), also looked up by pass name: ``stages["bind_task_ids"]``
    (the pipeline's input is the stage of ``input_name``, e.g. ``parse_dsl``)."""

    def __getitem__(self, key):
        if isinstance(key, str):
            for stage in self:
                if stage.name == key:
                    return stage
            raise KeyError(f"no stage of a pass named {key!r} (stages: {', '.join(s.name for s in self)})")
        return super().__getitem__(key)

    def get(self, name: str, default: "Stage | None" = None) -> "Stage | None":
        try:
            return self[name]
        except KeyError:
            return default

    def names(self) -> list[str]:
        return [stage.name for stage in self]


class PipelineError(Exception):
    """Raised by ``Pipeline.run`` around a failure: the original error plus the stages reached."""

    def __init__(self, error: Exception, stages: list[Stage]):
        super().__init__(str(error))
        self.error = error
        self.stages = stages


class Pipeline:
    def __init__(self, passes: Sequence[type[Pass]], source: Language | None = None):
        """``source`` is the input's language; given, the list may be empty (the input is the result)."""
        self.passes = list(passes)
        if source is None and not self.passes:
            raise ValueError("an empty pipeline needs its source language")
        self._source = source or self.passes[0].source
        if self.passes and self.passes[0].source is not self._source:
            raise ValueError(f"pipeline does not chain: the input is {self._source.name} "
                             f"but {self.passes[0].name} reads {self.passes[0].source.name}")
        for before, after in zip(self.passes, self.passes[1:]):
            if after.source is not before.target:
                raise ValueError(
                    f"pipeline does not chain: {before.name} produces {before.target.name} "
                    f"but {after.name} reads {after.source.name}"
                )
        names = [p.name for p in self.passes]
        if len(set(names)) != len(names):
            raise ValueError(f"pipeline lists a pass twice: {names}")

    @property
    def source(self) -> Language:
        return self._source

    @property
    def target(self) -> Language:
        return self.passes[-1].target if self.passes else self._source

    def names(self) -> list[str]:
        return [p.name for p in self.passes]

    def run(
        self,
        tree: Node,
        ctx: PassContext | None = None,
        *,
        input_name: str = "input",
        verify: bool = True,
        stop_after: str | None = None,
        observer: Callable[[Stage], None] | None = None,
        keep_tree: Callable[[Stage], bool] | None = None,
        input_seconds: float = 0.0,
        input_warnings: Sequence[PassWarning] = (),
        recheck_preserved: bool = False,
    ) -> list[Stage]:
        """Run the passes on ``tree``; returns every stage. Raises PipelineError on failure.

        ``stop_after`` may also name the input (``input_name``): the run then stops at stage 0.
        ``input_seconds`` is stage 0's time (what making the input took, e.g. the front end), and
        ``input_warnings`` its warnings (the front end's).

        With ``keep_tree``, a stage for which it is false has its ``tree`` set to None as soon as
        the next pass and its verification are done with it (the observer has seen it by then);
        the last stage keeps its tree.

        With ``recheck_preserved`` the invariants a pass declares it preserves are checked on
        its output all the same (a test of the declarations)."""
        ctx = ctx or PassContext()
        # Trees are acyclic and freed by reference counting; the cyclic collector would only
        # rescan every live node again and again (superlinear on large programs).
        with collector_paused():
            return self._run(tree, ctx, input_name, verify, stop_after, observer, keep_tree, input_seconds,
                             list(input_warnings), recheck_preserved)

    def _run(self, tree, ctx, input_name, verify, stop_after, observer, keep_tree, input_seconds,
             input_warnings, recheck_preserved=False) -> list[Stage]:
        if stop_after is not None and stop_after not in self.names() and stop_after != input_name:
            raise ValueError(f"--stop-after: no pass named {stop_after!r} in the pipeline")
        stages = Stages([Stage(0, input_name, self.source, tree, input_seconds, warnings=input_warnings)])
        known = frozenset()  # the invariants ``tree`` is known to meet
        try:
            if verify:
                known = self.source.verify(tree)
        except Exception as error:  # noqa: BLE001 - reported as the input's fault
            raise PipelineError(_as_compiler_error(error, input_name, tree), stages) from error
        if observer:
            observer(stages[0])
        if stop_after == input_name:
            return stages
        # The invariants the pass after a stage reflects (``Pass.reflects``) are checked on that
        # pass's output in place of the stage's own; ``deferred`` holds them and the stage's
        # tree and pass name until then: a failure there (or of the pass) that the stage's tree
        # fails too is the stage's pass's.
        deferred: tuple | None = None
        for index, pass_cls in enumerate(self.passes, start=1):
            ctx.current_pass = pass_cls.name
            notes_before, warnings_before = len(ctx.notes), len(ctx.warnings)
            start = time.thread_time()
            try:
                pass_ = pass_cls(ctx)
                result = pass_.run(tree)
                if verify:
                    # a pass that returns its input unchanged, or converted (``Pass.convert``),
                    # keeps what was checked of it; any other output, what the pass preserves
                    converted = pass_.converted
                    same = result is tree or (converted is not None and converted[0] is tree and converted[1] is result)
                    inherited = frozenset()
                    if not same and not recheck_preserved:
                        # (met by the input: checked, or proved by its grammar, ``Language.proves``)
                        source = pass_cls.source
                        inherited = frozenset(i for i in pass_cls.preserves if i in known or source.proves(i))
                    # (not of what the output is known or told to meet)
                    skip = self._deferrable(index, stop_after, recheck_preserved, deferred) - (known if same else inherited)
                    if same:
                        known = pass_cls.target.verify(result, known | skip) - skip
                    else:
                        known = pass_cls.target.verify(result, skip, inherited=inherited) - skip
            except Exception as error:  # noqa: BLE001 - every failure leaves as a compiler error
                error, name, node = _blamed(deferred, error, pass_cls.name, tree)
                raise PipelineError(_as_compiler_error(error, name, node), stages) from error
            deferred = (skip, result, pass_cls.name) if verify and skip else None
            pass_.release()
            stage = Stage(
                index,
                pass_cls.name,
                pass_cls.target,
                result,
                time.thread_time() - start,
                ctx.notes[notes_before:],
                pass_cls.contract(),
                ctx.warnings[warnings_before:],
            )
            if keep_tree is not None and not keep_tree(stages[-1]):
                stages[-1].tree = None
            stages.append(stage)
            if observer:
                observer(stage)
            tree = result
            if pass_cls.name == stop_after:
                break
        return stages

    def _deferrable(self, index: int, stop_after, recheck_preserved: bool, deferred) -> frozenset:
        """The invariants of the output of pass ``index`` (from 1) that the pass after it
        reflects (``Pass.reflects``) and will check on its own output: none at the end of the
        run, with ``recheck_preserved`` (every stage checked in full), or while this stage's
        input has invariants deferred to it (they are checked here)."""
        if index >= len(self.passes) or recheck_preserved or deferred is not None or self.passes[index - 1].name == stop_after:
            return frozenset()
        return self.passes[index].reflects


def _blamed(deferred: "tuple | None", error: Exception, pass_name: str, tree: Any) -> tuple:
    """(error, pass name, node) to report a failure of the pass ``pass_name`` (or of the check of
    its output) as: the first invariant ``deferred`` to it that its input ``tree`` fails, the
    failure of the pass that made that input; else ``error`` itself."""
    if deferred is not None:
        invariants, given, maker = deferred
        for invariant in invariants:
            try:
                invariant(given)
            except Exception as earlier:  # noqa: BLE001 - the input's own failure
                return earlier, maker, given
    return error, pass_name, tree


def _as_compiler_error(error: Exception, pass_name: str, node: Any) -> Exception:
    if isinstance(error, UserError):
        return error
    if isinstance(error, InternalError):
        if error.pass_name is None:
            error.pass_name = pass_name
        return error
    if isinstance(error, RecursionError):
        return InternalError("recursion too deep (program nested beyond the compiler's limits)", pass_name=pass_name)
    wrapped = InternalError(f"{type(error).__name__}: {error}", pass_name=pass_name, node=None)
    wrapped.__cause__ = error
    return wrapped
