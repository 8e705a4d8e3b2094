"""A task graph as data, and its one DOT rendering (shared by the static and the instance graph).

Nodes are tasks (or dummy barriers), placed in nested clusters (runtime scopes, loops, branches).
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
explicit edge through a TaskId array is labelled ``name[N]``. ``to_digraph`` emits clusters and
nodes in insertion order and edges in insertion order, so equal graphs give equal DOT text.
"""

from __future__ import annotations

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

    def edge_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for edge in self.edges.values():
            counts[edge.kind] = counts.get(edge.kind, 0) + 1
        return counts

    def to_digraph(self, name: str) -> graphviz.Digraph:
        dot = graphviz.Digraph(
            name=name,
            graph_attr={"rankdir": "TB", "fontname": "Helvetica", "newrank": "true"},
            node_attr={"shape": "box", "fontname": "Helvetica", "style": "rounded,filled", "fillcolor": "white"},
            edge_attr={"fontname": "Helvetica", "fontsize": "10"},
        )
        if self.title:
            dot.attr(label=self.title, labelloc="t", fontsize="12")
        children: dict[str | None, list[str]] = {}
        for cluster in self.clusters.values():
            children.setdefault(cluster.parent, []).append(cluster.id)
        members: dict[str | None, list[GraphNode]] = {}
        for node in self.nodes.values():
            members.setdefault(node.cluster, []).append(node)
        self._fill(dot, None, children, members)
        for edge in self.edges.values():
            dot.edge(edge.src, edge.dst, **_edge_attrs(edge))
        return dot

    def _fill(self, sub: graphviz.Digraph, cluster: str | None, children, members) -> None:
        for node in members.get(cluster, ()):
            sub.node(node.id, node.label, **_node_attrs(node))
        for child in children.get(cluster, ()):
            info = self.clusters[child]
            inner = graphviz.Digraph(name=child)
            inner.attr(label=info.label, style=CLUSTER_STYLES[info.kind], fontname="Helvetica", fontsize="10")
            self._fill(inner, child, children, members)
            sub.subgraph(inner)


def _node_attrs(node: GraphNode) -> dict[str, str]:
    attrs: dict[str, str] = {}
    if node.barrier:
        attrs.update(shape="diamond", fillcolor="lightgrey")
    elif node.core in CORE_FILL:
        attrs["fillcolor"] = CORE_FILL[node.core]
    if node.tooltip:
        attrs["tooltip"] = node.tooltip
    return attrs


def _edge_attrs(edge: GraphEdge) -> dict[str, str]:
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
    if label.strip():
        attrs["label"] = label.strip()
    attrs["tooltip"] = edge.tooltip or EDGE_MEANINGS[edge.kind]
    return attrs
