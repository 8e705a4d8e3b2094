"""The adversarial tester's "nests" grammar: waiters in a later loop of a nest (issue 24).

Written from shared/spec/ (runtime-api.md section 11; dsl.md, frontend-behaviour.md 3.5-3.7 and
4.5 for TaskIds and `deps=`; reference-surface.md's `pl.while_`) and docs/semantics.md alone;
none of the compiler's lean-edge passes, runtime-order model or hazard analysis read. Every
program is an outer loop around an inner loop and a further loop after it, in AUTO code or in
one `with pl.manual_scope():`, over two tensor carries started as the InOut [4, 4] parameters
`p`, `q` (and a TaskId carry when the program names one):

    t0 = None                                              (when a TaskId is carried)
    for i, (c0, c1, t) in OUTER(init_values=(p, q, t0)):   OUTER: pl.range(n) (n = 0..3) or pl.range(2)
        for j, (e0, e1, u) in INNER(init_values=(c0, c1, t)):   INNER: pl.range(2), pl.range(3),
            s = pl.tensor.slice(g, [4, 4], [j * 4, 0])           pl.range(n), or `pl.while_` counted
            INNER ITEMS                                            by `pl.cond(j < n)`
            c0, c1, ti = pl.yield_(e0, e1, u)
        MID ITEMS
        for k, (f0, f1, v) in pl.range(2, init_values=(c0, c1, ti)):
            z = pl.tensor.slice(g, [4, 4], [k * 4, 0])
            FURTHER ITEMS
            c0, c1, tf = pl.yield_(f0, f1, v)
        d0, d1, tr = pl.yield_(c0, c1, tf)
    POST: rd(d0), rd(d1), rdg(g), a host read of d0[1, 1], up(w)   (after the manual scope)

`g` is an InOut [32, 4] parameter whose row blocks the loops' counters slice (each inner run
writes its own block; a further run reads one of them, or `rdg`/`upg` the whole of g), `w` the
InOut [4, 4] parameter. An item is an atom or a branch on the loop counters around a non-empty
item sequence: `if i == 0`, `if i % 2 == 0`, `if j == 2` (inner) / `if k == 1` (further), and
`else` (`if i == 0: pass else: ...`). Atoms, over the region's names (x: its first carry, e0 /
c0 / f0; y: its second; s: its slice, s / z; w; g):
    rd(v)    a task reading v into a new output          `f, k = pl.submit(self.rd, v)`
    up(v)    an InOut writer                              `v = self.up(v)`
    wr(v)    an Out writer (no wait on earlier writers)   `v = self.wr(v)`
    new(x)   the carry becomes this run's own buffer      `m = pl.create_tensor(...); x = self.up(m)`
             (in a manual frame `m` has no init_value and `x = self.wr(m)`: a filled create in
             a with block's loop the compiler cannot count is refused, docs/semantics.md)
    swap     the carries trade places                     `h = x; x = y; y = h`
    hr(v)    a host read of v[1, 1] (kept live)           `h = pl.tensor.read(v, [1, 1])`
    hw(v)    a host write of v[1, 1]
    rdg/upg  a reader / an InOut writer of the whole of g
and, in AUTO frames, the user's TaskIds beside the compiler's edges:
    tup(x)   `x, u = pl.submit(self.up, x, deps=[u])`    (the region's chain: u, ti, v)
    trd(v)   `f, u = pl.submit(self.rd, v, deps=[u, t])` (a list: the chain and the outer carry)
In a manual frame every task is written `..., u = pl.submit(..., deps=[u])` on the region's
chain (a careful user: every two tasks of the scope ordered by the user), so the compiler's part
there is the host accesses and the pairs across the scope's boundary with POST.

The oracle is the tester's (oracle.check_run, on every parameter value): VALUES (every task read,
host read and every parameter's final contents, element by element, observe the write the
sequential semantics, semantics.py, has them observe; in submission order and latest-first) and
ORDERS (every two accesses to one element, one a write, ordered in the recorded run under
rtmodel.py as the sequential program orders them); and, here, USER DEPS: every task that lists
`deps=` is ordered after every task its entries stand for (TaskIds as sets of tasks,
docs/semantics.md: None the empty set, a submit's id itself, a carry what the iteration bound it
to), failure class `user-dep`. lean.py's figures of the same runs come with each report. The
programs are valid DSL by the spec (no TaskId escapes a loop other than through a carry, no
assemble), so every refusal (a located user error) is reported as the failure class `refusal`,
to be judged against the spec by hand; a manual frame whose user deps left two conflicting tasks
of the scope unordered would be the tester's invalid program (fences.careless), which this
grammar never makes.

Size: the items (an atom 1, a branch 1 + its body); the frame is fixed. Size 1 is every atom of
every region in every frame; size 2 every inner atom before every further atom first (the
waiter in the further loop), then every branch of one atom (further, then inner), then every
other two atoms in region order. Frames innermost: OUTERS x INNERS x SCOPES = 2 x 4 x 2 = 16.
Manual frames lack the tup/trd atoms. Random programs (`generate`) draw 2 to 5 atoms over the
regions (inner and further twice as likely) and up to 2 branches in each (in MID too, on `i`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterator, Optional

from . import carries, fences, grammar, lean, oracle, runner
from . import program as P
from . import rtmodel as R
from .surface import While

OUTERS = ("n", 2)
INNERS = (2, 3, "n", "while")
SCOPES = ("auto", "manual")
REGIONS = ("inner", "mid", "further")
BLOCKS = ()      # no --shapes patterns
N_SETTINGS = tuple((n, 0) for n in range(4))
ONE_SETTING = ((0, 0),)

KERNELS = carries.KERNELS + (
    P.Kernel("rdg", (("in", "F"), ("out", "F"))),
    P.Kernel("upg", (("inout", "F"),)),
)

# (op, name): names x, y (the region's carries), s (its slice of g), w, g; "" for swap
INNER_ATOMS = (("rd", "x"), ("up", "x"), ("wr", "x"), ("new", "x"), ("swap", ""), ("rd", "w"),
               ("up", "w"), ("wr", "w"), ("rd", "s"), ("up", "s"), ("wr", "s"), ("hr", "x"),
               ("hw", "w"))
MID_ATOMS = (("rd", "x"), ("up", "x"), ("rd", "w"), ("up", "w"), ("upg", "g"), ("rdg", "g"),
             ("hr", "x"))
FURTHER_ATOMS = (("rd", "x"), ("up", "x"), ("wr", "x"), ("rd", "y"), ("rd", "w"), ("up", "w"),
                 ("rd", "s"), ("up", "s"), ("rdg", "g"), ("hr", "x"), ("hr", "w"), ("hw", "x"))
TID_ATOMS = {"inner": (("tup", "x"), ("trd", "s")), "mid": (("tup", "x"),),
             "further": (("trd", "x"), ("trd", "s"))}
BASE = {"inner": INNER_ATOMS, "mid": MID_ATOMS, "further": FURTHER_ATOMS}
BRANCHES = ("i0", "ieven", "last", "else")

# per region: the names its atoms' x, y, s stand for, its TaskId chain, its counter
NAMES = {"inner": {"x": "e0", "y": "e1", "s": "s", "chain": "u", "var": "j", "last": 2},
         "mid": {"x": "c0", "y": "c1", "chain": "ti"},
         "further": {"x": "f0", "y": "f1", "s": "z", "chain": "v", "var": "k", "last": 1}}


@dataclass(frozen=True)
class Frame:
    outer: object      # "n" or 2: the outer pl.range's trip
    inner: object      # 2, 3, "n" (pl.range(n)) or "while" (counted by n)
    scope: str         # auto or manual


FRAMES = tuple(Frame(o, i, s) for s in SCOPES for o in OUTERS for i in INNERS)


def atoms(region: str, scope: str) -> tuple:
    """The atoms of a region in a frame of `scope` (the TaskId atoms in AUTO frames only)."""
    return BASE[region] + (TID_ATOMS[region] if scope == "auto" else ())


@dataclass(frozen=True)
class Branch(P.OneBlock):
    """A branch on the loop counters around `body` (module doc); `var`/`last` the region's
    counter and its last-run test (`j == 2`, `k == 1`)."""

    name: str
    body: tuple
    var: str = "j"
    last: int = 2

    def text(self) -> str:
        return {"i0": "i == 0", "ieven": "i % 2 == 0", "last": f"{self.var} == {self.last}",
                "else": "i == 0"}[self.name]

    def holds(self, scalars: dict) -> bool:
        i = scalars["i"]
        return {"i0": i == 0, "ieven": i % 2 == 0, "last": scalars.get(self.var) == self.last,
                "else": i != 0}[self.name]

    def render(self, p, d):
        p.emit(d, f"if {self.text()}:", self)
        if self.name == "else":
            p.emit(d + 1, "pass")
            p.emit(d, "else:")
        p.body(d + 1, self.body)

    def run(self, r):
        if self.holds(r.scalars):
            r.run(self.body)


class _Builder(grammar.Fresh):
    def __init__(self, manual: bool):
        self.manual = manual
        self.uses = set()          # regions whose slice is named

    def call(self, region: str, kernel: str, args: tuple, results: tuple, deps: Optional[tuple] = None):
        """A task statement; in a manual frame (or with `deps`) a submit on the region's chain."""
        chain = NAMES[region]["chain"]
        if deps is None and self.manual:
            deps = (chain,)
        if deps is None:
            if args[-1] is None:
                return P.Call(kernel, args, results, (), True, self.fresh("id"))
            return P.Call(kernel, args, results)
        return fences.Submit(P.Call(kernel, args, results, (), True, chain, deps))

    def atom(self, region: str, atom: tuple) -> list:
        op, name = atom
        names = NAMES[region]
        v = names.get(name, name)
        if name == "s":
            self.uses.add(region)
        chain = names["chain"]
        if op == "rd":
            return [self.call(region, "rd", (v, None), (self.fresh("r"),))]
        if op in ("up", "wr"):
            return [self.call(region, op, (v,), (v,))]
        if op == "new":        # a manual frame's without init_value: docs/semantics.md's refusal
            m = self.fresh("m")    # of a filled create in a with block's uncountable loop avoided
            if self.manual:
                return [P.Create(m, "B"), self.call(region, "wr", (m,), (v,))]
            return [P.Create(m, "B", 1.0), self.call(region, "up", (m,), (v,))]
        if op == "swap":
            return [P.Swap(names["x"], names["y"], self.fresh("h"))]
        if op == "hr":
            return [P.HostRead(self.fresh("h"), v, (1, 1), self.k % P.SINK_SIZE)]
        if op == "hw":
            self.k += 1
            return [P.HostWrite(v, (1, 1), float(2 + self.k % 5))]
        if op == "rdg":
            return [self.call(region, "rdg", ("g", None), (self.fresh("r"),))]
        if op == "upg":
            return [self.call(region, "upg", ("g",), ("g",))]
        if op == "tup":
            return [self.call(region, "up", (v,), (v,), deps=(chain,))]
        if op == "trd":
            return [self.call(region, "rd", (v, None), (self.fresh("r"),), deps=(chain, "t"))]
        raise ValueError(op)

    def items(self, region: str, items) -> list:
        out = []
        for item in items:
            if item[0] == "branch":
                names = NAMES[region]
                out.append(Branch(item[1], tuple(self.items(region, item[2])),
                                  names.get("var", "j"), names.get("last", 2)))
            else:
                out += self.atom(region, item)
        return out


def _tid_atoms(items) -> bool:
    return any(_tid_atoms(it[2]) if it[0] == "branch" else it[0] in ("tup", "trd") for it in items)


def uses_n(frame: Frame) -> bool:
    return frame.outer == "n" or frame.inner in ("n", "while")


def build(frame: Frame, inner=(), mid=(), further=()) -> "Program":
    """The program of `frame` with the region item lists (atoms, or ("branch", name, items))."""
    manual = frame.scope == "manual"
    b = _Builder(manual)
    body_i = tuple(b.items("inner", inner))
    body_m = tuple(b.items("mid", mid))
    body_f = tuple(b.items("further", further))
    tid = manual or _tid_atoms(inner) or _tid_atoms(mid) or _tid_atoms(further)
    t = lambda *names: names if tid else ()      # noqa: E731  (the TaskId carry's part, when carried)
    if "inner" in b.uses:
        body_i = (P.Slice("s", "g", ("j", 4)),) + body_i
    if "further" in b.uses:
        body_f = (P.Slice("z", "g", ("k", 4)),) + body_f
    inner_carries = (("e0", "c0"), ("e1", "c1")) + t(("u", "t"))
    inner_yields = ("e0", "e1") + t("u")
    inner_results = ("c0", "c1") + t("ti")
    if frame.inner == "while":
        loop_i = While("j", "n", body_i, carries=inner_carries, yields=inner_yields, results=inner_results,
                       count="j_done")
    else:
        loop_i = P.Loop("range", "j", frame.inner, body_i, carries=inner_carries, yields=inner_yields,
                        results=inner_results)
    loop_f = P.Loop("range", "k", 2, body_f, carries=(("f0", "c0"), ("f1", "c1")) + t(("v", "ti")),
                    yields=("f0", "f1") + t("v"), results=("c0", "c1") + t("tf"))
    outer = P.Loop("range", "i", frame.outer, (loop_i,) + body_m + (loop_f,),
                   carries=(("c0", "p"), ("c1", "q")) + t(("t", "t0")),
                   yields=("c0", "c1") + t("tf"), results=("d0", "d1") + t("tr"))
    nest = t(fences.NoneTid("t0")) + (outer,)
    post = (P.Call("rd", ("d0", None), ("f_d0",), (), True, "k_d0"),
            P.Call("rd", ("d1", None), ("f_d1",), (), True, "k_d1"),
            P.Call("rdg", ("g", None), ("f_g",), (), True, "k_g"),
            P.HostRead("h_d0", "d0", (1, 1), 15),
            P.Call("up", ("w",), ("w",)))
    stmts = ((P.Manual(nest),) if manual else nest) + post
    return Program(P.kernels_used(KERNELS, _calls(stmts)), stmts, extra=("p", "q", "g"),
                   extra_shapes=(("g", "F"),), settings=N_SETTINGS if uses_n(frame) else ONE_SETTING)


def _calls(stmts) -> tuple:
    """Every task call of `stmts` (plain and fences.Submit), wherever nested (for kernels_used)."""
    out = []
    for s in stmts:
        if isinstance(s, (P.Call, fences.Submit)):
            out.append(getattr(s, "call", s))
        for ch in P.children(s):
            out += _calls(ch)
    return tuple(out)


# ---- the user's deps ----------------------------------------------------------------------------

def check_user_deps(seq, model: R.Model, nodes_of: list) -> list:
    """A failure for every `deps=` entry's task that the recorded run does not order before the
    task listing it (Event.user_deps: the tasks the entries stand for)."""
    fails = []
    for ev in seq.events:
        for d in sorted(getattr(ev, "user_deps", ())):
            if not model.ordered(nodes_of[d], nodes_of[ev.idx]):
                fails.append(oracle.Failure("user-dep", f"{ev.describe()} lists deps= standing for "
                                            f"{seq.events[d].describe()}, which the run does not order before it"))
    return fails


@dataclass(frozen=True)
class Program(carries.Program):
    """A program of this grammar, checked by the tester's oracle and its user-deps check (module
    doc), with lean.py's figures of the same runs (carries.lean_figures)."""

    def check(self, host_region: str = "element") -> runner.Report:
        why = fences.careless(self)
        if why is not None:
            rep = runner.Report(self.source)
            rep.invalid = f"careless user deps: {why}"
            rep.lean = None
            return rep
        total = lean.Lean()
        extra = []

        def observe(seq, log, kernel_ids):
            nonlocal total
            model = R.build(log, host_region)
            nodes_of, bad = oracle.match(seq, model, kernel_ids)
            if bad or any(k == "fatal" for k, _ in model.errors):
                return
            extra.extend((None, f) for f in check_user_deps(seq, model, nodes_of))
            if not model.errors:
                total = total.add(lean.analyse(log, lean.oracle_needed(seq, model, nodes_of)))

        rep = runner.check(self, host_region=host_region, observe=observe)
        rep.failures += extra
        rep.lean = carries.lean_figures(total) if rep.runs else None
        return rep


# ---- enumeration ---------------------------------------------------------------------------------

def _layouts(scope: str, size: int) -> Iterator[dict]:
    """The region item lists of every program of `size` in a frame of `scope` (module doc)."""
    al = {r: atoms(r, scope) for r in REGIONS}
    if size == 1:
        for r in REGIONS:
            for a in al[r]:
                yield {r: (a,)}
        return
    if size != 2:
        raise ValueError("the exhaustive nests grammar has sizes 1 and 2")
    for a in al["inner"]:
        for b in al["further"]:
            yield {"inner": (a,), "further": (b,)}
    for r in ("further", "inner"):
        for br in BRANCHES:
            for a in al[r]:
                yield {r: (("branch", br, (a,)),)}
    order = {r: k for k, r in enumerate(REGIONS)}
    for r1 in REGIONS:
        for r2 in REGIONS:
            if order[r1] > order[r2] or (r1, r2) == ("inner", "further"):
                continue
            for a in al[r1]:
                for b in al[r2]:
                    yield {r1: (a, b)} if r1 == r2 else {r1: (a,), r2: (b,)}


def _all(size: int) -> Iterator[tuple]:
    """(frame, layout): each auto layout in every frame that has its atoms, frames innermost."""
    for lay in _layouts("auto", size):
        for frame in FRAMES:
            if frame.scope == "auto" or not _tid_atoms(sum(lay.values(), ())):
                yield frame, lay


def programs(size: int, max_atoms=None, patterns=()) -> Iterator["Program"]:
    for frame, lay in _all(size):
        yield build(frame, **lay)


def count(size: int, max_atoms=None, patterns=()) -> int:
    return sum(1 for _ in _all(size))


def _random_items(rnd: random.Random, region: str, n: int, scope: str) -> tuple:
    items = [rnd.choice(atoms(region, scope)) for _ in range(n)]
    branches = BRANCHES if region != "mid" else tuple(b for b in BRANCHES if b != "last")
    return grammar.wrap_runs(rnd, items, rnd.randint(0, 2) if items else 0,
                             lambda run: ("branch", rnd.choice(branches), run))


def generate(seed: int, max_size: Optional[int] = None) -> "Program":
    """A random program: any frame, 2 to 5 atoms over the regions (inner and further twice as
    likely as mid), up to 2 branches in each region (in mid on `i` alone: the waiter in a branch
    of the outer body after the inner loop; `max_size` bounds the atoms)."""
    rnd = random.Random(seed)
    frame = rnd.choice(FRAMES)
    n = rnd.randint(2, 5) if max_size is None else max(1, min(max_size, rnd.randint(2, 5)))
    where = [rnd.choice(("inner", "inner", "mid", "further", "further")) for _ in range(n)]
    lay = {r: _random_items(rnd, r, where.count(r), frame.scope) for r in REGIONS}
    return build(frame, **lay)
