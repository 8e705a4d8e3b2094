"""Per-stage runs for ``--dump-all``: each stage's instance graph and hazards.

A ``StageRuns`` is built from the run's inputs (``--set`` values) and hands ``DumpWriter`` its two
hooks. As the pipeline reaches a stage, ``instances_of(stage)`` runs the interpreter on the
stage's program (the reference interpreter from ``directed`` to ``encoded``, the emission
interpreter on ``emission``) and returns one ``TaskInstance`` per task, in submission order:
its data edges are the runtime model's creator and TensorMap edges between tasks, its explicit
edges are split into the user's and the compiler's (``Task.derived``; the emission program's
are taken from the last ``directed``-or-later stage, whose tasks it repeats one for one), and its
site is the static graph's node of its submit. ``hazards_of(stage)`` returns the hazard
checker's unordered pairs (waived ones left out) as report entries (the first
``HAZARDS_DESCRIBED``, with the count of all); ``seed(stages, index)`` runs what the emission
stage needs first when stages are taken apart (``nanopass.stage_analysis``). A stage that cannot be run
gets the reason as a string instead of instances, and ``None`` (not checked) for hazards. Each
stage is interpreted once (``tools.check.InterpretedStages``, which ``nanopass check`` shares
with its ``hazards.txt``); when its trace equals the one of the run before (most passes change
the program's text, not what it asks of the runtime), that run's runtime model, hazards and
instances serve it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from nanopass.errors import InternalError, UserError
from nanopass.languages import ALL, DIRECTED, EMISSION
from nanopass.printer.instances import TaskInstance
from nanopass.report import Hazard as ReportHazard

from .hazards import Hazard, describe, describe_node, failing, task_numbers, with_parallel
from .runtime_model import Model
from .sim_runtime import Inputs
from .trace import Task, Trace

if TYPE_CHECKING:
    from .check import InterpretedStages

INTERPRETED = frozenset(ALL[ALL.index(DIRECTED):])


@dataclass
class StageRun:
    trace: Trace
    runtime: Model
    hazards: list[Hazard]
    derived: dict[int, frozenset[int]]  # task number -> task numbers only compiler edges ask for
    instances: list[TaskInstance] | None = None  # made on first use (``instances``)


class StageRuns:
    """The ``instances_of`` and ``hazards_of`` hooks of ``DumpWriter`` for one set of inputs.

    ``inputs`` None: the program needs values that were not given; ``missing`` says which.
    ``interpreted`` (``tools.check.InterpretedStages`` of ``inputs``) holds the interpreter runs,
    runtime models and hazards made so far, which are not made again (``nanopass check``'s
    ``hazards.txt`` runs the same stages); a new one when None."""

    def __init__(self, inputs: Inputs | None, missing: str = "", interpreted: "InterpretedStages | None" = None):
        from .check import InterpretedStages

        self.inputs = inputs
        self.missing = missing
        self.interpreted = interpreted if interpreted is not None or inputs is None else InterpretedStages(inputs)
        self.runs: dict[int, StageRun | str] = {}
        self.reference: StageRun | None = None
        self.last: StageRun | None = None  # the last run made, whose trace the next may repeat

    def run(self, stage) -> StageRun | str:
        if stage.index not in self.runs:
            self.runs[stage.index] = self._run(stage)
        return self.runs[stage.index]

    def _run(self, stage) -> StageRun | str:
        if self.inputs is None:
            return self.missing
        if stage.language not in INTERPRETED:
            return f"the interpreter runs the {DIRECTED.name} language and the ones after it, not {stage.language.name}"
        try:
            trace = self.interpreted.trace(stage)
        except (InternalError, UserError) as error:
            return f"the interpreter cannot run this stage's program: {error}"
        derived = _derived(trace)
        if stage.language is EMISSION and self.reference is not None:
            if len(self.reference.trace.tasks()) == len(trace.tasks()):
                trace = with_parallel(self.reference.trace, trace)
                derived = self.reference.derived
        last = self.last
        if last is not None and last.derived == derived and last.trace == trace:
            run = last  # the same requests of the runtime: the same model, hazards and instances
        else:
            runtime, hazards = self.interpreted.checked(trace)
            run = StageRun(trace, runtime, hazards, derived)
        self.last = run
        if stage.language is not EMISSION:
            self.reference = run
        return run

    # -- the hooks -------------------------------------------------------------------------------------

    def instances_of(self, stage) -> list[TaskInstance] | str:
        run = self.run(stage)
        if isinstance(run, str):
            return run
        if run.instances is None:
            run.instances = instances(run)
        return run.instances

    def hazards_of(self, stage) -> "Hazards | None":
        run = self.run(stage)
        if isinstance(run, str):
            return None
        numbers = task_numbers(run.trace)
        found = failing(run.hazards)
        return Hazards(
            [
                ReportHazard(describe(run.trace, h, numbers), describe_node(run.trace, h.first, numbers),
                             describe_node(run.trace, h.second, numbers))
                for h in found[:HAZARDS_DESCRIBED]
            ],
            len(found),
        )

    def seed(self, stages, index: int) -> None:
        """Run the stage the emission stage at ``index`` takes its reference from (the last
        interpreted stage before it), if this process has not: for a stage run out of order."""
        if stages[index].language is not EMISSION:
            return
        for earlier in reversed(stages[:index]):
            if earlier.language in INTERPRETED and earlier.language is not EMISSION:
                run = self.run(earlier)
                self.reference = run if isinstance(run, StageRun) else None
                return


HAZARDS_DESCRIBED = 200  # hazards described per stage (the count is of all of them)


class Hazards(list):
    """The hazards described (a list of report entries) and ``total``, how many were found."""

    def __init__(self, described, total: int):
        super().__init__(described)
        self.total = total


def _derived(trace: Trace) -> dict[int, frozenset[int]]:
    numbers = {task.id: n for n, task in enumerate(trace.tasks())}
    return {
        n: frozenset(numbers[d] for d in task.derived if d in numbers)
        for n, task in enumerate(trace.tasks())
        if task.derived
    }


def instances(run: StageRun) -> list[TaskInstance]:
    """One ``TaskInstance`` per task of the run, numbered in submission order."""
    trace = run.trace
    number = {index: n for n, index in enumerate(i for i, e in enumerate(trace.events) if isinstance(e, Task))}
    by_id = {trace.events[index].id: n for index, n in number.items()}
    data: dict[int, set[int]] = {}
    for edge in run.runtime.edges:
        if edge.reason in ("creator", "tensormap") and edge.src in number and edge.dst in number:
            data.setdefault(number[edge.dst], set()).add(number[edge.src])
    out = []
    for index, n in number.items():
        task: Task = trace.events[index]
        explicit = {by_id[d] for d in task.deps if d in by_id}
        derived = run.derived.get(n, frozenset()) & explicit
        out.append(
            TaskInstance(
                n,
                task.kernel or ("barrier" if task.kind == "dummy" else "kernel"),
                task.site,
                data=tuple(sorted(data.get(n, ()))),
                deps=tuple(sorted(explicit - derived)),
                derived=tuple(sorted(derived)),
                core=_core(task.launch),
                barrier=task.kind == "dummy",
            )
        )
    return out


def _core(launch) -> str | None:
    if launch is None:
        return None
    aic, aiv0, _ = launch
    if aic >= 0 and aiv0 >= 0:
        return "MIX"
    return "AIC" if aic >= 0 else "AIV"
