"""The adversarial tester's bounded-exhaustive "carries" grammar: loop-carried orderings.

Every program is one AUTO-scope `pl.range` loop with two or three tensor carries, written from
shared/spec/runtime-api.md section 11 and docs/semantics.md alone (none of the compiler's
analyses of hazards, reader cells or lean edges read). The carries start as the InOut [4, 4]
parameters `p`, `q` (and `r`):

    for i, (c0, c1) in pl.range(TRIP, init_values=(p, q)):
        BODY
        d0, d1 = pl.yield_(c1, c0)

yielded unchanged (`keep`), swapped (`swap`: c0 and c1 trade places; with three carries c2 stays)
or rotated (`rotate`, three carries: c0 <- c1, c1 <- c2, c2 <- c0), over TRIP = `n` (runs for n in
0..3) or a constant 2 or 3. BODY is a sequence of items over the atoms
    rd(j)     a task reading cj into a runtime-allocated output  `f, k = pl.submit(self.rd, cj)`
    wr(j)     a task writing cj (Out)                            `cj = self.wr(cj)`
    up(j)     a task updating cj (InOut)                         `cj = self.up(cj)`
    mv(j, k)  a task reading cj and writing ck (Out)             `ck = self.rd(cj, ck)`
    hr(j)     a host read of cj[1, 1] (kept live in `sink`)      `h = pl.tensor.read(cj, [1, 1])`
and the guard blocks `if i >= 1`, `if i == 0` and `if n > 1` around a non-empty item sequence
(grammar.py's shapes: an item is an atom, size 1, or a guard, size 1 + its body). After the loop
(POST), every carry's result and every original parameter is accessed by a task:
    `rw`: rd(d0), rd(d1), ... then wr(p), wr(q), ... (reads after the loop's writes; the
          parameters written after the reads of their buffers through the results and the loop's)
    `wr`: wr(d0), wr(d1), ... then rd(p), rd(q), ... (writes after the loop's reads and writes,
          through names the swaps permuted; then reads through the original names)
The oracle is the tester's (oracle.check_run): every two conflicting accesses ordered in the
recorded run, every read (task, host, the parameters' final contents) observing the write the
sequential program does, in submission order and latest-first. Each program's lean figures
(lean.py: insertions, minimum, redundant, implied) are measured on the same recorded runs.

A frame is (carries, yield, trip, post). Size is the body's item size (the frame is fixed
overhead). Symmetry: renaming the carries (with their parameters and results) by a permutation
that commutes with the yield maps a program to one with the same meaning, up to the order of the
POST tasks on different buffers and of the parameters' slots; one program per class is enumerated
(the smallest atom sequence in ATOMS order). Programs come by size, with fewer atoms first, in a
fixed order, so an index names one program for good.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Optional

from . import grammar, lean, oracle, runner
from . import program as P

PARAMS = ("p", "q", "r")
CARRIES = ("c0", "c1", "c2")
RESULTS = ("d0", "d1", "d2")
YIELDS = {2: {"keep": (0, 1), "swap": (1, 0)},
          3: {"keep": (0, 1, 2), "swap": (1, 0, 2), "rotate": (1, 2, 0)}}
TRIPS = ("n", 2, 3)
POSTS = ("rw", "wr")
GUARDS = {"if_i1": ("i", ">=", 1), "if_i0": ("i", "==", 0), "if_n": ("n", ">", 1)}
BLOCKS = tuple(GUARDS)
N_SETTINGS = tuple((n, 0) for n in range(4))
ONE_SETTING = ((2, 0),)       # a program that reads no `n`

KERNELS = (
    P.Kernel("wr", (("out", "B"),)),
    P.Kernel("up", (("inout", "B"),)),
    P.Kernel("rd", (("in", "B"), ("out", "B"))),
)


@dataclass(frozen=True)
class Frame:
    carries: int
    yields: str
    trip: object
    post: str


FRAMES = tuple(Frame(k, y, t, post) for k in (2, 3) for y in YIELDS[k] for t in TRIPS for post in POSTS)


def atoms(k: int) -> tuple:
    """The atoms over k carries, in a fixed order."""
    js = range(k)
    return tuple([(op, j) for op in ("rd", "wr", "up") for j in js]
                 + [("mv", j, m) for j in js for m in js if j != m] + [("hr", j) for j in js])


def symmetries(frame: Frame) -> tuple:
    """The carry renamings (permutations of 0..k-1, not the identity) that commute with the yield,
    as atom index permutations."""
    return commuting(frame.carries, (YIELDS[frame.carries][frame.yields],), atoms(frame.carries))


def commuting(k: int, perms, atom_list: tuple) -> tuple:
    """The renamings of k carries (not the identity) that commute with every permutation of
    `perms`, as permutations of `atom_list` (atoms (op, carry, ...))."""
    out = []
    for sigma in itertools.permutations(range(k)):
        if sigma == tuple(range(k)):
            continue
        if all(sigma[perm[j]] == perm[sigma[j]] for perm in perms for j in range(k)):
            out.append(grammar.renaming(atom_list, lambda a, s=sigma: (a[0],) + tuple(s[j] for j in a[1:])))
    return tuple(out)


def _uses_n(frame: Frame, shape) -> bool:
    def guards(sh):
        return any(item != "atom" and (item[0] == "if_n" or guards(item[1])) for item in sh)
    return frame.trip == "n" or guards(shape)


class _Builder(grammar.Builder):
    def __init__(self, frame: Frame, fill: tuple):
        super().__init__(fill, atoms(frame.carries))

    def block(self, item):
        return P.If(GUARDS[item[0]], tuple(self.items(item[1])))

    def read(self, t: str) -> P.Call:
        return P.Call("rd", (t, None), (self.fresh("f"),), (), True, self.fresh("k"))

    def atom(self, atom: tuple) -> list:
        op, c = atom[0], CARRIES[atom[1]]
        if op == "rd":
            return [self.read(c)]
        if op in ("wr", "up"):
            return [P.Call(op, (c,), (c,))]
        if op == "mv":
            return [P.Call("rd", (c, CARRIES[atom[2]]), (CARRIES[atom[2]],))]
        return [P.HostRead(self.fresh("h"), c, (1, 1), self.k % P.SINK_SIZE)]

    def post(self, frame: Frame) -> list:
        first, second = (RESULTS, PARAMS) if frame.post == "rw" else (PARAMS, RESULTS)
        k = frame.carries
        reads = [self.read(t) for t in first[:k]]
        writes = [P.Call("wr", (t,), (t,)) for t in second[:k]]
        return reads + writes if frame.post == "rw" else writes + reads


def build(frame: Frame, shape: tuple, fill: tuple) -> "Program":
    b = _Builder(frame, fill)
    k = frame.carries
    perm = YIELDS[k][frame.yields]
    loop = P.Loop("range", "i", frame.trip, tuple(b.items(shape)),
                  carries=tuple(zip(CARRIES[:k], PARAMS[:k])),
                  yields=tuple(CARRIES[perm[j]] for j in range(k)), results=RESULTS[:k])
    body = (loop,) + tuple(b.post(frame))
    return Program(P.kernels_used(KERNELS, body), body, extra=PARAMS[:k],
                   settings=N_SETTINGS if _uses_n(frame, shape) else ONE_SETTING)


ENUMERATION = grammar.Framed(BLOCKS, build, lambda frame: len(atoms(frame.carries)), FRAMES, frames_inside=False,
                             symmetries=symmetries)
points, programs, count = ENUMERATION.points, ENUMERATION.programs, ENUMERATION.count
# every program of body size `size`, one per symmetry class (module doc): shape by shape, each
# frame's canonical fills


def generate(seed: int, max_size: Optional[int] = None) -> "Program":
    """A random program of the grammar: any frame, a body of 3 or 4 atoms (the exhaustive sizes
    1 and 2 hold every body of fewer) and up to 2 guards (`max_size` bounds the body's item size)."""
    rnd = random.Random(seed)
    frame = rnd.choice(FRAMES)
    n_atoms = rnd.choice((3, 4))
    guards = rnd.randint(0, 2)
    if max_size is not None:
        guards = max(0, min(guards, max_size - n_atoms))
    shape = rnd.choice([s for s in ENUMERATION.shapes_of(n_atoms + guards) if grammar.n_atoms(s) == n_atoms])
    fill = tuple(rnd.randrange(len(atoms(frame.carries))) for _ in range(n_atoms))
    return build(frame, shape, fill)


def lean_figures(fig: lean.Lean) -> dict:
    """What a run reports of lean.py's figures (summed over a program's settings)."""
    return {"insertions": fig.insertions, "minimum": fig.minimum, "redundant": len(fig.redundant),
            "implied": sum(1 for r in fig.redundant if r[2]), "dummies": fig.dummies,
            "unordered": len(fig.unordered)}


@dataclass(frozen=True)
class Program(P.Program):
    """A program of this grammar: checked by the tester's oracle, with lean.py's figures of the
    same recorded runs on the report (`Report.lean`, lean_figures' dict; None when not run)."""

    @property
    def source(self) -> str:
        return P.render(self).source

    def check(self, host_region: str = "element") -> runner.Report:
        total = lean.Lean()

        def measure(seq, log, kernel_ids):
            nonlocal total
            model = lean.R.build(log)
            nodes_of, bad = oracle.match(seq, model, kernel_ids)
            if not model.errors and not bad:
                total = total.add(lean.analyse(log, lean.oracle_needed(seq, model, nodes_of)))

        rep = runner.check(self, host_region=host_region, observe=measure)
        rep.lean = self.lean_figures(total) if rep.runs else None
        return rep

    def lean_figures(self, fig: lean.Lean) -> dict:
        """What the report says of the program's lean.py figures (``Report.lean``)."""
        return lean_figures(fig)
