"""The work ``--dump-all`` does per stage, shared among worker processes.

``analyse_stages(stages, ...)`` returns one ``StageAnalysis`` per stage: its IR text, its static
task graph, its instance graph (from the ``instances_of`` hook), its hazards (``hazards_of``) and
what its pass changed (``stage_diff.describe_change``). Two rounds, each spread over a pool of
worker processes forked from this one (so the stages are not copied, only the results come
back): the texts of the stages whose tree is new, then the rest for each stage whose text is
new. A stage whose tree, or text, is its predecessor's reuses its predecessor's analysis (a
pass that changed nothing, or only the language's name). Without ``fork`` (or with one worker)
the same work runs in this process.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from .pipeline import Stage
from .stage_diff import PairedDiff, StageDiff, describe_change, statements
from .text import unparse

HAZARD_LIST_LIMIT = 200  # hazards described per stage; the count is always exact
POOL_THRESHOLD = 400  # statements in the program below which one process does everything


@dataclass
class GraphData:
    """One graph of a stage: ``graph`` is the whole graph (its DOT file is the stage's name and
    ``suffix``); ``coarse`` a smaller one to draw before collapsing (an instance graph's
    one node per submit site)."""

    title: str
    graph: Any  # printer.graph.TaskGraph
    suffix: str  # ".dot" | ".instances.dot"
    note: str = ""
    coarse: Any = None
    dot: str = ""  # the graph's DOT text after its first line (the name), made with the graph

    def __post_init__(self):
        if not self.dot:
            self.dot = self.graph.to_dot("g").split("\n", 1)[1]


@dataclass
class StageAnalysis:
    index: int
    text: str
    graphs: list[GraphData] = field(default_factory=list)
    instance_note: str = ""  # why there is no instance graph, when there is none
    hazards: list | None = None  # report.Hazard, the first HAZARD_LIST_LIMIT; None: not checked
    hazard_total: int = 0
    change: StageDiff | PairedDiff | None = None  # None for the first stage
    same_as: int | None = None  # the earlier stage whose analysis this is (tree or text unchanged)


@dataclass
class Hooks:
    """Where instances and hazards come from (see ``dumps.DumpWriter``); ``seed(stages, index)``
    readies what ``instances_of`` needs before a stage is run out of order (the interpreter's
    reference run before the emission stage's)."""

    instances_of: Callable | None = None
    hazards_of: Callable | None = None
    seed: Callable | None = None


# The stages and hooks of the analysis in progress, inherited by forked workers.
_CURRENT: dict[str, Any] = {}


def analyse_stages(stages: list[Stage], hooks: Hooks, *, labelled: bool = True, workers: int | None = None,
                   file_name: Callable[[Stage, str], str], progress: Callable[[str, int, int], None] | None = None,
                   ) -> list[StageAnalysis]:
    """One analysis per stage, in order. ``progress(phase, done, total)`` is told as they finish."""
    tell = progress or (lambda phase, done, total: None)
    _CURRENT.update(stages=stages, hooks=hooks, labelled=labelled, file_name=file_name)
    try:
        with _executor(stages, workers) as pool:
            texts: dict[int, str] = {}
            lines: dict[int, list] = {}  # each tree's statements, for the statement pairs
            firsts = [i for i, s in enumerate(stages) if i == 0 or s.tree is not stages[i - 1].tree]
            jobs = {i: pool.submit(_text_of, i) for i in firsts}
            for done, i in enumerate(firsts, 1):
                texts[i], lines[i] = jobs[i].result()
                tell("IR text", done, len(firsts))
            same_as: dict[int, int] = {}
            for i in range(1, len(stages)):
                if i not in texts:
                    texts[i], lines[i] = texts[i - 1], lines[i - 1]
                if texts[i] == texts[i - 1]:
                    same_as[i] = same_as.get(i - 1, i - 1)
            own = [i for i in range(len(stages)) if i not in same_as]
            runs = {i: pool.submit(_analyse, i, texts.get(i - 1), texts[i], lines.get(i - 1), lines[i]) for i in own}
            results: dict[int, StageAnalysis] = {}
            for done, i in enumerate(own, 1):
                results[i] = runs[i].result()
                tell("stages", done, len(own))
    finally:
        _CURRENT.clear()
    out = []
    for i in range(len(stages)):
        if i in results:
            out.append(results[i])
            continue
        earlier = results[same_as[i]]
        change = StageDiff((), 0, 0)
        out.append(StageAnalysis(i, earlier.text, earlier.graphs, earlier.instance_note, earlier.hazards,
                                 earlier.hazard_total, change, same_as[i]))
    return out


def _text_of(index: int) -> tuple[str, list]:
    """The stage's IR text and its statements (``stage_diff.statements``)."""
    stage = _CURRENT["stages"][index]
    return unparse(stage.tree, labelled=_CURRENT["labelled"]), statements(stage.tree, _CURRENT["labelled"])


def _analyse(index: int, before_text: str | None, text: str, before_lines: list | None, lines: list) -> StageAnalysis:
    from nanopass.printer.dot import static_graph

    stages: list[Stage] = _CURRENT["stages"]
    hooks: Hooks = _CURRENT["hooks"]
    file_name = _CURRENT["file_name"]
    stage = stages[index]
    result = StageAnalysis(index, text)
    static = static_graph(stage.tree)
    result.graphs.append(GraphData("Task graph: one node per submit site", static, ".dot"))
    if hooks.seed is not None:
        hooks.seed(stages, index)
    if hooks.instances_of is not None:
        _instances(hooks.instances_of(stage), static, result)
    if hooks.hazards_of is not None:
        hazards = hooks.hazards_of(stage)
        if hazards is not None:
            result.hazard_total = getattr(hazards, "total", len(hazards))
            result.hazards = list(hazards)[:HAZARD_LIST_LIMIT]
    if index > 0 and before_text is not None:
        before = stages[index - 1]
        lowering = before.language.entry != stage.language.entry
        result.change = describe_change(before_lines, lines, before_text, text,
                                        file_name(before, ""), file_name(stage, ""), lowering, _CURRENT["labelled"])
    return result


def _instances(instances, static, result: StageAnalysis) -> None:
    from nanopass.printer.instances import instance_graph

    if instances is None or isinstance(instances, str):
        result.instance_note = instances or "the interpreter cannot run this stage's program"
        return
    instances = list(instances)
    whole = instance_graph(instances, limit=INSTANCE_FILE_LIMIT, site_limit=10**9, static=static)
    coarse = None
    if not whole.summarised:
        per_site = instance_graph(instances, limit=0, site_limit=10**9, static=static)
        coarse = per_site.graph
    note = f"{whole.instances} task instances"
    if whole.summarised:
        note += ", summarised per submit site"
    result.graphs.append(GraphData("Instance graph: one node per task of one run", whole.graph, ".instances.dot",
                                   note, coarse))


INSTANCE_FILE_LIMIT = 5_000  # instances drawn one by one in the .dot file; beyond, per submit site


class _Inline:
    """An executor that runs each job at once, in this process."""

    def submit(self, fn, *args) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as error:  # noqa: BLE001 - handed to the caller through the future
            future.set_exception(error)
        return future

    def __enter__(self) -> "_Inline":
        return self

    def __exit__(self, *exc) -> None:
        return None


def _executor(stages: list[Stage], workers: int | None):
    from .progress import statement_count

    count = workers if workers is not None else (os.cpu_count() or 1)
    if count <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return _Inline()
    if workers is None and (not stages or statement_count(stages[0].tree) < POOL_THRESHOLD):
        return _Inline()
    return ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork"))
