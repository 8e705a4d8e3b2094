"""The printed-IR "arrays" grammar: TaskId arrays named by version, read after their updates.

Written from shared/spec alone (dsl.md; frontend-behaviour.md 3.8, 4.5 and 6.2, the printed form
of `tids[i] = tid` and of `deps=[tids[0]]`; reference-behaviour.md 9.10-9.12 and 11.1-11.3, what
the existing compiler emits for them) and /work/shared/examples/printed-ir/ (the text form); none
of the compiler's front end read. A program is printed IR after the existing compiler's pipeline,
every name an SSA version:

    tids__ssa_v0: pl.Array[2, pl.TASK_ID] = pl.array.create(2, dtype=pl.TASK_ID)
    s0__ssa_v0 = pl.tensor.slice(a__ssa_v0, [4, 4], [0, 0])            (s1: rows 4..7)
    _submit_tmp = pl.submit(self.up, s0__ssa_v0, deps=[...])           `up` InOut, `rd` In + Out
    t0__ssa_v0: pl.Scalar[pl.TASK_ID] = _submit_tmp[1]
    tids__ssa_v1 = pl.array.update_element(tids__ssa_v0, 0, t0__ssa_v0)
    e__ssa_v0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(tids__ssa_v0, 1)

A task's deps are TaskId variables, whole arrays (a fence on every slot) and slots, a slot read
either through `pl.array.get_element` into a variable or through the front end's
`_submit_deps_buf` idiom (frontend-behaviour.md 6.2: a fresh array filled slot by slot). Any
visible version may be read, the older ones too: a version before an update of the same array
(in straight code, before a branch whose phi took an update, the init of a loop carry read in
its body or after the loop), and an update or a loop init may start from an older version (a
fork). Blocks: `pl.range(2)`, `pl.range(n)`, `pl.parallel(2)` carrying the array through
`init_values` (the body's task on its own rows `i * 4`, stored at slot `i`, guarded by `if i ==
0` at times), the seed's phases (a `pl.range(2|n)` around such a `pl.parallel(2)`, both
carrying it), and `if 1 < n` / `if c == 0` whose branches update the array (joined by a phi);
AUTO code (explicit `with pl.scope():` bodies, as the pipeline prints them) or one manual scope;
`pl.system.task_dummy` joins of a version (and a TaskId) stand between tasks at times.

Meaning (value semantics): an array version is a tuple of slots, each a set of tasks (None and
`task_invalid` the empty set, a submit's id itself); `update_element` makes a new tuple, so every
version keeps the tasks it named when it was made, whatever happened to the array since. A
task's deps stand for the union of the sets its entries name (`Event.user_deps`). Checks, on
top of the runner's (compile through `nanopass.compile_text`, g++ with the recorder, the
oracle's order and value checks in both run orders, `nanopass check`'s value comparison):

- `deps`: in the recorded run each task waits, through its explicit dependencies and the dummy
  tasks they name, for every task its deps mean (one missing is class `deps missing`: a read of
  the wrong version, or an edge lost), and, inside one manual scope instance (where only the
  user's deps order tasks: runtime-api.md section 11), for no other task it has no conflict with
  (class `deps extra`: a task the program did not name, a newer version's slot read for an
  older one); AUTO code's extra edges are the compiler's own (a reader before a writer, all of a
  loop's readers at once);
- a program whose manual-scope tasks conflict without their deps ordering them is the tester's
  invalid program (the generator draws again: `careless`).

One storage per array in the C++ (reference-behaviour.md 9.12) cannot hold two versions at
once, so a compiler may refuse a program that reads a version older than the last update of its
array (a "stale read": a get_element, a whole-array dep, an update or a loop init of an old
version, in the run's order). Such a refusal is right when it is a located error that quotes the
array's name (SSA suffixes stripped) at the line of a stale read or of an update of that array
made after the version it reads (in that run); any other refusal is a failure (class `refusal`). The CLI counts refusals by message.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Optional

from . import oracle, printed, runner, semantics
from . import program as P
from . import rtmodel as R

SIZE = 2                                  # every user array has two slots
ARR_T = f"pl.Array[{SIZE}, pl.TASK_ID]"
TID_T = "pl.Scalar[pl.TASK_ID]"
TILE_T = "pl.Tensor[[4, 4], pl.FP32]"
SETTINGS = tuple((n, c) for n in range(3) for c in (0, 1))

KERNELS = (
    P.Kernel("up", (("inout", "B"),)),
    P.Kernel("rd", (("in", "B"), ("out", "B"))),
)


def _idx(r, idx) -> int:
    return idx if isinstance(idx, int) else r.scalars[idx]


def _idx_text(idx) -> str:
    return str(idx) if isinstance(idx, int) else f"{idx}__idx_v0"


def _get_text(o, arr: str, idx) -> str:
    """A slot read as the program spells it (`o.spelling`): the IR's operation, or the DSL's subscript."""
    if getattr(o, "spelling", "op") == "subscript":
        return f"{arr}[{_idx_text(idx)}]"
    return f"pl.array.get_element({arr}, {_idx_text(idx)})"


# ---- the state value semantics keeps beside the runner's (array versions and their storage) ----

class _Arrays:
    """Per run: each array version's storage (lineage) and generation, each storage's last
    generation, and the stale reads met (line, base name of the array)."""

    def __init__(self):
        self.gen: dict = {}        # version name -> (lineage, generation)
        self.last: dict = {}       # lineage -> last generation made
        self.stale: list = []      # (line, array base name, lines of the updates made since the version)
        self.made_at: dict = {}    # (lineage, generation) -> line of the update that made it

    def read(self, name: str, line: int) -> None:
        lineage, g = self.gen[name]
        if g < self.last[lineage]:
            since = frozenset(self.made_at.get((lineage, k), 0) for k in range(g + 1, self.last[lineage] + 1))
            self.stale.append((line, base(name), since))


def _arrays(r) -> _Arrays:
    if not hasattr(r, "arrays"):
        r.arrays = _Arrays()
    return r.arrays


def base(name: str) -> str:
    return printed.SSA_SUFFIX.sub("", name)


# ---- statements (render into printed IR; run in the tester's semantics) ------------------------

@dataclass(frozen=True)
class Params:
    """Binds the SSA names of the parameters to the semantics' (renders nothing)."""

    def render(self, o, d, manual):
        pass

    def run(self, r):
        for name in ("x", "a", "b", "w", "sink"):
            r.env[f"{name}__ssa_v0"] = r.env[name]


@dataclass(frozen=True)
class MakeArray:
    name: str
    size: int = SIZE

    def render(self, o, d, manual):
        o.emit(d, f"{self.name}: pl.Array[{self.size}, pl.TASK_ID] = pl.array.create({self.size}, dtype=pl.TASK_ID)",
               self)

    def run(self, r):
        r.env[self.name] = tuple(frozenset() for _ in range(self.size))
        st = _arrays(r)
        lineage = (self.name, len(st.last))
        st.last[lineage] = 0
        st.gen[self.name] = (lineage, 0)


@dataclass(frozen=True)
class Rows:
    """`name = pl.tensor.slice(a, [4, 4], [row * 4, 0])`, row a slot index (int or loop var)."""

    name: str
    row: object

    def render(self, o, d, manual):
        row = f"{self.row * 4}" if isinstance(self.row, int) else f"{_idx_text(self.row)} * 4"
        o.emit(d, f"{self.name}: {TILE_T} = pl.tensor.slice(a__ssa_v0, [4, 4], [{row}, 0])", self)

    def run(self, r):
        r.stmt(P.Slice(self.name, "a", self.row * 4 if isinstance(self.row, int) else (self.row, 4)))


@dataclass(frozen=True)
class Task:
    """`tmp = pl.submit(self.<kernel>, region, deps=[...])`, its tensor result and TaskId read
    from `tmp`. `deps` are TaskId variables and array versions (whole-array fences)."""

    kernel: str
    region: str
    tmp: str
    out: str
    tid: str
    deps: tuple = ()

    def render(self, o, d, manual):
        dep = f", deps=[{', '.join(self.deps)}]" if self.deps else ""
        o.emit(d, f"{self.tmp}: pl.Tuple[{TILE_T}, {TID_T}] = pl.submit(self.{self.kernel}, {self.region}{dep})", self)
        o.emit(d, f"{self.out}: {TILE_T} = {self.tmp}[0]")
        o.emit(d, f"{self.tid}: {TID_T} = {self.tmp}[1]")

    def run(self, r):
        deps = frozenset()
        for name in self.deps:
            v = r.env[name]
            if isinstance(v, tuple):
                _arrays(r).read(name, r.line(self))
                for slot in v:
                    deps |= slot
            else:
                deps |= v
        call = P.Call(self.kernel, (self.region,) if self.kernel == "up" else (self.region, None), (self.out,),
                      submit=True, tid=self.tid)
        before = len(r.events)
        r.stmt(call)
        ev = r.events[before]
        ev.line = r.line(self)
        ev.user_deps = deps
        r.env[self.tid] = frozenset({ev.idx})


@dataclass(frozen=True)
class Store:
    """`new = pl.array.update_element(old, idx, tid)`."""

    new: str
    old: str
    idx: object
    tid: str

    def render(self, o, d, manual):
        o.emit(d, f"{self.new}: {ARR_T} = pl.array.update_element({self.old}, {_idx_text(self.idx)}, {self.tid})", self)

    def run(self, r):
        st = _arrays(r)
        st.read(self.old, r.line(self))
        slots = list(r.env[self.old])
        slots[_idx(r, self.idx)] = r.env[self.tid]
        r.env[self.new] = tuple(slots)
        lineage, _ = st.gen[self.old]
        st.last[lineage] += 1
        st.gen[self.new] = (lineage, st.last[lineage])
        st.made_at[(lineage, st.last[lineage])] = r.line(self)


@dataclass(frozen=True)
class Load:
    """`var = pl.array.get_element(arr, idx)`: a snapshot of one slot."""

    var: str
    arr: str
    idx: object

    def render(self, o, d, manual):
        o.emit(d, f"{self.var}: {TID_T} = {_get_text(o, self.arr, self.idx)}", self)

    def run(self, r):
        _arrays(r).read(self.arr, r.line(self))
        r.env[self.var] = r.env[self.arr][_idx(r, self.idx)]


@dataclass(frozen=True)
class DepsBuf:
    """The front end's `deps=[arr[i], ...]`: `names[0] = pl.array.create(K)`, then `names[k+1] =
    pl.array.update_element(names[k], k, pl.array.get_element(arr, idx))` for each (arr, idx)."""

    names: tuple
    reads: tuple
    elems: tuple = ()         # with names: each slot read into that variable first (not nested)

    def render(self, o, d, manual):
        k = len(self.reads)
        o.emit(d, f"{self.names[0]}: pl.Array[{k}, pl.TASK_ID] = pl.array.create({k}, dtype=pl.TASK_ID)", self)
        for j, (arr, idx) in enumerate(self.reads):
            value = _get_text(o, arr, idx)
            if self.elems:
                o.emit(d, f"{self.elems[j]}: {TID_T} = {value}")
                value = self.elems[j]
            o.emit(d, f"{self.names[j + 1]}: pl.Array[{k}, pl.TASK_ID] = pl.array.update_element({self.names[j]}, "
                      f"{j}, {value})")

    def run(self, r):
        st = _arrays(r)
        slots = []
        for j, (arr, idx) in enumerate(self.reads):
            st.read(arr, r.line(self) + 1 + j * (2 if self.elems else 1))   # the line of its get
            slots.append(r.env[arr][_idx(r, idx)])
        r.env[self.names[-1]] = tuple(slots)
        lineage = (self.names[0], len(st.last))
        st.last[lineage] = 0
        st.gen[self.names[-1]] = (lineage, 0)


@dataclass(frozen=True)
class Join:
    """`var = pl.system.task_dummy(deps=[...])`: the union of what its entries name."""

    var: str
    deps: tuple

    def render(self, o, d, manual):
        o.emit(d, f"{self.var}: {TID_T} = pl.system.task_dummy(deps=[{', '.join(self.deps)}])", self)

    def run(self, r):
        out = frozenset()
        for name in self.deps:
            v = r.env[name]
            if isinstance(v, tuple):
                _arrays(r).read(name, r.line(self))
                for slot in v:
                    out |= slot
            else:
                out |= v
        r.env[self.var] = out


def _carry_gen(r, dst: str, src: str) -> None:
    st = _arrays(r)
    if src in st.gen:
        st.gen[dst] = st.gen[src]


@dataclass(frozen=True)
class Loop(P.OneBlock):
    """`for var, (iters...) in pl.<kind>(trip, init_values=(inits...)):` ... `results =
    pl.yield_(yields...)`; carries are arrays. Value semantics: sequential iterations (the
    generator keeps a pl.parallel body to its own slot `var` of the carry and to outer versions,
    where a fan from the init means the same)."""

    kind: str
    var: str
    trip: object
    carries: tuple            # (iter name, init name)
    body: tuple
    yields: tuple
    results: tuple

    def render(self, o, d, manual):
        trip = self.trip if isinstance(self.trip, int) else f"{self.trip}__ssa_v0"
        iters = ", ".join(i for i, _ in self.carries) + ("," if len(self.carries) == 1 else "")
        inits = ", ".join(x for _, x in self.carries) + ("," if len(self.carries) == 1 else "")
        o.emit(d, f"for {self.var}__idx_v0, ({iters}) in pl.{self.kind}({trip}, init_values=({inits})):", self)
        b = d + 1
        if not manual:
            o.emit(b, "with pl.scope():")
            b += 1
        _body(o, b, self.body, manual)
        if len(self.results) == 1:
            o.emit(b, f"{self.results[0]}: {ARR_T} = pl.yield_({self.yields[0]})")
        else:
            o.emit(b, f"{', '.join(self.results)} = pl.yield_({', '.join(self.yields)})")

    def run(self, r):
        trip = self.trip if isinstance(self.trip, int) else r.scalars[self.trip]
        inst = r.loop_instances
        r.loop_instances += 1
        for it, init in self.carries:
            _arrays(r).read(init, r.line(self))
            r.env[it] = r.env[init]
            _carry_gen(r, it, init)
        for k in range(max(trip, 0)):
            r.scalars[self.var] = k
            if self.kind == "parallel":
                r.parallel.append((inst, k))
            r.run(self.body)
            if self.kind == "parallel":
                r.parallel.pop()
            for (it, _), y in zip(self.carries, self.yields):
                r.env[it] = r.env[y]
                _carry_gen(r, it, y)
        for (it, _), res in zip(self.carries, self.results):
            r.env[res] = r.env[it]
            _carry_gen(r, res, it)


@dataclass(frozen=True)
class Branch:
    """`if cond:` then `else:`, each ending `phis = pl.yield_(...)` (phis: (phi, then value,
    else value))."""

    cond: tuple
    then: tuple
    orelse: tuple
    phis: tuple

    def blocks(self) -> list:
        return [self.then, self.orelse]

    def with_blocks(self, lists):
        return replace(self, then=tuple(lists[0]), orelse=tuple(lists[1]))

    def render(self, o, d, manual):
        lhs, op, rhs = self.cond
        lhs = f"{lhs}__idx_v0" if lhs.startswith("i") else f"{lhs}__ssa_v0"
        text = f"{rhs} < {lhs}" if op == ">" else f"{lhs} {op} {rhs}"
        o.emit(d, f"if {text}:", self)
        for k, stmts in enumerate((self.then, self.orelse)):
            if k == 1:
                o.emit(d, "else:")
            b = d + 1
            if not manual:
                o.emit(b, "with pl.scope():")
                b += 1
            _body(o, b, stmts, manual)
            vals = [p[1 + k] for p in self.phis]
            if len(self.phis) == 1:
                o.emit(b, f"{self.phis[0][0]}: {ARR_T} = pl.yield_({vals[0]})")
            elif self.phis:
                o.emit(b, f"{', '.join(p[0] for p in self.phis)} = pl.yield_({', '.join(vals)})")
            elif not stmts:
                o.emit(b, "pass")

    def run(self, r):
        lhs, op, rhs = self.cond
        v = r.scalars[lhs]
        taken = {">": v > rhs, "==": v == rhs}[op]
        r.run(self.then if taken else self.orelse)
        for phi, t, e in self.phis:
            src = t if taken else e
            r.env[phi] = r.env[src]
            _carry_gen(r, phi, src)


@dataclass(frozen=True)
class Manual(P.OneBlock):
    body: tuple

    def render(self, o, d, manual):
        o.emit(d, "with pl.scope(mode=pl.ScopeMode.MANUAL):", self)
        _body(o, d + 1, self.body, True)

    def run(self, r):
        outer = r.manual
        if outer is None:
            r.manual = r.manual_instances
            r.manual_instances += 1
        r.run(self.body)
        r.manual = outer


def _body(o, d, stmts, manual) -> None:
    if not stmts:
        o.emit(d, "pass")
    for s in stmts:
        s.render(o, d, manual)


# ---- programs -----------------------------------------------------------------------------------

SPELLINGS = ("op", "subscript")


def render(body: tuple, spelling: str = "op") -> P.Rendered:
    """The printed IR of an orchestration body (the kernels printed as the pipeline does), a
    slot read spelled `pl.array.get_element(a, i)` (`op`, the IR's) or `a[i]` (`subscript`)."""
    kernels = printed._Renderer(P.Program(KERNELS, ()), "pipeline")
    for k in KERNELS:
        kernels.kernel(k)
    o = printed._Out()
    o.spelling = spelling
    o.emit(0, "# pypto.program: Attack")
    o.emit(0, "import pypto.language as pl")
    o.emit(0, "")
    o.emit(0, "@pl.program")
    o.emit(0, "class Attack:")
    o.lines += kernels.o.lines
    params = ", ".join([
        "x__ssa_v0: pl.Tensor[[8, 4], pl.FP32]", "a__ssa_v0: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]",
        "b__ssa_v0: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]", "w__ssa_v0: pl.InOut[pl.Tensor[[4, 4], pl.FP32]]",
        f"sink__ssa_v0: pl.InOut[pl.Tensor[[{P.SINK_SIZE}], pl.FP32]]",
        "n__ssa_v0: pl.Scalar[pl.INT64]", "c__ssa_v0: pl.Scalar[pl.INT64]"])
    o.emit(1, "@pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator, "
              "auto_scope=False)")
    o.emit(1, f"def orch(self, {params}) -> pl.Tensor[[8, 4], pl.FP32]:")
    o.emit(2, "with pl.scope():")
    _body(o, 3, body, False)
    o.emit(3, "return a__ssa_v0")
    return P.Rendered("\n".join(o.lines) + "\n", o.ids)


def _walk(stmts):
    for s in stmts:
        yield s
        for ch in (s.blocks() if hasattr(s, "blocks") else ()):
            yield from _walk(ch)


def careless(prog: "Program") -> Optional[str]:
    """The first two tasks of one manual scope instance that conflict while their deps (sets of
    tasks, transitively) leave them unordered, described; None when there are none."""
    for (n, c), seq in prog.sequences().items():
        before = {}
        for ev in seq.events:
            deps = getattr(ev, "user_deps", frozenset())
            acc = set(deps)
            for dep in deps:
                acc |= before.get(dep, set())
            before[ev.idx] = acc
        for (e1, e2) in sorted(oracle.sequential_conflicts(seq)):
            a, b = seq.events[e1], seq.events[e2]
            if (a.kind == b.kind == "task" and a.manual is not None and a.manual == b.manual
                    and e1 not in before[e2]):
                return f"n={n} c={c}: {a.describe()} and {b.describe()} conflict in one manual scope, no deps order them"
    return None


class Report(runner.Report):
    """runner.Report with this grammar's right refusals: a located error quoting the array of a
    stale read (module doc) at its line or the line of the update that made it stale."""

    stale: list = []

    def refusal_check(self) -> Optional[str]:
        if self.refusal is None:
            return None
        first = self.refusal.splitlines()[0]
        located = re.match(r"^\S+:(\d+):\d+: error: ", first)
        if not located:
            return None
        line = int(located.group(1))
        quoted = set(re.findall(r"'([^']+)'", first[located.end():]))
        quoted = {base(q) for q in quoted}
        if any(name in quoted and (line == at or line in since) for at, name, since in self.stale):
            return "name"
        return None


def explicit_waits(model: R.Model, node: R.Node) -> set:
    """The submit nodes `node` waits for through its explicit deps, a dummy's deps taken in turn."""
    by_raw = {n.raw: n for n in model.nodes if n.kind in ("submit", "dummy")}
    out, todo, seen = set(), list(node.deps), set()
    while todo:
        raw = todo.pop()
        if raw in seen or raw not in by_raw:
            continue
        seen.add(raw)
        dep = by_raw[raw]
        if dep.kind == "dummy":
            todo += dep.deps
        else:
            out.add(dep.i)
    return out


def deps_failures(seq, log, kernel_ids) -> list:
    """`deps missing` / `deps extra` failures of one recorded run (module doc)."""
    model = R.build(log)
    nodes_of, bad = oracle.match(seq, model, kernel_ids)
    if bad or any(k == "fatal" for k, _ in model.errors):
        return []
    event_of = {node: e for e, node in enumerate(nodes_of)}
    conflicts = oracle.sequential_conflicts(seq)
    fails = []
    for ev in seq.events:
        if ev.kind != "task":
            continue
        want = set(getattr(ev, "user_deps", frozenset()))
        got = {event_of[n] for n in explicit_waits(model, model.nodes[nodes_of[ev.idx]]) if n in event_of}
        # in AUTO code the compiler adds edges of its own (a reader before a writer, for a whole
        # loop's readers at once); inside one manual scope instance only the user's deps order tasks
        extra = {e for e in got - want if (e, ev.idx) not in conflicts
                 and ev.manual is not None and seq.events[e].manual == ev.manual}
        for cls, diff in (("deps missing", want - got), ("deps extra", extra)):
            if diff:
                fails.append(oracle.Failure(cls, f"{ev.describe()} waits for "
                                                 f"{', '.join(seq.events[e].describe() for e in sorted(got)) or 'nothing'}"
                                                 f"; its deps mean "
                                                 f"{', '.join(seq.events[e].describe() for e in sorted(want)) or 'nothing'}"))
    return fails


@dataclass(frozen=True)
class Program:
    """A program of this grammar: its orchestration body (statements above) and settings."""

    body: tuple
    spelling: str = "op"
    settings: tuple = SETTINGS
    edit: Optional[tuple] = None   # the tester's self-test: (old, new), the first `old` of the printed text replaced

    @property
    def source(self) -> str:
        return self.rendered().source

    def rendered(self) -> P.Rendered:
        return render(self.body, self.spelling)

    def sequences(self) -> dict:
        lines = self.rendered().lines
        model = P.Program(KERNELS, (Params(),) + self.body)
        out = {}
        for n, c in self.settings:
            seq = semantics.run(model, lines, n, c)
            out[(n, c)] = seq
        return out

    def stale_reads(self) -> list:
        """(line, array, update line) of each stale read in any setting (module doc)."""
        lines = self.rendered().lines
        model = P.Program(KERNELS, (Params(),) + self.body)
        out = []
        for n, c in self.settings:
            r = semantics._Runner(model, lines, {"n": n, "c": c})
            r.run(model.body)
            out += [s for s in _arrays(r).stale if s not in out]
        return out

    def check(self, host_region: str = "element") -> runner.Report:
        rendered = self.rendered()
        source = rendered.source
        if self.edit is not None:
            source = source.replace(self.edit[0], self.edit[1], 1)
        rep = Report(source)
        try:
            seqs = self.sequences()
            rep.stale = self.stale_reads()
        except (KeyError, AttributeError, TypeError, IndexError, ValueError) as e:
            rep.invalid = f"the tester's semantics failed: {type(e).__name__}: {e}"
            return rep
        why = careless(self)
        if why is not None:
            rep.invalid = f"careless user deps: {why}"
            return rep
        import shutil
        import tempfile
        from pathlib import Path
        wd = Path(tempfile.mkdtemp(prefix="attack-arrays-"))
        try:
            comp, binary = printed.compiled_binary(rep, source, wd)
            if binary is None:
                return rep

            def observe(seq, log, kernel_ids):
                setting = next(k for k, v in seqs.items() if v is seq)
                rep.failures += [(setting, f) for f in deps_failures(seq, log, kernel_ids)]

            prog = P.Program(KERNELS, ())
            runner.runs_noting(rep, prog, binary, seqs, comp.kernel_ids, host_region, False, observe=observe)
            if comp.stages:
                runner.values_noting(rep, comp.stages, seqs)
            return rep
        finally:
            shutil.rmtree(wd, ignore_errors=True)

    # shrinking: drop a statement, or replace a block by one of its bodies (renaming left to the
    # careless / semantics checks: a candidate that reads a name it no longer binds is invalid)
    def shrink_candidates(self):
        paths = list(_paths(self.body))
        for path in reversed(paths):
            s = _get(self.body, path)
            yield replace(self, body=_replace_at(self.body, path, []))
            if isinstance(s, Loop):
                pre = tuple(Alias(it, init) for it, init in s.carries)
                post = tuple(Alias(res, y) for res, y in zip(s.results, s.yields))
                flat = pre + tuple(_subst_var(x, s.var, 0) for x in s.body) + post
                yield replace(self, body=_replace_at(self.body, path, list(flat)))
                if s.kind == "parallel" or s.trip != 1:
                    yield replace(self, body=_replace_at(self.body, path, [replace(s, kind="range", trip=1)]))
            if isinstance(s, Branch):
                for k in (0, 1):
                    yield replace(self, body=_replace_at(self.body, path, list(s.blocks()[k]) + [
                        Alias(p[0], p[1 + k]) for p in s.phis]))
            if isinstance(s, Manual):
                yield replace(self, body=_replace_at(self.body, path, list(s.body)))
            if isinstance(s, Task) and s.deps:
                for k in range(len(s.deps)):
                    yield replace(self, body=_replace_at(self.body, path, [
                        replace(s, deps=s.deps[:k] + s.deps[k + 1:])]))

    def shrink_measure(self) -> tuple:
        stmts = list(_walk(self.body))
        return (sum(not isinstance(s, Alias) for s in stmts),
                sum(len(getattr(s, "deps", ())) for s in stmts) + sum(isinstance(s, Loop) for s in stmts),
                sum(isinstance(s, Alias) for s in stmts))

    def without_unused_kernels(self) -> "Program":
        return self


@dataclass(frozen=True)
class Alias:
    """`name = src` (a shrink step's stand-in for a carry or a phi)."""

    name: str
    src: str

    def render(self, o, d, manual):
        o.emit(d, f"{self.name}: {ARR_T} = {self.src}", self)

    def run(self, r):
        r.env[self.name] = r.env[self.src]
        _carry_gen(r, self.name, self.src)


def _subst_var(s, var, value):
    """`s` with the loop variable `var` replaced by the constant `value` (a flattened body)."""
    if hasattr(s, "blocks"):
        return s.with_blocks([[_subst_var(x, var, value) for x in b] for b in s.blocks()])
    if isinstance(s, (Store, Load, Rows)):
        field = "row" if isinstance(s, Rows) else "idx"
        if getattr(s, field) == var:
            return replace(s, **{field: value})
    if isinstance(s, DepsBuf):
        return replace(s, reads=tuple((a, value if i == var else i) for a, i in s.reads))
    if isinstance(s, Branch) and s.cond[0] == var:
        return s
    return s


def _paths(body, prefix=()):
    for i, s in enumerate(body):
        yield prefix + (i,)
        for j, ch in enumerate(s.blocks() if hasattr(s, "blocks") else ()):
            yield from _paths(ch, prefix + (i, j))


def _get(body, path):
    s = body[path[0]]
    return s if len(path) == 1 else _get(s.blocks()[path[1]], path[2:])


def _replace_at(body, path, new):
    i = path[0]
    if len(path) == 1:
        return body[:i] + tuple(new) + body[i + 1:]
    s = body[i]
    lists = [list(b) for b in s.blocks()]
    lists[path[1]] = list(_replace_at(tuple(lists[path[1]]), path[2:], new))
    return body[:i] + (s.with_blocks(lists),) + body[i + 1:]


# ---- the random generator ------------------------------------------------------------------------

SCOPES = ("auto", "manual")
BLOCK_KINDS = ("range2", "rangen", "par2", "phases", "if_n", "if_c", "none")
CURRENT_P = 0.75       # a dep on the array's current version (else any visible one, older ones too)
JOIN_P = 0.15          # a pl.system.task_dummy join before a task of straight code
OP_P = 0.3             # slot reads spelled pl.array.get_element (else a[i])
NESTED_P = 0.15        # a deps buffer printed as frontend-behaviour.md 6.2 prints it (get_element nested)
REGION_SLOT = {"s0__ssa_v0": 0, "s1__ssa_v0": 1}


class _Gen:
    def __init__(self, rnd: random.Random, spelling: str):
        self.rnd = rnd
        self.spelling = spelling
        self.counts: dict = {}
        self.tmps = 0

    def name(self, b: str, kind: str = "ssa") -> str:
        v = self.counts.get(b, 0)
        self.counts[b] = v + 1
        return f"{b}__{kind}_v{v}"

    def tmp(self) -> str:
        self.tmps += 1
        return f"_submit_tmp_{self.tmps}__ssa_v0"

    def deps(self, scope: dict, slot, parallel_carry: Optional[str]) -> tuple:
        """Statements before a task and its deps= names: 0 to 2 entries, each a TaskId variable, a
        whole array version or a slot (through get_element or a deps buffer) of a version; the
        slot of the task's own rows preferred (`slot`: an int, the loop var, or None for w)."""
        rnd = self.rnd
        pre, deps, buf_reads = [], [], []
        versions = scope["arrays"]
        for _ in range(rnd.choice((0, 1, 1, 2, 2))):
            kind = rnd.choice(("slot", "slot", "slot", "whole", "tid")) if versions else "tid"
            if kind == "tid" and scope["tids"]:
                deps.append(rnd.choice(scope["tids"]))
            elif kind == "whole" and versions:
                v = versions[-1] if rnd.random() < CURRENT_P else rnd.choice(versions)
                if v != parallel_carry:
                    deps.append(v)
            elif versions:
                v = versions[-1] if rnd.random() < CURRENT_P else rnd.choice(versions)
                idx = slot if slot is not None and rnd.random() < 0.8 else rnd.randrange(SIZE)
                if v == parallel_carry and idx != slot:
                    continue
                if rnd.random() < 0.5:
                    var = self.name("e")
                    pre.append(Load(var, v, idx))
                    deps.append(var)
                else:
                    buf_reads.append((v, idx))
        if buf_reads:
            names = tuple(self.name("_submit_deps_buf") for _ in range(len(buf_reads) + 1))
            nested = self.spelling == "op" and rnd.random() < NESTED_P   # (a subscript is no argument)
            elems = () if nested else tuple(self.name("_submit_deps_elem") for _ in buf_reads)
            pre.append(DepsBuf(names, tuple(buf_reads), elems))
            deps.append(names[-1])
        return pre, tuple(dict.fromkeys(deps))

    def task(self, scope: dict, region: str, slot, current: str, parallel_carry=None, store_p=0.7):
        """A task on `region` with its deps, maybe stored into `current` (or a fork of an older
        version): (statements, the array's new current version)."""
        rnd = self.rnd
        pre, deps = self.deps(scope, slot, parallel_carry)
        tid = self.name("t")
        stmts = pre + [Task(rnd.choice(("up", "up", "rd")), region, self.tmp(), self.name("o"), tid, deps)]
        if rnd.random() < store_p:
            idx = slot if slot is not None and (rnd.random() < 0.85 or parallel_carry) else rnd.randrange(SIZE)
            old = current
            if parallel_carry is None and rnd.random() < 0.1 and len(scope["arrays"]) > 1:
                old = rnd.choice(scope["arrays"])          # a fork: the update of an older version
            new = self.name("tids")
            stmts.append(Store(new, old, idx, tid))
            scope["arrays"].append(new)
            current = new
        scope["tids"].append(tid)
        return stmts, current

    def straight(self, scope, current, k):
        stmts = []
        for _ in range(k):
            if self.rnd.random() < JOIN_P:      # a join of a version's slots (and maybe a TaskId)
                v = current if self.rnd.random() < CURRENT_P else self.rnd.choice(scope["arrays"])
                var = self.name("j")
                stmts.append(Join(var, (v,) + tuple(self.rnd.sample(scope["tids"], min(1, len(scope["tids"]))))))
                scope["tids"].append(var)
            region = self.rnd.choice(("s0__ssa_v0", "s1__ssa_v0", "w__ssa_v0"))
            s, current = self.task(scope, region, REGION_SLOT.get(region), current)
            stmts += s
        return stmts, current

    def block(self, scope, current):
        rnd = self.rnd
        kind = rnd.choice(BLOCK_KINDS)
        if kind == "none":
            return [], current
        if kind.startswith("if"):
            cond = ("n", ">", 1) if kind == "if_n" else ("c", "==", 0)
            outs = []
            for _ in range(2):
                inner = {"arrays": list(scope["arrays"]), "tids": list(scope["tids"])}
                body, cur = self.straight(inner, current, rnd.randint(0, 2))
                outs.append((body, cur))
            if outs[0][1] == outs[1][1] == current:
                return outs[0][0] + [] if False else [Branch(cond, tuple(outs[0][0]), tuple(outs[1][0]), ())], current
            phi = self.name("tids", "phi")
            br = Branch(cond, tuple(outs[0][0]), tuple(outs[1][0]), ((phi, outs[0][1], outs[1][1]),))
            scope["arrays"].append(phi)
            return [br], phi
        if kind == "phases":
            return self.phases(scope, current)
        loop_kind, trip = {"range2": ("range", 2), "rangen": ("range", "n"), "par2": ("parallel", 2)}[kind]
        init = current if rnd.random() < 0.85 or len(scope["arrays"]) < 2 else rnd.choice(scope["arrays"])
        it = self.name("tids", "iter")
        inner = {"arrays": list(scope["arrays"]) + [it], "tids": list(scope["tids"])}
        rows = self.name("si")
        body = [Rows(rows, "i")]
        cur = it
        par = it if loop_kind == "parallel" else None
        for _ in range(rnd.randint(1, 2)):
            if rnd.random() < 0.25:
                g_scope = {"arrays": list(inner["arrays"]), "tids": list(inner["tids"])}
                s, c2 = self.task(g_scope, rows, "i", cur, par, store_p=0.8)
                if c2 != cur:
                    phi = self.name("tids", "phi")
                    body.append(Branch(("i", "==", 0), tuple(s), (), ((phi, c2, cur),)))
                    inner["arrays"].append(phi)
                    cur = phi
                else:
                    body.append(Branch(("i", "==", 0), tuple(s), (), ()))
            else:
                s, cur = self.task(inner, rows, "i", cur, par)
                body += s
        res = self.name("tids", "rv")
        loop = Loop(loop_kind, "i", trip, ((it, init),), tuple(body), (cur,), (res,))
        scope["arrays"].append(res)
        return [loop], res


    def phases(self, scope, current):
        """The seed's phases over an array: `pl.range(n|2)` carrying it around a `pl.parallel(2)`
        carrying it too, whose iteration i works on rows 4i.. and stores itself at slot i."""
        rnd = self.rnd
        outer = self.name("tids", "iter")
        inner = self.name("tids", "iter")
        body_scope = {"arrays": list(scope["arrays"]) + [outer, inner], "tids": list(scope["tids"])}
        rows = self.name("si")
        body = [Rows(rows, "i")]
        stmts, cur = self.task(body_scope, rows, "i", inner, inner, store_p=0.9)
        body += stmts
        inner_rv = self.name("tids", "rv")
        fan = Loop("parallel", "i", 2, ((inner, outer),), tuple(body), (cur,), (inner_rv,))
        outer_rv = self.name("tids", "rv")
        loop = Loop("range", "ph", rnd.choice((2, "n")), ((outer, current),), (fan,), (inner_rv,), (outer_rv,))
        scope["arrays"].append(outer_rv)
        return [loop], outer_rv


def generate(seed: int, max_size=None) -> Program:
    """A random careful program (module doc): a scope, 1-3 tasks, a block, 1-3 tasks; a manual
    program whose deps leave a conflict unordered is drawn again (up to 40 times, then the same
    in AUTO code)."""
    rnd = random.Random(seed)
    for attempt in range(41):
        manual = attempt < 40 and rnd.random() < 0.6
        spelling = "op" if rnd.random() < OP_P else "subscript"
        g = _Gen(rnd, spelling)
        arr = g.name("tids")
        scope = {"arrays": [arr], "tids": []}
        body = [MakeArray(arr), Rows("s0__ssa_v0", 0), Rows("s1__ssa_v0", 1)]
        k = rnd.randint(1, 3) if max_size is None else max(1, min(max_size, 3))
        s, cur = g.straight(scope, arr, k)
        body += s
        s, cur = g.block(scope, cur)
        body += s
        s, cur = g.straight(scope, cur, rnd.randint(1, 3))
        body += s
        stmts = tuple(body)
        prog = Program((Manual(stmts),) if manual else stmts, spelling)
        if not manual or careless(prog) is None:
            return prog
    return prog


def constructs(prog: Program) -> set:
    """The constructs a program has (what tests/test_attack_printed_arrays.py counts)."""
    out = {f"spelling {prog.spelling}"}
    stale = prog.stale_reads()
    if stale:
        out.add("stale read")
    for s in _walk(prog.body):
        if isinstance(s, Manual):
            out.add("manual scope")
        elif isinstance(s, Loop):
            out.add(f"loop {s.kind} {s.trip}")
            if any(isinstance(x, Loop) for x in _walk(s.body)):
                out.add("nested loops (phases)")
            if any(isinstance(x, Branch) and x.phis for x in _walk(s.body)):
                out.add("phi in a loop body")
        elif isinstance(s, Branch):
            out.add("branch phi" if s.phis else "branch")
        elif isinstance(s, Store):
            out.add("update_element")
            if prog.rendered().lines.get(id(s)) in {line for line, _, _ in stale}:
                out.add("fork (update of an older version)")
        elif isinstance(s, Load):
            out.add("get_element dep")
        elif isinstance(s, Join):
            out.add("task_dummy join")
        elif isinstance(s, DepsBuf):
            out.add("deps buffer" + (" (get_element nested)" if not s.elems else ""))
        elif isinstance(s, Task):
            if any("tids__" in d for d in s.deps):
                out.add("whole-array dep")
    return out

