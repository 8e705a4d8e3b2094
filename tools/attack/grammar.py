"""What the bounded-exhaustive grammars share: program shapes, their atom fills and symmetry
reduction, their enumeration and builders, and the shape patterns of `--shapes`.

A shape is a tuple of items; an item is "atom" (size 1) or (block, inner shape) (size 1 + the
inner shape's), the inner shape never empty. A grammar names its blocks and which of them may not
stand inside a manual scope (the DSL refuses a manual scope in another, the runtime an AUTO scope in
a manual one).

A shape pattern (`--shapes`) is written like a shape: `atom`, or a block name with the pattern of
its body in parentheses, items separated by commas, e.g. `with(loop(atom)),atom`. Besides a block's
own name, `with` stands for `manual` or `scope`, `loop` for any loop block (`range...`,
`parallel...`, `swap...`) and `block` for any block. A pattern matches the shapes it spells out,
item by item.

`Framed` is the enumeration every framed grammar (offsets.py, guards.py, iterations.py,
carries.py, loops2.py, retire.py, exhaustive.py, and `Grammar`'s renaming-reduced ones) shares:
a program is a point (frame, shape, fill), the frame a per-grammar setup (a loop kind, carries,
what runs before and after), the shape one of `shapes(size)`, the fill an atom index per atom of
the shape. Points come shape by shape; within a shape, every fill in every frame (frames
innermost, or fills innermost for grammars whose fills depend on the frame), so that an index
names one program for good, a run cut short has seen every frame of the programs before it, and
`--skip K` (`numbered`) resumes at the same program without building the ones it leaves out.
`Builder` is the shared builder (fresh names, `Fresh`; the statements of a shape atom by atom
and block by block), `Guard` the shared `if` on a loop counter, and `random_sizes` and
`random_items` the random modes' body sizes and shapes.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

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


def in_order(blocks: tuple, barred_in_manual: tuple = ()) -> Callable:
    """`shapes(size)` over `blocks` in ordered_shapes' order (Framed's default shapes)."""
    return lambda size: ordered_shapes(shapes(size, blocks, barred_in_manual))


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


class Framed:
    """One bounded-exhaustive grammar of points (frame, shape, fill) (module doc).

    blocks: the block names of its shapes (`--shapes` patterns check against them);
    build: `build(frame, shape, fill) -> Program` (`build(shape, fill)` when `frames` is None);
    atoms: how many atoms a fill indexes, or a function of the frame;
    frames: the frames, a function of the shape, or None (one frameless program per fill);
    shapes: `shapes(size)`, the shapes of a size in their order (default: grammar.shapes over
        `blocks`, none of `barred_in_manual` in a manual block, in ordered_shapes' order);
    frames_inside: each fill in every frame (True) or each frame's fills (False: needed where
        `atoms` or `symmetries` is a function of the frame);
    valid: `valid(frame, shape, fill)`, the points the grammar has (default: all);
    symmetries: the renamings fills are reduced by, or a function of the frame (canonical fills);
    fill_key: the order of a shape's fills (default: product order);
    alphabets: `alphabets(shape)`, the atom indices allowed at each atom position of the shape, in
        order (default: every one of `atoms` at each); fills are their product, counted unbuilt."""

    def __init__(self, blocks: tuple, build: Callable, atoms, frames=None, *, barred_in_manual: tuple = (),
                 shapes: Optional[Callable] = None, frames_inside: bool = True, valid: Optional[Callable] = None,
                 symmetries=(), fill_key: Optional[Callable] = None, alphabets: Optional[Callable] = None):
        self.blocks, self.build, self.atoms, self.frames = blocks, build, atoms, frames
        self.barred_in_manual = barred_in_manual
        self._shape_source = shapes or in_order(blocks, barred_in_manual)
        self.frames_inside, self.valid, self.symmetries, self.fill_key = frames_inside, valid, symmetries, fill_key
        self.alphabets = alphabets
        self._cache: dict = {}

    def shapes_of(self, size: int) -> tuple:
        """The shapes of exactly `size` items, in their order (cached)."""
        if size not in self._cache:
            self._cache[size] = tuple(self._shape_source(size))
        return self._cache[size]

    def kept(self, size: int, max_atoms=None, patterns=()) -> Iterator[tuple]:
        """The shapes of `size` with at most `max_atoms` atoms that one of `patterns` matches."""
        keep = shape_filter(patterns, self.blocks)
        for shape in self.shapes_of(size):
            if (max_atoms is None or n_atoms(shape) <= max_atoms) and keep(shape):
                yield shape

    def frames_of(self, shape) -> tuple:
        return (None,) if self.frames is None else self.frames(shape) if callable(self.frames) else self.frames

    def fills_of(self, shape, frame=None, reduce: bool = True):
        """A shape's fills (in `frame`, for grammars whose atoms or symmetries depend on it)."""
        n = self.atoms(frame) if callable(self.atoms) else self.atoms
        syms = (self.symmetries(frame) if callable(self.symmetries) else self.symmetries) if reduce else ()
        if self.alphabets is None:
            out = fills(shape, n, syms)
        else:
            out = (f for f in itertools.product(*self.alphabets(shape)) if canonical(f, syms))
        return sorted(out, key=self.fill_key) if self.fill_key else out

    def points(self, size: int, max_atoms=None, patterns=(), reduce: bool = True) -> Iterator[tuple]:
        """(frame, shape, fill) of every program of exactly `size` items, in the grammar's order."""
        valid = self.valid
        for shape in self.kept(size, max_atoms, patterns):
            frames = self.frames_of(shape)
            if self.frames_inside:
                for fill in self.fills_of(shape, None, reduce):
                    for frame in frames:
                        if valid is None or valid(frame, shape, fill):
                            yield frame, shape, fill
            else:
                for frame in frames:
                    for fill in self.fills_of(shape, frame, reduce):
                        yield frame, shape, fill

    def program(self, point: tuple):
        frame, shape, fill = point
        return self.build(shape, fill) if self.frames is None else self.build(frame, shape, fill)

    def programs(self, size: int, max_atoms=None, patterns=(), reduce: bool = True) -> Iterator:
        """Every program of exactly `size` items (only those with at most `max_atoms` atoms, and of
        a shape one of `patterns` matches, when given), in the grammar's order."""
        return map(self.program, self.points(size, max_atoms, patterns, reduce))

    def count(self, size: int, max_atoms=None, patterns=(), reduce: bool = True) -> int:
        """How many programs `programs` yields, none built (a product where nothing filters fills)."""
        if self.valid is None and not callable(self.atoms) and not callable(self.frames) and (
                not reduce or not self.symmetries):
            return sum(self._fills_count(shape) * len(self.frames_of(shape))
                       for shape in self.kept(size, max_atoms, patterns))
        return sum(1 for _ in self.points(size, max_atoms, patterns, reduce))

    def _fills_count(self, shape) -> int:
        if self.alphabets is None:
            return self.atoms ** n_atoms(shape)
        return math.prod(len(alphabet) for alphabet in self.alphabets(shape))


def numbered(source, sizes, skip: int = 0, max_atoms=None, patterns=()) -> Iterator[tuple]:
    """(size, index within the size, program) of every program `source` (a grammar module or
    object) has at `sizes`, the first `skip` of them across sizes left out: a framed grammar's
    (`ENUMERATION`, a Framed) unbuilt, another's built and dropped."""
    framed = getattr(source, "ENUMERATION", None)
    for size in sizes:
        if framed is None:
            items = enumerate(source.programs(size, max_atoms=max_atoms, patterns=patterns))
        else:
            items = enumerate(framed.points(size, max_atoms, patterns))
        for i, item in items:
            if skip:
                skip -= 1
                continue
            yield size, i, item if framed is None else framed.program(item)


class Grammar(Framed):
    """One symmetry-reduced grammar without frames: its atoms, blocks, the renamings it reduces by
    (atom index permutations) and `build(shape, fill) -> Program`."""

    def __init__(self, atoms: tuple, blocks: tuple, barred_in_manual: tuple, renamings: tuple, build: Callable):
        super().__init__(blocks, build, len(atoms), barred_in_manual=barred_in_manual, symmetries=renamings)

    def shapes(self, size: int, in_manual: bool = False) -> Iterator[tuple]:
        return shapes(size, self.blocks, self.barred_in_manual, in_manual)

    def fills(self, shape, reduce: bool = True) -> Iterator[tuple]:
        return self.fills_of(shape, None, reduce)

    def ordered_shapes(self, size: int) -> list:
        return list(self.shapes_of(size))

    def programs(self, size: int, reduce: bool = True, max_atoms=None, patterns=()) -> Iterator[P.Program]:
        """Every program of exactly `size` items (one per renaming class when `reduce`; only those
        with at most `max_atoms` atoms, and of a shape one of `patterns` matches, when given)."""
        return super().programs(size, max_atoms, patterns, reduce)

    def count(self, size: int, reduce: bool = True, max_atoms=None, patterns=()) -> int:
        return super().count(size, max_atoms, patterns, reduce)


class Fresh:
    """Fresh names: `fresh(p)` is p1, p2, ... (one counter `k` for every prefix)."""

    k = 0

    def fresh(self, p: str) -> str:
        self.k += 1
        return f"{p}{self.k}"


class Builder(Fresh):
    """A grammar's program builder: fresh names (`fresh`), and the statements of a shape (`items`),
    each atom's by `atom(atom, *where)` (the atoms drawn from `fill` in order: indices of
    `atoms`, or the atoms themselves when `atoms` is None) and each block's by
    `block(item, *where)` (`where`: what the grammar's atoms and blocks need of their place)."""

    def __init__(self, fill=(), atoms: Optional[tuple] = None):
        self.fill = iter(fill)
        self.atoms = atoms
        self.k = 0

    def items(self, shape, *where) -> list:
        out = []
        for item in shape:
            if item == "atom":
                k = next(self.fill)
                out += self.atom(k if self.atoms is None else self.atoms[k], *where)
            else:
                out.append(self.block(item, *where))
        return out

    def atom(self, atom, *where) -> list:
        raise NotImplementedError

    def block(self, item, *where):
        raise NotImplementedError


@dataclass(frozen=True)
class Guard(P.OneBlock):
    """`if TEST:` on the counter `var` around `then`; `name` a key of the grammar's TESTS (a
    subclass's: name -> (the test spelled over `{v}`, its truth for the counter's value))."""

    BLOCK = "then"
    TESTS = {}

    name: str
    then: tuple
    var: str = "i"

    def render(self, p, d):
        p.emit(d, f"if {self.TESTS[self.name][0].format(v=self.var)}:", self)
        p.body(d + 1, self.then)

    def run(self, r):
        if self.TESTS[self.name][1](r.scalars[self.var]):
            r.run(self.then)


def random_sizes(rnd: random.Random, max_guards: int, max_size: Optional[int] = None) -> tuple:
    """(atoms, guards) of a random body: 2 to 5 atoms and 0 to `max_guards` guards, the atoms cut
    to `max_size` (at least one) and the guards to what is left of it."""
    n_atoms = rnd.randint(2, 5)
    guards = rnd.randint(0, max_guards)
    if max_size is not None:
        n_atoms = max(1, min(n_atoms, max_size))
        guards = max(0, min(guards, max_size - n_atoms))
    return n_atoms, guards


def random_items(rnd: random.Random, n_atoms: int, n_guards: int, blocks: tuple, orelse: float = 0.0) -> tuple:
    """A random shape: `n_atoms` atoms with `n_guards` blocks of `blocks` wrapped around random
    runs (wrap_runs); with `orelse`, that chance of an else branch of one atom (a third element)
    for each block."""
    def block(run):
        made = (rnd.choice(blocks), run)
        return made + ((("atom",),) if orelse and rnd.random() < orelse else ())
    return wrap_runs(rnd, ["atom"] * n_atoms, n_guards, block)


def wrap_runs(rnd: random.Random, items: list, n: int, wrap: Callable) -> tuple:
    """`items` with `n` random runs of adjacent items each replaced by `wrap(run)` (a later run may
    hold an earlier one's block); none when there are no items."""
    for _ in range(n if items else 0):
        lo = rnd.randrange(len(items))
        hi = rnd.randrange(lo, len(items)) + 1
        items[lo:hi] = [wrap(tuple(items[lo:hi]))]
    return tuple(items)


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


def shape_size(shape) -> int:
    """A shape's size: an atom 1, a block 1 + its body's."""
    return sum(1 if item == "atom" else 1 + shape_size(item[1]) for item in shape)


def pattern_size(text: str) -> int:
    """The size of the shapes a pattern matches."""
    return shape_size(parse_pattern(text))
