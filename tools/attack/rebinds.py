"""The adversarial tester's "rebinds" grammar: names that denote different buffers on different paths (issue 24).

Written from shared/spec/runtime-api.md section 11, shared/spec/decisions.md (D9, D16),
docs/semantics.md, docs/decisions.md and the DSL docs alone; none of the compiler's passes read.
A name rebound in a loop, a branch or a swap denotes one buffer on one path and another on the
next (session 53's miscompile: `t = pl.create_tensor(...)`, `for i in pl.range(1): t = w`,
`a = pl.assemble(a, t, [2, 0])` took the loop's carry for the create). These programs rebind two
tensor names to creates and to the parameter `w`, a view name to views of them, and an assemble
target's name to the parameters `a` and `b`, and use them between:

    t = pl.create_tensor([4, 4], dtype=pl.FP32)      PRE: two creates written by a task each,
    u = pl.create_tensor([4, 4], dtype=pl.FP32)      a view of t's rows 2..3
    t = self.wrB(t)
    u = self.wrB(u)
    v = pl.tensor.slice(t, [2, 4], [2, 0])
    g = a                                            and a name g for the parameter a ([8, 4])
    ITEMS
    POST

An item is an atom or a block around a non-empty item sequence. The atoms (ATOMS, 34), on X one
of t, u and the parameter w ([4, 4], InOut):
    rd X   `f, k = pl.submit(self.rdB, X)`              a task reading X whole into a new output
    up X   `X = self.upB(X)`                            a task writing X whole (InOut)
    rr X   `s = pl.tensor.slice(X, [2, 4], [2, 0]); f, k = pl.submit(self.rdD, s)`  reads rows 2..3
    ur X   `s = pl.tensor.slice(X, [2, 4], [2, 0]); s = self.upD(s)`                writes rows 2..3
    hr X   `h = pl.tensor.read(X, [3, 1])`              a host read (kept live in `sink`)
    hw X   `pl.tensor.write(X, [3, 1], 4.0)`            a host write
    rv, uv, hv   a task reading, a task writing (InOut), a host write of v[1, 1]: the view v
    sv     `v = pl.tensor.slice(t, [2, 4], [2, 0])`     v rebound to a view of t's buffer now
    as t   `a = pl.assemble(a, t, [4, 0])`, as u `a = pl.assemble(a, u, [0, 0])`
    ag     `g = pl.assemble(g, t, [4, 0])`              into rows of whichever parameter g names
    rg     `f, k = pl.submit(self.rdA, g)`              a task reading g whole
    t=w, u=w, t=u, u=t   `t = w` ...                   rebinding to another buffer
    sw     `r = t; t = u; u = r`                        a swap (the DSL unpacks only calls and
                                                        pl.yield_, so `t, u = u, t` is refused)
    mk t, mk u   `t = pl.create_tensor([4, 4], dtype=pl.FP32)`   rebinding to a fresh buffer
    g=b    `g = b`                                      the target's name rebound to the other parameter
The blocks (BLOCKS): `for iK in pl.range(1|2|n)` (range1, range2, rangen: implicit carries),
`for iK in pl.parallel(2|n)` (parallel2, paralleln), `if c > 0` (if; `if iK >= 1` on the innermost loop's
counter inside a loop: one branch rebinds, the other keeps), the same with `else:` swapping t and
u (ifelse: the branches rebind differently), `with pl.manual_scope():` (manual:
a careful user's chain, each task `..., m = pl.submit(..., deps=[m])` after `m = None`), and
explicit carries swapped by the yield: `for iK, (p, q) in pl.range(2|n, init_values=(t, u)):
BODY; t, u = pl.yield_(q, p)` (swap2, swapn) and the same over `pl.parallel(2)` (swapparallel2), in
whose body t and u are written p and q (in a manual scope the chain is carried too). Valid per
the docs only: no manual scope in another, no `pl.parallel` loop in a manual scope (a chain
through parallel iterations orders nothing), and no atom or `else:` that rebinds an outer name
to another buffer (REBINDS, ifelse) anywhere in a `pl.parallel` body (the brief's reading).
POST (POSTS): `rd` reads t, u and v by tasks and w[3, 1] by the host; `as` assembles t into rows
4..7 of a and reads u. The parameters' final contents (a, b, w) are reads too.

The check (`Program.check`) runs each program for n = 0..3 (c = 0 and 1 under an `if c > 0`;
once when nothing reads n or c) in both runtime models, with their value checks: the recorder's
runs of the compiled C++ under rtmodel.py (oracle.check_run) and `nanopass check`'s
(guards.model_failures). A refusal is right when the tester's semantics finds no correct
compilation for the reason it names (runner.Report.refusal_check), else a failure (class
"refusal").

Exhaustive mode (`--exhaustive --grammar rebinds --size K`): size is the items' size (an atom 1,
a block 1 + its body); programs are grammar.Framed's points (post, shape, fill), shapes in
grammar.ordered_shapes' order, each shape's fills in product order over the atoms allowed at each
position (Framed's `alphabets`), POSTS innermost, so `--skip` builds none it leaves out. No
symmetry reduction: size 1 is 34 x 2 = 68 programs (tests/test_attack_rebinds.py counts by hand).
`--shapes` patterns (grammar.py) name these blocks; `loop` stands for every loop of them, `with`
for `manual`, e.g. `--shapes 'manual(loop(atom))'`.
Random programs (`generate`) have 2 to 7 items, blocks nested up to three deep, and a POST of
POSTS or none.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from . import grammar, guards
from . import program as P
from .semantics import View

NAMES = ("t", "u", "w")
ACCESS_OPS = ("rd", "up", "rr", "ur", "hr", "hw")
REBINDS = (("t=w",), ("u=w",), ("t=u",), ("u=t",), ("sw",), ("mk", "t"), ("mk", "u"), ("sv",), ("g=b",))
ATOMS = (tuple((op, x) for x in NAMES for op in ACCESS_OPS)
         + (("rv",), ("uv",), ("hv",), ("as", "t"), ("as", "u"), ("ag",), ("rg",)) + REBINDS)
PARALLEL_ATOMS = tuple(a for a in ATOMS if a not in REBINDS)
BLOCKS = ("range1", "range2", "rangen", "parallel2", "paralleln", "if", "ifelse", "manual", "swap2", "swapn",
          "swapparallel2")
PARALLEL = ("parallel2", "paralleln", "swapparallel2")
BARRED_IN_MANUAL = ("manual",) + PARALLEL
POSTS = ("rd", "as")
ROWS = {"t": 4, "u": 0}
KERNELS = (
    P.Kernel("wrB", (("out", "B"),)),
    P.Kernel("rdB", (("in", "B"), ("out", "B"))),
    P.Kernel("upB", (("inout", "B"),)),
    P.Kernel("rdD", (("in", "D"), ("out", "D"))),
    P.Kernel("upD", (("inout", "D"),)),
    P.Kernel("rdA", (("in", "A"), ("out", "A"))),
)


@dataclass(frozen=True)
class Rows:
    """`name = pl.tensor.slice(src, [2, 4], [2, 0])`: rows 2..3 of a [4, 4] tensor."""

    name: str
    src: str

    def render(self, p, d):
        p.emit(d, f"{self.name} = pl.tensor.slice({self.src}, [2, 4], [2, 0])", self)

    def run(self, r):
        src = r.env[self.src]
        r.env[self.name] = View(src.buf, src.off + 2 * src.strides[0], (2, 4), src.strides)


# ---- shapes -------------------------------------------------------------------------------------

def _shapes(size: int) -> tuple:
    return ENUMERATION.shapes_of(size)


def _valid_shapes(size: int) -> tuple:
    return tuple(sh for sh in grammar.ordered_shapes(grammar.shapes(size, BLOCKS, BARRED_IN_MANUAL))
                 if _valid(sh))


def _valid(shape, in_parallel: bool = False) -> bool:
    """No ifelse (whose else rebinds) in a pl.parallel body."""
    return all(item == "atom" or (not (in_parallel and item[0] == "ifelse")
                                  and _valid(item[1], in_parallel or item[0] in PARALLEL)) for item in shape)


def alphabets(shape, in_parallel: bool = False) -> list:
    """The atoms allowed at each atom position of `shape`, in order (PARALLEL_ATOMS inside a
    pl.parallel body)."""
    out = []
    for item in shape:
        if item == "atom":
            out.append(PARALLEL_ATOMS if in_parallel else ATOMS)
        else:
            out += alphabets(item[1], in_parallel or item[0] in PARALLEL)
    return out


_INDICES = {ATOMS: tuple(range(len(ATOMS))), PARALLEL_ATOMS: tuple(ATOMS.index(a) for a in PARALLEL_ATOMS)}


def _index_alphabets(shape) -> list:
    """`alphabets` as ATOMS indices (Framed's fills)."""
    return [_INDICES[alpha] for alpha in alphabets(shape)]


def _uses(shape, what: str, in_loop: bool = False) -> bool:
    """Does the program of `shape` read the scalar `what` (n: a trip count; c: an `if` outside loops)?"""
    for item in shape:
        if item == "atom":
            continue
        block, inner = item
        if what == "n" and block in ("rangen", "paralleln", "swapn"):
            return True
        if what == "c" and block in ("if", "ifelse") and not in_loop:
            return True
        if _uses(inner, what, in_loop or block not in ("if", "ifelse", "manual")):
            return True
    return False


def _settings(shape) -> tuple:
    ns = tuple(range(4)) if _uses(shape, "n") else (0,)
    cs = (0, 1) if _uses(shape, "c") else (0,)
    return tuple((n, c) for c in cs for n in ns)


# ---- building -----------------------------------------------------------------------------------

class _Builder(guards._Builder):
    """The items of a shape (grammar.Builder), each task in the manual scope's chain, if any
    (guards' `call`); the loops' counters, the carries' and the chain's names as they nest."""

    def __init__(self, fill):
        super().__init__(fill, {"t": "t", "u": "u", "w": "w", "v": "v", "g": "g"}, None)
        self.atoms = ATOMS                      # this grammar's, not guards'
        self.loop_var: Optional[str] = None     # the innermost loop's counter, or None

    def block(self, item):
        block, inner = item
        if block in ("if", "ifelse"):
            cond = (self.loop_var, ">=", 1) if self.loop_var else ("c", ">", 0)
            then = tuple(self.items(inner))
            orelse = (P.Swap(self.names["t"], self.names["u"], self.fresh("r")),) if block == "ifelse" else ()
            return P.If(cond, then, orelse)
        if block == "manual":
            m = self.fresh("m")
            self.chain = m
            body = (P.TidNone(m),) + tuple(self.items(inner))
            self.chain = None
            return P.Manual(body)
        kind = "parallel" if block in PARALLEL else "range"
        trip = "n" if block.endswith("n") else int(block[-1])
        var, outer_var = self.fresh("i"), self.loop_var
        self.loop_var = var
        if not block.startswith("swap"):
            body = tuple(self.items(inner))
            self.loop_var = outer_var
            return P.Loop(kind, var, trip, body)
        p, q = self.fresh("p"), self.fresh("q")
        saved, chain = dict(self.names), self.chain
        t, u = self.names["t"], self.names["u"]
        self.names.update(t=p, u=q)
        carries, yields, results = ((p, t), (q, u)), (q, p), (t, u)
        if chain:
            mi = self.fresh("m")
            self.chain = mi
            carries, yields, results = carries + ((mi, chain),), yields + (mi,), results + (chain,)
        body = tuple(self.items(inner))
        self.names, self.chain, self.loop_var = saved, chain, outer_var
        return P.Loop(kind, var, trip, body, carries=carries, yields=yields, results=results)

    def host_read(self, name: str, idx: tuple) -> P.HostRead:
        var = self.fresh("h")
        return P.HostRead(var, name, idx, self.k % (P.SINK_SIZE - 2))

    def atom(self, atom: tuple) -> list:
        op, names = atom[0], self.names
        if op in ACCESS_OPS:
            x = names[atom[1]]
            if op == "rd":
                return [self.call("rdB", (x, None), (self.fresh("f"),), True)]
            if op == "up":
                return [self.call("upB", (x,), (x,), False)]
            if op in ("rr", "ur"):
                s = self.fresh("s")
                use = (self.call("rdD", (s, None), (self.fresh("f"),), True) if op == "rr"
                       else self.call("upD", (s,), (s,), False))
                return [Rows(s, x), use]
            if op == "hr":
                return [self.host_read(x, (3, 1))]
            self.k += 1
            return [P.HostWrite(x, (3, 1), float(4 + self.k % 5))]
        v = names["v"]
        if op == "rv":
            return [self.call("rdD", (v, None), (self.fresh("f"),), True)]
        if op == "uv":
            return [self.call("upD", (v,), (v,), False)]
        if op == "hv":
            self.k += 1
            return [P.HostWrite(v, (1, 1), float(4 + self.k % 5))]
        if op == "sv":
            return [Rows(v, names["t"])]
        if op == "as":
            return [P.Assemble("a", names[atom[1]], ROWS[atom[1]])]
        if op == "ag":
            return [P.Assemble(names["g"], names["t"], 4)]
        if op == "rg":
            return [self.call("rdA", (names["g"], None), (self.fresh("f"),), True)]
        if op == "mk":
            return [P.Create(names[atom[1]], "B")]
        if op == "sw":
            return [P.Swap(names["t"], names["u"], self.fresh("r"))]
        lhs, rhs = op.split("=")
        return [P.Alias(names[lhs], names.get(rhs, rhs))]


def _pre() -> tuple:
    return (P.Create("t", "B"), P.Create("u", "B"), P.Call("wrB", ("t",), ("t",)), P.Call("wrB", ("u",), ("u",)),
            Rows("v", "t"), P.Alias("g", "a"))


def _post(post: str) -> tuple:
    if post == "none":
        return ()
    if post == "rd":
        return (P.Call("rdB", ("t", None), ("fp1",), (), True, "kp1"),
                P.Call("rdB", ("u", None), ("fp2",), (), True, "kp2"),
                P.Call("rdD", ("v", None), ("fp3",), (), True, "kp3"),
                P.HostRead("hp", "w", (3, 1), P.SINK_SIZE - 1))
    return (P.Assemble("a", "t", 4), P.Call("rdB", ("u", None), ("fp2",), (), True, "kp2"))


def build(shape: tuple, fill: tuple, post: str) -> "Program":
    """The program of `shape` filled by the ATOMS indices `fill` (the atoms allowed at each
    position: `alphabets`), then POST `post` (one of POSTS, or "none")."""
    body = _pre() + tuple(_Builder(fill).items(shape)) + _post(post)
    return Program(P.kernels_used(KERNELS, body), body, settings=_settings(shape))


class Program(guards.Program):
    """A program of this grammar, checked in both runtime models as the guards grammar's are."""


# ---- enumeration --------------------------------------------------------------------------------

ENUMERATION = grammar.Framed(BLOCKS, lambda post, shape, fill: build(shape, fill, post), len(ATOMS), POSTS,
                             shapes=_valid_shapes, alphabets=_index_alphabets)
points, programs, count = ENUMERATION.points, ENUMERATION.programs, ENUMERATION.count


# ---- random programs ----------------------------------------------------------------------------

def _random_items(rnd: random.Random, budget: int, in_manual: bool, depth: int, in_parallel: bool = False) -> tuple:
    """Items of total size at most `budget` (at least one)."""
    items, left = [], budget
    while left > 0 and (not items or rnd.random() < 0.75):
        if left >= 2 and depth < 3 and rnd.random() < 0.4:
            blocks = [b for b in BLOCKS if not (in_manual and b in BARRED_IN_MANUAL or in_parallel and b == "ifelse")]
            block = rnd.choice(blocks)
            inner = _random_items(rnd, rnd.randint(1, left - 1), in_manual or block == "manual", depth + 1,
                                  in_parallel or block in PARALLEL)
            items.append((block, inner))
            left -= 1 + grammar.shape_size(inner)
        else:
            items.append("atom")
            left -= 1
    return tuple(items)


def generate(seed: int, max_size: Optional[int] = None) -> "Program":
    """A random program: 2 to 7 items (`max_size` bounds them), a POST of POSTS or none."""
    rnd = random.Random(seed)
    size = rnd.randint(2, 7)
    if max_size is not None:
        size = max(1, min(size, max_size))
    shape = _random_items(rnd, size, False, 0)
    fill = tuple(ATOMS.index(rnd.choice(alpha)) for alpha in alphabets(shape))
    return build(shape, fill, rnd.choice(POSTS + ("none",)))
