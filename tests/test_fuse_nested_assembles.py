"""Nested assembles (``fuse_create_assemble_to_slice``): a tensor made by assembling a source into
it, then itself assembled into another. Placed, the inner source is a view of the middle tensor,
which is a view of the outer target. The check of the middle tensor's uses after the outer
assemble counts the uses of the program as analysed: the slice the inner source's create became
reads the middle tensor, but stands for the create, which read nothing (it once counted one use
too many, and the program was refused: "'t' is used after it was assembled into 'big'"). A use of
the inner source after the outer assemble is one of the middle tensor's rows: a write of it there
would change the outer target's rows, which the copy does not, and is refused.

Each program that compiles is checked on its values (``tools/properties.check_text``: every
stage interpreted, no hazard, every read observing the write it observes in the program as
written, where each assemble is the copy it means)."""

from __future__ import annotations

import pytest

from nanopass.errors import UserError
from nanopass.passes.util import iter_stmts
from nanopass.pipeline import PipelineError
from nanopass.tools.properties import Findings, check_text, compile_text

HEAD = """import nanopass.dsl as pl


@pl.program
class Nested:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def bump(self, a: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        u: pl.Tile[[16, 16], pl.FP32] = pl.load(acc, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.add(t, u), [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        big: pl.InOut[pl.Tensor[[64, 16], pl.FP32]],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
"""

# the program: the source p assembled into t, t into big
INNER = """        t = pl.create_tensor([32, 16], dtype=pl.FP32)
        p = pl.create_tensor([16, 16], dtype=pl.FP32)
        p = self.step(x, p)
        t = pl.assemble(t, p, [0, 0])
        big = pl.assemble(big, t, [0, 0])
"""

PLACEABLE = {
    # nothing uses the middle tensor after the outer assemble
    "nested": INNER + """        return big
""",
    # the middle tensor made of two sources, the second written from the first
    "two_sources": """        t = pl.create_tensor([32, 16], dtype=pl.FP32)
        p = pl.create_tensor([16, 16], dtype=pl.FP32)
        p = self.step(x, p)
        t = pl.assemble(t, p, [0, 0])
        q = pl.create_tensor([16, 16], dtype=pl.FP32)
        q = self.step(p, q)
        t = pl.assemble(t, q, [16, 0])
        big = pl.assemble(big, t, [16, 0])
        return big
""",
    # three levels
    "three_levels": """        s = pl.create_tensor([48, 16], dtype=pl.FP32)
        t = pl.create_tensor([32, 16], dtype=pl.FP32)
        p = pl.create_tensor([16, 16], dtype=pl.FP32)
        p = self.step(x, p)
        t = pl.assemble(t, p, [16, 0])
        s = pl.assemble(s, t, [16, 0])
        big = pl.assemble(big, s, [16, 0])
        return big
""",
    # the outer target created after the middle one (its create moved up before it), read after
    "outer_created_later": """        t = pl.create_tensor([32, 16], dtype=pl.FP32)
        p = pl.create_tensor([16, 16], dtype=pl.FP32)
        p = self.step(x, p)
        t = pl.assemble(t, p, [16, 0])
        g = pl.create_tensor([64, 16], dtype=pl.FP32)
        g = pl.assemble(g, t, [32, 0])
        r = pl.tensor.slice(g, [16, 16], [48, 0])
        y = self.bump(r, y)
        return big
""",
    # the middle tensor read after the outer assemble, nothing written before the read
    "middle_read": INNER + """        r = pl.tensor.slice(t, [16, 16], [0, 0])
        y = self.bump(r, y)
        return big
""",
    # the inner source read after the outer assemble: the rows of big hold it
    "inner_read": INNER + """        y = self.bump(p, y)
        z = pl.tensor.slice(big, [16, 16], [0, 0])
        y = self.bump(z, y)
        return big
""",
}

REFUSED = {
    # the middle tensor's rows in big written before a read of the middle tensor
    "middle_read_after_write": INNER + """        w = pl.tensor.slice(big, [16, 16], [0, 0])
        w = self.bump(x, w)
        r = pl.tensor.slice(t, [16, 16], [0, 0])
        y = self.bump(r, y)
        return big
""",
    # the inner source written again after the outer assemble, big read after it: the copy in big
    # keeps the value before the write
    "inner_written": INNER + """        p = self.bump(x, p)
        y = self.bump(p, y)
        z = pl.tensor.slice(big, [16, 16], [0, 0])
        y = self.bump(z, y)
        return big
""",
    # the same with big read only by the caller
    "inner_written_returned": INNER + """        p = self.bump(x, p)
        y = self.bump(p, y)
        return big
""",
}


@pytest.mark.parametrize("name", sorted(PLACEABLE))
def test_nested_assembles_compile_and_every_read_sees_the_copy(name):
    findings = Findings()
    failures = check_text(HEAD + PLACEABLE[name], [{}], findings)
    assert failures == [], "\n".join(f"{f.kind}: {f.message}" for f in failures)
    assert findings.refused_by_design == 0 and findings.programs == 1


def test_the_nested_program_makes_views_of_views():
    stages, _ = compile_text(HEAD + PLACEABLE["three_levels"])
    lets = [s for s in iter_stmts(stages["fuse_create_assemble_to_slice"].tree.orch.body) if s._production == "Let"]
    views = {s.var.name.split("__")[0]: s.value.tensor.name.split("__")[0] for s in lets
             if s.value._production == "SliceTensor"}
    assert views == {"s": "big", "t": "s", "p": "t"}  # each source a view of the target it was assembled into
    assert not [s for s in lets if s.value._production in ("AssembleTensor", "CreateTensor")]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_use_after_the_outer_assemble_that_would_see_other_bytes_is_refused(name):
    with pytest.raises((UserError, PipelineError)) as raised:
        compile_text(HEAD + REFUSED[name])
    error = raised.value.error if isinstance(raised.value, PipelineError) else raised.value
    assert "'t' is used after it was assembled into 'big'" in str(error)
    assert error.span is not None and error.span.line == HEAD.count("\n") + 5  # the outer assemble
