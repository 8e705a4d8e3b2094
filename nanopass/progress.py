"""Progress displays for long runs: one bar over the passes of the pipeline, and the phases of
``--dump-all``.

``PassProgress`` is a pipeline observer (called after each stage) and a context manager that
owns a transient rich ``Progress`` on the given console. The CLI uses it only for programs with
more than ``PROGRESS_THRESHOLD`` statements, on a terminal, and never with ``--quiet``.
``ReportProgress`` is ``DumpWriter``'s progress: the CLI shows it for every ``--dump-all`` run on
a terminal (without ``--quiet``).
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


def _bar(console: Console) -> Progress:
    """The bars of both progress displays: what runs, the bar, done of total, the time so far;
    gone when it stops."""
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True)


class PassProgress:
    """Advances one step per stage; the description names the pass that runs next."""

    def __init__(self, console: Console, pass_names: list[str]):
        self.names = pass_names
        self.progress = _bar(console)
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


class ReportProgress:
    """The progress of a ``--dump-all`` run on a terminal: one bar per phase (compiling, printing
    the IR, analysing the stages, drawing the graphs), each shown as it starts. Called as
    ``progress(phase, done, total)`` (``DumpWriter``'s progress); ``total`` 0 keeps the one known."""

    PHASES = {"passes": "compiling", "IR text": "printing the IR", "stages": "analysing stages",
              "graphs": "drawing graphs"}

    def __init__(self, console: Console, passes: int):
        self.progress = _bar(console)
        self.tasks: dict[str, object] = {}
        self.totals = {"passes": passes}

    def __enter__(self) -> "ReportProgress":
        self.progress.start()
        return self

    def __exit__(self, *exc) -> None:
        self.progress.stop()

    def __call__(self, phase: str, done: int, total: int) -> None:
        total = total or self.totals.get(phase, done)
        if phase not in self.tasks:
            self.tasks[phase] = self.progress.add_task(self.PHASES.get(phase, phase), total=total)
        self.progress.update(self.tasks[phase], completed=done, total=total, refresh=True)
