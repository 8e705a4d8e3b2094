"""The adversarial tester's "guards" grammar: loop-join guards, checked in both runtime models (issue 24).

Written from shared/spec/ (runtime-api.md section 11, decisions.md), docs/semantics.md, the DSL
docs and the other testers' docstrings alone; none of the compiler's lean passes read. The
compiler drops explicit dependencies it believes the runtime implies on some trips of a loop (the
first trip, trips where the counter is above or below a scalar, even or odd trips, after a loop
that made no trip or an even number of them); these programs put the accesses those rules reason
about under guards on the counter and on `n`, in loops of every kind, and check every run.

Every program is one orchestration function over the InOut parameter `t` ([32, 4]) and a tensor
`u` made before everything (`u = pl.create_tensor([32, 4], dtype=pl.FP32, init_value=2.0)`):

    u = pl.create_tensor(...)
    PRE                                   none, `f, k = pl.submit(self.rdF, t)` (rd), or a loop
                                          `for q in pl.range(K): ...` of a reader (rdK) or an
                                          InOut writer (upK) of t, K = n, 2 or 0, or one (swK)
                                          that carries (t, u) swapped and writes the first (swK)
                                          or reads it (srK, `f, k = pl.submit(self.rdF, p0)`):
                                          `for q, (p0, p1) in pl.range(K, init_values=(t, u)):
                                          p0 = self.upF(p0); v0, v1 = pl.yield_(p1, p0)`, after
                                          which v0 and v1 stand for t and u
    [for j in pl.range(2|n):]             WRAP nest2 / nestn: a loop around the loop
    [with pl.manual_scope(): m0 = None]   WRAP man: a manual scope around it (a TaskId chain)
    for i[, (c0, c1[, m])] in LOOP[, init_values=(t, u[, m0])]:
        [with pl.manual_scope(): m = None]    WRAP inside: a manual scope in the body
        BODY
        [d0, d1[, m1] = pl.yield_(c0, c1[, m])]   CARRY keep (c0, c1) or swap (c1, c0)
    POST                                  `pl.tensor.write(T, [5, 1], 9.0)`, a reader of T,
                                          `h = pl.tensor.read(U, [5, 1])`, `pl.tensor.write(U, [13, 1], 8.0)`

LOOP is `pl.range(n)`, `pl.range(2)`, `pl.range(1)`, `pl.parallel(n)` or `pl.parallel(2)` (a
frame's loop ("while", stop) is guards_while.py's `pl.while_` loop, its counter a carry). In a
manual scope (man, inside) and under WRAP chain (an AUTO loop carrying a TaskId `m`) each task
waits for the one before, `..., m = pl.submit(self.k, ..., deps=[m])`, so every pair inside a
manual scope is the user's and ordered (those frames take `pl.range` loops only). BODY is a
sequence of items: an atom, or a guard around a non-empty item sequence: `if i == 0`,
`if n > i`, `if i % 2 == 0`, `if n > 1`, `if i >= 1`, `if i + 1 < n`, `if i < c` (random
programs: three guards in ten with an `else:` of one atom). An atom is (op, place, x): x is t or u
(the carry holding it, c0 or c1, under CARRY keep / swap), the place is the whole tensor (w),
the counter's own row block (c: `s = pl.tensor.slice(x, [4, 4], [i * 4 + 4, 0])`) or the one
before it (p: `[i * 4, 0]`, the block iteration i - 1 calls its own, and rows 0..3 at i = 0),
and the op
    rd   `f, k = pl.submit(self.rdX, s)`          a reader into a new output
    up   `s = self.upX(s)`                        an InOut writer
    wr   `s = self.wrX(s)`                        an Out writer (OUTPUT_EXISTING)
    mv   `s2 = self.mvX(s, s2)`                   reads the place of x, InOut-writes the same place of the other
    hr   `h = pl.tensor.read(s, [1, 1])`          a host read (kept live in `sink`)
    hw   `pl.tensor.write(s, [1, 1], v)`          a host write
(X: F for the whole tensor, B for a row block; the whole tensor's element is [5, 1], a block's
[1, 1]; the POST elements [5, 1] and [13, 1] are rows of blocks 1 and 3, which iterations 0
and 2 call their own and iterations 1 and 3 the one before).

The check (`Program.check`) runs each program for n = 0..4 (c = 0; once, n = 0, when nothing
reads n; and for c = 1 and 3 too under a guard on c) in both runtime models, each with its value
check:
- the recorder's runs of the compiled C++ under tools/attack/rtmodel.py (oracle.check_run:
  every conflicting pair ordered, every read observing the sequential program's write, in
  submission order and latest-first);
- `nanopass check`'s (tools/check.check_stages): the emission program interpreted, its hazards
  under tools/runtime_model.py (tools/hazards.py; class "hazard (runtime_model)") and its reads
  against the program as written (tools/values.py; class "value mismatch (check)").

Exhaustive mode (`--exhaustive --grammar guards --size K`): size is the body's items (an atom 1,
a guard 1 + its body); a program is (frame, shape, fill) over EX_FRAMES (one dimension of the
frame varied from the plain `pl.range(n)` at a time, and a few pairs) and ATOMS (36), shapes
in grammar.ordered_shapes' order, each shape's fills in product order, frames innermost. No
symmetry reduction: size 1 is 36 x len(EX_FRAMES) programs, size 2 (7 x 36 + 36 x 36) x
len(EX_FRAMES) (tests/test_attack_guards.py counts them by hand). Random programs (`generate`)
draw any frame of the full product (FRAMES), 2 to 5 atoms and up to 2 guards, and half the time
a random POST (one to four of rd / up / hr / hw of the whole results, in random order).
"""

from __future__ import annotations

import random
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

from . import grammar, oracle, runner
from . import program as P
from .surface import While

OPS = ("rd", "up", "wr", "mv", "hr", "hw")
PLACES = ("w", "c", "p")
TENSORS = ("t", "u")
ATOMS = tuple((op, place, x) for x in TENSORS for place in PLACES for op in OPS)
GUARDS = {"if_0": "{v} == 0", "if_nbig": "n > {v}", "if_even": "{v} % 2 == 0", "if_n1": "n > 1", "if_ge1": "{v} >= 1",
          "if_notlast": "{v} + 1 < n", "if_c": "{v} < c"}
HOLDS = {"if_0": lambda i, n: i == 0, "if_nbig": lambda i, n: n > i, "if_even": lambda i, n: i % 2 == 0,
         "if_n1": lambda i, n: n > 1, "if_ge1": lambda i, n: i >= 1, "if_notlast": lambda i, n: i + 1 < n}
C_GUARDS = ("if_c",)               # guards on c: the program runs for c = 1 and 3 too
BLOCKS = tuple(GUARDS)
LOOPS = (("range", "n"), ("range", 2), ("range", 1), ("parallel", "n"), ("parallel", 2))
CARRIES = ("none", "keep", "swap")
WRAPS = ("none", "nest2", "nestn", "man", "inside", "chain")
PRES = ("none", "rd", "rdn", "rd2", "rd0", "upn", "up2", "swn", "sw2", "sw0", "srn", "sr2", "sr0")
N_SETTINGS = tuple((n, 0) for n in range(5))
ONE_SETTING = ((0, 0),)
KERNELS = tuple(k for s in "FB" for k in (
    P.Kernel(f"rd{s}", (("in", s), ("out", s))), P.Kernel(f"up{s}", (("inout", s),)),
    P.Kernel(f"wr{s}", (("out", s),)), P.Kernel(f"mv{s}", (("in", s), ("inout", s)))))
ELEMENT = {"w": (5, 1), "c": (1, 1), "p": (1, 1)}
MODEL_CLASSES = ("hazard (runtime_model)", "value mismatch (check)", "runtime fatal (check)", "check crash")


@dataclass(frozen=True)
class Frame:
    loop: tuple = ("range", "n")
    carry: str = "none"
    wrap: str = "none"
    pre: str = "none"
    inner_pre: bool = False    # nest frames, random programs: a swap PRE in the outer loop's body, before the loop

    def valid(self) -> bool:
        """Manual scopes and TaskId chains take pl.range loops only (a chain through pl.parallel
        iterations means nothing sequential)."""
        return not (self.wrap in ("man", "inside", "chain") and self.loop[0] == "parallel")


FRAMES = tuple(f for f in (Frame(lp, c, w, p) for lp in LOOPS for c in CARRIES for w in WRAPS for p in PRES)
               if f.valid())
BASE = Frame()
EX_FRAMES = tuple(dict.fromkeys(
    [BASE]
    + [Frame(loop=lp) for lp in LOOPS]
    + [Frame(carry=c) for c in CARRIES]
    + [Frame(wrap=w) for w in WRAPS]
    + [Frame(pre=p) for p in PRES]
    + [Frame(("range", 2), "swap"), Frame(("parallel", 2), "swap"), Frame(carry="swap", pre="upn"),
       Frame(carry="swap", wrap="nest2"), Frame(("range", 2), wrap="nestn"), Frame(carry="swap", wrap="man"),
       Frame(("parallel", "n"), wrap="nest2"), Frame(wrap="inside", pre="rd2"), Frame(carry="swap", pre="swn"),
       Frame(("range", 2), pre="sw2")]))


@dataclass(frozen=True)
class Guard:
    """`if COND:` around `then` (and `else:` around `orelse`, random programs); `name` one of
    GUARDS (on the loop's counter `i` and on `n`)."""

    name: str
    then: tuple
    orelse: tuple = ()
    var: str = "i"

    def blocks(self) -> list:
        return [self.then, self.orelse]

    def with_blocks(self, lists):
        return Guard(self.name, tuple(lists[0]), tuple(lists[1]), self.var)

    def render(self, p, d):
        p.emit(d, f"if {GUARDS[self.name].format(v=self.var)}:", self)
        p.body(d + 1, self.then)
        if self.orelse:
            p.emit(d, "else:")
            p.body(d + 1, self.orelse)

    def run(self, r):
        v, n = r.scalars[self.var], r.scalars["n"]
        r.run(self.then if (v < r.scalars["c"] if self.name == "if_c" else HOLDS[self.name](v, n)) else self.orelse)


class _Builder(grammar.Builder):
    def __init__(self, fill, names: dict, chain: Optional[str]):
        super().__init__(fill, ATOMS)
        self.var = "i"              # the counter guards and row blocks use
        self.names = names          # t, u -> the names the body writes them by
        self.chain = chain          # the TaskId each task waits for and rebinds, or None

    def block(self, item):
        then = tuple(self.items(item[1]))
        return Guard(item[0], then, tuple(self.items(item[2])) if len(item) > 2 else (), self.var)

    def call(self, kernel: str, args: tuple, results: tuple, reads: bool) -> P.Call:
        if self.chain:
            return P.Call(kernel, args, results, (), True, self.chain, (self.chain,))
        if reads:
            return P.Call(kernel, args, results, (), True, self.fresh("k"))
        return P.Call(kernel, args, results)

    def place(self, place: str, x: str) -> tuple:
        """(statements making the view, its name, its shape key)."""
        name = self.names[x]
        if place == "w":
            return [], name, "F"
        s = self.fresh("s")
        return [_Block(s, name, place, self.var)], s, "B"

    def atom(self, atom: tuple) -> list:
        op, place, x = atom
        pre, v, shape = self.place(place, x)
        if op == "rd":
            return pre + [self.call(f"rd{shape}", (v, None), (self.fresh("f"),), True)]
        if op in ("up", "wr"):
            return pre + [self.call(f"{op}{shape}", (v,), (v,), False)]
        if op == "mv":
            pre2, v2, _ = self.place(place, "u" if x == "t" else "t")
            return pre + pre2 + [self.call(f"mv{shape}", (v, v2), (v2,), False)]
        if op == "hr":
            return pre + [P.HostRead(self.fresh("h"), v, ELEMENT[place], self.k % (P.SINK_SIZE - 1))]
        self.k += 1
        return pre + [P.HostWrite(v, ELEMENT[place], float(3 + self.k % 5))]


@dataclass(frozen=True)
class _Block:
    """`name = pl.tensor.slice(src, [4, 4], [i * 4 + 4, 0])` (place c) or `[i * 4, 0]` (p)."""

    name: str
    src: str
    place: str
    var: str = "i"

    def render(self, p, d):
        off = f"{self.var} * 4" + (" + 4" if self.place == "c" else "")
        p.emit(d, f"{self.name} = pl.tensor.slice({self.src}, [4, 4], [{off}, 0])", self)

    def run(self, r):
        from .semantics import View
        src = r.env[self.src]
        row = r.scalars[self.var] * 4 + (4 if self.place == "c" else 0)
        r.env[self.name] = View(src.buf, src.off + row * src.strides[0], (4, 4), src.strides)


def _post(names: tuple) -> tuple:
    t, u = names
    return (P.HostWrite(t, (5, 1), 9.0), P.Call("rdF", (t, None), ("fp",), (), True, "kp"),
            P.HostRead("hp", u, (5, 1), P.SINK_SIZE - 1), P.HostWrite(u, (13, 1), 8.0))


def _random_post(rnd: random.Random, names: tuple) -> tuple:
    out = []
    for j in range(rnd.randint(1, 4)):
        x = rnd.choice(names)
        op = rnd.choice(("rd", "up", "hr", "hw"))
        row = rnd.choice((5, 13))
        if op == "rd":
            out.append(P.Call("rdF", (x, None), (f"fp{j}",), (), True, f"kp{j}"))
        elif op == "up":
            out.append(P.Call("upF", (x,), (x,)))
        elif op == "hr":
            out.append(P.HostRead(f"hp{j}", x, (row, 1), P.SINK_SIZE - 1 - j))
        else:
            out.append(P.HostWrite(x, (row, 1), float(4 + j)))
    return tuple(out)


def _pre(frame: Frame, names: tuple) -> tuple:
    """The statements of the frame's PRE on the tensors `names` (t's, u's); a swap loop's
    results are v0 and v1."""
    t, u = names
    if frame.pre == "none":
        return ()
    if frame.pre == "rd":
        return (P.Call("rdF", (t, None), ("fq",), (), True, "kq"),)
    op, trip = frame.pre[:2], frame.pre[2:]
    trip = trip if trip == "n" else int(trip)
    if op in ("sw", "sr"):
        body = (P.Call("upF", ("p0",), ("p0",)) if op == "sw" else P.Call("rdF", ("p0", None), ("fq",), (), True, "kq"),)
        return (P.Loop("range", "q", trip, body, carries=(("p0", t), ("p1", u)), yields=("p1", "p0"),
                       results=("v0", "v1")),)
    body = (P.Call("rdF", (t, None), ("fq",), (), True, "kq"),) if op == "rd" else (P.Call("upF", (t,), (t,)),)
    return (P.Loop("range", "q", trip, body),)


def build(frame: Frame, shape: tuple, fill: tuple, post=None, outer: tuple = ((), ())) -> "Program":
    """The program of `frame` with the body of `shape` filled by the indices `fill` of ATOMS
    (`post`: the statements after the loop, on the names of its results; the fixed POST when None;
    `outer`, nest frames of random programs: the shapes of the outer loop's body before and after
    the loop, on the outer counter j, filled first and last)."""
    carried = frame.carry != "none"
    nest = frame.wrap in ("nest2", "nestn")
    inner_pre = nest and frame.inner_pre and frame.pre.startswith(("sw", "sr"))
    chain = "m" if frame.wrap in ("man", "inside", "chain") else None
    base = ("v0", "v1") if frame.pre.startswith(("sw", "sr")) and not inner_pre else ("t", "u")
    outer_names = ("e0", "e1") if nest and carried else base
    init = ("v0", "v1") if inner_pre else outer_names          # the loop's tensors before it
    inner_results = ("g0", "g1") if nest and carried else init
    b = _Builder(fill, dict(zip(TENSORS, outer_names)), chain)
    b.var = "j"
    before = tuple(b.items(outer[0]))
    b.var, b.names = "i", ({"t": "c0", "u": "c1"} if carried else dict(zip(TENSORS, init)))
    body = tuple(b.items(shape))
    b.var, b.names = "j", dict(zip(TENSORS, inner_results))
    after = tuple(b.items(outer[1]))
    if frame.wrap == "inside":
        body = (P.Manual((P.TidNone("m"),) + body),)
    kind, trip = frame.loop
    cs, ys, rs = (), (), ()
    if carried:
        cs = (("c0", init[0]), ("c1", init[1]))
        ys = ("c0", "c1") if frame.carry == "keep" else ("c1", "c0")
        rs = ("g0", "g1") if nest else ("d0", "d1")
    if frame.wrap in ("man", "chain"):
        cs, ys, rs = cs + (("m", "m0"),), ys + ("m",), rs + ("m1",)
    if kind == "while":
        top: tuple = (While("i", trip, body, carries=cs, yields=ys, results=rs),)
    else:
        top = (P.Loop(kind, "i", trip, body, carries=cs, yields=ys, results=rs),)
    if nest:
        top = before + (_pre(frame, outer_names) if inner_pre else ()) + top + after
        jt = 2 if frame.wrap == "nest2" else "n"
        if carried:
            top = (P.Loop("range", "j", jt, top, carries=(("e0", base[0]), ("e1", base[1])), yields=("g0", "g1"),
                          results=("d0", "d1")),)
        else:
            top = (P.Loop("range", "j", jt, top),)
    if frame.wrap in ("man", "chain"):
        top = (P.TidNone("m0"),) + top
    if frame.wrap == "man":
        top = (P.Manual(top),)
    post = _post(_results(frame)) if post is None else post
    stmts = (P.Create("u", "F", 2.0),) + (() if inner_pre else _pre(frame, ("t", "u"))) + top + tuple(post)
    prog = Program(P.kernels_used(KERNELS, stmts), stmts, extra=("t",), extra_shapes=(("t", "F"),))
    return Program(prog.kernels, prog.body, extra=prog.extra, extra_shapes=prog.extra_shapes,
                   settings=_settings(frame, shape + outer[0] + outer[1]))


def _guards(shape) -> set:
    """The names of the guards of a shape (else branches too)."""
    return {g for item in shape if item != "atom" for g in {item[0]} | set().union(*map(_guards, item[1:]))}


def _settings(frame: Frame, shape: tuple) -> tuple:
    """n = 0..4 when the program reads n, once (n = 0) otherwise; c = 1 and 3 too where a guard reads c."""
    with_n = N_SETTINGS if _uses_n(frame, shape) else ONE_SETTING
    return with_n + (tuple((n, c) for c in (1, 3) for n, _ in with_n) if _guards(shape) & set(C_GUARDS) else ())


def _uses_n(frame: Frame, shape: tuple) -> bool:
    """Does the program read the scalar n (a trip count or a guard)?"""
    def guards(sh):
        return any(item != "atom" and (item[0] in ("if_nbig", "if_n1", "if_notlast") or any(map(guards, item[1:])))
                   for item in sh)
    return "n" in (frame.loop[1], frame.pre[2:]) or frame.wrap == "nestn" or guards(shape)


# ---- the second runtime model -------------------------------------------------------------------

def model_failures(source: str, settings) -> list:
    """[(setting or None, oracle.Failure)] of `nanopass check` (tools/check.check_stages) on the
    program `source` under each setting: hazards under tools/runtime_model.py that nothing waives,
    reads the compile changed, fatal runtime errors."""
    from nanopass.api import run_pipeline, surface_of
    from nanopass.errors import UserError
    from nanopass.loader import load_programs, pick_program
    from nanopass.tools.check import check_stages, program_inputs
    from nanopass.tools.hazards import describe

    wd = Path(tempfile.mkdtemp(prefix="attack-guards-"))
    out = []
    try:
        path = wd / "prog.py"
        path.write_text(source)
        try:
            program = pick_program(load_programs(str(path)), None, str(path))
            stages = run_pipeline(program, None)
            surface = surface_of(program)
        except UserError:
            return []                      # the recorder's side reports the refusal
        for n, c in settings:
            res = check_stages(stages, program_inputs(surface, {"n": str(n), "c": str(c)}))
            for h in res.failing:
                out.append(((n, c), oracle.Failure("hazard (runtime_model)", describe(res.emission, h))))
            for m in res.mismatches:
                out.append(((n, c), oracle.Failure(runner.CHECK_VALUES, str(m))))
            if res.fatal:
                out.append(((n, c), oracle.Failure("runtime fatal (check)", res.fatal)))
    except Exception as e:  # noqa: BLE001 - a failure of the checker on a compiled program is reported
        out.append((None, oracle.Failure("check crash", f"{type(e).__name__}: {e}")))
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    return out


@dataclass(frozen=True)
class Program(P.Program):
    """A program of this grammar, checked in both runtime models (module doc)."""

    @property
    def source(self) -> str:
        return P.render(self).source

    def check(self, host_region: str = "element") -> runner.Report:
        rep = runner.check(self, host_region=host_region, values=False)   # (model_failures compares values)
        if rep.refusal is None and rep.invalid is None and rep.runs:
            rep.failures += model_failures(rep.source, self.settings)
            rep.checked += len(self.settings)
        return rep


# ---- enumeration ----------------------------------------------------------------------------------

ENUMERATION = grammar.Framed(BLOCKS, build, len(ATOMS), EX_FRAMES)
points, programs, count = ENUMERATION.points, ENUMERATION.programs, ENUMERATION.count


def _atoms(shape) -> int:
    """The atoms of a shape whose guards may have an else (a third element)."""
    return sum(1 if item == "atom" else sum(_atoms(part) for part in item[1:]) for item in shape)


def generate(seed: int, max_size: Optional[int] = None, frames: tuple = FRAMES) -> "Program":
    """A random program: any frame of `frames` (FRAMES; guards_while.py's its own), 2 to 5 atoms,
    up to 2 guards (`max_size` bounds the body's size), half the time a random POST; in a nest
    frame, half the time some atoms (and guards on j) in the outer loop's body before and after
    the loop, and half the time a swap PRE moved into the outer loop's body (Frame.inner_pre)."""
    rnd = random.Random(seed)
    frame = rnd.choice(frames)
    n_atoms, guards = grammar.random_sizes(rnd, 2, max_size)
    outer = ((), ())
    if frame.wrap in ("nest2", "nestn"):
        if frame.pre.startswith(("sw", "sr")) and rnd.random() < 0.5:
            frame = replace(frame, inner_pre=True)
        if rnd.random() < 0.5:
            where = [rnd.choice(("before", "inner", "inner", "after")) for _ in range(n_atoms)]
            n_inner = max(1, where.count("inner"))
            outer = tuple(grammar.random_items(rnd, where.count(w), rnd.randint(0, 1) if w in where else 0, BLOCKS, 0.3)
                          for w in ("before", "after"))
            n_atoms = n_inner
    shape = grammar.random_items(rnd, n_atoms, guards, BLOCKS, 0.3)
    fill = tuple(rnd.randrange(len(ATOMS)) for _ in range(_atoms(outer[0]) + _atoms(shape) + _atoms(outer[1])))
    post = None
    if rnd.random() < 0.5:
        post = _random_post(rnd, _results(frame))
    return build(frame, shape, fill, post, outer)


def _results(frame: Frame) -> tuple:
    """The names of t and u after the loop (POST's)."""
    if frame.carry != "none":
        return ("d0", "d1")
    inner_pre = frame.wrap in ("nest2", "nestn") and frame.inner_pre
    return ("v0", "v1") if frame.pre.startswith(("sw", "sr")) and not inner_pre else ("t", "u")
