"""The adversarial tester's bounded-exhaustive "loops2" grammar: first-iteration and parity rules.

Written from shared/spec/ (runtime-api.md section 11, reference-surface.md section 14's
`pl.while_`), docs/semantics.md and README.md alone; none of the compiler's analyses of hazards,
reader cells, lean edges or runtime order read. Every program is one AUTO-scope loop nest over one
to three tensor carries started as the InOut [4, 4] parameters `p` (`q`, `r`), of one of two kinds:

    while:  for (i, c0, c1) in pl.while_(init_values=(0, p, q)):       runs n = 0..4
                pl.cond(i < n)
                BODY
                n_done, d0, d1 = pl.yield_(i + 1, c1, c0)

    nest:   for i, (c0, c1) in pl.range(n, init_values=(p, q)):        runs n, c = 0..3 each
                PRE
                for j, (e0, e1) in pl.range(c, init_values=(c0, c1)):
                    INNER
                    c0, c1 = pl.yield_(e1, e0)
                POST
                d0, d1 = pl.yield_(c1, c0)

(the scalar `c` is the inner trip count). Each loop yields its carries unchanged (`keep`), swapped
(`swap`: the first two trade places) or rotated (`rotate`, three carries: c0 <- c1, c1 <- c2,
c2 <- c0); the nest's two loops each have their own. A body (BODY, PRE, INNER, POST; INNER may be
empty, a loop that only permutes) is a sequence of items over the atoms of carries.py:
    rd(j)     a task reading carry j into a runtime-allocated output   `f, k = pl.submit(self.rd, cj)`
    wr(j)     a task writing carry j (Out)                             `cj = self.wr(cj)`
    up(j)     a task updating carry j (InOut)                          `cj = self.up(cj)`
    mv(j, k)  a task reading carry j and writing carry k (Out)         `ck = self.rd(cj, ck)`
    hr(j)     a host read of carry j's [1, 1] (kept live in `sink`)    `h = pl.tensor.read(cj, [1, 1])`
and three atoms on the loop's original parameters, which the carries name in some iterations only
(the orders whose need depends on the parity of the trip count):
    pr(j)     a task reading parameter j (p, q, r) into a runtime-allocated output
    pw(j)     a task writing parameter j (Out)                         `p = self.wr(p)`
    pu(j)     a task updating parameter j (InOut)                      `p = self.up(p)`
(in INNER the carries are the inner loop's, e0..e2; the parameters are the same) and guard blocks around a non-empty item
sequence, testing the innermost loop's variable v (`i` or, in INNER, `j`):
    if_0 `if v == 0`, if_1 `if v >= 1`, if_ev `if v % 2 == 0`, if_od `if v % 2 == 1`,
and, in INNER only, the outer loop's `i`: outer_0 `if i == 0`, outer_ev `if i % 2 == 0` (the DSL's
`%` truncates as C's: docs/semantics.md; the loop variables are never negative). After the nest
every result and every original parameter is accessed by a task, as in carries.py (`rw`: reads of
d0.. then writes of p..; `wr`: writes of d0.. then reads of p..).

The oracle is carries.py's (oracle.check_run: every two conflicting accesses ordered in the
recorded run under rtmodel.py, every read and the parameters' final contents observing the write
the sequential program does, in submission order and latest-first), with lean.py's figures of the
same runs (carries.Program).

A frame is (kind, carries, outer yield, inner yield, post); the inner yield is None in a while.
Size: a body's items (an atom 1, a guard 1 + its body) plus 1 for the nest's inner loop; the
frame is fixed overhead. A nest's shape is `PRE + (("inner", INNER),) + POST`. Symmetry: a
renaming of the carries (with their parameters and results) that commutes with every yield of the
frame maps a program to one with the same meaning; one program per class is enumerated (the
smallest atom sequence). Programs come by size, while before nest, fewer atoms first, in a fixed
order, so an index names one program for good. `--grammar loops2-const` draws random programs
whose loops may have constant trip counts (generate_constant_trips; the exhaustive grammar is
loops2's).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Iterator, Optional

from . import carries, grammar
from . import program as P
from .surface import While

PARAMS = carries.PARAMS
CARRIES = carries.CARRIES
INNER_CARRIES = ("e0", "e1", "e2")
RESULTS = carries.RESULTS
YIELDS = {1: {"keep": (0,)}, 2: carries.YIELDS[2], 3: carries.YIELDS[3]}
POSTS = carries.POSTS
KINDS = ("while", "nest")
GUARDS = ("if_0", "if_1", "if_ev", "if_od")       # on the innermost loop's variable
OUTER_GUARDS = ("outer_0", "outer_ev")                # on the outer `i`, inside the nest's inner loop
BLOCKS = GUARDS + OUTER_GUARDS + ("inner",)
WHILE_SETTINGS = tuple((n, 0) for n in range(5))
NEST_SETTINGS = tuple((n, c) for n in range(4) for c in range(4))
KERNELS = carries.KERNELS
Program = carries.Program     # checked by the tester's oracle, with lean.py's figures of its runs


@dataclass(frozen=True)
class Frame:
    kind: str
    carries: int
    outer: str
    inner: Optional[str]
    post: str
    trips: tuple = ("n", "c")     # the outer (or while) and inner loops' trip counts: a scalar or a constant


def frames(kind: str) -> tuple:
    out = []
    for k in (1, 2, 3):
        for outer in YIELDS[k]:
            for inner in (YIELDS[k] if kind == "nest" else (None,)):
                out += [Frame(kind, k, outer, inner, post) for post in POSTS]
    return tuple(out)


FRAMES_OF = {kind: frames(kind) for kind in KINDS}
FRAMES = FRAMES_OF["while"] + FRAMES_OF["nest"]


@dataclass(frozen=True)
class Parity(P.OneBlock):
    """`if var % 2 == rem:` around `then` (semantics.py's If knows no `%`)."""

    BLOCK = "then"

    var: str
    rem: int
    then: tuple

    def render(self, p, d):
        p.emit(d, f"if {self.var} % 2 == {self.rem}:", self)
        p.body(d + 1, self.then)

    def run(self, r):
        if r.scalars[self.var] % 2 == self.rem:
            r.run(self.then)


def atoms(k: int) -> tuple:
    """carries.py's atoms over k carries, then the parameter atoms, in a fixed order."""
    return carries.atoms(k) + tuple((op, j) for op in ("pr", "pw", "pu") for j in range(k))


def symmetries(frame: Frame) -> tuple:
    """The carry renamings (not the identity) that commute with the frame's yields, as atom index
    permutations."""
    perms = [YIELDS[frame.carries][y] for y in (frame.outer, frame.inner) if y is not None]
    return carries.commuting(frame.carries, perms, atoms(frame.carries))


def _shapes(size: int) -> Iterator[tuple]:
    """The while shapes of `size`, then the nest's (PRE + (("inner", INNER),) + POST), each kind
    in ordered_shapes' order."""
    yield from grammar.ordered_shapes(grammar.shapes(size, GUARDS, ()))
    nests = []
    for pre in range(size):
        for inner in range(size - pre):
            post = size - 1 - pre - inner
            for a in grammar.shapes(pre, GUARDS, ()):
                for b in grammar.shapes(inner, GUARDS + OUTER_GUARDS, ()):
                    for c in grammar.shapes(post, GUARDS, ()):
                        nests.append(a + (("inner", b),) + c)
    yield from grammar.ordered_shapes(nests)


def _kind(shape) -> str:
    return "nest" if any(item != "atom" and item[0] == "inner" for item in shape) else "while"


class _Builder(carries._Builder):
    """carries.py's atoms over the carry names of the body being built (`names`), and the
    parameter atoms."""

    def __init__(self, frame: Frame, fill: tuple):
        super().__init__(frame, fill)
        self.atoms = atoms(frame.carries)
        self.names = CARRIES

    def block(self, item, var: str = "i"):
        block, then = item[0], tuple(self.items(item[1], var))
        if block in OUTER_GUARDS:
            var, block = "i", "if_" + block[len("outer_"):]
        if block == "if_0":
            return P.If((var, "==", 0), then)
        if block == "if_1":
            return P.If((var, ">=", 1), then)
        return Parity(var, 0 if block == "if_ev" else 1, then)

    def atom(self, atom: tuple, var: str = "i") -> list:
        op = atom[0]
        if op == "pr":
            return [self.read(PARAMS[atom[1]])]
        if op in ("pw", "pu"):
            return [P.Call("wr" if op == "pw" else "up", (PARAMS[atom[1]],), (PARAMS[atom[1]],))]
        stmts = super().atom(atom)
        if self.names is CARRIES:
            return stmts
        rename = dict(zip(CARRIES, self.names))
        return [_renamed(s, rename) for s in stmts]


def _renamed(stmt, rename: dict):
    if isinstance(stmt, P.Call):
        return replace(stmt, args=tuple(rename.get(a, a) for a in stmt.args),
                       results=tuple(rename.get(a, a) for a in stmt.results))
    return replace(stmt, tensor=rename.get(stmt.tensor, stmt.tensor))


def _permuted(names: tuple, perm: tuple) -> tuple:
    return tuple(names[perm[j]] for j in range(len(perm)))


def build(frame: Frame, shape: tuple, fill: tuple) -> "Program":
    b = _Builder(frame, fill)
    k = frame.carries
    outer = YIELDS[k][frame.outer]
    if frame.kind == "while":
        loop = While("i", frame.trips[0], tuple(b.items(shape)), carries=tuple(zip(CARRIES[:k], PARAMS[:k])),
                     yields=_permuted(CARRIES[:k], outer), results=RESULTS[:k])
        settings = WHILE_SETTINGS if frame.trips[0] == "n" else ((0, 0),)
    else:
        at = next(pos for pos, item in enumerate(shape) if item != "atom" and item[0] == "inner")
        pre = b.items(shape[:at])
        b.names = INNER_CARRIES
        inner_body = b.items(shape[at][1], "j")
        b.names = CARRIES
        post = b.items(shape[at + 1:])
        inner = P.Loop("range", "j", frame.trips[1], tuple(inner_body), carries=tuple(zip(INNER_CARRIES[:k], CARRIES[:k])),
                       yields=_permuted(INNER_CARRIES[:k], YIELDS[k][frame.inner]), results=CARRIES[:k])
        loop = P.Loop("range", "i", frame.trips[0], tuple(pre) + (inner,) + tuple(post),
                      carries=tuple(zip(CARRIES[:k], PARAMS[:k])),
                      yields=_permuted(CARRIES[:k], outer), results=RESULTS[:k])
        settings = tuple((n, c) for n, c in NEST_SETTINGS if (n == 0 or frame.trips[0] == "n")
                         and (c == 0 or frame.trips[1] == "c"))
    body = (loop,) + tuple(b.post(frame))
    return Program(P.kernels_used(KERNELS, body), body, extra=PARAMS[:k], settings=settings)


ENUMERATION = grammar.Framed(BLOCKS, build,
                             lambda frame: len(atoms(frame.carries)), lambda shape: FRAMES_OF[_kind(shape)],
                             shapes=_shapes, frames_inside=False, symmetries=symmetries)
points, programs, count = ENUMERATION.points, ENUMERATION.programs, ENUMERATION.count
# every program of size `size`, one per symmetry class (module doc): while before nest, shape by
# shape, each frame's canonical fills


def generate(seed: int, max_size: Optional[int] = None, constant_trips: bool = False) -> "Program":
    """A random program: any frame, a body of 2 to 4 atoms and up to 3 guards (`max_size` bounds
    the size); a nest's atoms fall in PRE, INNER or POST at random (INNER twice as likely). With
    `constant_trips` each loop's trip count is its scalar or a constant (2, 3, 4; inner 1, 2, 3)
    at random, the settings those of the scalars left."""
    rnd = random.Random(seed)
    frame = rnd.choice(FRAMES)
    if constant_trips:
        frame = replace(frame, trips=(rnd.choice(("n", 2, 3, 4)), rnd.choice(("c", 1, 2, 3))))
    n_atoms = rnd.randint(2, 4)
    guards = rnd.randint(0, 3)
    if max_size is not None:
        guards = max(0, min(guards, max_size - n_atoms - (frame.kind == "nest")))
    if frame.kind == "while":
        shape = grammar.random_items(rnd, n_atoms, guards, GUARDS)
    else:
        where = [rnd.choice(("pre", "inner", "inner", "post")) for _ in range(n_atoms)]
        split = [where.count(w) for w in ("pre", "inner", "post")]
        gsplit = [0, 0, 0]
        for _ in range(guards):
            options = [s for s in range(3) if split[s]]
            if options:
                gsplit[rnd.choice(options)] += 1
        pre, inner, post = (grammar.random_items(rnd, split[s], gsplit[s], GUARDS + OUTER_GUARDS if s == 1 else GUARDS)
                            for s in range(3))
        shape = pre + (("inner", inner),) + post
    fill = tuple(rnd.randrange(len(atoms(frame.carries))) for _ in range(grammar.n_atoms(shape)))
    return build(frame, shape, fill)


def generate_constant_trips(seed: int, max_size: Optional[int] = None) -> "Program":
    return generate(seed, max_size, constant_trips=True)


# `--grammar loops2-const`: loops2's exhaustive grammar, random programs with constant trips too
CONSTANT_TRIPS = SimpleNamespace(programs=programs, count=count, BLOCKS=BLOCKS, generate=generate_constant_trips,
                                 ENUMERATION=ENUMERATION)
