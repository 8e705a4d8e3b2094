"""A progress display for long compilations: one bar over the passes of the pipeline.

``PassProgress`` is a pipeline observer (called after each stage) and a context manager that
owns a transient rich ``Progress`` on the given console. The CLI uses it only for programs with
more than ``PROGRESS_THRESHOLD`` statements, on a terminal, and never with ``--quiet``.
"""

from __future__ import annotations

from typing import Callable, Iterable

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .language import Node, walk

PROGRESS_THRESHOLD = 3000


def statement_count(tree: Node) -> int:
    """How many statements (nodes of the ``Stmt`` nonterminal) the tree holds."""
    return sum(1 for node in walk(tree) if getattr(node, "_nonterminal", "") == "Stmt")


def wants_progress(tree: Node, console: Console, quiet: bool) -> bool:
    return not quiet and console.is_terminal and statement_count(tree) > PROGRESS_THRESHOLD


class PassProgress:
    """Advances one step per stage; the description names the pass that runs next."""

    def __init__(self, console: Console, pass_names: list[str]):
        self.names = pass_names
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self.task = self.progress.add_task(self._describe(0), total=len(pass_names))

    def _describe(self, done: int) -> str:
        return self.names[done] if done < len(self.names) else "printing C++"

    def __enter__(self) -> "PassProgress":
        self.progress.start()
        return self

    def __exit__(self, *exc) -> None:
        self.progress.stop()

    def __call__(self, stage) -> None:
        if stage.index == 0:
            return
        # Redraw now: every pass is shown once, however fast it runs (22 redraws cost nothing).
        self.progress.update(self.task, completed=stage.index, description=self._describe(stage.index), refresh=True)


def fan_out(observers: Iterable[Callable | None]) -> Callable | None:
    """One observer that calls each of ``observers`` (Nones skipped) in order."""
    chosen = [o for o in observers if o is not None]
    if not chosen:
        return None
    if len(chosen) == 1:
        return chosen[0]

    def observe(stage) -> None:
        for observer in chosen:
            observer(stage)

    return observe
