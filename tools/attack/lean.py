"""Are the compiler's explicit dependencies the fewest that keep every order the program needs?

An outside check of issue 24's lean-edges claim, written from shared/spec/runtime-api.md section
11 and docs/semantics.md alone (nothing of the project's own edge measure or of its passes that
drop edges). It reads the recorder's log of one run (recorder.cpp, record.py) and works on the
runtime model's graph (rtmodel.py):

- an *insertion* is one entry of a submit's or a dummy task's explicit dependency list
  (`set_dependencies` / `deps=`: the user's in a manual scope and the compiler's alike);
- the *runtime order* R is the happens-before the runtime gives with no insertion at all: the
  same log with every dependency list emptied (creator retention, TensorMap, the orchestration
  thread blocking in host accesses and allocations; nothing in a MANUAL scope);
- the *needed pairs* are the pairs of program nodes (kernel submits and the program's host
  accesses, not dummies, allocations nor the compiled host waits that read a dummy's output)
  that the program orders: for a program of the tester's grammars, the oracle's conflicting pairs
  (oracle.sequential_conflicts and recorded_conflicts, with their waivers: pl.parallel
  iterations, pl.no_dep, manual_dep); for any other program (the examples, the goldens), every
  two accesses to overlapping recorded elements of one buffer, one of them writing, in submission
  order, waived when either goes through a NO_DEP slot or a manual_dep tensor (such a program's
  pl.parallel waivers cannot be seen in a log: a pair they waive shows as *unordered*);
- an *unordered* needed pair is one the full order (R and every insertion) leaves unordered: a
  soundness bug (the oracle reports the same as a hazard);
- an insertion is *redundant* when the log without that one entry still orders every needed pair
  the full log orders (so each redundant one alone could go; not necessarily all together), and
  *implied* when, without it, the order among the program nodes is the same (the issue's wording:
  implied transitively by the other orderings); implied ones are redundant too;
- `minimum`, the issue's "minimum number of insertions that would keep the same order": the
  edges of the transitive reduction of (R + the needed pairs the full order keeps: an unordered
  pair is reported as such, and for a program whose pl.parallel waivers the log does not show it
  is one of those) among the program nodes that R does not give. Every compilation with these tasks and slots whose insertions go between program nodes
  and order nothing the program does not need has at least that many (the reduction of a DAG's
  order is in every graph of that order). It is no lower bound for every compilation: a dummy
  task joining P writers for C readers does with P + C insertions where this counts P * C, and
  an insertion may order a pair nothing needs if that orders two needed pairs at once.
  `minimum_outside` is the same for the pairs not inside one manual scope instance, those inside
  taken as ordered already (the user's `deps=`): the part the compiler's insertions (those not
  inside, `insertions - inside`) are to be compared with.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Optional

from . import oracle
from . import rtmodel as R

_KINDS = ("submit", "dummy")


@dataclass
class Lean:
    """The figures of one recorded run."""

    insertions: int = 0
    inside: int = 0                   # of which between two nodes of one manual scope instance (manual_instances)
    dummies: int = 0
    redundant: list = field(default_factory=list)    # (from node, to node, implied?, inside?, text)
    unordered: list = field(default_factory=list)    # needed (node, node, inside?) left unordered
    minimum: int = 0
    minimum_outside: int = 0          # the same with the pairs inside a manual instance as given
    needed: int = 0
    errors: list = field(default_factory=list)       # the runtime model's (fatal, use after scope)

    def add(self, other: "Lean") -> "Lean":
        return Lean(self.insertions + other.insertions, self.inside + other.inside,
                    self.dummies + other.dummies, self.redundant + other.redundant,
                    self.unordered + other.unordered, self.minimum + other.minimum,
                    self.minimum_outside + other.minimum_outside,
                    self.needed + other.needed, self.errors + other.errors)


def without_deps(log: list, drop=None) -> list:
    """The log with the explicit dependency lists emptied (`drop` None), or with one entry
    removed (`drop` = (index of the event in the log, position in its list))."""
    out = list(log)
    for k, ev in enumerate(log):
        if ev.get("ev") in _KINDS and ev.get("deps") and (drop is None or drop[0] == k):
            ev = copy.copy(ev)
            ev["deps"] = [] if drop is None else ev["deps"][:drop[1]] + ev["deps"][drop[1] + 1:]
            out[k] = ev
    return out


def manual_instances(log: list) -> list:
    """Node -> the uid of the outermost MANUAL scope it is in (None: none). Pairs of nodes in one
    instance are the user's to order (docs/semantics.md, "The user's"), with the user's `deps=`;
    but a scope the compiler made MANUAL (analyze_auto_scopes_for_deps) is the compiler's, and so
    are its host waits and fences there: a log does not tell them apart."""
    parent: dict = {}
    out = []
    for ev in log:
        kind = ev.get("ev")
        if kind == "scope_begin":
            parent[ev["scope"]] = (ev["parent"], ev["mode"])
        elif kind in ("submit", "dummy", "alloc", "get", "set"):
            outer, s = None, ev["scope"]
            while s in parent:
                if parent[s][1] == R.MANUAL:
                    outer = s
                s = parent[s][0]
            out.append(outer)
    return out


def program_nodes(model: R.Model) -> list:
    """The nodes that are the program's: submits, and host accesses but those that read the
    output of a dummy task (a compiled host wait)."""
    waits = {a.addr for n in model.nodes if n.kind == "dummy" for a in n.args if a.tag == R.OUTPUT}
    return [n.i for n in model.nodes
            if n.kind == "submit" or (n.kind in ("get", "set") and n.args[0].addr not in waits)]


def _access(node: R.Node, arg: R.Arg) -> tuple:
    """(reads, writes) of one slot of a program node."""
    if node.kind == "get":
        return True, False
    if node.kind == "set":
        return False, True
    return arg.tag in (R.INPUT, R.INOUT), arg.tag in (R.OUTPUT, R.INOUT, R.OUTPUT_EXISTING)


def recorded_needed(model: R.Model, nodes: list) -> set:
    """Every (node, later node) of `nodes` accessing an overlapping recorded element of one
    buffer, one of them writing, neither through a NO_DEP slot nor a manual_dep tensor."""
    by_loc: dict = {}
    for i in nodes:
        node = model.nodes[i]
        for arg in node.args:
            if arg.tag == R.NO_DEP or arg.manual_dep:
                continue
            rd, wr = _access(node, arg)
            for e in arg.elems:
                by_loc.setdefault((arg.addr, e), []).append((i, wr))
    out = set()
    for accs in by_loc.values():
        for j, (b, wb) in enumerate(accs):
            for a, wa in accs[:j]:
                if a != b and (wa or wb):
                    out.add((a, b))
    return out


def oracle_needed(seq, model: R.Model, nodes_of: list) -> set:
    """The oracle's conflicting pairs of a run of a tester's program, as (node, node)."""
    pairs = set(oracle.sequential_conflicts(seq)) | set(oracle.recorded_conflicts(seq, model, nodes_of))
    return {(nodes_of[a], nodes_of[b]) for a, b in pairs if nodes_of[a] != nodes_of[b]}


def _bits(bits: int) -> list:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _closure(runtime: R.Model, nodes: list, mask: int, extra: dict) -> dict:
    """Node -> bits of its predecessors among `nodes` in R (restricted to `mask`) plus `extra`
    (node -> bits of direct predecessors), transitively."""
    closure: dict = {}
    for b in nodes:
        c = 0
        for a in _bits((runtime.anc[b] & mask) | extra.get(b, 0)):
            c |= closure[a] | (1 << a)
        closure[b] = c
    return closure


def minimum(runtime: R.Model, nodes: list, needed, given=()) -> int:
    """`minimum` of the module doc: the edges of the transitive reduction of (R + `given` +
    `needed`) among `nodes` that (R + `given`) does not give (`given`: pairs taken as ordered
    already, e.g. the user's inside a manual scope)."""
    mask = 0
    for i in nodes:
        mask |= 1 << i
    extra: dict = {}
    for a, b in given:
        extra[b] = extra.get(b, 0) | (1 << a)
    base = _closure(runtime, nodes, mask, extra)
    for a, b in needed:
        if not (base[b] >> a) & 1:
            extra[b] = extra.get(b, 0) | (1 << a)
    closure = _closure(runtime, nodes, mask, extra)
    count = 0
    for b in nodes:
        c = closure[b]
        if c != base[b]:
            covered = 0
            for a in _bits(c):
                covered |= closure[a]
            count += bin(c & ~covered & ~base[b]).count("1")
    return count


def analyse(log: list, needed: Optional[set] = None, host_region: str = "element") -> Lean:
    """The figures of one recorded run (`needed`: the needed pairs as (node, node); by default
    recorded_needed's)."""
    full = R.build(log, host_region)
    lean = Lean(errors=list(full.errors))
    if any(kind == "fatal" for kind, _ in full.errors):
        return lean
    nodes = program_nodes(full)
    if needed is None:
        needed = recorded_needed(full, nodes)
    lean.needed = len(needed)
    lean.dummies = sum(1 for n in full.nodes if n.kind == "dummy")
    manual = manual_instances(log)

    def inside(a, b) -> bool:
        return a is not None and manual[a] is not None and manual[a] == manual[b]

    lean.unordered = sorted((a, b, inside(a, b)) for a, b in needed if not full.ordered(a, b))
    kept = [p for p in needed if full.ordered(*p)]
    runtime = R.build(without_deps(log), host_region)
    lean.minimum = minimum(runtime, nodes, kept)
    lean.minimum_outside = minimum(runtime, nodes, [p for p in kept if not inside(*p)],
                                   [p for p in kept if inside(*p)])
    mask = 0
    for i in nodes:
        mask |= 1 << i
    node_of_event: dict = {}
    for k, ev in enumerate(log):
        if ev.get("ev") in ("submit", "dummy", "alloc", "get", "set"):
            node_of_event[k] = len(node_of_event)
    by_raw = {n.raw: n.i for n in full.nodes if n.raw is not None}
    for k, ev in enumerate(log):
        if ev.get("ev") not in _KINDS:
            continue
        n = node_of_event[k]
        for pos, raw in enumerate(ev["deps"]):
            lean.insertions += 1
            lean.inside += inside(by_raw.get(raw), n)
            less = R.build(without_deps(log, (k, pos)), host_region)
            if all(less.ordered(a, b) for a, b in kept):
                implied = all((less.anc[i] & mask) == (full.anc[i] & mask) for i in nodes)
                src = by_raw.get(raw)
                lean.redundant.append((src, n, implied, inside(src, n),
                                       f"{describe_node(full, src)} -> {full.nodes[n].describe()}"))
    return lean


def describe_node(model: R.Model, i) -> str:
    return "?" if i is None else model.nodes[i].describe()
