"""A model of the PTO2 runtime's ordering, written from shared/spec/runtime-api.md section 11.

Input: the recorder's log (recorder.cpp), one dict per call. Output: one node per submit, dummy
task, alloc_tensors, get_tensor_data and set_tensor_data, each with the nodes that must finish
before it starts (`preds`), and the happens-before relation as ancestor bit sets.

The rules modelled:
- explicit deps are fanins in AUTO and MANUAL scopes alike;
- in an AUTO scope only: creator retention (owner_task_id of every non-OUTPUT slot), TensorMap
  lookup for INPUT and INOUT slots without manual_dep (every entry of the same buffer whose
  elements overlap; not by version: runtime-api.md's "a higher version counts as overlapping"
  does not say whose version is the higher), removal of entries an INOUT slot covers, then
  insertion of INOUT and OUTPUT_EXISTING slots without manual_dep; readers are never recorded;
- in a MANUAL scope nothing but explicit deps;
- alloc_tensors completes inline: it happens before everything submitted after it;
- get_tensor_data waits for the tensor's creator and every overlapping TensorMap producer;
  set_tensor_data waits for the same and for every consumer (fanout) of those TensorMap
  producers known at the time of the call (not of the creator: where the text can be read two
  ways, the reading that orders less, as tools/runtime_model.py); both block the orchestration thread, so they happen before every later
  node. Through a manual_dep tensor (lookup turned off) a host access waits for the creator
  alone. `host_region` chooses what "overlapping" means for a host access: the one element
  accessed ("element", the least the spec promises) or the whole view passed ("view");
- retirement, in its weakest reading: a task may retire (its slot freed, its TensorMap entries
  and its id skipped by later lookups and deps) as soon as the scope it was submitted in has
  ended, its consumers so far being done by then. A fanin on a task whose scope has ended keeps
  its order (a retired task is complete) but does not make the node its consumer, so
  set_tensor_data does not wait for it; and set_tensor_data waits for fanout_refcount >=
  fanout_count-1, one reference being the producer's scope's: after that scope ended (its
  reference released) the write may leave any one consumer running, so it waits for the
  consumers of a producer only while the producer's scope is open.

Lifetime rule checked on the way: a buffer the runtime allocated (alloc_tensors or an OUTPUT
slot) belongs to the scope it was allocated in; using it after that scope ended is reported.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Optional

INVALID = 2**64 - 1
INPUT, OUTPUT, INOUT, OUTPUT_EXISTING, NO_DEP = 0, 1, 2, 3, 4
TAG_NAMES = {0: "INPUT", 1: "OUTPUT", 2: "INOUT", 3: "OUTPUT_EXISTING", 4: "NO_DEP"}
AUTO, MANUAL = 0, 1


def region(t: dict) -> list:
    """The flat element offsets of a recorded tensor view, in row-major view order."""
    out = [t["off"]]
    for d, st in zip(t["shapes"], t["strides"]):
        out = [o + i * st for o in out for i in range(d)]
    return out


def element(t: dict, idx: list) -> int:
    return t["off"] + sum(i * s for i, s in zip(idx, t["strides"]))


@dataclass
class Arg:
    pos: int
    tag: int
    addr: int
    elems: list
    manual_dep: bool
    owner: int
    version: int
    init: Optional[int] = None


@dataclass
class Node:
    i: int
    kind: str                          # submit, dummy, alloc, get, set
    raw: Optional[int]
    scope: int
    mode: int
    kernels: tuple = ()
    args: list = field(default_factory=list)
    deps: list = field(default_factory=list)
    flat: Optional[int] = None         # get/set: the element
    preds: set = field(default_factory=set)
    fanins: set = field(default_factory=set)
    why: dict = field(default_factory=dict)   # pred -> reason

    def describe(self) -> str:
        if self.kind == "submit":
            return f"submit kernel {self.kernel_id()} (node {self.i})"
        return f"{self.kind} (node {self.i})"

    def kernel_id(self) -> int:
        ids = [k for k in self.kernels if k != -1]
        return ids[0] if ids else -1


@dataclass
class Model:
    nodes: list
    anc: list                          # node -> bit set of nodes that happen before it
    errors: list                       # (kind, text)
    arg_addrs: dict                    # entry slot -> buffer address
    fills: dict                        # address -> (fill bits or None, shape elements)

    def ordered(self, a: int, b: int) -> bool:
        if a == b:
            return True
        lo, hi = (a, b) if a < b else (b, a)
        return bool((self.anc[hi] >> lo) & 1)


def _arg(pos: int, slot: dict) -> Arg:
    t = slot["t"]
    return Arg(pos, slot["tag"], t["addr"], region(t), t["manual_dep"], t["owner"], t["version"],
               t.get("init"))


def build(log: list, host_region: str = "element") -> Model:
    nodes: list = []
    by_raw: dict = {}
    tmap: list = []                    # [addr, frozenset elems, version, node index]
    consumers = defaultdict(set)
    errors: list = []
    arg_addrs: dict = {}
    fills: dict = {}
    buf_scope: dict = {}
    closed: set = set()
    last_sync: Optional[int] = None

    def check_lifetime(node: Node, addr: int, what: str):
        s = buf_scope.get(addr)
        if s is not None and s in closed:
            errors.append(("use_after_scope",
                           f"{node.describe()} uses {what} (buffer {addr:#x}) after the scope "
                           f"#{s} that allocated it ended"))

    def add_pred(node: Node, p: int, why: str, fanin: bool):
        if p == node.i:
            return
        node.preds.add(p)
        node.why.setdefault(p, why)
        if fanin:
            node.fanins.add(p)

    def overlapping(addr: int, elems: frozenset) -> list:
        # by elements only: "a higher version counts as overlapping" does not say whose version is
        # the higher, so neither reading is taken (docs/decisions.md, "versions")
        return [e for e in tmap if e[0] == addr and e[1] & elems]

    for ev in log:
        kind = ev["ev"]
        if kind == "arg":
            arg_addrs[ev["slot"]] = ev["t"]["addr"]
        elif kind == "scope_end":
            closed.add(ev["scope"])
        elif kind == "fatal":
            errors.append(("fatal", ev["why"]))
        elif kind == "unbalanced_scopes":
            errors.append(("unbalanced_scopes", f"{ev['open']} scope(s) left open"))
        elif kind in ("submit", "dummy", "alloc"):
            node = Node(len(nodes), kind, ev["id"], ev["scope"], ev.get("mode", AUTO),
                        tuple(ev.get("kernels", ())))
            if kind == "alloc":
                node.args = [Arg(i, OUTPUT, t["addr"], region(t), t["manual_dep"], t["owner"],
                                 t["version"], t.get("init")) for i, t in enumerate(ev["outs"])]
            else:
                node.args = [_arg(i, s) for i, s in enumerate(ev["tensors"])]
                node.deps = list(ev["deps"])
            nodes.append(node)
            by_raw[node.raw] = node.i
            if last_sync is not None:
                add_pred(node, last_sync, "program order after a host access or alloc", False)
            for d in node.deps:
                if d in by_raw:
                    add_pred(node, by_raw[d], "explicit dep", True)
            for a in node.args:
                if a.tag == OUTPUT:
                    buf_scope[a.addr] = node.scope
                    fills[a.addr] = a.init
                    continue
                check_lifetime(node, a.addr, f"argument {a.pos}")
            if kind == "alloc":
                last_sync = node.i
                continue
            if node.mode == AUTO:
                for a in node.args:
                    if a.tag == OUTPUT:
                        continue
                    if a.owner != INVALID and a.owner in by_raw:
                        add_pred(node, by_raw[a.owner], f"creator of argument {a.pos}", True)
                    if a.tag in (INPUT, INOUT) and not a.manual_dep:
                        elems = frozenset(a.elems)
                        for e in overlapping(a.addr, elems):
                            add_pred(node, e[3], f"TensorMap producer of argument {a.pos}", True)
                        if a.tag == INOUT:
                            tmap[:] = [e for e in tmap if not (e[0] == a.addr and e[1] <= elems)]
                for a in node.args:
                    if a.tag in (INOUT, OUTPUT_EXISTING) and not a.manual_dep:
                        tmap.append([a.addr, frozenset(a.elems), a.version, node.i])
            for p in node.fanins:
                if nodes[p].scope not in closed:  # else p may have retired: no consumer of it
                    consumers[p].add(node.i)
        elif kind in ("get", "set"):
            t = ev["t"]
            node = Node(len(nodes), kind, None, ev["scope"], ev["mode"])
            node.flat = element(t, ev["idx"])
            node.args = [Arg(0, INPUT if kind == "get" else OUTPUT_EXISTING, t["addr"], [node.flat],
                             t["manual_dep"], t["owner"], t["version"])]
            nodes.append(node)
            if t["addr"] == 0:
                errors.append(("host_null", f"{node.describe()} on a tensor with buffer.addr 0"))
            check_lifetime(node, t["addr"], "its tensor")
            if last_sync is not None:
                add_pred(node, last_sync, "program order", False)
            if t["owner"] != INVALID and t["owner"] in by_raw:
                add_pred(node, by_raw[t["owner"]], "host access waits for the creator", False)
            elems = frozenset([node.flat] if host_region == "element" else region(t))
            # a manual_dep tensor "turns off lookup and insert": the access waits for its creator only
            found = [] if t["manual_dep"] else overlapping(t["addr"], elems)
            for p in [e[3] for e in found]:
                add_pred(node, p, "host access waits for the producer", False)
                if kind == "set" and nodes[p].scope not in closed:  # (else any one may still run)
                    for cons in consumers[p]:
                        add_pred(node, cons, "host write waits for the producer's consumers", False)
            last_sync = node.i

    anc = []
    for node in nodes:
        bits = 0
        for p in node.preds:
            bits |= anc[p] | (1 << p)
        anc.append(bits)
    return Model(nodes, anc, errors, arg_addrs, fills)
