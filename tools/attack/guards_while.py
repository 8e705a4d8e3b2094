"""The adversarial tester's "guards-while" grammar: guards.py's programs around a `pl.while_` loop.

Written from shared/spec/ (runtime-api.md section 11, decisions.md), docs/semantics.md (`While`),
README.md's `pl.while_` and the DSL docs alone; none of the compiler's lean passes read. The
compiler drops explicit dependencies it believes the runtime implies on some trips of loops of
every kind; guards.py puts the accesses those rules reason about under guards on the counter of
`pl.range` / `pl.parallel` loops, this grammar under guards on the counter carry of a while loop:

    for (i[, c0, c1][, m]) in pl.while_(init_values=(0[, t, u][, m0])):
        pl.cond(i < STOP)                     STOP = n, 2, 1 or 0
        [with pl.manual_scope(): m = None]    WRAP inside
        BODY
        n_done[, d0, d1][, m1] = pl.yield_(i + 1[, c0, c1 | c1, c0][, m])

BODY, its atoms (36) and guards (7: `if i == 0`, `if n > i`, `if i % 2 == 0`, `if n > 1`,
`if i >= 1`, `if i + 1 < n`, `if i < c`; the counter `i` is the loop's first carry), CARRY
(none: the loop carries the counter alone; keep or swap of (t, u)), WRAP (nest2, nestn: a
`pl.range(2|n)` around the loop; man: a manual scope around it; inside: one in the body; chain:
the TaskId `m` carried) and PRE / POST are guards.py's, built by guards.build (a frame's loop
("while", STOP)); the check is guards.Program's (both runtime models, n = 0..4, c = 1 and 3 too
under a guard on c).

Exhaustive mode (`--exhaustive --grammar guards-while --size K`): guards.py's order over EX_FRAMES
below (the plain `pl.while_` to n; one dimension varied at a time: 3 other stops, 2 carries,
5 wraps, 12 PREs; and 11 pairs): 34 frames, so size 1 is 36 x 34 = 1224 programs and size 2
(7 x 36 + 36 x 36) x 34 = 52632 (tests/test_attack_guards_while.py counts them by hand).
Random programs (`generate`) are guards.py's over FRAMES below (every stop, carry, wrap and PRE).
"""

from __future__ import annotations

from typing import Optional

from . import grammar
from . import guards as G

STOPS = ("n", 2, 1, 0)
LOOPS = tuple(("while", stop) for stop in STOPS)
ATOMS, BLOCKS, Frame, build = G.ATOMS, G.BLOCKS, G.Frame, G.build
FRAMES = tuple(Frame(lp, c, w, p) for lp in LOOPS for c in G.CARRIES for w in G.WRAPS for p in G.PRES)
BASE = Frame(loop=("while", "n"))
_W2, _W1, _W0 = LOOPS[1:]
EX_FRAMES = tuple(dict.fromkeys(
    [BASE]
    + [Frame(loop=lp) for lp in LOOPS]
    + [Frame(BASE.loop, carry=c) for c in G.CARRIES]
    + [Frame(BASE.loop, wrap=w) for w in G.WRAPS]
    + [Frame(BASE.loop, pre=p) for p in G.PRES]
    + [Frame(_W2, "swap"), Frame(_W1, "swap"), Frame(_W0, "swap"), Frame(BASE.loop, "swap", pre="upn"),
       Frame(BASE.loop, "swap", "nest2"), Frame(_W2, wrap="nestn"), Frame(BASE.loop, "swap", "man"),
       Frame(BASE.loop, "swap", "chain"), Frame(BASE.loop, wrap="inside", pre="rd2"),
       Frame(BASE.loop, "swap", pre="swn"), Frame(_W2, pre="sw2")]))

ENUMERATION = grammar.Framed(BLOCKS, build, len(ATOMS), EX_FRAMES)
points, programs, count = ENUMERATION.points, ENUMERATION.programs, ENUMERATION.count


def generate(seed: int, max_size: Optional[int] = None) -> "G.Program":
    """guards.generate over this grammar's FRAMES."""
    return G.generate(seed, max_size, FRAMES)
