"""The work ``--dump-all`` does per stage, shared among worker processes.

``analyse_stages(stages, ...)`` returns one ``StageAnalysis`` per stage: its IR text, its static
task graph, its instance graph (from the ``instances_of`` hook), its hazards (``hazards_of``) and
what its pass changed (``stage_diff.describe_change``). The graphs, interpreter runs and hazards
of each stage whose tree is new are made in a pool of worker processes forked from this one
(the stages are not copied; only small records and DOT texts come back), each taking runs of
consecutive stages. Meanwhile this process makes the texts (a pass rebuilds only the nodes it
changes, so the text of a node the stages share is made once) and what each pass changed, one
stage after the other, handing each text on as it is made (``text_sink``: the dump writes it). A
stage whose text is its predecessor's reuses its predecessor's analysis (a pass that changed
nothing, or only the language's name). Without ``fork`` (or with one worker) the same work runs
in this process.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from .pipeline import Stage
from .stage_diff import PairedDiff, StageDiff, describe_change
from .text import OneLine, Unparser

HAZARD_LIST_LIMIT = 200  # hazards described per stage; the count is always exact
POOL_THRESHOLD = 400  # statements in the program below which one process does everything
BLOCKS_PER_WORKER = 2  # runs of consecutive stages handed to each worker process


@dataclass(frozen=True)
class Picture:
    """One drawing to try for a graph (``printer.summary.Drawing``): its kind, what it leaves
    out, and its DOT source."""

    kind: str
    note: str
    source: str


@dataclass
class GraphData:
    """One graph of a stage: ``graph`` is the whole graph (its DOT file is the stage's name and
    ``suffix``); ``coarse`` a smaller one to draw before collapsing (an instance graph's
    one node per submit site). ``pictures`` are the drawings to try in turn (``None`` when the
    graph is the stage before's, whose pictures it shares). The graphs stay in the process that
    made them: what comes back from a worker has ``graph`` and ``coarse`` None."""

    title: str
    graph: Any  # printer.graph.TaskGraph
    suffix: str  # ".dot" | ".instances.dot"
    note: str = ""
    coarse: Any = None
    dot: str = ""  # the graph's DOT text after its first line (the name), made with the graph
    nodes: int = 0
    edges: int = 0
    pictures: list[Picture] | None = None

    def __post_init__(self):
        if not self.dot:
            self.dot = self.graph.to_dot("g").split("\n", 1)[1]
        if self.graph is not None:
            self.nodes, self.edges = len(self.graph.nodes), len(self.graph.edges)

    def bare(self) -> "GraphData":
        """A copy without the graphs (what a worker hands back)."""
        return GraphData(self.title, None, self.suffix, self.note, None, self.dot, self.nodes, self.edges, self.pictures)


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
    text_size: tuple[int, int] = (0, 0)  # the whole IR text's characters and lines (``text`` may hold less)


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
                   text_sink: Callable[[int, str], str] | None = None) -> list[StageAnalysis]:
    """One analysis per stage, in order. ``progress(phase, done, total)`` is told as they finish.
    ``text_sink(index, text)`` is handed each stage's IR text as it is made, in order, and returns
    what the stage's analysis keeps as its ``text`` (``""``: none of it; ``text_size`` is always
    the whole text's), so that no more than two stages' texts are held at once (a program of
    16,000 tasks has up to 140 MB of text per stage)."""
    tell = progress or (lambda phase, done, total: None)
    tree_root: dict[int, int] = {}  # stage -> the first of the stages before it with an equal tree
    for i in range(1, len(stages)):
        if stages[i].tree is stages[i - 1].tree or stages[i].tree == stages[i - 1].tree:
            tree_root[i] = tree_root.get(i - 1, i - 1)
    fresh = [i for i in range(len(stages)) if i not in tree_root]
    _CURRENT.update(stages=stages, hooks=hooks, file_name=file_name, tree_root=tree_root)
    results: dict[int, StageAnalysis] = {}
    try:
        count = _worker_count(stages, workers)
        with _executor(count) as pool:  # forked here: the workers inherit _CURRENT
            # runs of consecutive stages, so that a worker meets a stage after the one before
            # (whose interpreter run and instance graph it may repeat)
            size = max(1, -(-len(fresh) // (BLOCKS_PER_WORKER * count)))
            jobs = [pool.submit(_analyse_block, fresh[i:i + size]) for i in range(0, len(fresh), size)]
            texts = _texts_and_changes(stages, labelled, file_name, tell, text_sink)  # meanwhile, in this process
            for job in jobs:
                for analysis in job.result():
                    results[analysis.index] = analysis
                    tell("stages", len(results), len(fresh))
    finally:
        _CURRENT.clear()
        _LAST_INSTANCES.clear()
        _LAST_GRAPHS.clear()
    out: list[StageAnalysis] = []
    for i, text in enumerate(texts):
        if text.unchanged or i not in results:  # (not analysed: its tree equals the one before)
            earlier = out[i - 1]
            root = earlier.same_as if earlier.same_as is not None else i - 1
            analysis = StageAnalysis(i, text.kept, earlier.graphs, earlier.instance_note, earlier.hazards,
                                     earlier.hazard_total, StageDiff((), 0, 0), root)
        else:
            analysis = results[i]
            analysis.text = text.kept
        analysis.text_size = text.size
        if text.change is not None:
            analysis.change = text.change
        out.append(analysis)
    return out


@dataclass(frozen=True)
class _StageText:
    """What ``_texts_and_changes`` makes of one stage's IR text."""

    kept: str  # what the stage's analysis keeps of the text (``text_sink``'s, or all of it)
    size: tuple[int, int]  # the whole text's characters and lines
    unchanged: bool  # the text is the stage before's (the pass changed nothing, or only the language's name)
    change: Any = None  # what the pass changed (``describe_change``), where the text changed; None for the first stage


def _texts_and_changes(stages: list[Stage], labelled: bool, file_name, tell,
                       text_sink: Callable[[int, str], str] | None) -> list[_StageText]:
    """Per stage, its text, its size and what its pass changed (``_StageText``). A pass rebuilds
    only the nodes it changes, so consecutive trees share most of their nodes, whose texts are
    made once (``text.Unparser``, ``text.OneLine``)."""
    unparser = Unparser(labelled=labelled)
    line = OneLine(labelled)
    out: list[_StageText] = []
    previous = ""
    for i, stage in enumerate(stages):
        text = previous if i and stage.tree is stages[i - 1].tree else unparser.unparse(stage.tree)
        unchanged = i > 0 and text == previous
        change = None
        if i and not unchanged:
            before = stages[i - 1]
            change = describe_change(before.tree, stage.tree, previous, text, file_name(before, ""),
                                     file_name(stage, ""), before.language.entry != stage.language.entry,
                                     labelled, line)
            line.next_generation()  # (the next change asks again for this tree's texts alone)
        size = (len(text), text.count("\n") + 1)
        out.append(_StageText(text if text_sink is None else text_sink(i, text), size, unchanged, change))
        previous = text
        tell("IR text", i + 1, len(stages))
    return out


def _analyse_block(indices: list[int]) -> list[StageAnalysis]:
    return [_analyse(i) for i in indices]


def _analyse(index: int) -> StageAnalysis:
    """The stage's analysis but its text and what its pass changed (``analyse_stages`` adds them),
    with its graphs' pictures chosen (what changed is against the graphs of the stage before,
    which this process made just before, or makes now)."""
    from nanopass.printer.summary import candidates

    stages: list[Stage] = _CURRENT["stages"]
    hooks: Hooks = _CURRENT["hooks"]
    file_name = _CURRENT["file_name"]
    stage = stages[index]
    previous: list[GraphData] = []
    if index > 0:
        root = _CURRENT["tree_root"].get(index - 1, index - 1)
        previous = _LAST_GRAPHS["made"][1] if _LAST_GRAPHS.get("made", (None,))[0] == root else _graphs(root)[1]
    result = StageAnalysis(index, "")
    result.instance_note, graphs = _graphs(index)
    for slot, data in enumerate(graphs):
        before = previous[slot] if slot < len(previous) else None
        if before is not None and before.dot == data.dot:
            continue  # the stage before's graph: its pictures serve
        stem = file_name(stage, data.suffix)[: -len(".dot")].replace(".", "_")
        drawings = candidates(data.graph, before.graph if before else None, data.coarse, f"stage {index - 1:02d}")
        data.pictures = [Picture(d.kind, d.note, d.graph.to_dot(stem)) for d in drawings]
    result.graphs = [data.bare() for data in graphs]
    if hooks.hazards_of is not None:
        hazards = hooks.hazards_of(stage)
        if hazards is not None:
            result.hazard_total = getattr(hazards, "total", len(hazards))
            result.hazards = list(hazards)[:HAZARD_LIST_LIMIT]
    return result


def _graphs(index: int) -> tuple[str, list[GraphData]]:
    """(why there is no instance graph, the stage's graphs), remembered as the last made."""
    from nanopass.printer.dot import static_graph

    stages: list[Stage] = _CURRENT["stages"]
    hooks: Hooks = _CURRENT["hooks"]
    stage = stages[index]
    static = GraphData("Task graph: one node per submit site", static_graph(stage.tree), ".dot")
    graphs = [static]
    note = ""
    if hooks.seed is not None:
        hooks.seed(stages, index)
    if hooks.instances_of is not None:
        note = _instances(hooks.instances_of(stage), static.graph, static.dot, graphs)
    _LAST_GRAPHS["made"] = (index, graphs)
    return note, graphs


# The graphs of the stage last analysed in this process: (stage index, [GraphData]).
_LAST_GRAPHS: dict[str, tuple] = {}


def _instances(instances, static, static_dot: str, graphs: list[GraphData]) -> str:
    """Appends the instance graph of ``instances`` to ``graphs``, or returns why there is none.
    It is the one made before when the hook handed the same instances (an equal run:
    ``tools.instances.StageRuns``) and, for the one per submit site, the same static graph."""
    from nanopass.printer.instances import instance_graph

    if instances is None or isinstance(instances, str):
        return instances or "the interpreter cannot run this stage's program"
    last = _LAST_INSTANCES.get("made")
    same = last is not None and last[0] is instances
    if same and last[3] == static_dot:
        graphs.append(last[2])
        return ""
    if same and not last[1].summarised:  # one node per instance: the static graph plays no part
        whole = last[1]
    else:
        whole = instance_graph(list(instances), limit=INSTANCE_FILE_LIMIT, site_limit=10**9, static=static)
    coarse = None
    if not whole.summarised:
        coarse = instance_graph(list(instances), limit=0, site_limit=10**9, static=static).graph
    note = f"{whole.instances} task instances"
    if whole.summarised:
        note += ", summarised per submit site"
    data = GraphData("Instance graph: one node per task of one run", whole.graph, ".instances.dot", note, coarse,
                     last[2].dot if same and whole is last[1] else "")
    graphs.append(data)
    _LAST_INSTANCES["made"] = (instances, whole, data, static_dot)
    return ""


# The instances last drawn in this process: (instances, InstanceGraph, GraphData, static DOT body).
_LAST_INSTANCES: dict[str, tuple] = {}


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


def _worker_count(stages: list[Stage], workers: int | None) -> int:
    """The worker processes to fork: ``workers``, else the cores this process may use for a
    program large enough to gain from them; 1 (no pool) without ``fork``."""
    from .progress import statement_count

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if workers is not None:
        return max(1, workers)
    if not stages or statement_count(stages[0].tree) < POOL_THRESHOLD:
        return 1
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def _executor(count: int):
    if count <= 1:
        return _Inline()
    return ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork"))
