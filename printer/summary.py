"""Task graphs cut down to a size a layout engine draws in a second or two, and a reader can read.

``fit(graph, previous)`` returns a ``Drawing``: the graph itself when it is within the budget
(``NODE_BUDGET`` nodes and ``EDGE_BUDGET`` edges); else, when ``previous`` (the graph of the stage
before) is given and differs, only the part that changed (``changed_part``); else the graph
with its nodes grouped (``collapse``). Both summaries keep node ids of the full graph, so a
reader can find a node in the full ``.dot`` file.

- ``changed_part(before, after)``: the nodes an added or removed edge touches, and the nodes
  added, with every edge of ``after`` between them; the edges added are drawn heavier and
  marked ``+``, the removed ones red and marked ``−``.
- ``collapse(graph, budget)``: groups of nodes, each a loop, scope or branch folded into one
  node, or a run of consecutive nodes of one scope, labelled with how many tasks of which kernel
  they hold; one edge per (group, group, kind) with the number of edges it stands for. Groups
  are refined from the whole graph down, the largest first, while the budget allows: what fits
  is drawn node by node. ``summarised`` also leaves out the group edges that a path through
  other groups implies (``reduce``), which keeps a layout of long chains quick and readable.

``candidates`` adds the smaller drawings to fall back on when a layout runs out of time.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .graph import Cluster, GraphEdge, GraphNode, TaskGraph

NODE_BUDGET = 120
EDGE_BUDGET = 360


@dataclass
class Drawing:
    """What to draw for one graph: ``kind`` is "full", "changed", "collapsed" or "per-site";
    ``note`` says what a summary leaves out."""

    graph: TaskGraph
    kind: str = "full"
    note: str = ""


def fits(graph: TaskGraph, nodes: int = NODE_BUDGET, edges: int = EDGE_BUDGET) -> bool:
    return len(graph.nodes) <= nodes and len(graph.edges) <= edges


def fit(graph: TaskGraph, previous: TaskGraph | None = None, since: str = "the stage before",
        nodes: int = NODE_BUDGET, edges: int = EDGE_BUDGET) -> Drawing:
    """The drawing of ``graph`` within the budget (see the module docstring)."""
    if fits(graph, nodes, edges):
        return Drawing(graph)
    if previous is not None:
        part = changed_part(previous, graph)
        if part is not None and part.nodes and fits(part, nodes, edges):
            part.title = (f"only what changed since {since}: {len(part.nodes)} of {len(graph.nodes)} tasks, "
                          f"{_changes(part)}")
            return Drawing(part, "changed", part.title)
        if part is not None:
            marked = _marked(graph, previous)
            drawing = summarised(marked, nodes, edges)
            added = sum(1 for edge in marked.edges.values() if edge.change == "added")
            if added:
                drawing.note += f"; the group edges holding one of the {added} edges added since {since} are drawn heavy (+)"
                drawing.graph.title = drawing.note
            return drawing
    return summarised(graph, nodes, edges)


def _marked(graph: TaskGraph, previous: TaskGraph) -> TaskGraph:
    """``graph`` with the edges that ``previous`` lacks marked added."""
    marked = TaskGraph(dict(graph.nodes), dict(graph.clusters), {}, graph.title)
    known = _keys(previous)
    for key, edge in graph.edges.items():
        marked.edges[key] = edge if _family(key) in known else replace(edge, change="added")
    return marked


def candidates(graph: TaskGraph, previous: TaskGraph | None = None, coarse: TaskGraph | None = None,
               since: str = "the stage before") -> list[Drawing]:
    """The drawings to try in turn for ``graph``, each smaller than the one before: ``fit``'s
    choice (with ``coarse``, an instance graph's one node per submit site, tried before
    collapsing), then summaries for a layout that runs out of time."""
    first = fit(graph, previous, since)
    base = graph
    if first.kind == "collapsed" and coarse is not None:
        base = coarse
        first = Drawing(coarse, "per-site", f"one node per submit site: {len(graph.nodes)} tasks in "
                        f"{len(coarse.nodes)} sites") if fits(coarse) else summarised(coarse)
    out = [first]
    if first.kind != "collapsed":
        out.append(summarised(base))
    out.append(summarised(base, NODE_BUDGET // 3, EDGE_BUDGET // 3))
    return out


def summarised(graph: TaskGraph, nodes: int = NODE_BUDGET, edges: int = EDGE_BUDGET) -> Drawing:
    """The collapsed drawing, with a node budget small enough for its edges to fit too, and
    without the edges a path through other groups implies (``reduce``)."""
    budget = nodes
    while True:
        small = collapse(graph, budget)
        implied = reduce(small)
        if len(small.edges) <= edges or budget <= 8:
            break
        budget = max(8, budget * 2 // 3)
    small.title = (f"{len(graph.nodes)} tasks and {len(graph.edges)} edges in {len(small.nodes)} groups; "
                   f"{implied} group edges implied by a path through other groups are not drawn "
                   "(the full graph is in the .dot file)")
    return Drawing(small, "collapsed", small.title)


def reduce(graph: TaskGraph) -> int:
    """Remove the forward edges (from an earlier node to a later one) that a path of other
    forward edges implies: the transitive reduction of the order. Returns how many went."""
    position = {node: i for i, node in enumerate(graph.nodes)}
    succ: dict[str, set[str]] = {node: set() for node in graph.nodes}
    for edge in graph.edges.values():
        if position[edge.src] < position[edge.dst]:
            succ[edge.src].add(edge.dst)
    reach: dict[str, int] = {}  # node -> bitset (by position) of the nodes reachable from it
    for node in reversed(graph.nodes):
        bits = 0
        for nxt in succ[node]:
            bits |= reach[nxt] | 1 << position[nxt]
        reach[node] = bits
    implied = set()
    kept = {(e.src, e.dst) for e in graph.edges.values() if e.change}  # what a pass changed stays
    for node, nexts in succ.items():
        for target in nexts:
            bit = 1 << position[target]
            if any(reach[other] & bit for other in nexts if other != target):
                implied.add((node, target))
    keys = [key for key in graph.edges if (key[0], key[1]) in implied - kept]
    for key in keys:
        del graph.edges[key]
    return len(keys)


def _changes(graph: TaskGraph) -> str:
    added = sum(1 for e in graph.edges.values() if e.change == "added")
    removed = sum(1 for e in graph.edges.values() if e.change == "removed")
    return f"{added} edges added, {removed} removed"


# -- what changed ------------------------------------------------------------------------------------


def _family(key: tuple[str, str, str, str]) -> tuple[str, str, str, str]:
    """An edge as a pass may change it: its kind's family, not who is recorded as its author (a
    lowering forgets that), and whether the runtime tracks it (a scope placed may change that)."""
    src, dst, kind, label = key
    return src, dst, "explicit" if kind.startswith("explicit") else "data", label


def _keys(graph: TaskGraph) -> set:
    return {_family(key) for key in graph.edges}


def changed_part(before: TaskGraph, after: TaskGraph) -> TaskGraph | None:
    """The changed part of ``after`` (None when nothing changed)."""
    known_before, known_after = _keys(before), _keys(after)
    added = [key for key in after.edges if _family(key) not in known_before]
    removed = [key for key in before.edges if _family(key) not in known_after]
    new_nodes = [n for n in after.nodes if n not in before.nodes]
    if not added and not removed and not new_nodes:
        return None
    keep = set(new_nodes)
    for src, dst, _, _ in added + removed:
        keep.update((src, dst))
    keep &= set(after.nodes)
    part = TaskGraph()
    for node in after.nodes.values():
        if node.id in keep:
            part.add_node(node)
    part.copy_clusters(after)
    for key, edge in after.edges.items():
        if edge.src in keep and edge.dst in keep:
            part.add_edge(replace(edge, change="added" if _family(key) not in known_before else ""))
    for key in removed:
        edge = before.edges[key]
        if edge.src in keep and edge.dst in keep:
            part.add_edge(replace(edge, change="removed"))
    return part


# -- collapsing ---------------------------------------------------------------------------------------


@dataclass
class _Item:
    """A node, or a cluster with its items in program order."""

    node: GraphNode | None = None
    cluster: Cluster | None = None
    children: list["_Item"] = field(default_factory=list)
    nodes: list[GraphNode] = field(default_factory=list)  # every node below, in order


@dataclass
class _Unit:
    """A run ``items[start:end]`` of one parent's items: one node of the collapsed graph."""

    parent: _Item
    start: int
    end: int

    def items(self) -> list[_Item]:
        return self.parent.children[self.start:self.end]

    def size(self) -> int:
        return sum(len(item.nodes) for item in self.items())


def _tree(graph: TaskGraph) -> _Item:
    root = _Item()
    by_cluster: dict[str | None, _Item] = {None: root}
    for cid, cluster in graph.clusters.items():
        by_cluster[cid] = _Item(cluster=cluster)
    placed: set[str] = set()

    def attach(cid: str | None) -> _Item:
        item = by_cluster[cid]
        if cid is not None and cid not in placed:
            placed.add(cid)
            attach(graph.clusters[cid].parent).children.append(item)
        return item

    for node in graph.nodes.values():
        leaf = _Item(node=node, nodes=[node])
        attach(node.cluster).children.append(leaf)
        cid = node.cluster
        while cid is not None:
            by_cluster[cid].nodes.append(node)
            cid = graph.clusters[cid].parent
        root.nodes.append(node)
    return root


def collapse(graph: TaskGraph, budget: int = NODE_BUDGET) -> TaskGraph:
    """``graph`` with at most ``budget`` nodes (see the module docstring)."""
    root = _tree(graph)
    units = [_Unit(root, 0, len(root.children))]
    while len(units) < budget:
        candidates = [u for u in units if u.size() > 1]
        if not candidates:
            break
        unit = max(candidates, key=lambda u: u.size())
        parts = _split(unit, budget - len(units) + 1)
        if parts is None:
            break
        index = units.index(unit)
        units[index:index + 1] = parts
    return _drawn(graph, units)


def _split(unit: _Unit, most: int) -> list[_Unit] | None:
    """``unit`` as at most ``most`` consecutive runs of about equal task counts (a unit of one
    cluster opens into the cluster's items first); None when it cannot be split."""
    while unit.end - unit.start == 1:
        item = unit.items()[0]
        if item.cluster is None:
            return None
        unit = _Unit(item, 0, len(item.children))
    count = unit.end - unit.start
    parts = min(count, most)
    if parts < 2:
        return None
    sizes = [len(item.nodes) for item in unit.items()]
    total = sum(sizes)
    out: list[_Unit] = []
    i = taken = 0
    for k in range(1, parts):
        goal = total * k / parts
        taken += sizes[i]
        end = i + 1
        while end < count - (parts - k) and taken + sizes[end] <= goal:
            taken += sizes[end]
            end += 1
        out.append(_Unit(unit.parent, unit.start + i, unit.start + end))
        i = end
    out.append(_Unit(unit.parent, unit.start + i, unit.end))
    return out


def _drawn(graph: TaskGraph, units: list[_Unit]) -> TaskGraph:
    small = TaskGraph()
    unit_of: dict[str, str] = {}
    position = {node: i for i, node in enumerate(graph.nodes)}
    units = sorted(units, key=lambda u: position[u.items()[0].nodes[0].id])
    for unit in units:
        items = unit.items()
        members = [n for item in items for n in item.nodes]
        if len(items) == 1 and items[0].node is not None:
            node = items[0].node
            unit_of[node.id] = node.id
            small.add_node(replace(node, cluster=_open_cluster(unit)))
            continue
        uid = f"g_{members[0].id}"
        for member in members:
            unit_of[member.id] = uid
        if len(items) == 1:
            head = items[0].cluster.label
        else:
            head = members[0].id if len(members) == 1 else f"{members[0].id} … {members[-1].id}"
        tasks = sum(m.count for m in members)
        label = f"{head}\\n{tasks} tasks: {_kernels(members)}"
        tip = f"{tasks} tasks: " + " ".join(m.id for m in members[:40]) + (" …" if len(members) > 40 else "")
        small.add_node(GraphNode(uid, label, _open_cluster(unit), core=_common_core(members), tooltip=tip,
                                 kernel="", count=tasks, group=True))
    small.copy_clusters(graph)
    counts: dict[tuple[str, str, str], int] = {}
    labels: dict[tuple[str, str, str], str] = {}
    added: set[tuple[str, str, str]] = set()
    for edge in graph.edges.values():
        u, v = unit_of[edge.src], unit_of[edge.dst]
        if u == v and u.startswith("g_"):
            continue  # inside a group
        key = (u, v, edge.kind)
        counts[key] = counts.get(key, 0) + edge.count
        labels[key] = edge.label if labels.get(key, edge.label) == edge.label else ""
        if edge.change == "added":
            added.add(key)
    order = {node: i for i, node in enumerate(small.nodes)}
    for (u, v, kind), count in counts.items():
        label = labels[(u, v, kind)]
        change = "added" if (u, v, kind) in added else ""
        small.add_edge(GraphEdge(u, v, kind, label, count=count, carried=order[u] >= order[v], change=change))
    return small


def _open_cluster(unit: _Unit) -> str | None:
    """The frame a unit sits in: the cluster whose items it is a run of (None at the top)."""
    return unit.parent.cluster.id if unit.parent.cluster is not None else None


def _kernels(members: list[GraphNode]) -> str:
    counts: dict[str, int] = {}
    for member in members:
        kernel = "barrier" if member.barrier else member.kernel or "task"
        counts[kernel] = counts.get(kernel, 0) + member.count
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    text = ", ".join(f"{name} ×{count}" for name, count in ranked[:3])
    return text + (", …" if len(ranked) > 3 else "")


def _common_core(members: list[GraphNode]) -> str | None:
    cores = {m.core for m in members}
    return cores.pop() if len(cores) == 1 else None
