"""The oracle: does the recorded run of the emitted C++ keep the program's meaning?

For one run (one setting of the scalars) it compares the sequential semantics (semantics.py)
with the recorded calls (recorder.cpp) under the runtime model (rtmodel.py):

- MATCH: kernel tasks and host accesses appear in the same order with the same kernels;
- ORDER: every pair of events that conflict in the sequential semantics (a write and another
  access to one element; or a read and the write it observes through pl.assemble copies) is
  ordered by the runtime model, and so is every pair of recorded nodes whose *actual* buffer
  elements conflict; pairs the program declares independent are waived (different iterations of
  one pl.parallel loop, a pl.no_dep argument, a manual_dep tensor);
- VALUES: executing the recorded nodes in submission order on element memory, every read observes
  the same write as in the sequential semantics, and the parameters end with the same writes; and
  the same in the order `latest_first` gives (of the nodes the model lets start, the one submitted
  last first), where a dependency the emitted code lacks (e.g. an OUTPUT_EXISTING argument that
  should have been INOUT: it does not wait for the earlier writer) changes what is read or left;
- RUNTIME: no fatal error, no buffer used after the scope that allocated it.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass

from . import program as P
from . import rtmodel as R
from .semantics import UNDEF, SeqResult, f32_bits, independent

MAX_DETAILS = 4


@dataclass
class Failure:
    cls: str          # the failure class key (what minimisation preserves)
    detail: str

    def __str__(self) -> str:
        return f"[{self.cls}] {self.detail}"


def _mode(node: R.Node) -> str:
    return "M" if node.mode == R.MANUAL else "A"


def _kind(ev) -> str:
    return {"task": "task", "hread": "hread", "hwrite": "hwrite"}[ev.kind]


def match(seq: SeqResult, model: R.Model, kernel_ids: dict) -> tuple:
    """Pair sequential events with recorded nodes; returns (mapping list, failure or None)."""
    names = {v: k for k, v in kernel_ids.items()}
    # a get of an element a dummy task created is a compiled host wait (the program has no such read)
    waits = {a.addr for n in model.nodes if n.kind == "dummy" for a in n.args if a.tag == R.OUTPUT}
    rec = [n for n in model.nodes
           if n.kind in ("submit", "set") or (n.kind == "get" and n.args[0].addr not in waits)]
    want = {"task": "submit", "hread": "get", "hwrite": "set"}
    for i, ev in enumerate(seq.events):
        if i >= len(rec):
            return None, Failure("trace-mismatch", f"the recorded run ends before {ev.describe()}")
        node = rec[i]
        if want[ev.kind] != node.kind:
            return None, Failure("trace-mismatch", f"{ev.describe()} recorded as {node.describe()}")
        if ev.kind == "task":
            name = names.get(node.kernel_id())
            if name != ev.kernel:
                return None, Failure("trace-mismatch", f"{ev.describe()} recorded as kernel {name}")
            if len(node.args) != len(ev.accesses):
                return None, Failure("trace-mismatch",
                                     f"{ev.describe()} has {len(ev.accesses)} tensor parameters, "
                                     f"the recorded submit {len(node.args)}")
    if len(rec) > len(seq.events):
        return None, Failure("trace-mismatch", f"extra recorded {rec[len(seq.events)].describe()}")
    return [n.i for n in rec], None


def _pair_kinds(a1, a2) -> set:
    """The hazards between an access and a later one to the same element."""
    out = set()
    if a1.write and a2.read:
        out.add("RAW")
    if a1.write and a2.write:
        out.add("WAW")
    if a1.read and a2.write:
        out.add("WAR")
    return out


def sequential_conflicts(seq: SeqResult) -> dict:
    """(e1, e2) -> set of conflict kinds, e1 < e2, over sequential element accesses, plus the
    (writer, reader) pairs of every read's observed write; waived pairs are left out."""
    out = defaultdict(set)
    events = seq.events
    for e1, e2, a1, a2, waived in _pairs(seq, _sequential_locations(seq)):
        if not waived:
            out[(e1, e2)] |= _pair_kinds(a1, a2)
    for ev in events:
        for pos, stamps in ev.reads.items():
            acc = ev.accesses[pos]
            if acc.nodep or acc.manual_dep:
                continue
            for st in stamps:
                if st[0] == "ev" and st[1] != ev.idx and not independent(events[st[1]], ev):
                    if not any(a.nodep or a.manual_dep for a in events[st[1]].accesses):
                        out[(st[1], ev.idx)].add("RAW")
    return out


def recorded_conflicts(seq: SeqResult, model: R.Model, nodes_of: list) -> dict:
    """(e1, e2) -> kinds for the recorded nodes' actual buffer elements (same waivers)."""
    out = defaultdict(set)
    for e1, e2, a1, a2, waived in _pairs(seq, _recorded_locations(seq, model, nodes_of)):
        if not waived:
            out[(e1, e2)] |= _pair_kinds(a1, a2)
    return out


def _sequential_locations(seq: SeqResult) -> dict:
    """(buffer, element) of the sequential semantics -> [(event, access)] in program order."""
    by_loc = defaultdict(list)
    for ev in seq.events:
        for acc in ev.accesses:
            for e in acc.elems:
                by_loc[(acc.buf, e)].append((ev.idx, acc))
    return by_loc


def _recorded_locations(seq: SeqResult, model: R.Model, nodes_of: list) -> dict:
    """(address, element) the recorded nodes actually access -> [(event, access)] in order."""
    by_loc = defaultdict(list)
    for ev in seq.events:
        node = model.nodes[nodes_of[ev.idx]]
        for acc, arg in zip(ev.accesses, node.args):
            for flat in arg.elems:
                by_loc[(arg.addr, flat)].append((ev.idx, acc))
    return by_loc


def _pairs(seq: SeqResult, by_loc: dict):
    """(e1, e2, access1, access2, waived) for every two events e1 < e2 that access one location,
    one of them writing; waived: the program declares the pair unordered (a pl.no_dep argument, a
    manual_dep tensor, two iterations of one pl.parallel loop)."""
    for accs in by_loc.values():
        for j in range(len(accs)):
            e2, a2 = accs[j]
            for i in range(j):
                e1, a1 = accs[i]
                if e1 == e2 or not (a1.write or a2.write):
                    continue
                waived = (a1.nodep or a2.nodep or a1.manual_dep or a2.manual_dep
                          or independent(seq.events[e1], seq.events[e2]))
                yield e1, e2, a1, a2, waived


def latest_first(seq: SeqResult, model: R.Model, nodes_of: list) -> list:
    """A run order of the recorded nodes the runtime model allows (each node after its `preds`)
    that, of the nodes ready, runs the one submitted last first: a pair the model leaves unordered
    runs against program order. The pairs the program itself declares unordered keep their
    submission order, so the values this order gives differ from the program's only through a
    pair the program orders and the emitted code does not (a hazard, seen as a value)."""
    keep = defaultdict(set)
    for locations in (_sequential_locations(seq), _recorded_locations(seq, model, nodes_of)):
        for e1, e2, _, _, waived in _pairs(seq, locations):
            if waived:
                keep[nodes_of[e2]].add(nodes_of[e1])
    succ = defaultdict(list)
    waiting = []
    for node in model.nodes:
        before = node.preds | keep[node.i]
        waiting.append(len(before))
        for p in before:
            succ[p].append(node.i)
    ready = [-i for i, k in enumerate(waiting) if k == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = -heapq.heappop(ready)
        order.append(i)
        for s in succ[i]:
            waiting[s] -= 1
            if waiting[s] == 0:
                heapq.heappush(ready, -s)
    return order


def check_order(seq: SeqResult, model: R.Model, nodes_of: list) -> list:
    fails = []
    seqc = sequential_conflicts(seq)
    recc = recorded_conflicts(seq, model, nodes_of)
    seen = set()
    for source, conflicts in (("", seqc), (" (recorded memory)", recc)):
        for (e1, e2), kinds in sorted(conflicts.items()):
            if (e1, e2) in seen:
                continue
            n1, n2 = nodes_of[e1], nodes_of[e2]
            if model.ordered(n1, n2):
                continue
            seen.add((e1, e2))
            ev1, ev2 = seq.events[e1], seq.events[e2]
            kind = next(k for k in ("RAW", "WAW", "WAR") if k in kinds)
            m1, m2 = _mode(model.nodes[n1]), _mode(model.nodes[n2])
            tag = "" if (e1, e2) in seqc else " recorded-only"
            fails.append(Failure(f"hazard {kind} {_kind(ev1)}>{_kind(ev2)} {m1}{m2}{tag}",
                                 f"{'/'.join(sorted(kinds))} between {ev1.describe()} and "
                                 f"{ev2.describe()} is not ordered{source}"))
    return fails


def _init_stamp(model: R.Model, slot_of_addr: dict, addr: int, flat: int):
    if addr in slot_of_addr:
        return ("ext", slot_of_addr[addr], flat)
    fill = model.fills.get(addr)
    if fill is not None:
        return ("fill", fill & 0xFFFFFFFF)
    return UNDEF


def check_values(seq: SeqResult, model: R.Model, nodes_of: list, order=None, tag: str = "") -> list:
    """Run the recorded nodes in submission order (or `order`, node indices) on element memory;
    compare what reads see (failure classes `value WHERE` + `tag`)."""
    names = list(seq.slot_names) or P.tensor_slot_names()
    slot_of_addr = {addr: names[slot] for slot, addr in model.arg_addrs.items()}
    mem: dict = {}
    event_of = {n: e for e, n in enumerate(nodes_of)}
    fails = []

    def load(addr, flat):
        st = mem.get((addr, flat))
        return st if st is not None else _init_stamp(model, slot_of_addr, addr, flat)

    for node in model.nodes if order is None else (model.nodes[i] for i in order):
        e = event_of.get(node.i)
        if e is None:
            continue
        ev = seq.events[e]
        for acc, arg in zip(ev.accesses, node.args):
            if not acc.read:
                continue
            want = ev.reads[acc.pos]
            got = [load(arg.addr, f) for f in arg.elems]
            bad = [k for k, (w, g) in enumerate(zip(want, got)) if w is not UNDEF and w != g]
            if bad and len(fails) < MAX_DETAILS:
                k = bad[0]
                fails.append(Failure(f"value {ev.kind}{tag}",
                                     f"{ev.describe()} argument {acc.pos} element {k} observes "
                                     f"{_stamp(seq, got[k])}, the program means {_stamp(seq, want[k])}"))
        for acc, arg in zip(ev.accesses, node.args):
            if acc.write:
                for f in arg.elems:
                    mem[(arg.addr, f)] = ("ev", e)
    for slot, addr in model.arg_addrs.items():
        name = names[slot]
        for (buf, flat), want in seq.memory.items():
            if buf != f"ext:{name}" or want is UNDEF:
                continue
            got = load(addr, flat)
            if got != want:
                fails.append(Failure(f"value final{tag}", f"parameter {name} element {flat} ends with "
                                                    f"{_stamp(seq, got)}, the program means {_stamp(seq, want)}"))
                break
    return fails


def _stamp(seq: SeqResult, st) -> str:
    if st is UNDEF or st == UNDEF:
        return "uninitialised memory"
    if st[0] == "ev":
        return f"the write of {seq.events[st[1]].describe()}"
    if st[0] == "ext":
        return f"the initial {st[1]}[{st[2]}]"
    if st[0] == "fill":
        return f"a fill value (bits {st[1]:#x})"
    return str(st)


def check_run(seq: SeqResult, log: list, kernel_ids: dict, host_region: str = "element") -> list:
    model = R.build(log, host_region)
    fails = [Failure(f"runtime {kind}", text) for kind, text in model.errors]
    if any(k == "fatal" for k, _ in model.errors):
        return fails
    nodes_of, bad = match(seq, model, kernel_ids)
    if bad:
        return fails + [bad]
    fails += check_order(seq, model, nodes_of)
    fails += check_values(seq, model, nodes_of)
    fails += check_values(seq, model, nodes_of, latest_first(seq, model, nodes_of), " latest-first")
    return fails


__all__ = ["Failure", "check_run", "f32_bits"]
