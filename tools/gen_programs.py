"""Random well-formed orchestration programs, as DSL source text (for property tests and fuzzing).

``generate(chooser, manual=...)`` writes one program from a fixed library of kernels over 8x8
FP32 tiles: entry tensors ``x0 x1`` (In), ``y0`` (InOut), ``y1`` (Out), ``big`` (InOut 32x8,
sliced into tiles), ``flags`` (InOut INT32[4], host element reads and writes) and a scalar
``n``. The body mixes tensor creates, slices, transposes, reshapes, kernel calls (plain calls,
and ``pl.submit`` with runtime-allocated outputs), sequential and parallel loops with implicit
carries, ifs on scalars, and host reads and writes.

An AUTO program has no manual scope and no dependency. A *manual* program puts the whole body in
one ``pl.manual_scope()``, submits every task with ``pl.submit`` and leaves each submit's
dependency list open: ``GenProgram.render(deps)`` fills it in, with the statements a dependency
needs (``tools/fuzz_deps.py`` derives them from the program's true hazards). The ways a
dependency can be written: the producer's TaskId (``tid_<s>``), its history array
(``h_<s>``: one slot per execution of the submit, filled right after it), one slot of that
array, or a dummy barrier over several of those.

The generator draws every decision from a ``Chooser``: ``RandomChooser`` (a seeded
``random.Random``) for the fuzzing tool, ``DrawChooser`` (hypothesis draws, so failures shrink)
for the property tests.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

TILE = "pl.Tensor[[8, 8], pl.FP32]"
N_MAX = 3  # the scalar parameter n takes values 0..N_MAX

# name -> (type, parameters as (name, kind) with kind In/Out/InOut/Scalar, core)
KERNELS: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {
    "k_copy": ((("a", "In"), ("out", "Out")), "AIV"),
    "k_add": ((("a", "In"), ("b", "In"), ("out", "Out")), "AIV"),
    "k_acc": ((("a", "In"), ("acc", "InOut")), "AIV"),
    "k_scale": ((("a", "In"), ("out", "Out"), ("s", "Scalar")), "AIV"),
    "k_mm": ((("a", "In"), ("b", "In"), ("out", "Out")), "AIC"),
    "k_new": ((("a", "In"), ("s", "Scalar"), ("out", "Out")), "AIV"),
}


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

    @property
    def count(self) -> int:
        stop = N_MAX if self.stop == "n" else self.stop
        return max(0, -(-(stop - self.start) // self.step))

    def header(self) -> str:
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
    """One entry of a submit's deps list: ``kind`` tid | history | slot | barrier."""

    kind: str
    source: int  # the producing site (for a barrier: unused)
    parts: tuple["Dep", ...] = ()


@dataclass
class GenProgram:
    manual: bool
    lines: list[Line]
    sites: dict[int, Site]
    n: int  # the value of the scalar parameter
    scope_line: int | None = None  # index of the manual scope's `with` line

    def render(self, deps: dict[int, list[Dep]] | None = None) -> str:
        """The DSL source with each site's deps (None: every deps list empty)."""
        deps = deps or {}
        history = sorted({d.source for ds in deps.values() for d in flat_deps(ds) if d.kind in ("history", "slot")})
        out = [header(self.manual)]
        for index, line in enumerate(self.lines):
            pad = "    " * line.indent
            if line.site is None:
                out.append(pad + line.text)
                if index == self.scope_line:
                    inner = "    " * (line.indent + 1)
                    for s in history:
                        out.append(f"{inner}h_{s} = pl.array.create({max(1, self.sites[s].instances)}, pl.TASK_ID)")
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
        return "\n".join(out) + "\n"

    def dep_text(self, dep: Dep) -> str:
        if dep.kind == "tid":
            return f"tid_{dep.source}"
        if dep.kind == "history":
            return f"h_{dep.source}"
        if dep.kind == "slot":
            return f"h_{dep.source}[{self.sites[dep.source].slot()}]"
        raise ValueError(dep.kind)

    def values(self) -> dict[str, str]:
        return {"n": str(self.n)}

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
        f"{p}: pl.Scalar[pl.INT64]" if k == "Scalar" else f"{p}: {TILE if k == 'In' else f'pl.{k}[{TILE}]'}"
        for p, k in _params
    )
    _written = next(p for p, k in _params if k in ("Out", "InOut"))
    HEADER_KERNELS.append(
        f"    @pl.function(type=pl.FunctionType.{_core})\n"
        f"    def {_name}(self, {_sig}) -> {TILE}:\n"
        f"        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])\n"
        f"        o: {TILE} = pl.store(t, [0, 0], {_written})\n"
        f"        return o\n"
    )

def header(manual: bool) -> str:
    """The program text before the orchestration body (manual programs have no ``flags``)."""
    return HEADER if not manual else HEADER.replace("        flags: pl.InOut[pl.Tensor[[4], pl.INT32]],\n", "")


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
    kind: str  # tile | scalar | tid
    writable: bool = False
    contiguous: bool = True  # a reshape needs a contiguous view (transposes are not)


@dataclass
class _Block:
    id: int
    names: dict[str, _Var] = field(default_factory=dict)
    count: int = 0


class Generator:
    def __init__(self, chooser: Chooser, manual: bool, max_statements: int = 9, max_depth: int = 3):
        self.ch = chooser
        self.manual = manual
        self.max_depth = max_depth
        self.budget = max_statements
        self.lines: list[Line] = []
        self.sites: dict[int, Site] = {}
        self.blocks: list[_Block] = []
        self.block_ids = itertools.count()
        self.loops: list[Loop] = []
        self.fresh = itertools.count()

    # -- names --------------------------------------------------------------------------------------

    def visible(self) -> dict[str, _Var]:
        out: dict[str, _Var] = {}
        for block in self.blocks:
            out.update(block.names)
        return out

    def tiles(self, writable: bool = False) -> list[str]:
        return sorted(n for n, v in self.visible().items() if v.kind == "tile" and (v.writable or not writable))

    def scalars(self) -> list[str]:
        return sorted(n for n, v in self.visible().items() if v.kind == "scalar")

    def bind(self, name: str, var: _Var) -> None:
        for block in self.blocks:
            if name in block.names:
                block.names[name] = var
                return
        self.blocks[-1].names[name] = var

    def new_name(self, prefix: str) -> str:
        return f"{prefix}{next(self.fresh)}"

    def emit(self, text: str, site: int | None = None) -> int:
        self.lines.append(Line(len(self.blocks) + 1, text, site))
        self.blocks[-1].count += 1
        return len(self.lines) - 1

    def path(self) -> tuple[tuple[int, int], ...]:
        return tuple((b.id, b.count) for b in self.blocks[1:])

    # -- the program ----------------------------------------------------------------------------------

    def program(self) -> GenProgram:
        top = _Block(next(self.block_ids))
        for name in ("x0", "x1"):
            top.names[name] = _Var("tile")
        for name in ("y0", "y1"):
            top.names[name] = _Var("tile", writable=True)
        top.names["n"] = _Var("scalar")
        self.blocks.append(top)
        scope_line = None
        if self.manual:
            scope_line = self.emit("with pl.manual_scope():")
            self.blocks.append(_Block(next(self.block_ids)))
        self.body(depth=0, minimum=2)
        if self.manual:
            self.blocks.pop()
        self.emit("return y0")
        n = self.ch.integer(0, N_MAX)
        return GenProgram(self.manual, self.lines, self.sites, n, scope_line)

    def use_parameters(self, program: GenProgram, unused: set[str]) -> GenProgram:
        """``program`` with a task reading each entry parameter in ``unused`` appended to its body:
        the C++ of an unused parameter is an unused variable, which ``g++ -Wall -Werror`` rejects."""
        self.lines = program.lines[:-1]
        self.sites = dict(program.sites)
        if self.manual:
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
        if self.manual:
            self.blocks.pop()
        self.lines.append(program.lines[-1])
        return GenProgram(program.manual, self.lines, self.sites, program.n, program.scope_line)

    def call_line(self, kernel: str, inputs: list[str], target: str, scalar: str | None = None) -> None:
        args = inputs + [target] + ([scalar] if scalar else [])
        if self.manual:
            site = Site(next(self.fresh), kernel, tuple(self.loops), self.path())
            site.line = self.emit(
                f"{target}, tid_{site.id} = pl.submit(self.{kernel}, {', '.join(args)}, deps=[{{deps}}])  "
                f"# site {site.id}",
                site=site.id,
            )
            self.sites[site.id] = site
        else:
            self.emit(f"{target} = self.{kernel}({', '.join(args)})")

    def body(self, depth: int, minimum: int = 1) -> None:
        count = self.ch.integer(minimum, max(minimum, min(4, self.budget)))
        for _ in range(count):
            if self.budget <= 0 and _ >= minimum:
                break
            self.budget -= 1
            self.statement(depth)

    def statement(self, depth: int) -> None:
        options = [("call", 6), ("create", 2), ("slice", 2), ("view", 1)]
        if depth < self.max_depth:
            options += [("for", 3), ("if", 2)]
        if not self.manual:
            options += [("host", 2)]
        kind = self.ch.weighted(options)
        getattr(self, "stmt_" + kind)(depth)

    def stmt_create(self, depth: int) -> None:
        locals_ = [t for t in self.tiles(writable=True) if t not in ("y0", "y1")]
        name = self.ch.choice(locals_ + [self.new_name("t")] * 2)
        init = self.ch.choice(["", "", ", init_value=0", ", init_value=2.5"])
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

    def stmt_view(self, depth: int) -> None:
        base = self.ch.choice(self.tiles())
        source = self.visible()[base]
        name = self.new_name("v")
        if self.ch.chance(50) or not source.contiguous:
            self.emit(f"{name} = pl.tensor.transpose({base}, 0, 1)")
            self.bind(name, _Var("tile", writable=source.writable, contiguous=False))
            return
        flat = self.new_name("f")
        self.emit(f"{flat} = pl.tensor.reshape({base}, [64])")
        self.emit(f"{name} = pl.tensor.reshape({flat}, [8, 8])")
        self.bind(name, _Var("tile", writable=source.writable))

    def scalar_expr(self) -> str:
        names = self.scalars()
        atom = self.ch.choice(names + [str(self.ch.integer(0, 5))])
        shape = self.ch.integer(0, 4)
        if shape == 0:
            return atom
        if shape == 1:
            return f"{atom} * 2 + 1"
        if shape == 2:
            return f"({atom} - 5) // 2"
        if shape == 3:
            return f"({atom} - 4) % 3"
        return f"-{atom}" if not atom.isdigit() else atom

    def stmt_call(self, depth: int) -> None:
        kernel = self.ch.choice(list(KERNELS))
        params, _ = KERNELS[kernel]
        omit = kernel == "k_new" and (self.manual or self.ch.chance(50))
        args, target = [], None
        for pname, kind in params:
            if kind == "In":
                args.append(self.ch.choice(self.tiles()))
            elif kind == "Scalar":
                args.append(self.scalar_expr())
            elif omit:
                continue
            else:
                target = self.ch.choice(self.tiles(writable=True))
                args.append(target)
        if target is None:
            result = self.new_name("r")
        elif self.ch.chance(80):
            result = target
        else:
            result = self.new_name("w")
        if self.manual:
            site = Site(next(self.fresh), kernel, tuple(self.loops), self.path())
            tid = f"tid_{site.id}"
            line = self.emit(
                f"{result}, {tid} = pl.submit(self.{kernel}, {', '.join(args)}, deps=[{{deps}}])  # site {site.id}",
                site=site.id,
            )
            site.line = line
            self.sites[site.id] = site
            self.bind(tid, _Var("tid"))
        elif omit:
            self.emit(f"{result}, {self.new_name('tid')} = pl.submit(self.{kernel}, {', '.join(args)})")
        else:
            self.emit(f"{result} = self.{kernel}({', '.join(args)})")
        self.bind(result, _Var("tile", writable=True))

    def stmt_host(self, depth: int) -> None:
        index = self.ch.integer(0, 3)
        if self.ch.chance(50):
            self.emit(f"pl.tensor.write(flags, [{index}], {self.scalar_expr()})")
            return
        name = self.new_name("v")
        self.emit(f"{name} = pl.tensor.read(flags, [{index}])")
        self.bind(name, _Var("scalar"))
        if self.ch.chance(50):
            target = self.ch.choice(self.tiles(writable=True))
            self.emit(f"{target} = self.k_scale({self.ch.choice(self.tiles())}, {target}, {name})")
            self.bind(target, _Var("tile", writable=True))
        else:
            self.emit(f"pl.tensor.write(flags, [{(index + 1) % 4}], {name} + 1)")

    def block(self, header: str, depth: int, loop: Loop | None = None) -> None:
        self.emit(header)
        self.blocks.append(_Block(next(self.block_ids)))
        if loop is not None:
            self.loops.append(loop)
            self.bind(loop.var, _Var("scalar"))
        self.body(depth + 1)
        if loop is not None:
            self.loops.pop()
        self.blocks.pop()

    def stmt_for(self, depth: int) -> None:
        var = self.new_name("i")
        parallel = self.ch.chance(35)
        start = self.ch.choice([0, 0, 1])
        step = self.ch.choice([1, 1, 2])
        stop: int | str = start + self.ch.integer(1, 3) * step
        if not self.manual and not parallel and self.ch.chance(30):
            start, step, stop = 0, 1, "n"
        self.block(Loop(var, start, stop, step, parallel).header(), depth, Loop(var, start, stop, step, parallel))

    def stmt_if(self, depth: int) -> None:
        names = self.scalars()
        atom = self.ch.choice(names)
        cond = self.ch.choice([f"{atom} > 1", f"{atom} % 2 == 0", f"{atom} == 0", f"{atom} >= 1 and n < 3"])
        self.block(f"if {cond}:", depth)
        if self.ch.chance(60):
            self.emit_else(depth)

    def emit_else(self, depth: int) -> None:
        self.lines.append(Line(len(self.blocks) + 1, "else:"))
        self.blocks.append(_Block(next(self.block_ids)))
        self.body(depth + 1)
        self.blocks.pop()


# Right-hand sides without effects: a let of one whose result is never read is dead.
PURE = frozenset(
    {"Var", "Int", "Float", "Bool", "Bin", "Cmp", "Un", "CreateTensor", "ReadTensor", "SliceTensor",
     "TransposeTensor", "ReshapeTensor", "DimTensor", "CreateArray", "GetItem", "NoTask"}
)


def prune_dead(program: GenProgram) -> tuple[GenProgram, set[str]]:
    """``program`` without the lines that only define values nothing reads (the generated C++ of
    a dead let is an unused variable, which ``g++ -Wall -Werror`` rejects), and the entry
    parameters it does not read."""
    import tempfile
    from pathlib import Path

    from nanopass.api import run_pipeline
    from nanopass.language import walk
    from nanopass.loader import load_programs

    first = len(header(program.manual).splitlines()) + 1  # rendered line number of lines[0] (no deps)
    while True:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "generated.py"
            path.write_text(program.render())
            ssa = run_pipeline(load_programs(str(path))[0], stop_after="convert_to_ssa")[-1].tree
        body = tuple(stmt for stmt in ssa.orch.body if stmt._production != "Return")
        used = {node.name for node in walk(body) if node._production == "Var"}
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
    return GenProgram(program.manual, lines, program.sites, program.n, program.scope_line)


def generate(chooser: Chooser, manual: bool = False, max_statements: int = 9) -> GenProgram:
    generator = Generator(chooser, manual, max_statements)
    program, unused = prune_dead(generator.program())
    return generator.use_parameters(program, unused) if unused else program


def programs(manual: bool = False, max_statements: int = 9):
    """A hypothesis strategy of ``GenProgram``s."""
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_fn):
        return generate(DrawChooser(draw_fn), manual, max_statements)

    return draw()
