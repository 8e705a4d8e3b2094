"""The statements of ``gen_programs.Generator`` that cover issue 21's surface (a mixin).

Each statement kind is one feature of ``pending.FEATURES``; a generator offers it only when the
feature is on (``Generator.features``), so the programs of the CI properties keep to what the
compiler handles until the fix lands (``pending``). The base statements of ``gen_programs``
are unchanged, except that with ``cond_write`` off an ``if`` inside a loop tests ``n`` only (the
same outcome in every iteration). The features:

- ``host_reads``: host element reads of the tiles tasks use, in AUTO code (the value is a task's
  float scalar); ``host_reads_after_scope``: in the AUTO code after a manual scope;
  ``host_reads_derived``: in a program compiled with ``analyze_auto_scopes_for_deps``;
- ``host_writes`` / ``host_in_manual``: host element writes of those tiles (and reads whose value
  is written into a tile), in AUTO code / inside the manual scope;
- ``manual_in_loop`` / ``manual_in_branch``: the manual scope inside a ``pl.range`` loop (over
  ``n`` or two trips) and / or an ``if`` on ``n``;
- ``manual_n_loops``: loops over ``n`` (0 to 3 trips) inside the manual scope;
- ``cond_write``: in a loop, a task reads a tile and a write of that tile runs only in some
  iterations (``if i > 0``); without it, an ``if`` inside a loop tests ``n`` only (the same
  outcome in every iteration);
- ``init_swap``: an ``init_values`` loop whose yield swaps its carries, reading one, writing the
  other (with ``cond_write``, sometimes in some iterations only);
- ``slice_loop`` / ``slice_loop_before_scope``: a loop writing a row slice of ``big`` per
  iteration and a fresh tile through a second output (``k_two``), in an AUTO program or the
  manual scope / in the AUTO code before a manual scope;
- ``assemble``: a 32x8 target (``big`` or a created table, made or rebound anywhere), its rows
  written before a source is created, the source written and ``pl.assemble``d into it, the
  rows read after, in AUTO code; ``assemble_in_manual``: in the manual scope too (a target
  made or rebound there, by a create or an assemble, is assembled into after it);
- ``assemble_around``: besides, the target's rows read or written between the source's creation
  and the assemble, or read by the task that writes the source;
- ``carry_chain``: in the manual scope, a TaskId carried through a ``pl.parallel`` loop and then
  through a second one, each task waiting for it;
- ``phases``: in the manual scope, the seed's phases: ``pl.range`` over phases, ``pl.parallel``
  branches started from the previous phase's TaskIds (``init_values``), a ``pl.range`` of 1, 2 or
  ``n`` steps (``n`` only with ``manual_n_loops``) inside each branch carrying the TaskId on (for
  ``n = 0`` the branch yields the ids it started from);
- ``while_loops`` (``gen_programs``' own loops): in an AUTO program, a sequential loop written as
  ``for (i,) in pl.while_(init_values=(start,))`` with ``pl.cond(i < stop)`` and ``pl.yield_(i + step)``.
"""

from __future__ import annotations

TILE = "pl.Tensor[[8, 8], pl.FP32]"
TABLE = "pl.Tensor[[32, 8], pl.FP32]"


class ShapeStatements:
    """Mixed into ``Generator``: uses its ``ch``, ``emit``, ``bind``, ``blocks``, ``loops``, ..."""

    def on(self, feature: str) -> bool:
        return feature in self.features

    def shape_options(self, depth: int) -> list[tuple[str, int]]:
        """(statement kind, weight) of the issue-21 statements available here."""
        nested = depth < self.max_depth
        options = []
        if self.on("host_in_manual" if self.submitting else "host_writes"):
            options.append(("host_tile", 2))
        if not self.submitting and self.on(self.host_reads_feature()):
            options.append(("host_read_tile", 2))
        if self.loops and nested and self.on("cond_write"):
            options.append(("cond_write", 2))
        if nested and self.on("init_swap"):
            options.append(("init_swap", 1))
        if nested and self.on("slice_loop_before_scope" if self.before_scope else "slice_loop"):
            options.append(("slice_loop", 1))
        if self.on("assemble") and (not self.submitting or self.on("assemble_in_manual")):
            options += [("assemble", 2), ("table", 2)]
        if self.submitting and nested and self.on("carry_chain"):
            options.append(("carry_chain", 1))
        if self.submitting and depth == 0 and self.on("phases"):
            options.append(("phases", 1))
        return options

    def host_reads_feature(self) -> str:
        """Host reads in AUTO code: after a manual scope, or in a program whose AUTO scopes the
        compiler may make manual (``analyze_auto_scopes_for_deps``), they are their own features."""
        if self.manual and not self.before_scope:
            return "host_reads_after_scope"
        return "host_reads_derived" if "analyze_auto_scopes_for_deps" in self.options else "host_reads"

    # -- the manual scope's surroundings -----------------------------------------------------------

    def manual_scope(self) -> int:
        """The manual scope and its body, inside the loops and ifs the features draw; the line of
        its ``with``."""
        wrappers = []
        if self.on("manual_in_loop") and self.ch.chance(40):
            wrappers.append("loop")
        if self.on("manual_in_branch") and self.ch.chance(30):
            wrappers.insert(self.ch.integer(0, len(wrappers)), "if")
        self.wrapped = bool(wrappers)
        found: list[int] = []

        def inner(k: int) -> None:
            if k == len(wrappers):
                from .gen_programs import _Block

                found.append(self.emit("with pl.manual_scope():"))
                self.blocks.append(_Block(next(self.block_ids), kind="manual"))
                self.path_start, self.loop_start = len(self.blocks) - 1, len(self.loops)
                self.before_scope = False
                self.body(depth=0, minimum=2)
                self.leave_with()
                self.submitting = False  # what follows the scope is AUTO code
                return
            if wrappers[k] == "loop":
                loop = self.plain_loop(self.new_name("w"), self.ch.choice(["n", 2]))
                self.compound(lambda: self.fixed_block("for", loop.header(), lambda: inner(k + 1), loop))
            else:
                cond = self.ch.choice(["n > 1", "n % 2 == 0", "n == 0"])
                self.compound(lambda: self.fixed_block("if", f"if {cond}:", lambda: inner(k + 1)))

        inner(0)
        return found[0]

    @staticmethod
    def plain_loop(var: str, stop, parallel: bool = False):
        from .gen_programs import Loop

        return Loop(var, 0, stop, 1, parallel)

    def fixed_block(self, kind: str, header: str, write, loop=None) -> None:
        """``header`` (an ``if``, or the header of ``loop``) and a body ``write`` emits."""
        from dataclasses import replace

        from .gen_programs import _Block, _Var

        parent = (self.blocks[-1].id, self.blocks[-1].count)
        line = self.emit(header)
        self.blocks.append(_Block(next(self.block_ids), kind=kind))
        if loop is not None:
            self.loops.append(replace(loop, line=line, parent=parent, body=self.blocks[-1].id))
            self.bind(loop.var, _Var("index"))
        write()
        if loop is not None:
            self.loops.pop()
        self.blocks.pop()

    # -- host element access of tiles ----------------------------------------------------------------

    def element(self) -> str:
        loops = [loop.var for loop in self.loops]
        row = f"{self.ch.choice(loops)} % 8" if loops and self.ch.chance(40) else str(self.ch.integer(0, 7))
        return f"[{row}, {self.ch.integer(0, 7)}]"

    def stmt_host_read_tile(self, depth: int) -> None:
        name = self.new_name("h")
        self.emit(f"{name} = pl.tensor.read({self.ch.choice(self.tiles())}, {self.element()})")
        self.call_line("k_fscale", [self.ch.choice(self.tiles())], self.ch.choice(self.tiles(writable=True)), name)

    def stmt_host_tile(self, depth: int) -> None:
        writable = self.tiles(writable=True)
        if self.ch.chance(45):
            self.emit(f"pl.tensor.write({self.ch.choice(writable)}, {self.element()}, {self.ch.integer(0, 9)}.5)")
            return
        name = self.new_name("h")
        self.emit(f"{name} = pl.tensor.read({self.ch.choice(self.tiles())}, {self.element()})")
        self.emit(f"pl.tensor.write({self.ch.choice(writable)}, {self.element()}, {name})")

    # -- loops that write in some iterations, or swap their carries -------------------------------------

    def fresh_tile(self) -> str:
        from .gen_programs import _Var

        name = self.new_name("t")
        self.emit(f"{name}: {TILE} = pl.create_tensor([8, 8], dtype=pl.FP32)")
        self.bind(name, _Var("tile", writable=True))
        return name

    def read_into_fresh(self, source: str) -> str:
        fresh = self.fresh_tile()
        self.call_line("k_copy", [source], fresh)
        return fresh

    def stmt_cond_write(self, depth: int) -> None:
        from .gen_programs import _Var

        loop = self.loops[-1]
        target = self.ch.choice(self.tiles(writable=True))
        fresh = self.read_into_fresh(target)
        first = loop.start
        cond = self.ch.choice([f"{loop.var} > {first}", f"{loop.var} == {first}", f"{loop.ordinal()} % 2 == 1"])

        def write():
            self.call_line("k_acc", [self.ch.choice([fresh, "x0"])], target)
            self.bind(target, _Var("tile", writable=True), new_value=False)

        self.compound(lambda: self.fixed_block("if", f"if {cond}:", write))

    def stmt_init_swap(self, depth: int) -> None:
        from .gen_programs import _Var

        tiles = self.tiles(writable=True)
        a = self.ch.choice(tiles)
        b = self.ch.choice([t for t in tiles if t != a] or tiles)
        var, p, q = self.new_name("i"), self.new_name("p"), self.new_name("q")
        stop = self.ch.choice([2, 3, "n"] if not self.submitting or self.on("manual_n_loops") else [2, 3])
        header = f"for {var}, ({p}, {q}) in pl.range({stop}, init_values=({a}, {b})):"
        flat = all(self.visible()[t].contiguous for t in (a, b))  # (either carry is either init after some trips)

        def body():
            self.bind(p, _Var("tile", writable=True, contiguous=flat))
            self.bind(q, _Var("tile", writable=True, contiguous=flat))
            fresh = self.read_into_fresh(p)
            if self.on("cond_write") and self.ch.chance(40):
                self.fixed_block("if", f"if {var} >= 1:", lambda: self.call_line("k_acc", [fresh], q))
            else:
                self.call_line("k_acc", [fresh], q)
            out = [self.new_name("o"), self.new_name("o")]
            self.emit(f"{out[0]}, {out[1]} = pl.yield_({q}, {p})")
            body.out = out

        self.fixed_block("for", header, body, self.plain_loop(var, stop))
        for name in body.out:
            self.bind(name, _Var("tile", writable=True, contiguous=flat))
            self.rebound.append(name)
        for name in body.out:
            self.use(name)

    # -- a loop writing a row slice per iteration (then, often, the manual scope) ----------------------------

    def stmt_slice_loop(self, depth: int) -> None:
        var = self.new_name("i")
        stop = self.ch.choice([2, 3, 4, "n"] if not self.submitting or self.on("manual_n_loops") else [2, 3, 4])

        def body():
            row = self.new_name("s")
            self.emit(f"{row} = pl.tensor.slice(big, [8, 8], [({var} % 4) * 8, 0])")
            second = self.fresh_tile()
            self.call_text("k_two", f"{row}, {second}", ["x0", row, second])

        loop = self.plain_loop(var, stop)
        self.compound(lambda: self.fixed_block("for", loop.header(), body, loop))

    # -- pl.assemble ------------------------------------------------------------------------------------------

    def stmt_table(self, depth: int) -> None:
        """Create a 32x8 table, or make an existing one's name a new table (a rebinding)."""
        from .gen_programs import _Var

        tables = [t for t in self.of_kind("table") if t != "big"]
        name = self.ch.choice(tables + [self.new_name("g")] * 2)
        self.emit(f"{name}: {TABLE} = pl.create_tensor([32, 8], dtype=pl.FP32)")
        self.bind(name, _Var("table", writable=True))
        if self.ch.chance(50):  # its rows written at once (a table nothing uses is dead)
            self.call_line("k_copy", ["x0"], self.rows(name, 8 * self.ch.integer(0, 3)))

    def rows(self, table: str, row: int) -> str:
        from .gen_programs import _Var

        name = self.new_name("s")
        self.emit(f"{name} = pl.tensor.slice({table}, [8, 8], [{row}, 0])")
        self.bind(name, _Var("tile", writable=True))
        return name

    def stmt_assemble(self, depth: int) -> None:
        from .gen_programs import _Var

        target = self.ch.choice(self.of_kind("table"))
        row = 8 * self.ch.integer(0, 3)
        near = self.ch.choice([row, row, 8 * self.ch.integer(0, 3)])
        if self.ch.chance(50):  # the target's rows written before the source exists
            self.call_line("k_copy", ["x1"], self.rows(target, near))
        source = self.new_name("a")
        self.emit(f"{source}: {TILE} = pl.create_tensor([8, 8], dtype=pl.FP32)")
        # (reads or writes of the target's rows around the assemble make most programs ones no
        # compilation runs correctly, which are refused: one assemble in three has them)
        around = self.on("assemble_around") and self.ch.chance(33)
        if around and self.ch.chance(30):  # the task writing the source reads the target's rows
            self.call_line("k_add", [self.rows(target, near), "x0"], source)
        else:  # an input that cannot be the target's rows, unless the rows may be around
            self.call_line("k_copy", [self.ch.choice(self.tiles() if around else ["x0", "x1"])], source)
        for _ in range(self.ch.integer(0, 2) if around else 0):  # the target's rows read or written in between
            rows = self.rows(target, self.ch.choice([row, near]))
            if self.ch.chance(50):
                self.read_into_fresh(rows)
            else:
                self.call_line("k_acc", ["x0"], rows)
        self.emit(f"{target} = pl.assemble({target}, {source}, [{row}, 0])")
        self.bind(target, _Var("table", writable=True), new_value=False)
        if self.ch.chance(70):  # the assembled rows read after
            self.call_line("k_add", [self.rows(target, self.ch.choice([row, near])), "x0"], "y0")

    # -- TaskIds through parallel loops in the manual scope -----------------------------------------------------

    def stmt_carry_chain(self, depth: int) -> None:
        """``ch = None``, then two loops (the first a ``pl.parallel`` one) whose task waits for
        ``ch`` and sets it, then a task waiting for ``ch`` (its array, after a parallel loop)."""
        chain = self.new_name("ch")
        self.emit(f"{chain} = None")
        for k in range(2):
            kind = "parallel" if k == 0 or self.ch.chance(70) else "for"
            var = self.new_name("i")
            loop = self.plain_loop(var, self.ch.integer(1, 2), kind == "parallel")

            def body():
                target = self.ch.choice(self.tiles(writable=True))
                site = self.call_line(self.ch.choice(["k_copy", "k_acc"]), [self.ch.choice(self.tiles())], target,
                                      extra=f"{chain}, ")
                self.emit(f"{chain} = tid_{site}")

            self.fixed_block(kind, loop.header(), body, loop)
        self.call_line("k_copy", ["x1"], self.fresh_tile(), extra=f"{chain}, ")

    def stmt_phases(self, depth: int) -> None:
        prev, phase, branch, step = (self.new_name(p) for p in ("prev", "ph", "b", "k"))
        c, d, e, f = (self.new_name(p) for p in ("c", "d", "e", "f"))
        self.emit(f"{prev} = None")
        phases, branches, steps = self.ch.integer(1, 2), self.ch.integer(1, 3), self.ch.choice([1, 2, "n"] if self.on("manual_n_loops") else [1, 2])

        def step_body():
            target = self.rows("big", 8 * self.ch.integer(0, 3)) if self.ch.chance(50) else self.fresh_tile()
            site = self.call_line(self.ch.choice(["k_copy", "k_acc"]), ["x0"], target, extra=f"{d}, ")
            self.emit(f"{e} = pl.yield_(tid_{site})")

        def branch_body():
            self.fixed_block("for", f"for {step}, ({d},) in pl.range({steps}, init_values=({c},)):", step_body,
                             self.plain_loop(step, steps))
            self.emit(f"{f} = pl.yield_({e})")

        def phase_body():
            self.fixed_block("parallel", f"for {branch}, ({c},) in pl.parallel({branches}, init_values=({prev},)):",
                             branch_body, self.plain_loop(branch, branches, True))
            self.emit(f"{prev} = {f}")

        self.fixed_block("for", f"for {phase} in pl.range({phases}):", phase_body, self.plain_loop(phase, phases))
        self.call_line("k_copy", ["x1"], self.fresh_tile(), extra=f"{prev}, ")
