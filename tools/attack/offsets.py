"""The adversarial tester's "offsets" grammar: slices at offsets the loop counters compute (issue 24).

Written from shared/spec/ (runtime-api.md section 11: the TensorMap matches every entry whose
region overlaps the view, compared by start offset, shapes and strides; reference-surface.md's
`pl.tensor.slice` / `pl.assemble` and `pl.while_`), docs/semantics.md and the other testers'
docstrings alone; none of the compiler's analyses of hazards, regions or lean edges read. Two
slices whose offsets a counter computes overlap in some iterations and not in others; a compiler
that drops a dependency because it believes the regions never meet (or that the runtime orders
the pair) is caught here. Every program is one AUTO orchestration function around one loop frame
carrying a [32, 4] tensor:

    (u = pl.create_tensor([32, 4], dtype=pl.FP32, init_value=2.0))    TENSOR: t (an InOut
    for i, (y,) in LOOP(init_values=(t,)):                              parameter) or u (made)
        BODY
        d = pl.yield_(y)
    f, k = pl.submit(self.rdF, d)                                       POST: a task reading the
    h = pl.tensor.read(d, [9, 1]); pl.tensor.write(sink, [15], h)       whole result, a host read

LOOP is `pl.range(n)` (runs n = 0..3), `pl.range(2)`, `pl.range(3)`, a `pl.while_` counted by
`pl.cond(i < n)`, or a nest (`nest`): `for k, (y,) in pl.range(n, ...)` around `for i, (e,) in
pl.range(2, init_values=(y,))` (the inner loop constant), the body in the inner loop on `e`; with
two or more top-level items, `nest-pre` puts the first in the outer body before the inner loop and
`nest-post` the last after it (on `y`; there only `k` is defined): a writer of one slice in the
inner loop, the readers of an overlapping region in the outer one.

BODY is a sequence of items: an atom, or a guard on the counter of the loop it stands in (`i`, or
`k` in a nest's outer body) around a non-empty item sequence: `if v == 0`, `if v >= 1`,
`if v % 2 == 1`. An atom is an operation on a PLACE of the carried tensor x (y or e):
    t        the whole tensor x
    s(OFF)   `s = pl.tensor.slice(x, [8, 4], [OFF, 0])`, rows OFF..OFF+8
    ss(OFF)  a slice of that slice: `s2 = pl.tensor.slice(s, [4, 4], [4, 0])`, rows OFF+4..OFF+8
and the operations
    rd   a task reading the place into a new output      `f, k = pl.submit(self.rdA, s)`
    wr   an Out writer of the place                      `s = self.wrA(s)`
    up   an InOut updater of the place                   `s = self.upA(s)`
    hr   a host read of one element (kept live)          `h = pl.tensor.read(s, [1, 1])`
    hw   a host write of one element                     `pl.tensor.write(s, [1, 1], v)`
(the element [1, 1] of a slice, [9, 1] of the whole tensor), or `as(OFF)`, an assemble of a
fresh 8-row source written whole by an Out writer into rows OFF..OFF+8 of x:
    m = pl.create_tensor([8, 4], dtype=pl.FP32); m = self.wrA(m); x = pl.assemble(x, m, [OFF, 0])
OFF is the constant 8 or, of a counter v (`i`; in a nest `i` or the outer `k`), `v * 8`,
`(v % 4) * 8`, `(v % 2) * 8` (iterations 0 and 2 meet), `(v + 1) * 8`, `v * 4` (8-row slices
half-overlapping from one iteration to the next) or `8 - v * 8` (counting down); `ss` takes 8,
`v * 8` and `v * 4` only. A slice out of the tensor's rows has no meaning: a program runs for the
settings of n where none is (`8 - v * 8` for v <= 1: n = 0..2 for a counter bounded by n; never
in `pl.range(3)`, left out there).

The oracle is the tester's (oracle.check_run): VALUES (every task read, host read and the
parameters' final contents, element by element, observe the write the sequential semantics
(semantics.py) has them observe, in submission order and latest-first) and ORDERS (every two
accesses to one element, one a write, ordered in the recorded run under rtmodel.py, which models
the TensorMap's overlap rule, as the sequential program orders them), on every parameter value.
A refusal (a located user error) is the failure class `refusal` unless the tester's semantics
finds the program has no correct compilation for the reason the error names (runner.RIGHT_REFUSALS:
an assemble's placement, matched by the assemble's line and the names it quotes); every other
refusal is reported, to be judged against the spec by hand.

Size: a body's items (an atom 1, a guard 1 + its body); the frame is fixed overhead. Frames:
TENSORS x LOOPS (2 x 7, the nest's placements among the loops; `nest-pre` / `nest-post` only
for two or more top-level items). Size 1 is every atom of every frame where it is defined;
size 2 every guard of one atom, then every two atoms, frames innermost (a run cut short has seen
every frame of the programs before it). No symmetry reduction. Random programs (`generate`)
draw any frame, 2 to 5 atoms and up to 2 guards, and, for a `pl.range` loop or nest three times
in ten, no init_values: the body names t (or u) itself, which the front end carries implicitly
where the body rebinds it (a whole-tensor writer, an assemble) and not at all otherwise; and two
times in five one or two atoms of a constant place (t, s(8), ss(8), as(8)) before the loop (an
access the loop's first iteration alone must be ordered with).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Optional

from . import grammar, semantics
from . import program as P
from .surface import While

ROWS, SLICE_ROWS, SUB_ROWS = P.SHAPES["F"][0], P.SHAPES["A"][0], P.SHAPES["B"][0]
FORMS = {                          # an offset's spelling over a counter v -> its value
    "8": lambda v: 8,
    "{v} * 8": lambda v: v * 8,
    "({v} % 4) * 8": lambda v: (v % 4) * 8,
    "({v} % 2) * 8": lambda v: (v % 2) * 8,
    "({v} + 1) * 8": lambda v: (v + 1) * 8,
    "{v} * 4": lambda v: v * 4,
    "8 - {v} * 8": lambda v: 8 - v * 8,
}
DOWN = "8 - {v} * 8"               # the offset that leaves the tensor for v >= 2
SUB_FORMS = ("8", "{v} * 8", "{v} * 4")
COUNTERS = ("i", "k")
OPS = ("rd", "wr", "up", "hr", "hw")
GUARDS = {"if_0": "{v} == 0", "if_ge1": "{v} >= 1", "if_odd": "{v} % 2 == 1"}
BLOCKS = tuple(GUARDS)
N_SETTINGS = tuple((n, 0) for n in range(4))
ONE_SETTING = ((0, 0),)
KERNELS = tuple(k for s in "FAB" for k in (
    P.Kernel(f"rd{s}", (("in", s), ("out", s))), P.Kernel(f"wr{s}", (("out", s),)),
    P.Kernel(f"up{s}", (("inout", s),))))


def _offsets(forms) -> tuple:
    """(form, counter) of each offset: the constant once, every other form on each counter."""
    return tuple((f, None) for f in forms if "{v}" not in f) + tuple(
        (f, v) for v in COUNTERS for f in forms if "{v}" in f)


OFFSETS = _offsets(FORMS)
SUB_OFFSETS = _offsets(SUB_FORMS)
ATOMS = (tuple((op, ("t",)) for op in OPS) + tuple((op, ("s", o)) for o in OFFSETS for op in OPS)
         + tuple((op, ("ss", o)) for o in SUB_OFFSETS for op in OPS) + tuple(("as", ("as", o)) for o in OFFSETS))
TENSORS = ("t", "u")
LOOPS = (("range", "n"), ("range", 2), ("range", 3), ("while", "n"), ("nest", "n"), ("nest-pre", "n"),
         ("nest-post", "n"))


@dataclass(frozen=True)
class Frame:
    tensor: str        # t: the InOut parameter; u: made before the loop
    loop: str          # range, while, nest, nest-pre, nest-post
    trip: object       # "n" or a constant: the loop's (a nest's outer loop's) trip count
    carry: bool = True  # written with init_values (False, random programs: the tensor's own name in
                        # the body, carried implicitly where the body rebinds it)
    outer: str = "range"   # a nest's outer loop (`--grammar offsets-parallel`: parallel)


FRAMES = tuple(Frame(t, lp, trip) for t in TENSORS for lp, trip in LOOPS)


def offset_text(off: tuple) -> str:
    form, v = off
    return form.format(v=v)


def offset_value(off: tuple, scalars: dict) -> int:
    form, v = off
    return FORMS[form](scalars[v] if v else 0)


class OutOfBounds(ValueError):
    """A slice or an assemble outside its tensor's rows: the program means nothing there."""


def _rows(view: semantics.View, row: int, rows: int) -> semantics.View:
    if row < 0 or row + rows > view.shape[0]:
        raise OutOfBounds(f"rows {row}..{row + rows} of a tensor of {view.shape[0]} rows")
    return semantics.View(view.buf, view.off + row * view.strides[0], (rows,) + view.shape[1:], view.strides)


@dataclass(frozen=True)
class Slice:
    """`name = pl.tensor.slice(src, [rows, 4], [OFF, 0])`: OFF a constant int or an offset."""

    name: str
    src: str
    rows: int
    off: object

    def text(self) -> str:
        return str(self.off) if isinstance(self.off, int) else offset_text(self.off)

    def render(self, p, d):
        p.emit(d, f"{self.name} = pl.tensor.slice({self.src}, [{self.rows}, 4], [{self.text()}, 0])", self)

    def run(self, r):
        row = self.off if isinstance(self.off, int) else offset_value(self.off, r.scalars)
        r.env[self.name] = _rows(r.env[self.src], row, self.rows)


@dataclass(frozen=True)
class Assemble:
    """`target = pl.assemble(target, src, [OFF, 0])`: copies src into rows OFF.. of target."""

    target: str
    src: str
    off: tuple

    def render(self, p, d):
        p.emit(d, f"{self.target} = pl.assemble({self.target}, {self.src}, [{offset_text(self.off)}, 0])", self)

    def run(self, r):
        tgt, src = r.env[self.target], r.env[self.src]
        region = _rows(tgt, offset_value(self.off, r.scalars), src.shape[0])
        stamps = [r.mem.get((src.buf, e), semantics.UNDEF) for e in src.elems()]
        r.assemble_visible(self, src, region)
        for e, st in zip(region.elems(), stamps):
            if st is semantics.UNDEF:
                r.mem.pop((tgt.buf, e), None)
            else:
                r.mem[(tgt.buf, e)] = st
        r.env[self.target] = tgt


@dataclass(frozen=True)
class Guard(grammar.Guard):
    """`if COND:` on the counter `var` around `then`; `name` one of GUARDS."""

    TESTS = {"if_0": (GUARDS["if_0"], lambda v: v == 0), "if_ge1": (GUARDS["if_ge1"], lambda v: v >= 1),
             "if_odd": (GUARDS["if_odd"], lambda v: v % 2 == 1)}


class _Builder(grammar.Builder):
    def __init__(self, fill):
        super().__init__(fill, ATOMS)

    def block(self, item, x: str, var: str):
        return Guard(item[0], tuple(self.items(item[1], x, var)), var)

    def atom(self, atom: tuple, x: str, var: str = "") -> list:
        op, place = atom
        if op == "as":
            m = self.fresh("m")
            return [P.Create(m, "A"), P.Call("wrA", (m,), (m,)), Assemble(x, m, place[1])]
        if place[0] == "t":
            pre, v, shape, idx = [], x, "F", (9, 1)
        else:
            s = self.fresh("s")
            pre, v, shape, idx = [Slice(s, x, SLICE_ROWS, place[1])], s, "A", (1, 1)
            if place[0] == "ss":
                s2 = self.fresh("s")
                pre, v, shape = pre + [Slice(s2, s, SUB_ROWS, SUB_ROWS)], s2, "B"
        if op == "rd":
            return pre + [P.Call(f"rd{shape}", (v, None), (self.fresh("f"),), (), True, self.fresh("k"))]
        if op in ("wr", "up"):
            return pre + [P.Call(f"{op}{shape}", (v,), (v,))]
        if op == "hr":
            return pre + [P.HostRead(self.fresh("h"), v, idx, self.k % (P.SINK_SIZE - 1))]
        self.k += 1
        return pre + [P.HostWrite(v, idx, float(3 + self.k % 5))]


def _split(frame: Frame, shape: tuple) -> tuple:
    """(before, inner, after): the top-level items of a nest's outer body around its inner loop,
    and the inner loop's (every item inner in other frames)."""
    if frame.loop == "nest-pre":
        return shape[:1], shape[1:], ()
    if frame.loop == "nest-post":
        return (), shape[:-1], shape[-1:]
    return (), shape, ()


def _fill_parts(shape_parts, fill) -> list:
    out, k = [], 0
    for part in shape_parts:
        n = grammar.n_atoms(part)
        out.append(fill[k:k + n])
        k += n
    return out


def _settings(prog: "Program", uses_n: bool) -> tuple:
    """The settings where no slice leaves its tensor (OutOfBounds): the program's meaning."""
    out = []
    for n, c in (N_SETTINGS if uses_n else ONE_SETTING):
        try:
            semantics.run(prog, {}, n, c)
        except OutOfBounds:
            continue
        out.append((n, c))
    return tuple(out)


def build(frame: Frame, shape: tuple, fill: tuple, before: tuple = ()) -> "Program":
    """The program of `frame` with the body of `shape` filled by the indices `fill` of ATOMS,
    after the atoms `before` (indices of ATOMS with constant offsets) on the tensor."""
    init = frame.tensor
    b = _Builder(fill)
    pre = ((P.Create("u", "F", 2.0),) if init == "u" else ()) + tuple(
        st for k in before for st in b.atom(ATOMS[k], init))
    y, e, d = ("y", "e", "d") if frame.carry else (init, init, init)

    def carried(inner, outer, result):
        return dict(carries=((inner, outer),), yields=(inner,), results=(result,)) if frame.carry else {}
    if frame.loop.startswith("nest"):
        before, inner, after = _split(frame, shape)
        body_before = tuple(b.items(before, y, "k"))
        body_inner = tuple(b.items(inner, e, "i"))
        body_after = tuple(b.items(after, y, "k"))
        inner_loop = P.Loop("range", "i", 2, body_inner, **carried("e", "y", "y"))
        loop = P.Loop(frame.outer, "k", frame.trip, body_before + (inner_loop,) + body_after,
                      **carried("y", init, "d"))
    elif frame.loop == "while":
        loop = While("i", frame.trip, tuple(b.items(shape, y, "i")), **carried("y", init, "d"))
    else:
        loop = P.Loop(frame.loop, "i", frame.trip, tuple(b.items(shape, y, "i")), **carried("y", init, "d"))
    post = (P.Call("rdF", (d, None), (b.fresh("f"),), (), True, b.fresh("k")),
            P.HostRead(b.fresh("h"), d, (9, 1), P.SINK_SIZE - 1))
    stmts = pre + (loop,) + post
    extra = ("t",) if init == "t" else ()
    prog = Program(P.kernels_used(KERNELS, stmts), stmts, extra=extra, extra_shapes=(("t", "F"),) if extra else ())
    settings = _settings(prog, frame.trip == "n")
    assert settings, "a program of the grammar means something for some setting"
    return Program(prog.kernels, prog.body, extra=prog.extra, extra_shapes=prog.extra_shapes, settings=settings)


@dataclass(frozen=True)
class Program(P.Program):
    @property
    def source(self) -> str:
        return P.render(self).source


# ---- enumeration ---------------------------------------------------------------------------------

def _counters(atom: tuple) -> set:
    place = atom[1]
    return {place[1][1]} - {None} if len(place) > 1 else set()


CONSTANT_ATOMS = tuple(k for k, atom in enumerate(ATOMS) if not _counters(atom))


def _downs(atom: tuple) -> set:
    """The counters an atom counts down on (`8 - v * 8`)."""
    place = atom[1]
    return {place[1][1]} if len(place) > 1 and place[1][0] == DOWN else set()


def valid(frame: Frame, shape: tuple, fill: tuple) -> bool:
    """Is every atom's offset defined where it stands, and in the tensor for some setting?"""
    nest = frame.loop.startswith("nest")
    if frame.loop in ("nest-pre", "nest-post") and len(shape) < 2:
        return False
    before, inner, after = _split(frame, shape)
    for where, fills in enumerate(_fill_parts((before, inner, after), fill)):
        defined = {"i", "k"} if nest and where == 1 else {"k"} if nest else {"i"}
        for k in fills:
            if not _counters(ATOMS[k]) <= defined:
                return False
            if _downs(ATOMS[k]) and not nest and frame.trip != "n" and frame.trip > 2:
                return False       # `8 - i * 8` leaves the tensor at i = 2 on every run
    return True


ENUMERATION = grammar.Framed(BLOCKS, build, len(ATOMS), FRAMES, valid=valid)
points, programs, count = ENUMERATION.points, ENUMERATION.programs, ENUMERATION.count


def generate(seed: int, max_size: Optional[int] = None) -> "Program":
    """A random program: any frame, 2 to 5 atoms and up to 2 guards (`max_size` bounds the body's
    size), atoms drawn until the program is valid."""
    return _generate(seed, max_size, FRAMES)


def _generate(seed: int, max_size: Optional[int], frames: tuple) -> "Program":
    rnd = random.Random(seed)
    n_atoms, guards = grammar.random_sizes(rnd, 2, max_size)
    while True:
        frame = rnd.choice(frames)
        if frame.loop != "while" and rnd.random() < 0.3:
            frame = replace(frame, carry=False)
        shape = grammar.random_items(rnd, n_atoms, guards, BLOCKS)
        fill = tuple(rnd.randrange(len(ATOMS)) for _ in range(n_atoms))
        before = tuple(rnd.choice(CONSTANT_ATOMS) for _ in range(rnd.choice((0, 0, 0, 1, 2))))
        if valid(frame, shape, fill):
            return build(frame, shape, fill, before)


# `--grammar offsets-parallel`: the random programs of `generate` over frames whose loop is a
# `pl.parallel(n)` / `pl.parallel(2)`, or a nest whose outer loop is `pl.parallel(n)` (the inner
# `pl.range(2)` runs anew in every iteration); pairs in two of its iterations are waived
# (docs/semantics.md), those in one iteration and those with the accesses around the loop are not.
PARALLEL_FRAMES = tuple(Frame(t, "parallel", trip) for t in TENSORS for trip in ("n", 2)) + tuple(
    Frame(t, lp, "n", outer="parallel") for t in TENSORS for lp in ("nest", "nest-pre", "nest-post"))


def generate_parallel(seed: int, max_size: Optional[int] = None) -> "Program":
    return _generate(seed, max_size, PARALLEL_FRAMES)


PARALLEL = SimpleNamespace(programs=programs, count=count, BLOCKS=BLOCKS, generate=generate_parallel,
                           ENUMERATION=ENUMERATION)
