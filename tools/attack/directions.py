"""The adversarial tester's bounded-exhaustive "directions" grammar: the call-site direction of a
task's Out argument (runtime-api.md section 11: OUTPUT_EXISTING does not wait for the earlier
writers of the buffer, INOUT does) where the buffer an argument names is known only through an
`if` result, a loop carry or a copy.

Two names, `o` and `p`, each first bound to a `pl.Out[[4, 4]]` parameter of the orchestration
function (a parameter declared InOut would make every write of it InOut, whatever the analysis
finds; an Out parameter's old contents are still the caller's, and the runs give them values):
  new(T)     a fresh tensor                           `T = pl.create_tensor([4, 4], dtype=pl.FP32)`
  wr(T)      a task writing T (kernel parameter Out)  `T = self.wr(T)`
  up(T)      a task reading and writing T (InOut)     `T = self.up(T)`
  hw(T)      a host write of T[1, 1] (a partial write) `pl.tensor.write(T, [1, 1], 1.0)`
  cp(U, T)   U names T's buffer                       `U = T`
  sel(U, T)  U may name T's buffer                    `if n > 1:` / `U = T`
Blocks as in scopes.py (its builder renders them): `if n > 1`, `pl.range(n)`, `pl.range(2)`,
`pl.parallel(2)`, the swap loop `for i, (o, p) in pl.range(n, init_values=(o, p))` ending with
`o, p = pl.yield_(p, o)`, `with pl.scope()` and `with pl.manual_scope()`. Every program ends with
host reads of `o` and `p` (whatever they name then), so a write that lands in the wrong buffer,
or a write left unordered with another (values.py's reordered schedule), shows as a value a read
observes; the parameters' final contents are checked as well. Runs: n in 0..3.

Symmetry: swapping `o` and `p` maps a program to one with the same meaning up to renaming; one
program per class (scopes.py's reduction).
"""

from __future__ import annotations

from . import grammar, scopes
from . import program as P

NAMES = ("o", "p")
ATOMS = tuple([(op, t) for op in ("new", "wr", "up", "hw") for t in NAMES]
              + [(op, u, t) for op in ("cp", "sel") for u in NAMES for t in NAMES if u != t])
BLOCKS = scopes.BLOCKS
EXTRA = NAMES
SETTINGS = tuple((n, 0) for n in range(4))

_SWAP = {"o": "p", "p": "o"}


def _renamed(atom: tuple) -> tuple:
    return (atom[0],) + tuple(_SWAP[t] for t in atom[1:])


RENAMINGS = (grammar.renaming(ATOMS, _renamed),)


class _Builder(scopes._Builder):
    NAMES = NAMES
    ATOMS = ATOMS

    def atom(self, atom: tuple, manual: bool) -> list:
        op = atom[0]
        if op == "cp":
            return [P.Alias(atom[1], atom[2])]
        if op == "sel":
            return [P.If(("n", ">", 1), (P.Alias(atom[1], atom[2]),))]
        return super().atom(atom, manual)


def build(shape: tuple, fill: tuple) -> P.Program:
    b = _Builder(fill)
    body = tuple(b.items(shape, False)) + tuple(
        P.HostRead(b.fresh("h"), t, (1, 1), k) for k, t in enumerate(NAMES))
    return P.Program(P.kernels_used(scopes.KERNELS, body), body, auto_scope=not scopes._has_scope(shape),
                     extra=EXTRA, outs=NAMES, settings=SETTINGS)


GRAMMAR = grammar.Grammar(ATOMS, BLOCKS, ("manual", "scope"), RENAMINGS, build)
shapes, fills, ordered_shapes, programs, count = (GRAMMAR.shapes, GRAMMAR.fills, GRAMMAR.ordered_shapes,
                                                  GRAMMAR.programs, GRAMMAR.count)
ENUMERATION = GRAMMAR
