"""``fuse_create_assemble_to_slice`` reuses what one of its analyses already knows: the function's
accesses are the counts of its top block's index (``_BlockIndex``, each statement's accesses);
the placements ``dead_assembles`` makes are the rewrite's. Each table is checked here against
the walk it replaces, on every bench shape (loops, carries, ifs, ``with`` blocks, assembles) and
every example program."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, pass_input, pass_inputs, sample_paths
from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes.assembled_rows import Placement, dead_assembles, stmt_reads
from nanopass.passes.kernels import kernel_table
from nanopass.passes.remove_dead_values import PURE
from nanopass.passes.util import BODY_FIELDS, iter_stmts, var_reads
from nanopass.rewrite import PassContext
from nanopass.tools.bench import SHAPES

FUSE = "fuse_create_assemble_to_slice"

# a program of one kernel, ``step``, that writes its Out argument; the orchestration follows
WITH_STEP = """
import nanopass.dsl as pl


@pl.program
class {name}:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst
"""

# dead pure lets (a view, a scalar, an element read nothing observes): their own reads are not
# ``own_live_uses``' (empty) but are ``_accesses``'
DEAD_VALUES = WITH_STEP.format(name="Dead") + """
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], big: pl.InOut[pl.Tensor[[32, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[32, 16], pl.FP32]:
        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        top = pl.tensor.slice(t, [8, 16], [0, 0])
        k = n + 1
        e: pl.Scalar[pl.FP32] = pl.tensor.read(x, [0, k])
        big = pl.assemble(big, t, [16, 0])
        return big
"""


def inputs(tmp_path) -> list:
    """The pass's input for each program of the examples, ``DEAD_VALUES`` and the bench shapes that
    compiles that far."""
    dead = tmp_path / "dead_values.py"
    dead.write_text(DEAD_VALUES)
    paths = [*sorted(EXAMPLES.glob("*.py")), dead, *sample_paths(tmp_path, SHAPES, 12)]
    return [program for path in paths for program in pass_inputs(path, FUSE)]


def inputs_and_overwritten(tmp_path) -> list:
    """``inputs`` and the pass's input of ``OVERWRITTEN`` (two of its assembles dead: their created
    target is never read)."""
    path = tmp_path / "overwritten.py"
    path.write_text(OVERWRITTEN)
    return [*inputs(tmp_path), pass_input(path, FUSE)]


def analysed(program):
    pass_ = fuse.FuseCreateAssembleToSlice(PassContext())
    pass_.kernels = kernel_table(program)
    pass_.analyse(program.orch)
    return pass_


def blocks(body) -> list:
    out, pending = [], [body]
    while pending:
        block = pending.pop()
        out.append(block)
        for stmt in block:
            pending += [getattr(stmt, f) for f in BODY_FIELDS.get(stmt._production, ())]
    return out


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    found = inputs(tmp_path_factory.mktemp("fuse_tables"))
    assert len(found) > len(SHAPES)
    return found


def test_a_block_index_counts_each_statements_accesses_and_the_functions_are_its_top_blocks(programs):
    walked_yields = dead_lets = 0
    for program in programs:
        pass_ = analysed(program)
        for block in blocks(program.orch.body):
            index = fuse._BlockIndex(block, pass_.live)
            for j, stmt in enumerate(block):
                found = {n: at.count(j) for n, at in index.positions.items() if j in at}
                assert found == fuse._accesses([stmt]), stmt
            walked_yields += sum(s._production == "Yield" and bool(s.values) for s in block)
            dead_lets += sum(s._production == "Let" and s.value._production in PURE and s.var.name not in pass_.live
                             and bool(fuse._accesses([s]))
                             for s in block)
        assert pass_.function_accesses() == fuse._accesses(program.orch.body)
    assert walked_yields > 0 and dead_lets > 0  # (blocks ending in a Yield, dead lets that read names)


def test_the_placements_dead_assembles_makes_are_the_rewrites(programs):
    checked = 0
    for program in programs:
        pass_ = analysed(program)
        fills: dict = {}
        dead_assembles(program.orch.body, pass_.kernels, pass_.roots, pass_.places, pass_.live, fills)
        creates = {s.var.name: s.value for s in iter_stmts(program.orch.body)
                   if s._production == "Let" and s.value._production == "CreateTensor"}
        for stmt in iter_stmts(program.orch.body):
            if id(stmt) not in fills:
                continue
            value = stmt.value
            create = creates[pass_.roots.get(value.source.name, value.source.name)]
            assert fills[id(stmt)] == Placement.of(pass_.places.get(value.target.name), create.shape, value.offset)
            checked += 1
    assert checked > 0


# one assemble into a created buffer nothing reads (dead: the body's reads decide), then two into
# the same rows of a parameter, the first overwritten before anything reads them (dead: the
# block's reads decide), then one of other rows that a read keeps
OVERWRITTEN = WITH_STEP.format(name="Overwritten") + """
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], big: pl.InOut[pl.Tensor[[48, 16], pl.FP32]]) -> pl.Tensor[[48, 16], pl.FP32]:
        scratch = pl.create_tensor([48, 16], dtype=pl.FP32)
        s = pl.create_tensor([16, 16], dtype=pl.FP32)
        s = self.step(x, s)
        scratch = pl.assemble(scratch, s, [0, 0])
        a = pl.create_tensor([16, 16], dtype=pl.FP32)
        a = self.step(x, a)
        big = pl.assemble(big, a, [0, 0])
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = self.step(x, b)
        big = pl.assemble(big, b, [0, 0])
        c = pl.create_tensor([16, 16], dtype=pl.FP32)
        c = self.step(x, c)
        big = pl.assemble(big, c, [16, 0])
        top = pl.tensor.slice(big, [16, 16], [16, 0])
        d = pl.create_tensor([16, 16], dtype=pl.FP32)
        d = self.step(top, d)
        big = pl.assemble(big, d, [32, 0])
        return big
"""


@pytest.fixture
def overwritten(tmp_path):
    path = tmp_path / "overwritten.py"
    path.write_text(OVERWRITTEN)
    return pass_input(path, FUSE)


@pytest.fixture
def read_names_walked(monkeypatch) -> list[int]:
    """How often ``assembled_rows.read_names`` walks a statement (reset it to count anew)."""
    from nanopass.passes import assembled_rows

    walked = [0]
    read_names = assembled_rows.read_names

    def counting(*args):
        walked[0] += 1
        return read_names(*args)

    monkeypatch.setattr(assembled_rows, "read_names", counting)
    return walked


def test_dead_assembles_finds_what_statements_read_only_where_a_read_decides(programs, overwritten, read_names_walked,
                                                                                monkeypatch):
    # Forced off (every block's reads indexed when its fills are, and so every statement's reads
    # found), the same assembles are dead; and where no target is only created buffers and no
    # fill covers another (the assembles shape), no statement's reads are found at all.
    from nanopass.passes import assembled_rows

    class Eager(assembled_rows.LaterFills):
        def __init__(self, fills, reads):
            super().__init__(fills, reads)
            self.index_reads()

    found = shortcut = 0
    for program in [*programs, overwritten]:
        pass_ = analysed(program)
        args = (program.orch.body, pass_.kernels, pass_.roots, pass_.places, pass_.live)
        read_names_walked[0] = 0
        lazy = dead_assembles(*args)
        if program.name == "Bench" and any(stmt.var.name.startswith("big") for stmt in iter_stmts(program.orch.body)
                                           if stmt._production == "Let" and stmt.value._production == "AssembleTensor"):
            assert read_names_walked[0] == 0, program.name  # (the assembles and choices shapes: their target is a parameter)
            shortcut += 1
        with monkeypatch.context() as forced:
            forced.setattr(assembled_rows, "LaterFills", Eager)
            assert dead_assembles(*args) == lazy
        found += len(lazy)
        if program is overwritten:
            assert len(lazy) == 2  # (the created buffer's assemble and the first of the parameter's two)
    assert shortcut == 2


def test_a_block_index_mentions_each_name_a_statement_holds(programs, overwritten):
    # (what a statement mentions: all its Vars, its bodies' too; one without bodies, its reads)
    for program in [*programs, overwritten]:
        pass_ = analysed(program)
        for block in blocks(program.orch.body):
            index = fuse._BlockIndex(block, pass_.live)
            for j, stmt in enumerate(block):
                walked_again = var_reads([stmt]) if stmt._production in BODY_FIELDS else stmt_reads(stmt)
                found = {n for table in (index.positions, index.mentioned) for n, at in table.items() if j in at}
                assert found == walked_again.keys(), stmt
