"""The adversarial tester's "fences" grammar: the user's TaskIds meet the compiler's orders.

Written from shared/spec/ (dsl.md, frontend-behaviour.md 3.5-3.7 and 4.5, reference-behaviour.md
11.2-11.5, runtime-api.md section 11, decisions.md) and docs/semantics.md ("a TaskId stands for a
set of tasks", "The user's dependencies stay", the classes of pairs) alone; none of the
compiler's analyses read. Every program is one loop, in an AUTO function or inside one
`with pl.manual_scope():`, whose body works on its own rows of `a` and on the shared `w` and
carries one TaskId through `init_values`:

    t0 = None
    PRE                                   tasks on a, w; each binds t0 (deps=[t0] or none)
    for i, (t,) in LOOP(init_values=(t0,)):     LOOP: pl.parallel(2), pl.parallel(n), pl.range(n)
        u = t                                   (or `for (i, t) in pl.while_(init_values=(0, t0)):`
        s = pl.tensor.slice(a, [4, 4], [i * 4, 0])       with `pl.cond(i < n)`)
        BODY                              tasks on s, w; each binds u; deps=[], [u] or [t]
        tr = pl.yield_(u)                 (while: `n_done, tr = pl.yield_(i + 1, u)`)
    MID                                   tasks on a, w (deps=[] or [tr]); `tr = task_dummy(deps=[tr])`
    POST                                  (manual frames: after the scope, AUTO) tasks on a, w

Random programs (`generate`) also draw the seed's phases, `for ph, (tp,) in pl.range(n,
init_values=(t0,))` around the `pl.parallel(2)` loop (started from `tp`, its result `tq` yielded
as the phase's), with guards on `ph` too. A manual scope's `pl.parallel(n)` carrying a TaskId is
no frame: it is refused (reference-behaviour.md 2.5; tests/test_attack_fences.py).

BODY items may sit in guards on the iteration: `if i == 0`, `if i % 2 == 1`, `if i > 0` (a
guarded task rebinds `u`, so the yield is a TaskId phi: an iteration may yield the ids it started
from). Host accesses: a write of w[1, 1] in PRE, of s[1, 1] in BODY; reads of w[1, 1] in BODY
and of a[5, 1] (iteration 1's rows) in MID and POST. Runs for n = 0..2 (a program that reads no
`n` runs once).

TaskIds are sets of tasks (docs/semantics.md): None the empty set, a submit's id itself, a
`task_dummy` the union of its entries; a carry of a `pl.parallel` loop in a manual scope starts
every iteration from the init and ends as the union of the iterations' yields (and the init when
the loop runs no iteration: reference-behaviour.md 11.3 fills every slot from the init); every
other carry is sequential. In a manual scope the user's deps are the only order between two
tasks of one scope instance, so a program whose deps leave such a conflicting pair unordered
(`careless`) is not the compiler's to get right: the enumeration and the random generator skip
it, and `Program.check` reports it as the tester's invalid program (a shrink step that makes
one is dropped). Everything else (AUTO code, host accesses, pairs across the scope's boundary)
is the compiler's: the oracle (oracle.check_run) wants every conflicting pair ordered and every
read, in submission order and latest-first, to observe the write the sequential program does.
lean.py's figures of the same runs come with each report (carries.py's, and the insertions
between two tasks of one manual scope instance, the user's here, with the minimum outside them).

Exhaustive sizes: a program's size is its items (an atom 1, a guard 1 + its body). Size 1 is
every single atom in every frame; size 2 every two atoms (in region order) and every guard of
one body atom, ordered so the pairs of a body atom with a later one come first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Iterator, Optional

from . import carries, grammar, lean, oracle, runner, semantics
from . import program as P

SCOPES = ("auto", "manual")
LOOPS = ("par2", "parn", "range", "while")
SETTINGS_N = tuple((n, 0) for n in range(3))
ONE_SETTING = ((0, 0),)
GUARDS = {"if_0": ("i", "==", 0), "if_odd": None, "if_gt0": ("i", ">", 0)}
PHASE_GUARDS = {"if_ph0": ("ph", "==", 0), "if_ph1": ("ph", ">=", 1)}   # random programs of `phases` frames
BLOCKS = ()      # no --shapes patterns

KERNELS = (
    P.Kernel("rd", (("in", "B"), ("out", "B"))),
    P.Kernel("up", (("inout", "B"),)),
    P.Kernel("rda", (("in", "A"), ("out", "A"))),
    P.Kernel("upa", (("inout", "A"),)),
)

# Atoms per region: (op, tensor, deps). Ops: rd (read into a new output), up (InOut), mv (read w,
# write s Out), nd (up of w through pl.no_dep), hr / hw (host read / write of one element), jn
# (`tr = pl.system.task_dummy(deps=[tr])`).
BODY_ATOMS = tuple([(op, x, d) for op, x in (("rd", "w"), ("up", "s"), ("up", "w"), ("mv", "s"))
                    for d in ("", "u", "t")] + [("nd", "w", "u"), ("hr", "w", ""), ("hw", "s", "")])
PRE_ATOMS = tuple([(op, x, d) for op, x in (("up", "a"), ("up", "w")) for d in ("", "t0")] + [("hw", "w", "")])
MID_ATOMS = tuple([(op, x, d) for op, x in (("rd", "a"), ("up", "w")) for d in ("", "tr")]
                  + [("jn", "", ""), ("hr", "a", "")])
POST_ATOMS = (("rd", "a", ""), ("up", "a", ""), ("rd", "w", ""), ("hr", "a", ""))
REGIONS = ("pre", "body", "mid", "post")
ALPHABET = {"pre": PRE_ATOMS, "body": BODY_ATOMS, "mid": MID_ATOMS, "post": POST_ATOMS}


@dataclass(frozen=True)
class Frame:
    scope: str
    loop: str


# A manual scope's pl.parallel(n) carrying a TaskId is refused (reference-behaviour.md 2.5: the
# fence needs a PTO2TaskId[N] of fixed N); tests/test_attack_fences.py checks that refusal.
FRAMES = tuple(Frame(s, lp) for s in SCOPES for lp in LOOPS if (s, lp) != ("manual", "parn"))
# Random programs also draw the seed's phases: `for ph, (tp,) in pl.range(n, init_values=(t0,))`
# around the pl.parallel(2) loop (started from tp, its result tq yielded), guards on ph too.
RANDOM_FRAMES = FRAMES + tuple(Frame(s, "phases") for s in SCOPES)


# ---- statements of the grammar (program.py's printer and semantics.py's runner call them) ------

def _tids(r, names) -> frozenset:
    out = frozenset()
    for name in names:
        out |= r.env[name]
    return out


@dataclass(frozen=True)
class Submit:
    """`results, tid = pl.submit(self.k, args, deps=[...])`; the event notes the tasks its deps
    stand for (`Event.user_deps`), and `tid` is bound to the set of this task alone."""

    call: P.Call

    def render(self, p, d):
        s = self.call
        res = s.results[0] if len(s.results) == 1 else "(" + ", ".join(s.results) + ")"
        p.emit(d, f"{res}, {s.tid} = {P.call_expr(s)}", self)

    def run(self, r):
        before = len(r.events)
        deps = _tids(r, self.call.deps)
        r.stmt(self.call)
        ev = r.events[before]
        ev.line = r.line(self)
        ev.user_deps = deps
        r.env[self.call.tid] = frozenset({ev.idx})


@dataclass(frozen=True)
class NoneTid:
    tid: str

    def render(self, p, d):
        p.emit(d, f"{self.tid} = None", self)

    def run(self, r):
        r.env[self.tid] = frozenset()


@dataclass(frozen=True)
class Dummy:
    """`tid = pl.system.task_dummy(deps=[...])`: completes after its entries, so waiting on it is
    waiting on the union of what they stand for."""

    tid: str
    deps: tuple

    def render(self, p, d):
        p.emit(d, f"{self.tid} = pl.system.task_dummy(deps=[{', '.join(self.deps)}])", self)

    def run(self, r):
        r.env[self.tid] = _tids(r, self.deps)


@dataclass(frozen=True)
class Parity(P.OneBlock):
    """`if i % 2 == 1:` around `then`."""

    BLOCK = "then"

    then: tuple

    def render(self, p, d):
        p.emit(d, "if i % 2 == 1:", self)
        p.body(d + 1, self.then)

    def run(self, r):
        if r.scalars["i"] % 2 == 1:
            r.run(self.then)


@dataclass(frozen=True)
class TidLoop(P.OneBlock):
    """A loop over one TaskId carry (module doc): `kind` parallel, range or while, `trip` an int
    or `n`, the carry `carry` started from `init`, the body's last id `last` yielded, the result
    bound to `result`. A parallel loop in a manual scope gives every iteration the init and ends
    with the union of the yields (the init's ids when no iteration runs)."""

    kind: str
    trip: object
    body: tuple
    init: str = "t0"
    result: str = "tr"
    var: str = "i"
    carry: str = "t"
    last: str = "u"

    def render(self, p, d):
        if self.kind == "while":
            p.emit(d, f"for ({self.var}, {self.carry}) in pl.while_(init_values=(0, {self.init})):", self)
            p.emit(d + 1, f"pl.cond({self.var} < {self.trip})")
            p.body(d + 1, self.body)
            p.emit(d + 1, f"n_done, {self.result} = pl.yield_({self.var} + 1, {self.last})")
        else:
            p.emit(d, f"for {self.var}, ({self.carry},) in pl.{self.kind}({self.trip}, init_values=({self.init},)):",
                   self)
            p.body(d + 1, self.body)
            p.emit(d + 1, f"{self.result} = pl.yield_({self.last})")

    def run(self, r):
        trip = self.trip if isinstance(self.trip, int) else r.scalars[self.trip]
        inst = r.loop_instances
        r.loop_instances += 1
        fan = self.kind == "parallel" and r.manual is not None
        init = r.env[self.init]
        carry, union = init, frozenset()
        for it in range(max(trip, 0)):
            r.scalars[self.var] = it
            r.env[self.carry] = init if fan else carry
            if self.kind == "parallel":
                r.parallel.append((inst, it))
            r.run(self.body)
            if self.kind == "parallel":
                r.parallel.pop()
            carry = r.env[self.last]
            union |= carry
        r.env[self.result] = (union if trip > 0 else init) if fan else carry


# ---- building -----------------------------------------------------------------------------------

class _Builder(grammar.Fresh):
    def atom(self, region: str, atom: tuple) -> list:
        op, x, dep = atom
        tid = {"pre": "t0", "body": "u"}.get(region) or self.fresh("k")
        deps = (dep,) if dep else ()
        big = x == "a"
        if op == "rd":
            call = P.Call("rda" if big else "rd", (x, None), (self.fresh("f"),), submit=True, tid=tid, deps=deps)
        elif op in ("up", "nd"):
            call = P.Call("upa" if big else "up", (x,), (self.fresh(x),), nodep=(op == "nd",), submit=True,
                          tid=tid, deps=deps)
        elif op == "mv":
            call = P.Call("rd", ("w", "s"), (self.fresh("s"),), submit=True, tid=tid, deps=deps)
        elif op == "hr":
            idx = (5, 1) if big else (1, 1)
            return [P.HostRead(self.fresh("h"), x, idx, self.k % P.SINK_SIZE)]
        elif op == "hw":
            return [P.HostWrite(x, (1, 1), float(2 + self.k % 5))]
        elif op == "jn":
            return [Dummy("tr", ("tr",))]
        else:
            raise ValueError(op)
        return [Submit(call)]

    def items(self, region: str, items) -> list:
        out = []
        for item in items:
            if item[0] == "guard":
                body = tuple(self.items(region, item[2]))
                out.append(Parity(body) if item[1] == "if_odd" else
                           P.If({**GUARDS, **PHASE_GUARDS}[item[1]], body))
            else:
                out += self.atom(region, item)
        return out


def _uses_n(frame: Frame) -> bool:
    return frame.loop != "par2"


def build(frame: Frame, pre=(), body=(), mid=(), post=()) -> "Program":
    """The program of `frame` with the region item lists (atoms, or ("guard", name, items) in
    body)."""
    b = _Builder()
    kind, trip = {"par2": ("parallel", 2), "parn": ("parallel", "n"), "range": ("range", "n"),
                  "while": ("while", "n"), "phases": ("parallel", 2)}[frame.loop]
    pre_s = [NoneTid("t0")] + b.items("pre", pre)
    loop_body = (P.Alias("u", "t"), P.Slice("s", "a", ("i", 4))) + tuple(b.items("body", body))
    loop = TidLoop(kind, trip, loop_body)
    if frame.loop == "phases":    # the seed's phases: pl.range(n) of the pl.parallel(2) loop
        loop = TidLoop("range", "n", (replace(loop, init="tp", result="tq"),), var="ph", carry="tp", last="tq")
    mid_s = b.items("mid", mid)
    post_s = b.items("post", post)
    scoped = tuple(pre_s) + (loop,) + tuple(mid_s)
    stmts = ((P.Manual(scoped),) if frame.scope == "manual" else scoped) + tuple(post_s)
    return Program(P.kernels_used(KERNELS, _calls(stmts)), stmts,
                   settings=SETTINGS_N if _uses_n(frame) else ONE_SETTING)


def _calls(stmts) -> tuple:
    """The P.Calls of `stmts` (for kernels_used), wherever nested."""
    out = []
    for s in stmts:
        if isinstance(s, Submit):
            out.append(s.call)
        for ch in P.children(s):
            out += _calls(ch)
    return tuple(out)


# ---- the user's part of the order ---------------------------------------------------------------

def careless(prog: "Program") -> Optional[str]:
    """The first pair of conflicting tasks of one manual scope instance that the user's deps (as
    sets of tasks, transitively) leave unordered, described; None when there is none. A program
    the tester's semantics cannot run (a shrinker's candidate that reads a name it no longer
    binds) is described as such: invalid too, as ``runner.check`` reports it."""
    rendered = P.render(prog)
    for n, c in prog.settings:
        try:
            seq = semantics.run(prog, rendered.lines, n, c)
        except (KeyError, AttributeError, TypeError, IndexError, ValueError) as e:  # (as runner.check)
            return f"the tester's semantics failed at n={n} c={c}: {type(e).__name__}: {e}"
        before = {}
        for ev in seq.events:
            deps = getattr(ev, "user_deps", frozenset())
            acc = set(deps)
            for d in deps:
                acc |= before.get(d, set())
            before[ev.idx] = acc
        for (e1, e2) in sorted(oracle.sequential_conflicts(seq)):
            a, b = seq.events[e1], seq.events[e2]
            if (a.kind == b.kind == "task" and a.manual is not None and a.manual == b.manual
                    and e1 not in before[e2]):
                return f"n={n}: {a.describe()} and {b.describe()} conflict in one manual scope, no deps order them"
    return None


@dataclass(frozen=True)
class Program(carries.Program):
    """A program of this grammar: careless ones (module doc) are the tester's invalid programs;
    the others are checked by the oracle with lean.py's figures of the same runs (lean_figures)."""

    def check(self, host_region: str = "element") -> runner.Report:
        why = careless(self)
        if why is not None:
            rep = runner.Report(self.source)
            rep.invalid = f"careless user deps: {why}"
            rep.lean = None
            return rep
        return super().check(host_region)

    def lean_figures(self, fig: lean.Lean) -> dict:
        return lean_figures(fig)


def lean_figures(fig: lean.Lean) -> dict:
    """carries.lean_figures and the split the user's deps make: the insertions between two tasks
    of one manual scope instance (`inside`: here the user's) and the minimum outside them (the
    part the compiler's insertions, `insertions - inside`, are to be compared with)."""
    return {**carries.lean_figures(fig), "inside": fig.inside, "minimum outside": fig.minimum_outside}


# ---- enumeration ---------------------------------------------------------------------------------

def _atoms_in(frame: Frame) -> list:
    """(region, atom) pairs of a frame, in region order (post only after a manual scope)."""
    regions = REGIONS if frame.scope == "manual" else REGIONS[:3]
    return [(r, a) for r in regions for a in ALPHABET[r]]


def _layouts(frame: Frame, size: int) -> Iterator[dict]:
    atoms = _atoms_in(frame)
    if size == 1:
        for r, a in atoms:
            yield {r: (a,)}
        return
    if size != 2:
        raise ValueError("the exhaustive fences grammar has sizes 1 and 2")
    order = {r: k for k, r in enumerate(REGIONS)}
    pairs = [(x, y) for x in atoms for y in atoms if order[x[0]] <= order[y[0]]]
    pairs.sort(key=lambda xy: (xy[0][0] != "body", xy[1][0] == "pre"))   # body first, then later regions
    for x, y in pairs:
        out: dict = {}
        for r, a in (x, y):
            out[r] = out.get(r, ()) + (a,)
        yield out
    for g in GUARDS:
        for a in BODY_ATOMS:
            yield {"body": (("guard", g, (a,)),)}


def _all(size: int) -> Iterator[tuple]:
    """(frame, layout) pairs: each layout in every frame that has its regions, so a run cut short
    has seen every frame."""
    for lay in _layouts(Frame("manual", "par2"), size):
        for frame in FRAMES:
            if frame.scope == "manual" or "post" not in lay:
                yield frame, lay


def programs(size: int, max_atoms=None, patterns=()) -> Iterator["Program"]:
    """Every careful program of size `size` (module doc), frame by frame."""
    for frame, lay in _all(size):
        prog = build(frame, **lay)
        if frame.scope == "auto" or careless(prog) is None:
            yield prog


def count(size: int, max_atoms=None, patterns=()) -> int:
    return sum(1 for _ in programs(size))


def _random_body(rnd: random.Random, n: int, guards: tuple) -> tuple:
    items = [rnd.choice(BODY_ATOMS) for _ in range(n)]
    return grammar.wrap_runs(rnd, items, rnd.randint(0, 2) if items else 0,
                             lambda run: ("guard", rnd.choice(guards), run))


def generate(seed: int, max_size: Optional[int] = None) -> "Program":
    """A random careful program: any frame (RANDOM_FRAMES), 3 to 6 atoms spread over the regions (the body twice
    as likely), up to two guards in the body; a careless draw is drawn again (seed's sub-seeds)."""
    rnd = random.Random(seed)
    while True:
        frame = rnd.choice(RANDOM_FRAMES)
        regions = REGIONS if frame.scope == "manual" else REGIONS[:3]
        n = rnd.randint(3, 6) if max_size is None else max(1, min(max_size, rnd.randint(3, 6)))
        where = [rnd.choice(regions + ("body",)) for _ in range(n)]
        lay = {r: tuple(rnd.choice(ALPHABET[r]) for _ in range(where.count(r))) for r in regions if r != "body"}
        guards = tuple(GUARDS) + (tuple(PHASE_GUARDS) if frame.loop == "phases" else ())
        lay["body"] = _random_body(rnd, where.count("body"), guards)
        prog = build(frame, **lay)
        if frame.scope == "auto" or careless(prog) is None:
            return prog
