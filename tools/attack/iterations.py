"""The adversarial tester's "iterations" grammar: loops whose iterations differ (issue 24).

Written from shared/spec/ (runtime-api.md section 11, reference-surface.md section 14's
`pl.while_`, dsl.md), docs/semantics.md and the other testers' docstrings alone; none of the
compiler's analyses of hazards, reader cells, lean edges or runtime order read. Every program is
one AUTO orchestration function around one loop frame over two tensor carries, an outer InOut
parameter `w`, a tensor `o` made before the loop and a tensor `m` made in the body (a new buffer
every iteration):

    o = pl.create_tensor([4, 4], dtype=pl.FP32, init_value=2.0)        (when the body names o)
    for i, (c0, c1) in LOOP(init_values=(p, q)):                       INIT: (p, q) or (p, p)
        m = pl.create_tensor([4, 4], dtype=pl.FP32, init_value=1.0)    (when the body names m)
        BODY
        d0, d1 = pl.yield_(c0, c1)                                     YIELD: keep or swap (c1, c0)
    f, k = pl.submit(self.rd, d0); f, k = pl.submit(self.rd, d1)      POST: the results read by
    h = pl.tensor.read(d0, [1, 1]); w = self.up(w)                     tasks and the host, w updated

LOOP is `pl.range(n)` (runs n = 0..3), `pl.range(K)` or `pl.parallel(K)` of a constant K,
`pl.while_` counted by `pl.cond(i < n)`, or a nest two deep (`nest`): `pl.range(n)` of `i`
around `for j, (e0, e1) in pl.range(i, init_values=(c0, c1))`, the inner bound the outer counter,
whose yield is the frame's (the outer one keeps): the body sits in the inner loop, on e0/e1, and
its guards test the outer `i` (random programs also draw `nestp`: the outer loop `pl.parallel`,
and, half the time, put atoms in the outer body before and after the inner loop, on c0/c1 and a
tensor `mo` made in the outer body, the inner loop's tasks then running in some outer iterations
only).
BODY is a sequence of items: an atom over a name x of c0, c1, w, o, m
    rd(x)   a task reading x into a new output      `f, k = pl.submit(self.rd, x)`
    up(x)   an InOut writer of x                    `x = self.up(x)`
    hr(x)   a host read of x[1, 1] (kept live)      `h = pl.tensor.read(x, [1, 1])`
    hw(x)   a host write of x[1, 1]                 `pl.tensor.write(x, [1, 1], v)`
or `take`, `c0 = m` (the carry becomes this iteration's new tensor, which the yield then carries
to the next iteration or out of the loop), or a guard on the counter around a non-empty item
sequence: `if i == 0`, `if i >= 1`, `if i < 2`, `if i % 2 == 1`, `if i > 0`.

Which buffer a name holds thus depends on the iteration (swap, take, init (p, p)); a task may run
in some iterations only. The oracle is the tester's (oracle.check_run): VALUES (every task read,
host read and the parameters' final contents observe the write the sequential semantics
(semantics.py) has them observe, in submission order and latest-first) and ORDERS (every two
accesses to one element, one a write, ordered in the recorded run under rtmodel.py as the
sequential program orders them; pairs in different iterations of one `pl.parallel` loop are
waived, docs/semantics.md), on every parameter value; lean.py's figures of the same runs come
with each report (carries.Program). A refusal (a located user error) is the failure class
`refusal` unless the tester's semantics finds the program has no correct compilation for the
reason the error names (runner.RIGHT_REFUSALS: an assemble's placement); these programs have no
assemble, so every refusal is reported, to be judged against the spec by hand.

Size: a body's items (an atom 1, a guard 1 + its body); the frame is fixed overhead. Size 1 is
every atom in every frame; size 2 every guard of one atom, then every two atoms (first those
that touch one group of tensors: the carries, `take` and m, or w, o, m alone), frame by frame
innermost (a run cut short has seen every frame). No symmetry reduction. Frames of the exhaustive
grammar: LOOPS x INITS x YIELDS (5 x 2 x 2 = 20); random programs (`generate`) also draw the
constant trips 0..3 of `pl.range`, 1..3 of `pl.parallel`, a constant `pl.while_` bound,
`nestp` and the init `(o, o)` (both carries the tensor made before the loop), with 2 to 5 atoms
and up to 3 guards, and the Out writers `wr(x)` besides the atoms.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from . import carries, grammar
from . import program as P
from .surface import While

NAMES = ("c0", "c1", "w", "o", "m")
OPS = ("rd", "up", "hr", "hw")
ATOMS = tuple((op, x) for x in NAMES for op in OPS) + (("take", "m"),)
RANDOM_ATOMS = ATOMS + tuple(("wr", x) for x in NAMES)     # random programs: Out writers too
GUARDS = ("if_0", "if_ge1", "if_lt2", "if_odd", "if_gt0")
BLOCKS = GUARDS
INITS = {"pq": ("p", "q"), "pp": ("p", "p")}
RANDOM_INITS = {**INITS, "oo": ("o", "o")}     # random programs: both carries the tensor made before the loop
YIELDS = {"keep": (0, 1), "swap": (1, 0)}
LOOPS = (("range", "n"), ("range", 2), ("parallel", 2), ("while", "n"), ("nest", "n"))
N_SETTINGS = tuple((n, 0) for n in range(4))
ONE_SETTING = ((0, 0),)
KERNELS = carries.KERNELS
Program = carries.Program


@dataclass(frozen=True)
class Frame:
    loop: str          # range, parallel, while, nest (outer range), nestp (outer parallel)
    trip: object       # "n" or a constant: the loop's (the nest's outer loop's) trip count or bound
    init: str          # a key of INITS (random programs: of RANDOM_INITS)
    yields: str        # a key of YIELDS


FRAMES = tuple(Frame(lp, t, init, y) for lp, t in LOOPS for init in INITS for y in YIELDS)


@dataclass(frozen=True)
class Guard(grammar.Guard):
    """`if VAR OP K:` (or `if VAR % 2 == 1:`) around `then`; `name` one of GUARDS."""

    TESTS = {"if_0": ("{v} == 0", lambda i: i == 0), "if_ge1": ("{v} >= 1", lambda i: i >= 1),
             "if_lt2": ("{v} < 2", lambda i: i < 2), "if_odd": ("{v} % 2 == 1", lambda i: i % 2 == 1),
             "if_gt0": ("{v} > 0", lambda i: i > 0)}


class _Builder(grammar.Builder):
    def __init__(self, fill: tuple, carries_as: tuple, atoms: tuple = ATOMS):
        super().__init__(fill, atoms)
        self.rename = dict(zip(("c0", "c1"), carries_as))     # atom name -> the name written
        self.used = set()

    def block(self, item):
        return Guard(item[0], tuple(self.items(item[1])))

    def read(self, x: str) -> P.Call:
        return P.Call("rd", (x, None), (self.fresh("f"),), (), True, self.fresh("k"))

    def atom(self, atom: tuple) -> list:
        op, name = atom
        self.used.add(name)
        x = self.rename.get(name, name)
        if op == "rd":
            return [self.read(x)]
        if op in ("up", "wr"):
            return [P.Call(op, (x,), (x,))]
        if op == "hr":
            return [P.HostRead(self.fresh("h"), x, (1, 1), self.k % P.SINK_SIZE)]
        if op == "hw":
            self.k += 1
            return [P.HostWrite(x, (1, 1), float(2 + self.k % 5))]
        if op == "take":
            self.used.add("c0")
            return [P.Alias(self.rename.get("c0", "c0"), self.rename.get("m", "m"))]
        raise ValueError(op)


def _trip_uses_n(frame: Frame) -> bool:
    return frame.trip == "n"


def _section(b: "_Builder", shape: tuple, rename: dict, made: str) -> tuple:
    """The items of `shape` with the names `rename` gives, after `made = pl.create_tensor(...)`
    when they name m (spelled `made`)."""
    b.rename, b.used = rename, set()
    items = tuple(b.items(shape))
    return ((P.Create(made, "B", 1.0),) if "m" in b.used else ()) + items, b.used


def build(frame: Frame, shape: tuple, fill: tuple, atoms: tuple = ATOMS) -> "Program":
    """The program of `frame` with the body of `shape` filled by the indices `fill` of `atoms`.
    In a nest, a top-level item ("inner", INNER) splits the shape: the items before and after it
    are the outer loop's body around the inner loop (on c0, c1 and `mo`, made in the outer body),
    INNER the inner loop's; a shape without one is all the inner loop's."""
    nest = frame.loop in ("nest", "nestp")
    b = _Builder(fill, ("c0", "c1"), atoms)
    used = set()
    at = next((k for k, item in enumerate(shape) if item != "atom" and item[0] == "inner"), None)
    if nest and at is not None:
        outer_names = {"c0": "c0", "c1": "c1", "m": "mo"}
        before, u1 = _section(b, shape[:at], outer_names, "mo")
        body, u2 = _section(b, shape[at][1], {"c0": "e0", "c1": "e1"}, "m")
        after, u3 = _section(b, shape[at + 1:], outer_names, "mo")
        if "m" in u3:                         # mo is made once, at the top of the outer body
            after = after[1:]
            if "m" not in u1:
                before = (P.Create("mo", "B", 1.0),) + before
        used = u1 | u2 | u3
    else:
        body, used = _section(b, shape, {"c0": "e0", "c1": "e1"} if nest else {}, "m")
        before = after = ()
    inits = RANDOM_INITS[frame.init]
    perm = YIELDS[frame.yields]
    cs = (("c0", inits[0]), ("c1", inits[1]))
    if frame.loop == "while":
        loop = While("i", frame.trip, body, carries=cs, yields=tuple(("c0", "c1")[j] for j in perm),
                     results=("d0", "d1"))
    elif nest:
        inner = P.Loop("range", "j", "i", body, carries=(("e0", "c0"), ("e1", "c1")),
                       yields=tuple(("e0", "e1")[j] for j in perm), results=("c0", "c1"))
        loop = P.Loop("range" if frame.loop == "nest" else "parallel", "i", frame.trip,
                      before + (inner,) + after, carries=cs, yields=("c0", "c1"), results=("d0", "d1"))
    else:
        loop = P.Loop(frame.loop, "i", frame.trip, body, carries=cs,
                      yields=tuple(("c0", "c1")[j] for j in perm), results=("d0", "d1"))
    pre = (P.Create("o", "B", 2.0),) if "o" in used or "o" in inits else ()
    b.rename = {}
    post = (b.read("d0"), b.read("d1"), P.HostRead(b.fresh("h"), "d0", (1, 1), 15), P.Call("up", ("w",), ("w",)))
    stmts = pre + (loop,) + post
    return Program(P.kernels_used(KERNELS, stmts), stmts, extra=("p", "q"),
                   settings=N_SETTINGS if _trip_uses_n(frame) else ONE_SETTING)


# ---- enumeration ---------------------------------------------------------------------------------

def _group(atom: tuple) -> str:
    """Which tensors an atom may touch: the carries (c0, c1 and, through `take`, m) or one name."""
    return "c" if atom[1] in ("c0", "c1") or atom[0] == "take" else atom[1]


def _related(fill: tuple) -> bool:
    """Do the atoms of `fill` touch one group of tensors (`take` relates the carries and m)?"""
    groups = [{_group(ATOMS[k])} | ({"m"} if ATOMS[k][0] == "take" else set()) for k in fill]
    return len(groups) < 2 or bool(set.intersection(*groups))


ENUMERATION = grammar.Framed(BLOCKS, build, len(ATOMS), FRAMES, fill_key=lambda f: (not _related(f), f))
points, programs, count = ENUMERATION.points, ENUMERATION.programs, ENUMERATION.count
# (frame, shape, fill) of every program of body size `size`, frames innermost; a shape's fills
# whose atoms touch one group of tensors (_related) first


def random_frame(rnd: random.Random) -> Frame:
    loop = rnd.choice(("range", "range", "parallel", "while", "nest", "nestp"))
    trip = {"range": ("n", 0, 1, 2, 3), "parallel": ("n", 1, 2, 3), "while": ("n", 0, 1, 2, 3),
            "nest": ("n", 2, 3), "nestp": (2, 3)}[loop]
    return Frame(loop, rnd.choice(trip), rnd.choice(tuple(RANDOM_INITS)), rnd.choice(tuple(YIELDS)))


def generate(seed: int, max_size: Optional[int] = None) -> "Program":
    """A random program: a random frame (random_frame), 2 to 5 atoms of RANDOM_ATOMS (ATOMS and
    `wr(x)`, an Out writer `x = self.wr(x)`) and up to 3 guards (`max_size` bounds the body's
    size)."""
    rnd = random.Random(seed)
    frame = random_frame(rnd)
    n_atoms, guards = grammar.random_sizes(rnd, 3, max_size)
    if frame.loop in ("nest", "nestp") and rnd.random() < 0.5:    # atoms around the inner loop too
        where = [rnd.choice(("pre", "inner", "inner", "post")) for _ in range(n_atoms)]
        parts = [grammar.random_items(rnd, where.count(w), rnd.randint(0, 1) if w in where else 0, GUARDS)
                 for w in ("pre", "inner", "post")]
        shape = parts[0] + (("inner", parts[1]),) + parts[2]
    else:
        shape = grammar.random_items(rnd, n_atoms, guards, GUARDS)
    fill = tuple(rnd.randrange(len(RANDOM_ATOMS)) for _ in range(n_atoms))
    return build(frame, shape, fill, RANDOM_ATOMS)
