"""Random well-formed orchestration programs, as DSL source text (for property tests and fuzzing).

``generate(chooser, manual=...)`` writes one program from a fixed library of kernels over 8x8
FP32 tiles: entry tensors ``x0 x1`` (In), ``y0`` (InOut), ``y1`` (Out), ``big`` (InOut 32x8,
sliced into tiles), ``flags`` (InOut INT32[4], host element reads and writes) and a scalar
``n``. The body mixes tensor creates, slices, transposes, reshapes, kernel calls (plain calls,
and ``pl.submit`` with runtime-allocated outputs), sequential and parallel loops with implicit
and ``init_values`` carries, ifs on scalars, user scopes, scalar lets and INT64 arrays, host
reads and writes, and (AUTO) submits with dependencies and dummy barriers.

An AUTO program has no manual scope; one in four is compiled with
``analyze_auto_scopes_for_deps`` (an ``# options:`` line says so). A *manual* program puts its
body in one ``pl.manual_scope()`` (a *mixed* one has AUTO code before and after the scope, which
the compiler must order against it), submits every task in the scope with ``pl.submit`` and
leaves each submit's dependency list open: ``GenProgram.render(deps)`` fills it in, with the statements a dependency
needs (``tools/fuzz_deps.py`` derives them from the program's true hazards). The ways a
dependency can be written: the producer's TaskId (``tid_<s>``), its history array
(``h_<s>``: one slot per execution of the submit, filled right after it), one slot of that
array, a TaskId carry (``c_<s>``), or a dummy barrier over several of those.

Tiles and scalars defined inside a ``with`` block (a user scope, the manual scope) are used after
it (the compiler hoists their declarations); TaskIds are not (they do not outlive their scope).

Every program compiles to C++ that ``g++ -Wall -Werror`` accepts: dead lets are pruned, every
value a compound statement rebinds is read after it, and every parameter is read.

The generator draws every decision from a ``Chooser``: ``RandomChooser`` (a seeded
``random.Random``) for the fuzzing tool, ``DrawChooser`` (hypothesis draws, so failures shrink)
for the property tests.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from . import pending
from .gen_shapes import ShapeStatements

TILE = "pl.Tensor[[8, 8], pl.FP32]"
N_MAX = 3  # the scalar parameter n takes values 0..N_MAX

# name -> (parameters as (name, kind) with kind In/Out/InOut/Scalar, core)
KERNELS: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {
    "k_copy": ((("a", "In"), ("out", "Out")), "AIV"),
    "k_add": ((("a", "In"), ("b", "In"), ("out", "Out")), "AIV"),
    "k_acc": ((("a", "In"), ("acc", "InOut")), "AIV"),
    "k_scale": ((("a", "In"), ("out", "Out"), ("s", "Scalar")), "AIV"),
    "k_mm": ((("a", "In"), ("b", "In"), ("out", "Out")), "AIC"),
    "k_new": ((("a", "In"), ("s", "Scalar"), ("out", "Out")), "AIV"),
    "k_two": ((("a", "In"), ("o1", "Out"), ("o2", "Out")), "AIV"),  # two outputs: gen_shapes only
    "k_fscale": ((("a", "In"), ("out", "Out"), ("s", "FScalar")), "AIV"),  # a float scalar: gen_shapes only
}
CALLED = tuple(k for k in KERNELS if k not in ("k_two", "k_fscale"))  # the kernels of a random call


class Chooser:
    """Where the generator's decisions come from."""

    def integer(self, lo: int, hi: int) -> int:  # inclusive bounds
        raise NotImplementedError

    def choice(self, options: Sequence[Any]) -> Any:
        return options[self.integer(0, len(options) - 1)]

    def chance(self, percent: int) -> bool:
        return self.integer(0, 99) < percent

    def weighted(self, options: Sequence[tuple[Any, int]]) -> Any:
        total = sum(w for _, w in options)
        pick = self.integer(0, total - 1)
        for option, weight in options:
            if pick < weight:
                return option
            pick -= weight
        raise AssertionError("unreachable")


class RandomChooser(Chooser):
    def __init__(self, seed: int):
        self.random = random.Random(seed)

    def integer(self, lo: int, hi: int) -> int:
        return self.random.randint(lo, hi)


class DrawChooser(Chooser):
    """Decisions drawn from hypothesis (inside ``@st.composite`` or with ``st.data()``)."""

    def __init__(self, draw: Callable):
        from hypothesis import strategies as st

        self.draw = draw
        self.st = st

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(self.st.integers(lo, hi))


@dataclass(frozen=True)
class Loop:
    var: str
    start: int
    stop: int | str  # an int, or "n"
    step: int
    parallel: bool
    line: int = -1  # index of the header in GenProgram.lines
    parent: tuple[int, int] = (-1, -1)  # (block, statement index) of the loop in its block
    body: int = -1  # the block of its body
    while_: bool = False  # written ``for (var,) in pl.while_(init_values=(start,))`` with ``pl.cond(var < stop)``

    @property
    def count(self) -> int:
        stop = N_MAX if self.stop == "n" else self.stop
        return max(0, -(-(stop - self.start) // self.step))

    def header(self) -> str:
        if self.while_:
            return f"for ({self.var},) in pl.while_(init_values=({self.start},)):"
        fn = "pl.parallel" if self.parallel else "pl.range"
        if self.start == 0 and self.step == 1:
            return f"for {self.var} in {fn}({self.stop}):"
        if self.step == 1:
            return f"for {self.var} in {fn}({self.start}, {self.stop}):"
        return f"for {self.var} in {fn}({self.start}, {self.stop}, {self.step}):"

    def ordinal(self) -> str:
        """The iteration number as a DSL expression."""
        if self.start == 0 and self.step == 1:
            return self.var
        if self.step == 1:
            return f"({self.var} - {self.start})"
        return f"({self.var} - {self.start}) // {self.step}"


@dataclass
class Site:
    """A ``pl.submit`` of a manual program: where it is and how often it runs."""

    id: int
    kernel: str
    loops: tuple[Loop, ...]
    path: tuple[tuple[int, int], ...]  # (block, statement index) from the manual scope down
    line: int = 0  # index into GenProgram.lines
    kinds: tuple[str, ...] = ()  # the block kind at each step of path: for, parallel, if, with

    @property
    def instances(self) -> int:
        n = 1
        for loop in self.loops:
            n *= loop.count
        return n

    def slot(self) -> str:
        """This execution's slot in the history array: the iterations of the enclosing loops,
        counted in row-major order."""
        expr = ""
        for loop in self.loops:
            expr = loop.ordinal() if not expr else f"({expr}) * {loop.count} + {loop.ordinal()}"
        return expr or "0"


@dataclass
class Line:
    indent: int
    text: str
    site: int | None = None


@dataclass
class Dep:
    """One entry of a submit's deps list: ``kind`` tid | history | slot | carry | barrier.

    A ``carry`` is a TaskId variable ``c_<source>`` set to None at ``place`` (``top`` of the
    manual scope, or before the ``outer``/``inner``-most loop around the source) and to the
    source's TaskId after each of its submits: a loop carry (an array carry through a
    ``pl.parallel`` loop), a branch result, or both."""

    kind: str
    source: int  # the producing site (for a barrier: unused)
    parts: tuple["Dep", ...] = ()
    place: str = ""


@dataclass
class GenProgram:
    manual: bool
    lines: list[Line]
    sites: dict[int, Site]
    n: int  # the value of the scalar parameter
    scope_line: int | None = None  # index of the manual scope's `with` line
    auto_scope: bool = True  # False: @pl.function(..., auto_scope=False), with hand-placed pl.scope()
    mixed: bool = False  # a manual program with AUTO code before and after its manual scope
    options: tuple[str, ...] = ()  # compiler options that are on (``# options:`` line)
    wrapped: bool = False  # the manual scope is inside a loop or an if (``gen_shapes``)

    def compile_options(self) -> dict[str, bool]:
        return {name: True for name in self.options}

    def render(self, deps: dict[int, list[Dep]] | None = None) -> str:
        """The DSL source with each site's deps (None: every deps list empty)."""
        deps = deps or {}
        history = sorted({d.source for ds in deps.values() for d in flat_deps(ds) if d.kind in ("history", "slot")})
        carries = {d.source: d.place for ds in deps.values() for d in flat_deps(ds) if d.kind == "carry"}
        inits: dict[int, list[int]] = {}
        for source, place in sorted(carries.items()):
            inits.setdefault(self.carry_line(source, place), []).append(source)
        out = [f"# options: {', '.join(f'{o}=True' for o in self.options)}"] if self.options else []
        out.append(header(self.manual, self.auto_scope))
        for index, line in enumerate(self.lines):
            pad = "    " * line.indent
            for source in inits.get(index, ()):
                out.append(f"{pad}c_{source} = None")
            if line.site is None:
                out.append(pad + line.text)
                if index == self.scope_line:
                    inner = "    " * (line.indent + 1)
                    for s in history:
                        out.append(f"{inner}h_{s} = pl.array.create({max(1, self.sites[s].instances)}, pl.TASK_ID)")
                    for source in inits.get(-1, ()):
                        out.append(f"{inner}c_{source} = None")
                continue
            entries = []
            for dep in deps.get(line.site, []):
                if dep.kind == "barrier":
                    name = f"b_{line.site}_{len(entries)}"
                    out.append(f"{pad}{name} = pl.system.task_dummy(deps=[{', '.join(self.dep_text(p) for p in dep.parts)}])")
                    entries.append(name)
                else:
                    entries.append(self.dep_text(dep))
            out.append(pad + line.text.replace("{deps}", ", ".join(entries)))
            if line.site in history:
                out.append(f"{pad}h_{line.site}[{self.sites[line.site].slot()}] = tid_{line.site}")
            if line.site in carries:
                out.append(f"{pad}c_{line.site} = tid_{line.site}")
        return "\n".join(out) + "\n"

    def carry_loop(self, source: int, place: str) -> Loop | None:
        """The loop before which ``c_<source>`` starts (None: the top of the manual scope)."""
        loops = self.sites[source].loops
        if place == "top" or not loops:
            return None
        return loops[0] if place == "outer" else loops[-1]

    def carry_line(self, source: int, place: str) -> int:
        loop = self.carry_loop(source, place)
        return -1 if loop is None else loop.line

    def carry_visible(self, source: int, place: str, target: int) -> bool:
        """Can ``c_<source>`` (started at ``place``) be a dependency of ``target``: visible there,
        and, when it is carried through a ``pl.parallel`` loop (an array carry), only through
        sequential loops around that loop and nothing inside it (the compiler cannot carry an
        array into a scalar carry or an if result; docs/semantics.md)."""
        loop = self.carry_loop(source, place)
        site = self.sites[source]
        # kinds[0] is the manual scope's block; a loop's kind is that of its body block
        start = 1 if loop is None else next(i for i, (block, _) in enumerate(site.path) if block == loop.body)
        through = site.kinds[start:]
        if "parallel" in through:
            k = through.index("parallel")
            if any(kind != "for" for kind in through[:k]) or k != len(through) - 1:
                return False
        if loop is None:
            return True
        path = self.sites[target].path
        return any(step == loop.parent or step[0] == loop.body for step in path) or any(
            step[0] == loop.parent[0] and step[1] > loop.parent[1] for step in path
        )

    def dep_text(self, dep: Dep) -> str:
        if dep.kind == "tid":
            return f"tid_{dep.source}"
        if dep.kind == "carry":
            return f"c_{dep.source}"
        if dep.kind == "history":
            return f"h_{dep.source}"
        if dep.kind == "slot":
            return f"h_{dep.source}[{self.sites[dep.source].slot()}]"
        raise ValueError(dep.kind)

    def values(self) -> dict[str, str]:
        return {"n": str(self.n)}

    def value_sets(self) -> list[dict[str, str]]:
        """Every value of ``n`` the program runs for (0..N_MAX: loops over ``n`` run 0, 1, 2 and 3
        times, and every branch on ``n`` goes both ways); ``values()`` first."""
        return [self.values()] + [{"n": str(v)} for v in range(N_MAX + 1) if v != self.n]

    def site_of_line(self, deps: dict[int, list[Dep]] | None = None) -> dict[int, int]:
        """Source line (1-based) of each site's submit in ``render(deps)`` -> site id."""
        text = self.render(deps)
        out = {}
        for number, line in enumerate(text.splitlines(), start=1):
            marker = line.find("# site ")
            if marker >= 0:
                out[number] = int(line[marker + 7:])
        return out


def flat_deps(deps):
    """Every dependency entry, barriers' parts included."""
    for dep in deps:
        yield dep
        yield from flat_deps(dep.parts)


HEADER_KERNELS = []
for _name, (_params, _core) in KERNELS.items():
    _sig = ", ".join(
        f"{p}: pl.Scalar[pl.INT64]" if k == "Scalar" else f"{p}: pl.Scalar[pl.FP32]" if k == "FScalar"
        else f"{p}: {TILE if k == 'In' else f'pl.{k}[{TILE}]'}"
        for p, k in _params
    )
    _written = [p for p, k in _params if k in ("Out", "InOut")]
    _stores = "".join(f"        o{i}: {TILE} = pl.store(t, [0, 0], {w})\n" for i, w in enumerate(_written))
    _returns = ", ".join(f"o{i}" for i in range(len(_written)))
    _result = TILE if len(_written) == 1 else f"tuple[{', '.join([TILE] * len(_written))}]"
    HEADER_KERNELS.append(
        f"    @pl.function(type=pl.FunctionType.{_core})\n"
        f"    def {_name}(self, {_sig}) -> {_result}:\n"
        f"        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])\n"
        f"{_stores}"
        f"        return {_returns}\n"
    )

def header(manual: bool, auto_scope: bool = True) -> str:
    """The program text before the orchestration body (manual programs have no ``flags``)."""
    text = HEADER if not manual else HEADER.replace("        flags: pl.InOut[pl.Tensor[[4], pl.INT32]],\n", "")
    if not auto_scope:
        text = text.replace("type=pl.FunctionType.Orchestration)", "type=pl.FunctionType.Orchestration, auto_scope=False)")
    return text


HEADER = (
    "# A generated program (nanopass.tools.gen_programs).\n"
    "import nanopass.dsl as pl\n\n\n"
    "@pl.program\n"
    "class Generated:\n" + "\n".join(HEADER_KERNELS) + "\n"
    "    @pl.function(type=pl.FunctionType.Orchestration)\n"
    "    def orch(\n"
    "        self,\n"
    f"        x0: {TILE},\n"
    f"        x1: {TILE},\n"
    f"        y0: pl.InOut[{TILE}],\n"
    f"        y1: pl.Out[{TILE}],\n"
    "        big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]],\n"
    "        flags: pl.InOut[pl.Tensor[[4], pl.INT32]],\n"
    "        n: pl.Scalar[pl.INT64],\n"
    f"    ) -> {TILE}:"
)


@dataclass
class _Var:
    kind: str  # tile | table (32x8, an assemble target) | scalar (assignable) | index (read-only) | array | tid
    writable: bool = False
    contiguous: bool = True  # a reshape needs a contiguous view (transposes are not)
    wide: bool = True  # a scalar of 64 bits (INDEX/INT64); False: INT32 (an element read from flags)


@dataclass
class _Block:
    id: int
    names: dict[str, _Var] = field(default_factory=dict)
    count: int = 0
    kind: str = "with"  # manual (the manual scope) | for | parallel | if (either branch) | with


class Generator(ShapeStatements):
    def __init__(
        self, chooser: Chooser, manual: bool, max_statements: int = 9, max_depth: int = 3, features=None
    ):
        self.ch = chooser
        self.manual = manual
        self.features = pending.default_features() if features is None else frozenset(features)
        self.path_start = 1  # sites' paths and loops start at the manual scope (blocks / loops index)
        self.loop_start = 0
        self.wrapped = False
        self.options: tuple[str, ...] = ()
        self.before_scope = manual  # AUTO code of a manual program comes before its scope
        self.submitting = manual  # inside the manual scope: every task is a pl.submit with open deps
        self.max_depth = max_depth
        self.budget = max_statements
        self.lines: list[Line] = []
        self.sites: dict[int, Site] = {}
        self.blocks: list[_Block] = []
        self.block_ids = itertools.count()
        self.loops: list[Loop] = []
        self.fresh = itertools.count()
        # Outer names given a new value inside a block; after the compound statement each is read
        # once (an if result or loop carry nothing reads compiles to a set-but-unused C++
        # variable, which g++ -Wall -Werror rejects).
        self.rebound: list[str] = []
        self.prefer: str | None = None  # a tile the next call uses (a view just made)

    # -- names --------------------------------------------------------------------------------------

    def visible(self) -> dict[str, _Var]:
        out: dict[str, _Var] = {}
        for block in self.blocks:
            out.update(block.names)
        return out

    def tiles(self, writable: bool = False) -> list[str]:
        return sorted(n for n, v in self.visible().items() if v.kind == "tile" and (v.writable or not writable))

    def scalars(self, assignable: bool = False) -> list[str]:
        kinds = ("scalar",) if assignable else ("scalar", "index")
        return sorted(n for n, v in self.visible().items() if v.kind in kinds)

    def of_kind(self, kind: str) -> list[str]:
        return sorted(n for n, v in self.visible().items() if v.kind == kind)

    def bind(self, name: str, var: _Var, new_value: bool = True) -> None:
        for block in self.blocks:
            if name in block.names:
                if var.kind == "tile" and not block.names[name].contiguous:
                    # (a name that may hold a transposed view may still after a rebinding in a branch or loop)
                    var = _Var(var.kind, var.writable, False, var.wide)
                if new_value and block is not self.blocks[-1] and var.kind in ("tile", "scalar"):
                    self.rebound.append(name)
                block.names[name] = var
                return
        self.blocks[-1].names[name] = var

    def compound(self, write) -> None:
        """Run ``write`` (which emits one compound statement), then read what it rebound."""
        mark = len(self.rebound)
        write()
        names = []
        for name in self.rebound[mark:]:
            if name not in names and name in self.visible():
                names.append(name)
        # still an outer name here: the enclosing compound statement reads it again after itself
        self.rebound[mark:] = [n for n in names if n not in self.blocks[-1].names]
        for name in names:
            self.use(name)

    def use(self, name: str) -> None:
        var = self.visible()[name]
        if var.kind == "table":
            row = self.new_name("s")
            self.emit(f"{row} = pl.tensor.slice({name}, [8, 8], [0, 0])")
            self.call_line("k_add", [row, "x0"], "y0")
        elif var.kind == "tile":
            self.call_line("k_add", [name, "x0"], "y0")
        elif self.manual:  # a manual program has no flags tensor
            self.call_line("k_scale", ["x0"], "y0", scalar=name)
        else:
            self.emit(f"pl.tensor.write(flags, [0], {name})")

    def new_name(self, prefix: str) -> str:
        return f"{prefix}{next(self.fresh)}"

    def emit(self, text: str, site: int | None = None) -> int:
        self.lines.append(Line(len(self.blocks) + 1, text, site))
        self.blocks[-1].count += 1
        return len(self.lines) - 1

    def path(self) -> tuple[tuple[int, int], ...]:
        return tuple((b.id, b.count) for b in self.blocks[self.path_start:])

    def kinds(self) -> tuple[str, ...]:
        return tuple(b.kind for b in self.blocks[self.path_start:])

    def site(self, kernel: str) -> Site:
        """A new submit site here (its loops are those inside the manual scope)."""
        return Site(next(self.fresh), kernel, tuple(self.loops[self.loop_start:]), self.path(), kinds=self.kinds())

    # -- the program ----------------------------------------------------------------------------------

    def program(self) -> GenProgram:
        top = _Block(next(self.block_ids))
        for name in ("x0", "x1"):
            top.names[name] = _Var("tile")
        for name in ("y0", "y1"):
            top.names[name] = _Var("tile", writable=True)
        top.names["n"] = _Var("index")
        top.names["big"] = _Var("table", writable=True)
        self.blocks.append(top)
        self.auto_scope = self.manual or self.ch.chance(80)
        options = ("analyze_auto_scopes_for_deps",) if not self.manual and self.ch.chance(25) else ()
        self.options = options
        mixed = self.manual and self.ch.chance(40)
        scope_line = None
        if mixed:
            self.auto_part()
        if self.manual:
            scope_line = self.manual_scope()
        else:
            self.body(depth=0, minimum=2)
        if mixed:
            self.auto_part()
        self.emit("return y0")
        n = self.ch.integer(0, N_MAX)
        return GenProgram(
            self.manual, self.lines, self.sites, n, scope_line, self.auto_scope, mixed, options, self.wrapped
        )

    def auto_part(self) -> None:
        """AUTO statements of a mixed program, before or after its manual scope."""
        self.submitting = False
        self.budget += 2
        self.body(depth=1, minimum=1)
        self.submitting = True
        self.before_scope = False

    def leave_with(self) -> None:
        """Close a ``with`` block: its tiles, scalars and INT64 arrays stay visible (Python scoping;
        the compiler hoists what code after the block reads), its TaskIds do not."""
        block = self.blocks.pop()
        for name, var in block.names.items():
            if var.kind in ("tile", "table", "scalar", "array"):
                self.bind(name, var, new_value=False)

    def use_parameters(self, program: GenProgram, unused: set[str]) -> GenProgram:
        """``program`` with a task reading each entry parameter in ``unused`` appended to its body:
        the C++ of an unused parameter is an unused variable, which ``g++ -Wall -Werror`` rejects."""
        self.lines = program.lines[:-1]
        self.sites = dict(program.sites)
        # appended at the end of the body: inside the manual scope unless code follows it
        self.submitting = self.manual and not program.mixed and not program.wrapped
        if self.submitting:
            self.blocks.append(_Block(next(self.block_ids)))
        for name in ("x0", "x1", "y0", "y1", "big"):
            if name in unused:
                source = "s_big" if name == "big" else name
                if name == "big":
                    self.emit("s_big = pl.tensor.slice(big, [8, 8], [0, 0])")
                if name in ("y0", "y1"):
                    self.call_line("k_copy", ["x0"], name)
                else:
                    self.call_line("k_add", [source, "x0"], "y0")
        if "n" in unused:
            self.call_line("k_scale", ["x0"], "y0", scalar="n")
        if "flags" in unused and not self.manual:
            self.emit("pl.tensor.write(flags, [0], 1)")
        if self.submitting:
            self.blocks.pop()
        self.lines.append(program.lines[-1])
        return replace(program, lines=self.lines, sites=self.sites)

    def call_line(
        self, kernel: str, inputs: list[str], target: str, scalar: str | None = None, extra: str = ""
    ) -> int | None:
        """``target = kernel(inputs, target[, scalar])`` (a submit site in the manual scope, whose
        deps start with ``extra``); the site's id."""
        args = inputs + [target] + ([scalar] if scalar else [])
        return self.call_text(kernel, target, args, extra)

    def call_text(self, kernel: str, results: str, args: list[str], extra: str = "") -> int | None:
        if not self.submitting:
            self.emit(f"{results} = self.{kernel}({', '.join(args)})")
            return None
        site = self.site(kernel)
        results = f"({results})" if "," in results else results
        site.line = self.emit(
            f"{results}, tid_{site.id} = pl.submit(self.{kernel}, {', '.join(args)}, deps=[{extra}{{deps}}])  "
            f"# site {site.id}",
            site=site.id,
        )
        self.sites[site.id] = site
        return site.id

    def body(self, depth: int, minimum: int = 1) -> None:
        count = self.ch.integer(minimum, max(minimum, min(4, self.budget)))
        for _ in range(count):
            if self.budget <= 0 and _ >= minimum:
                break
            self.budget -= 1
            self.statement(depth)

    def statement(self, depth: int) -> None:
        options = [("call", 6), ("create", 2), ("slice", 2), ("view", 1), ("scalar", 1), ("array", 1)]
        if depth < self.max_depth:
            options += [("for", 3), ("if", 2), ("carry_loop", 1)]
        if not self.manual:
            options += [("host", 2)]
        if not self.submitting:
            options += [("barrier", 1)]
        if not self.auto_scope and depth < self.max_depth:
            options += [("scope", 2)]
        options += self.shape_options(depth)
        kind = self.ch.weighted(options)
        getattr(self, "stmt_" + kind)(depth)

    def stmt_create(self, depth: int) -> None:
        locals_ = [t for t in self.tiles(writable=True) if t not in ("y0", "y1")]
        name = self.ch.choice(locals_ + [self.new_name("t")] * 2)
        init = self.ch.choice(["", "", ", init_value=0", ", init_value=2.5"])
        if not self.submitting and self.ch.chance(20):
            init += ", manual_dep=True"  # untracked: the checker waives its pairs
        self.emit(f"{name}: {TILE} = pl.create_tensor([8, 8], dtype=pl.FP32{init})")
        self.bind(name, _Var("tile", writable=True))

    def row(self) -> str:
        loops = [loop.var for loop in self.loops]
        if loops and self.ch.chance(60):
            return f"({self.ch.choice(loops)} % 4) * 8"
        return str(8 * self.ch.integer(0, 3))

    def stmt_slice(self, depth: int) -> None:
        name = self.new_name("s")
        self.emit(f"{name} = pl.tensor.slice(big, [8, 8], [{self.row()}, 0])")
        self.bind(name, _Var("tile", writable=True))
        self.use_soon(name, depth)

    def use_soon(self, name: str, depth: int) -> None:
        """Most views are used by the next call (an unused one is pruned as dead)."""
        if self.ch.chance(75):
            self.prefer = name
            self.stmt_call(depth)

    def stmt_view(self, depth: int) -> None:
        base = self.ch.choice(self.tiles())
        source = self.visible()[base]
        name = self.new_name("v")
        if self.ch.chance(50) or not source.contiguous:
            self.emit(f"{name} = pl.tensor.transpose({base}, 0, 1)")
            self.bind(name, _Var("tile", writable=source.writable, contiguous=False))
        else:
            flat = self.new_name("f")
            self.emit(f"{flat} = pl.tensor.reshape({base}, [64])")
            self.emit(f"{name} = pl.tensor.reshape({flat}, [8, 8])")
            self.bind(name, _Var("tile", writable=source.writable))
        self.use_soon(name, depth)

    def scalar_expr(self) -> str:
        return self.scalar_expr_typed()[0]

    def scalar_expr_typed(self) -> tuple[str, bool]:
        """An integer expression, and whether it is 64-bit (else INT32)."""
        names = self.scalars()
        atom = self.ch.choice(names + [str(self.ch.integer(0, 5))])
        wide = atom.isdigit() or self.visible()[atom].wide
        shape = self.ch.integer(0, 4)
        if shape == 0:
            return atom, wide
        if shape == 1:
            return f"{atom} * 2 + 1", wide
        if shape == 2:
            return f"({atom} - 5) // 2", wide
        if shape == 3:
            return f"({atom} - 4) % 3", wide
        return (f"-{atom}" if not atom.isdigit() else atom), wide

    def stmt_call(self, depth: int) -> None:
        kernel = self.ch.choice(CALLED)
        params, _ = KERNELS[kernel]
        omit = kernel == "k_new" and (self.submitting or self.ch.chance(50))
        prefer, self.prefer = self.prefer, None
        writes = prefer is not None and self.visible()[prefer].writable and self.ch.chance(50)
        args, target = [], None
        for pname, kind in params:
            if kind == "In":
                arg = prefer if prefer is not None and not writes and not args else self.ch.choice(self.tiles())
                args.append(f"pl.no_dep({arg})" if not self.submitting and self.ch.chance(5) else arg)
            elif kind == "Scalar":
                args.append(self.scalar_expr())
            elif omit:
                continue
            else:
                target = prefer if writes else self.ch.choice(self.tiles(writable=True))
                args.append(target)
        if target is None:
            result = self.new_name("r")
        elif self.ch.chance(80):
            result = target
        else:
            result = self.new_name("w")
        if self.submitting:
            site = self.site(kernel)
            tid = f"tid_{site.id}"
            line = self.emit(
                f"{result}, {tid} = pl.submit(self.{kernel}, {', '.join(args)}, deps=[{{deps}}])  # site {site.id}",
                site=site.id,
            )
            site.line = line
            self.sites[site.id] = site
            self.bind(tid, _Var("tid"))
        elif omit or self.ch.chance(25):
            tid = self.new_name("tid")
            tids = self.of_kind("tid")
            deps = [self.ch.choice(tids)] if tids and self.ch.chance(60) else []
            self.emit(f"{result}, {tid} = pl.submit(self.{kernel}, {', '.join(args)}, deps=[{', '.join(deps)}])")
            self.bind(tid, _Var("tid"))
        else:
            self.emit(f"{result} = self.{kernel}({', '.join(args)})")
        # (a result is its written argument's view: transposed when that is)
        flat = target is None or self.visible()[target].contiguous
        self.bind(result, _Var("tile", writable=True, contiguous=flat), new_value=result != target)

    def stmt_barrier(self, depth: int) -> None:
        tids = self.of_kind("tid")
        deps = sorted({self.ch.choice(tids) for _ in range(self.ch.integer(1, 2))}) if tids else []
        name = self.new_name("tid")
        self.emit(f"{name} = pl.system.task_dummy(deps=[{', '.join(deps + ['None'] * self.ch.integer(0, 1))}])")
        self.bind(name, _Var("tid"))

    def stmt_scalar(self, depth: int) -> None:
        value, wide = self.scalar_expr_typed()
        same = [n for n in self.scalars(assignable=True) if self.visible()[n].wide == wide]
        name = self.ch.choice(same + [self.new_name("c")])
        self.emit(f"{name} = {value}")
        self.bind(name, _Var("scalar", wide=wide))

    def index_expr(self) -> str:
        loops = [loop.var for loop in self.loops]
        if loops and self.ch.chance(60):
            return f"{self.ch.choice(loops)} % 4"
        return str(self.ch.integer(0, 3))

    def stmt_array(self, depth: int) -> None:
        arrays = self.of_kind("array")
        if not arrays or self.ch.chance(20):
            array = self.new_name("a")
            self.emit(f"{array} = pl.array.create(4, pl.INT64)")
            self.bind(array, _Var("array"))
        else:
            array = self.ch.choice(arrays)
        if self.ch.chance(50):
            self.emit(f"{array}[{self.index_expr()}] = {self.scalar_expr()}")
            self.bind(array, _Var("array"))
        else:
            name = self.new_name("e")
            self.emit(f"{name} = {array}[{self.index_expr()}]")
            self.bind(name, _Var("scalar"))
            self.use(name)

    def stmt_carry_loop(self, depth: int) -> None:
        self.compound(lambda: self.carry_loop(depth))

    def carry_loop(self, depth: int) -> None:
        """An explicit carry: ``for i, (p, q) in pl.range(K, init_values=(a, b))`` ending in a yield."""
        tiles = self.tiles(writable=True)
        a, b = self.ch.choice(tiles), self.ch.choice(tiles)
        var, p, q = self.new_name("i"), self.new_name("p"), self.new_name("q")
        parent = (self.blocks[-1].id, self.blocks[-1].count)
        stop = self.ch.integer(1, 3)
        line = self.emit(f"for {var}, ({p}, {q}) in pl.range({stop}, init_values=({a}, {b})):")
        self.blocks.append(_Block(next(self.block_ids), kind="for"))
        self.loops.append(Loop(var, 0, stop, 1, False, line, parent, self.blocks[-1].id))
        self.bind(var, _Var("index"))
        flat = all(self.visible()[t].contiguous for t in (a, b))  # (either may be either carry)
        self.bind(p, _Var("tile", writable=True, contiguous=flat))
        self.bind(q, _Var("tile", writable=True, contiguous=flat))
        self.body(depth + 1)
        inner = self.tiles(writable=True)
        values = [self.ch.choice([q, p] + inner), self.ch.choice([p, q] + inner)]
        out = [self.new_name("o"), self.new_name("o")]
        self.emit(f"{out[0]}, {out[1]} = pl.yield_({values[0]}, {values[1]})")
        flat = flat and all(self.visible()[t].contiguous for t in values)
        self.loops.pop()
        self.blocks.pop()
        for name in out:
            self.bind(name, _Var("tile", writable=True, contiguous=flat))
            self.rebound.append(name)

    def stmt_scope(self, depth: int) -> None:
        self.compound(lambda: self.block("with pl.scope():", depth))

    def stmt_host(self, depth: int) -> None:
        index = self.ch.integer(0, 3)
        if self.ch.chance(50):
            self.emit(f"pl.tensor.write(flags, [{index}], {self.scalar_expr()})")
            return
        name = self.new_name("v")
        self.emit(f"{name} = pl.tensor.read(flags, [{index}])")
        self.bind(name, _Var("scalar", wide=False))
        if self.ch.chance(50):
            target = self.ch.choice(self.tiles(writable=True))
            self.emit(f"{target} = self.k_scale({self.ch.choice(self.tiles())}, {target}, {name})")
            self.bind(target, _Var("tile", writable=True), new_value=False)
        else:
            self.emit(f"pl.tensor.write(flags, [{(index + 1) % 4}], {name} + 1)")

    def block(self, header: str, depth: int, loop: Loop | None = None) -> None:
        parent = (self.blocks[-1].id, self.blocks[-1].count)
        line = self.emit(header)
        kind = "with" if loop is None and header.startswith("with") else "if" if loop is None else (
            "parallel" if loop.parallel else "for"
        )
        self.blocks.append(_Block(next(self.block_ids), kind=kind))
        if loop is not None:
            self.loops.append(replace(loop, line=line, parent=parent, body=self.blocks[-1].id))
            self.bind(loop.var, _Var("index"))
        if loop is not None and loop.while_:  # (the loop's condition, not a statement of its body)
            self.lines.append(Line(len(self.blocks) + 1, f"pl.cond({loop.var} < {loop.stop})"))
        self.body(depth + 1)
        if loop is not None and loop.while_:
            self.emit(f"({self.new_name('w')},) = pl.yield_({loop.var} + {loop.step})")
        if loop is not None:
            self.loops.pop()
        if kind == "with":
            self.leave_with()
        else:
            self.blocks.pop()

    def stmt_for(self, depth: int) -> None:
        var = self.new_name("i")
        parallel = self.ch.chance(35)
        start = self.ch.choice([0, 0, 1])
        step = self.ch.choice([1, 1, 2])
        stop: int | str = start + self.ch.integer(1, 3) * step
        if (not self.submitting or self.on("manual_n_loops")) and not parallel and self.ch.chance(30):
            start, step, stop = 0, 1, "n"
        # (an AUTO program only: a manual program's sites count the statements of each block)
        while_ = self.on("while_loops") and not self.manual and not parallel and self.ch.chance(30)
        loop = Loop(var, start, stop, step, parallel, while_=while_)
        self.compound(lambda: self.block(loop.header(), depth, loop))

    def stmt_if(self, depth: int) -> None:
        # in a loop, a condition that may change between iterations makes a conditional write
        names = self.scalars() if not self.loops or self.on("cond_write") else ["n"]
        atom = self.ch.choice(names)
        cond = self.ch.choice([f"{atom} > 1", f"{atom} % 2 == 0", f"{atom} == 0", f"{atom} >= 1 and n < 3"])

        def write():
            self.block(f"if {cond}:", depth)
            if self.ch.chance(60):
                self.emit_else(depth)

        self.compound(write)

    def emit_else(self, depth: int) -> None:
        self.lines.append(Line(len(self.blocks) + 1, "else:"))
        self.blocks.append(_Block(next(self.block_ids), kind="if"))
        self.body(depth + 1)
        self.blocks.pop()


# Right-hand sides without effects: a let of one whose result is never read is dead.
PURE = frozenset(
    {"Var", "Int", "Float", "Bool", "Bin", "Cmp", "Un", "CreateTensor", "ReadTensor", "SliceTensor",
     "TransposeTensor", "ReshapeTensor", "DimTensor", "CreateArray", "GetItem", "SetItem", "NoTask"}
)


def _vars(node) -> set[str]:
    from nanopass.language import walk

    return {n.name for n in walk(node) if n._production == "Var"} if node is not None else set()


def _explicit(it) -> bool:
    """An ``init_values=`` carry (an implicit one carries a name from before the loop)."""
    init = it.init
    return init._production != "Var" or init.name.split("__")[0] != it.var.name.split("__")[0]


def live_names(func) -> set[str]:
    """The SSA names whose values reach an effect (a task, a barrier, a host write, an assemble, a
    loop bound, a branch condition, a ``pl.yield_`` written in the source), through lets, loop
    carries and branch results."""
    from nanopass.passes.util import iter_stmts, last_yield

    stmts = list(iter_stmts(func.body))
    live: set[str] = set()
    for stmt in stmts:
        kind = stmt._production
        if kind in ("Task", "Dummy", "WriteTensor") or (kind == "Let" and stmt.value._production == "AssembleTensor"):
            live |= _vars(stmt)  # an assemble is kept whole: its target and source stay defined
        elif kind == "For":
            live |= _vars(stmt.start) | _vars(stmt.stop) | _vars(stmt.step)
        elif kind in ("If", "While"):
            live |= _vars(stmt.cond)
        if kind in ("For", "While"):
            yld = last_yield(stmt.body)
            if yld is not None and yld.span is not None:  # a pl.yield_ in the source names its values
                for it, value in zip(stmt.iters, yld.values):
                    if _explicit(it):
                        live |= _vars(value)
    while True:
        before = len(live)
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let" and stmt.var.name in live:
                live |= _vars(stmt.value)
            elif kind in ("For", "While"):
                yld = last_yield(stmt.body)
                for k, (it, result) in enumerate(zip(stmt.iters, stmt.results)):
                    if it.var.name in live or result.name in live:
                        live |= {it.var.name, result.name} | _vars(it.init) | (_vars(yld.values[k]) if yld else set())
            elif kind == "If":
                for k, result in enumerate(stmt.results):
                    if result.name in live:
                        for branch in (stmt.then, stmt.orelse):
                            yld = last_yield(branch)
                            live |= _vars(yld.values[k]) if yld else set()
        if len(live) == before:
            return live


def prune_dead(program: GenProgram) -> tuple[GenProgram, set[str]]:
    """``program`` without the lines that only define values nothing reads (the generated C++ of
    a dead let is an unused variable, which ``g++ -Wall -Werror`` rejects), and the entry
    parameters it does not read."""
    import tempfile
    from pathlib import Path

    from nanopass.api import run_pipeline
    from nanopass.language import walk
    from nanopass.loader import load_programs

    first = len(program.render().splitlines()) - len(program.lines) + 1  # line number of lines[0]
    while True:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "generated.py"
            path.write_text(program.render())
            ssa = run_pipeline(load_programs(str(path))[0], stop_after="convert_to_ssa")[-1].tree
        used = live_names(ssa.orch)
        dead = {
            node.span.line - first
            for node in walk(ssa.orch)
            if node._production == "Let" and node.value._production in PURE and node.var.name not in used
            and node.span is not None
        }
        dead = {
            i for i in dead
            if 0 <= i < len(program.lines) and program.lines[i].site is None and program.lines[i].text != "pass"
        }
        if not dead:
            params = {p.name for p in ssa.orch.params}
            return program, params - used
        program = _without(program, dead)


def _without(program: GenProgram, dead: set[int]) -> GenProgram:
    """Dead lines become ``pass`` (a block never ends up empty; line numbers stay)."""
    lines = [Line(line.indent, "pass") if i in dead else line for i, line in enumerate(program.lines)]
    return replace(program, lines=lines)


def generate(chooser: Chooser, manual: bool = False, max_statements: int = 9, features=None) -> GenProgram:
    """One program; ``features`` (of ``pending.FEATURES``) are the issue-21 shapes it may have
    (default: ``pending.default_features()``)."""
    generator = Generator(chooser, manual, max_statements, features=features)
    program, unused = prune_dead(generator.program())
    return generator.use_parameters(program, unused) if unused else program


def programs(manual: bool = False, max_statements: int = 9, features=None):
    """A hypothesis strategy of ``GenProgram``s."""
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_fn):
        draw_fn(st.just(None))  # (a shrunk program may make no choice; hypothesis warns on a composite that never draws)
        return generate(DrawChooser(draw_fn), manual, max_statements, features)

    return draw()


def options_of(text: str) -> dict[str, bool]:
    """The compiler options a program's ``# options: name=True, ...`` line turns on."""
    for line in text.splitlines():
        if line.startswith("# options:"):
            items = (item.split("=") for item in line.split(":", 1)[1].split(","))
            return {key.strip(): value.strip() == "True" for key, value in items}
    return {}
