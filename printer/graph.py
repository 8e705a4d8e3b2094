"""A task graph as data, and its one DOT rendering (shared by the static and the instance graph).

Nodes are tasks (or dummy barriers, or merge nodes standing for a buffer's many possible last
writers: printer/dot.py's MERGED_WRITERS), placed in nested clusters (runtime scopes, loops, branches).
Edges have a kind that decides their style:

| kind | meaning | drawn |
|---|---|---|
| ``data`` | a task reads or rewrites a buffer another task wrote; the runtime tracks it (AUTO scope) | solid black |
| ``data-untracked`` | the same, but an end is in a MANUAL scope: only an explicit edge orders it | dotted grey |
| ``explicit-user`` | a ``deps=`` edge the user wrote | dashed blue |
| ``explicit-compiler`` | a dependency edge the compiler derived | bold dashed green |
| ``explicit`` | an explicit edge whose author the language no longer records (emission) | dashed purple |

A *guarded* edge (its TaskId may be invalid, so it is inserted under ``is_valid()``) has an open
arrowhead and a ``?`` after its label; a *carried* edge (from a later submit site to an earlier
one, through a loop back edge) starts its label with ``↻`` and does not constrain the layout (a
loop from a node to itself sits on its right for data, on its left for explicit edges). An
explicit edge through a TaskId array is labelled ``name[N]``. ``to_dot`` emits clusters and
nodes in insertion order and edges in insertion order, so equal graphs give equal DOT text;
its rows keep program order (see ``TaskGraph.to_dot``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import graphviz

EDGE_STYLES: dict[str, dict[str, str]] = {
    "data": {"color": "black"},
    "data-untracked": {"color": "gray50", "style": "dotted"},
    "explicit-user": {"color": "blue", "style": "dashed"},
    "explicit-compiler": {"color": "darkgreen", "style": "bold,dashed"},
    "explicit": {"color": "purple", "style": "dashed"},
}

EDGE_MEANINGS: dict[str, str] = {
    "data": "data dependency the runtime tracks (AUTO scope)",
    "data-untracked": "data dependency in a MANUAL scope (not tracked: needs an explicit edge)",
    "explicit-user": "explicit dependency written by the user (deps=)",
    "explicit-compiler": "explicit dependency derived by the compiler",
    "explicit": "explicit dependency (author not recorded at this stage)",
}

LABELLED_EDGES = 60  # above this many edges, edge labels are drawn beside the edges

CORE_FILL = {"AIC": "#dbe9ff", "AIV": "#fff3c4", "MIX": "#ead9ff"}

CLUSTER_STYLES = {
    "scope-auto": "dashed",
    "scope-manual": "bold",
    "loop": "solid",
    "branch": "dotted",
}


@dataclass
class Cluster:
    id: str
    label: str
    kind: str  # a key of CLUSTER_STYLES
    parent: str | None = None


@dataclass
class GraphNode:
    id: str
    label: str
    cluster: str | None = None
    barrier: bool = False
    core: str | None = None  # "AIC" | "AIV" | "MIX" | None
    tooltip: str = ""
    kernel: str = ""  # what runs ("" for a barrier or a group)
    count: int = 1  # how many tasks the node stands for (a submit site's instances, a group's tasks)
    group: bool = False  # a group of tasks drawn as one node (printer/summary.py)
    merge: bool = False  # no task: the possible last writers of a buffer drawn as one (printer/dot.py)


@dataclass
class GraphEdge:
    src: str
    dst: str
    kind: str  # a key of EDGE_STYLES
    label: str = ""
    guarded: bool = False
    carried: bool = False
    count: int = 1  # how many edges a summarised edge stands for
    tooltip: str = ""
    change: str = ""  # "added" | "removed" since the stage before (printer/summary.py's changed part)


@dataclass
class TaskGraph:
    """Nodes, clusters and edges; an edge is identified by (src, dst, kind, label)."""

    nodes: dict[str, GraphNode] = field(default_factory=dict)
    clusters: dict[str, Cluster] = field(default_factory=dict)
    edges: dict[tuple[str, str, str, str], GraphEdge] = field(default_factory=dict)
    title: str = ""

    def add_cluster(self, label: str, kind: str, parent: str | None) -> str:
        cid = f"cluster_{len(self.clusters) + 1}"
        self.clusters[cid] = Cluster(cid, label, kind, parent)
        return cid

    def add_node(self, node: GraphNode) -> GraphNode:
        return self.nodes.setdefault(node.id, node)

    def add_edge(self, edge: GraphEdge) -> GraphEdge:
        """Add ``edge``, or merge it into the equal edge already there (a guarded one stays guarded)."""
        key = (edge.src, edge.dst, edge.kind, edge.label)
        known = self.edges.get(key)
        if known is None:
            self.edges[key] = edge
            return edge
        known.guarded = known.guarded or edge.guarded
        return known

    def copy_clusters(self, source: "TaskGraph") -> None:
        """Take from ``source`` the clusters that hold a node of this graph, and their parents."""
        needed: set[str] = set()
        for node in self.nodes.values():
            cluster = node.cluster
            while cluster is not None and cluster not in needed:
                needed.add(cluster)
                cluster = source.clusters[cluster].parent
        self.clusters.update((cid, c) for cid, c in source.clusters.items() if cid in needed)

    def to_digraph(self, name: str) -> graphviz.Source:
        """The graph as a ``graphviz.Source`` (``.source`` is ``to_dot(name)``; ``.pipe`` renders it)."""
        return graphviz.Source(self.to_dot(name))

    def to_dot(self, name: str) -> str:
        """The DOT text: clusters and nodes in insertion order, then the ranks, then the edges.

        Rows follow program order: a node's row is the length of the longest chain of forward
        edges (from an earlier node to a later one) that ends at it, so tasks that may run side
        by side sit in one row; in a graph without clusters (an instance graph) the nodes of a
        row are tied left to right in insertion order, so they are numbered left to right."""
        out = [f"digraph {dot_id(name)} {{", '\tgraph [fontname=Helvetica newrank=true rankdir=TB]',
               '\tnode [fillcolor=white fontname=Helvetica shape=box style="rounded,filled"]',
               "\tedge [fontname=Helvetica fontsize=10]"]
        if self.title:
            out.append(f"\tgraph [{_attrs({'label': self.title, 'labelloc': 't', 'fontsize': '12'})}]")
        children: dict[str | None, list[str]] = {}
        for cluster in self.clusters.values():
            children.setdefault(cluster.parent, []).append(cluster.id)
        members: dict[str | None, list[GraphNode]] = {}
        for node in self.nodes.values():
            members.setdefault(node.cluster, []).append(node)
        self._fill(out, None, children, members, "\t")
        # Without clusters, invisible edges tie each row left to right in program order; with
        # clusters they would make dot's spline routing lose edges, so rows are only aligned.
        tie = " -> " if not self.clusters else "; "
        for row in self.rows():
            if len(row) > 1:
                out.append("\t{rank=same; " + tie.join(dot_id(n) for n in row) + (" [style=invis]}" if not self.clusters else "}"))
        # Beyond a few dozen edges, labels go beside the edges (xlabel): a label proper is a node of
        # the layout, which doubles the ranks and makes a large graph's layout many times slower.
        beside = len(self.edges) > LABELLED_EDGES
        out.extend(_edge_line(edge, beside) for edge in self.edges.values())
        out.append("}")
        return "\n".join(out) + "\n"

    def rows(self) -> list[list[str]]:
        """The nodes by rank (see ``to_dot``), each row in insertion order."""
        position = {node: i for i, node in enumerate(self.nodes)}
        preds: dict[str, list[str]] = {}
        for edge in self.edges.values():
            if edge.src in position and edge.dst in position and position[edge.src] < position[edge.dst]:
                preds.setdefault(edge.dst, []).append(edge.src)
        rank: dict[str, int] = {}
        rows: list[list[str]] = []
        for node in self.nodes:
            level = max((rank[p] + 1 for p in preds.get(node, ())), default=0)
            rank[node] = level
            while len(rows) <= level:
                rows.append([])
            rows[level].append(node)
        return rows

    def _fill(self, out: list[str], cluster: str | None, children, members, indent: str) -> None:
        for node in members.get(cluster, ()):
            out.append(indent + _node_line(node))
        for child in children.get(cluster, ()):
            info = self.clusters[child]
            out.append(f"{indent}subgraph {dot_id(child)} {{")
            attrs = {"label": info.label, "style": CLUSTER_STYLES[info.kind], "fontname": "Helvetica", "fontsize": "10"}
            out.append(f"{indent}\tgraph [{_attrs(attrs)}]")
            self._fill(out, child, children, members, indent + "\t")
            out.append(f"{indent}}}")


_PLAIN_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)")
_KEYWORDS = frozenset({"node", "edge", "graph", "digraph", "subgraph", "strict"})


@functools.lru_cache(maxsize=1 << 16)  # node ids and attribute values repeat all over a graph
def dot_id(text: str) -> str:
    """A DOT ID: as it is when it is a plain name or number, else quoted."""
    if _PLAIN_ID.fullmatch(text) and text.lower() not in _KEYWORDS:
        return text
    return '"' + text.replace('"', '\\"') + '"'


# The DOT line of each node and edge drawn, by its fields: the graphs of one run's stages share
# most of their nodes and edges. Emptied when it grows past _LINES_KEPT entries.
_LINES: dict[tuple, str] = {}
_LINES_KEPT = 1 << 18


def _node_line(node: GraphNode) -> str:
    key = (node.id, node.label, node.barrier, node.core, node.tooltip, node.group, node.merge)
    line = _LINES.get(key)
    if line is None:
        if len(_LINES) >= _LINES_KEPT:
            _LINES.clear()
        line = _LINES[key] = f"{dot_id(node.id)} [{_attrs({'label': node.label, **_node_attrs(node)})}]"
    return line


def _edge_line(edge: GraphEdge, beside: bool) -> str:
    key = (edge.src, edge.dst, edge.kind, edge.label, edge.guarded, edge.carried, edge.count, edge.tooltip,
           edge.change, beside)
    line = _LINES.get(key)
    if line is None:
        if len(_LINES) >= _LINES_KEPT:
            _LINES.clear()
        line = _LINES[key] = f"\t{dot_id(edge.src)} -> {dot_id(edge.dst)} [{_attrs(_edge_attrs(edge, beside))}]"
    return line


def _attrs(attrs: dict[str, str]) -> str:
    """``key=value ...``: the label first, the others by name (as the graphviz package writes them)."""
    keys = sorted(attrs, key=lambda k: (k not in ("label", "xlabel"), k))
    return " ".join(f"{key}={dot_id(attrs[key])}" for key in keys)


def _node_attrs(node: GraphNode) -> dict[str, str]:
    attrs: dict[str, str] = {}
    if node.barrier:
        attrs.update(shape="diamond", fillcolor="lightgrey")
    elif node.merge:
        attrs.update(shape="circle", fillcolor="white", fontsize="9")
    elif node.core in CORE_FILL:
        attrs["fillcolor"] = CORE_FILL[node.core]
    if node.group:
        attrs["peripheries"] = "2"
    if node.tooltip:
        attrs["tooltip"] = node.tooltip
    return attrs


def _edge_attrs(edge: GraphEdge, beside: bool = False) -> dict[str, str]:
    attrs = dict(EDGE_STYLES[edge.kind])
    label = edge.label
    if edge.guarded:
        attrs["arrowhead"] = "empty"
        label += "?"
    if edge.src == edge.dst:  # data loops on the right of the node, explicit ones on the left
        attrs.update({"tailport": "se", "headport": "ne"} if edge.kind.startswith("data") else {"tailport": "sw", "headport": "nw"})
    elif edge.carried:
        attrs["constraint"] = "false"
    if edge.carried:
        label = "↻ " + label
    if edge.count > 1:
        label += f" ×{edge.count}"
        attrs["penwidth"] = str(min(4, 1 + edge.count.bit_length() // 2))
    if edge.change == "added":
        attrs["penwidth"] = "2.5"
        label = "+ " + label
    elif edge.change == "removed":
        attrs.update(color="red", style="dashed", constraint="false")
        label = "− " + label
    if label.strip():
        attrs["xlabel" if beside else "label"] = label.strip()
    attrs["tooltip"] = edge.tooltip or EDGE_MEANINGS[edge.kind]
    if edge.change:
        attrs["tooltip"] = f"{edge.change} by this pass: " + attrs["tooltip"]
    return attrs
