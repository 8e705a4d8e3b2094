"""What the bounded-exhaustive grammars (exhaustive.py, rows.py, scopes.py) share: program shapes,
their atom fills and symmetry reduction, and the shape patterns of `--shapes`.

A shape is a tuple of items; an item is "atom" (size 1) or (block, inner shape) (size 1 + the
inner shape's), the inner shape never empty. A grammar names its blocks and which of them may not
stand inside a manual scope (the DSL refuses a manual scope in another, the runtime an AUTO scope in
a manual one).

A shape pattern (`--shapes`) is written like a shape: `atom`, or a block name with the pattern of
its body in parentheses, items separated by commas, e.g. `with(loop(atom)),atom`. Besides a block's
own name, `with` stands for `manual` or `scope`, `loop` for any loop block (`range...`,
`parallel...`, `swap...`) and `block` for any block. A pattern matches the shapes it spells out,
item by item.
"""

from __future__ import annotations

import itertools
import re
from typing import Callable, Iterator

from . import program as P

CLASSES = {
    "with": lambda block: block in ("manual", "scope"),
    "loop": lambda block: block.startswith(("range", "parallel", "swap")),
    "block": lambda block: True,
}


def shapes(size: int, blocks: tuple, barred_in_manual: tuple, in_manual: bool = False) -> Iterator[tuple]:
    """Item sequences of exactly `size` over `blocks`, none of `barred_in_manual` inside a manual
    block, in a fixed order."""
    if size == 0:
        yield ()
        return
    for first in range(1, size + 1):
        for head in _items(first, blocks, barred_in_manual, in_manual):
            for tail in shapes(size - first, blocks, barred_in_manual, in_manual):
                yield (head,) + tail


def _items(size: int, blocks: tuple, barred_in_manual: tuple, in_manual: bool) -> Iterator:
    if size == 1:
        yield "atom"
        return
    for block in blocks:
        if in_manual and block in barred_in_manual:
            continue
        for inner in shapes(size - 1, blocks, barred_in_manual, in_manual or block == "manual"):
            yield (block, inner)


def n_atoms(shape) -> int:
    return sum(1 if item == "atom" else n_atoms(item[1]) for item in shape)


def ordered_shapes(all_shapes) -> list:
    """Fewer atoms first (every block shape before the plain sequences), then by spelling."""
    return sorted(all_shapes, key=lambda sh: (n_atoms(sh), repr(sh)))


def renaming(atoms: tuple, rename: Callable) -> tuple:
    """The permutation of atom indices that renaming each atom's objects makes."""
    return tuple(atoms.index(rename(a)) for a in atoms)


def canonical(fill: tuple, renamings: tuple) -> bool:
    """Is this atom sequence the smallest of its renaming class?"""
    return all(fill <= tuple(perm[i] for i in fill) for perm in renamings)


def fills(shape, n: int, renamings: tuple = ()) -> Iterator[tuple]:
    """The atom index sequences of a shape over n atoms (the canonical ones, given renamings)."""
    for fill in itertools.product(range(n), repeat=n_atoms(shape)):
        if canonical(fill, renamings):
            yield fill


class Grammar:
    """One symmetry-reduced grammar: its atoms, blocks, the renamings it reduces by (atom index
    permutations) and `build(shape, fill) -> Program`."""

    def __init__(self, atoms: tuple, blocks: tuple, barred_in_manual: tuple, renamings: tuple, build: Callable):
        self.atoms = atoms
        self.blocks = blocks
        self.barred_in_manual = barred_in_manual
        self.renamings = renamings
        self.build = build

    def shapes(self, size: int, in_manual: bool = False) -> Iterator[tuple]:
        return shapes(size, self.blocks, self.barred_in_manual, in_manual)

    def fills(self, shape, reduce: bool = True) -> Iterator[tuple]:
        return fills(shape, len(self.atoms), self.renamings if reduce else ())

    def ordered_shapes(self, size: int) -> list:
        return ordered_shapes(self.shapes(size))

    def _kept(self, size: int, max_atoms, patterns) -> Iterator[tuple]:
        keep = shape_filter(patterns, self.blocks)
        for shape in self.ordered_shapes(size):
            if (max_atoms is None or n_atoms(shape) <= max_atoms) and keep(shape):
                yield shape

    def programs(self, size: int, reduce: bool = True, max_atoms=None, patterns=()) -> Iterator[P.Program]:
        """Every program of exactly `size` items (one per renaming class when `reduce`; only those
        with at most `max_atoms` atoms, and of a shape one of `patterns` matches, when given)."""
        for shape in self._kept(size, max_atoms, patterns):
            for fill in self.fills(shape, reduce):
                yield self.build(shape, fill)

    def count(self, size: int, reduce: bool = True, max_atoms=None, patterns=()) -> int:
        return sum(sum(1 for _ in self.fills(sh, reduce)) for sh in self._kept(size, max_atoms, patterns))


# ---- shape patterns ---------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*([A-Za-z_0-9]+|[(),])")


def parse_pattern(text: str) -> tuple:
    """A shape pattern (module doc) as a shape whose block names may be classes."""
    tokens = [m.group(1) for m in _TOKEN.finditer(text)]
    if "".join(tokens) != re.sub(r"\s+", "", text):
        raise ValueError(f"shape pattern {text!r}: only names, parentheses and commas")
    pos = 0

    def seq():
        nonlocal pos
        out = [item()]
        while pos < len(tokens) and tokens[pos] == ",":
            pos += 1
            out.append(item())
        return tuple(out)

    def item():
        nonlocal pos
        if pos >= len(tokens) or not re.match(r"\w", tokens[pos]):
            raise ValueError(f"shape pattern {text!r}: a name expected at token {pos + 1}")
        name = tokens[pos]
        pos += 1
        if name == "atom":
            return "atom"
        if pos >= len(tokens) or tokens[pos] != "(":
            raise ValueError(f"shape pattern {text!r}: {name} needs its body in parentheses")
        pos += 1
        inner = seq()
        if pos >= len(tokens) or tokens[pos] != ")":
            raise ValueError(f"shape pattern {text!r}: ')' expected after {name}'s body")
        pos += 1
        return (name, inner)

    pattern = seq()
    if pos != len(tokens):
        raise ValueError(f"shape pattern {text!r}: unexpected {tokens[pos]!r}")
    return pattern


def check_pattern(pattern: tuple, blocks: tuple) -> None:
    """Raise ValueError when the pattern names a block that is neither one of `blocks` nor a class."""
    for item in pattern:
        if item != "atom":
            if item[0] not in blocks and item[0] not in CLASSES:
                raise ValueError(f"shape pattern: {item[0]!r} is no block of this grammar "
                                 f"({', '.join(blocks)}) nor one of {', '.join(CLASSES)}")
            check_pattern(item[1], blocks)


def matches(pattern: tuple, shape: tuple) -> bool:
    if len(pattern) != len(shape):
        return False
    for want, item in zip(pattern, shape):
        if (want == "atom") != (item == "atom"):
            return False
        if want == "atom":
            continue
        name, block = want[0], item[0]
        if not (name == block or (name in CLASSES and CLASSES[name](block))):
            return False
        if not matches(want[1], item[1]):
            return False
    return True


def shape_filter(patterns, blocks: tuple) -> Callable:
    """A predicate on shapes: true when the shape matches one of `patterns` (texts), or always
    when there are none."""
    parsed = [parse_pattern(p) for p in patterns or ()]
    for p in parsed:
        check_pattern(p, blocks)
    if not parsed:
        return lambda shape: True
    return lambda shape: any(matches(p, shape) for p in parsed)


def pattern_size(text: str) -> int:
    """The size of the shapes a pattern matches."""
    def size(shape):
        return sum(1 if item == "atom" else 1 + size(item[1]) for item in shape)
    return size(parse_pattern(text))
