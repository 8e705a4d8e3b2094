"""The instance graph: one node per task a run submits, summarised per submit site when large.

The input is any iterable of ``TaskInstance`` (what an interpreter of the program reports, in
submission order): an id, a label, the submit site it came from, and the ids of the earlier
instances it depends on, split into data (runtime-tracked) and explicit edges. Up to ``limit``
instances, every instance is a node ``i<id>``; explicit edges the compiler derived
(``derived``) are drawn apart from the user's. Above it the graph is *summarised*: one node per
submit site, labelled with its instance count, and one edge per (site, site, kind) labelled with
the number of instance edges it stands for; if there are more sites than ``site_limit``, the
first ones in submission order are kept and one node says how many were left out.
Dependencies on ids that are not instances of the input are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .graph import GraphEdge, GraphNode, TaskGraph

DEFAULT_LIMIT = 300


@dataclass(frozen=True)
class TaskInstance:
    """One submitted task of one run."""

    id: int
    label: str  # what runs: a kernel name, or "barrier"
    site: str = ""  # the submit site (static-graph node id, e.g. "t3"); "" = its own site
    data: tuple[int, ...] = ()  # earlier instances it waits for through tracked buffers
    deps: tuple[int, ...] = ()  # earlier instances it waits for through explicit edges
    user: bool = True  # whether the explicit edges in ``deps`` were written by the user
    derived: tuple[int, ...] = ()  # earlier instances it waits for through compiler-derived edges
    core: str | None = None
    barrier: bool = False


@dataclass
class InstanceGraph:
    graph: TaskGraph
    instances: int
    summarised: bool
    omitted_sites: int = 0


def instance_graph(instances: Iterable[TaskInstance], limit: int = DEFAULT_LIMIT, *,
                   site_limit: int | None = None, static: TaskGraph | None = None) -> InstanceGraph:
    """The graph of ``instances``: one node per instance up to ``limit``, else one per submit site
    (the first ``site_limit`` sites; by default ``limit``). With ``static`` (the stage's static
    graph), a site's node sits in the site's loops and scopes, as in the static graph."""
    tasks = list(instances)
    if len(tasks) <= limit:
        return InstanceGraph(_full(tasks), len(tasks), summarised=False)
    return _summary(tasks, limit if site_limit is None else site_limit, static)


def _explicit_kind(task: TaskInstance) -> str:
    return "explicit-user" if task.user else "explicit-compiler"


def _full(tasks: list[TaskInstance]) -> TaskGraph:
    graph = TaskGraph()
    known = {t.id for t in tasks}
    for task in tasks:
        graph.add_node(GraphNode(f"i{task.id}", f"#{task.id} {task.label}", None, task.barrier, task.core,
                                 tooltip=f"instance {task.id} of site {task.site or task.id}",
                                 kernel="" if task.barrier else task.label))
    for task in tasks:
        for source in task.data:
            if source in known:
                graph.add_edge(GraphEdge(f"i{source}", f"i{task.id}", "data"))
        for source in task.deps:
            if source in known:
                graph.add_edge(GraphEdge(f"i{source}", f"i{task.id}", _explicit_kind(task)))
        for source in task.derived:
            if source in known:
                graph.add_edge(GraphEdge(f"i{source}", f"i{task.id}", "explicit-compiler"))
    return graph


def _summary(tasks: list[TaskInstance], limit: int, static: TaskGraph | None) -> InstanceGraph:
    site_of = {t.id: t.site or f"i{t.id}" for t in tasks}
    sites: dict[str, list[TaskInstance]] = {}
    for task in tasks:
        sites.setdefault(site_of[task.id], []).append(task)
    kept = list(sites)[:limit]
    omitted = len(sites) - len(kept)
    kept_set = set(kept)
    graph = TaskGraph(title=f"{len(tasks)} task instances summarised per submit site (more than {limit})")
    for site in kept:
        first = sites[site][0]
        count = len(sites[site])
        known = static.nodes.get(site) if static is not None else None
        graph.add_node(GraphNode(site, f"{site}: {first.label}\\n×{count}", known.cluster if known else None,
                                 first.barrier, first.core, tooltip=f"{count} instances of submit site {site}",
                                 kernel="" if first.barrier else first.label, count=count))
    if static is not None:
        graph.copy_clusters(static)
    if omitted:
        graph.add_node(GraphNode("omitted", f"… {omitted} more submit sites", None, tooltip="not drawn"))
    counts: dict[tuple[str, str, str], int] = {}
    for task in tasks:
        dst = site_of[task.id]
        edges = [(s, "data") for s in task.data] + [(s, _explicit_kind(task)) for s in task.deps]
        edges += [(s, "explicit-compiler") for s in task.derived]
        for source, kind in edges:
            src = site_of.get(source)
            if src is None or src not in kept_set or dst not in kept_set:
                continue
            counts[(src, dst, kind)] = counts.get((src, dst, kind), 0) + 1
    for (src, dst, kind), count in counts.items():
        graph.add_edge(GraphEdge(src, dst, kind, count=count, carried=src == dst))
    return InstanceGraph(graph, len(tasks), summarised=True, omitted_sites=omitted)

