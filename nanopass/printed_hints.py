"""The analysis results a printed program carries, checked against the project's own.

The existing compiler prints what its passes derived as ``attrs={...}``: each call's
``arg_directions``, each loop's ``iter_arg_rebind_<i>`` and ``iter_arg_array_size_<i>``. None of
them is followed (that compiler is known to miscompile a swap of carried tensors: a hint must not
bring the miscompile in). ``HintChecker`` watches the pipeline's stages: at the stage of the pass
that derives the same facts (``derive_call_directions``, ``classify_iter_arg_carry``) it compares
each hint with the tree and leaves a note of kind ``hint`` on that stage for each disagreement
(``--dump-all`` and ``-v`` show it), and one for each ``attrs`` key that nothing checks.
"""

from __future__ import annotations

from typing import Any, Callable

from nanopass.pipeline import Stage
from nanopass.rewrite import Note

DIRECTIONS_STAGE = "derive_call_directions"
CARRIES_STAGE = "classify_iter_arg_carry"
KIND = "hint"


class HintChecker:
    """A pipeline observer that notes every hint the stages it sees disagree with."""

    def __init__(self, hints: Any):
        self.hints = hints

    @classmethod
    def of(cls, program: Any, func: str | None) -> Callable[[Stage], None] | None:
        """The checker of ``program``'s hints (None for a program that carries none)."""
        hints = program.hints(func) if hasattr(program, "hints") else None
        return cls(hints) if hints is not None else None

    def __call__(self, stage: Stage) -> None:
        if stage.tree is None:
            return
        if stage.name == DIRECTIONS_STAGE:
            stage.notes.extend(Note(stage.name, KIND, m, s) for s, m in self.direction_notes(stage.tree))
            stage.notes.extend(
                Note(stage.name, KIND, f"attrs key '{key}' is not read (an analysis result nothing checks)", span)
                for span, key in self.hints.unread
            )
        elif stage.name == CARRIES_STAGE:
            stage.notes.extend(Note(stage.name, KIND, m, s) for s, m in self.carry_notes(stage.tree))

    def direction_notes(self, program: Any) -> list[tuple[Any, str]]:
        from nanopass.languages.statements import iter_stmts

        tasks = {stmt.span: stmt for stmt in iter_stmts(program.orch.body) if stmt._production == "Task"}
        notes = []
        for hint in self.hints.calls:
            task = tasks.get(hint.span)
            if task is None:
                notes.append((hint.span, f"arg_directions hint on a call of '{hint.kernel}' that is no task"))
                continue
            derived = tuple(arg.dir.name for arg in task.args)
            if derived[: len(hint.directions)] != hint.directions:
                notes.append((hint.span, (
                    f"printed arg_directions of '{hint.kernel}' [{', '.join(hint.directions)}] disagree with the "
                    f"directions derived [{', '.join(derived)}]: the derived ones are followed")))
        return notes

    def carry_notes(self, program: Any) -> list[tuple[Any, str]]:
        from nanopass.languages.statements import iter_stmts

        loops = {stmt.span: stmt for stmt in iter_stmts(program.orch.body) if stmt._production in ("For", "While")}
        notes = []
        for hint in self.hints.loops:
            loop = loops.get(hint.span)
            if loop is None:
                notes.append((hint.span, "carry hints on a loop the program does not have"))
                continue
            sizes = dict(hint.array_size)
            for slot, rebind in hint.rebind:
                if slot >= len(loop.iters):
                    notes.append((hint.span, f"iter_arg_rebind_{slot}: the loop has {len(loop.iters)} carries"))
                    continue
                it = loop.iters[slot]
                plan = it.plan
                if plan.rebind != rebind:
                    notes.append((hint.span, (
                        f"printed iter_arg_rebind_{slot}={rebind} for carry '{it.var.name}' disagrees with the "
                        f"derived rebind={plan.rebind}: the derived plan is followed")))
                if sizes.get(slot, 0) != plan.array:
                    notes.append((hint.span, (
                        f"printed iter_arg_array_size_{slot}={sizes.get(slot, 0)} for carry '{it.var.name}' "
                        f"disagrees with the derived array size {plan.array}: the derived plan is followed")))
        return notes
