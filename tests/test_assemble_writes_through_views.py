"""Writes of an assembled source through any view of its buffer (``fuse_create_assemble_to_slice``,
docs/semantics.md: the uses after an assemble are every live use of a name whose storage may be
in the source's buffer, and they are walked name by name). Placed, the source is the target's
rows: a write of its bytes after the assemble, through a view made before it or after it, in a
branch, a view of a view, or a name a loop carry or an ``if`` swapped, lands in the target, where
the copy would not; with the target's rows read after it (a returned target, an ``InOut``
parameter the caller reads) the program is refused. Branch assemble55 compiled tools/attack
rebinds seed 5591's r55910001074 (tests/test_assemble_source_written_through_an_earlier_view.py)
and the view-of-a-view and unreturned-target variants below: the branch's ``Yield`` counted a
dead yielded value of the source as the one use after the assemble, the write was never walked.
A read through such a view sees the copy and compiles, checked in both runtime models by the
attack tester (its value checks: every read and the parameters' final contents)."""

from __future__ import annotations

import pytest

from nanopass.errors import UserError
from nanopass.tools.attack import rebinds as R
from nanopass.tools.attack import runner
from nanopass.tools.properties import compile_text

HEAD = '''import nanopass.dsl as pl


@pl.program
class Views:
    @pl.function(type=pl.FunctionType.AIV)
    def wrB(self, p0: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.AIV)
    def upB(self, p0: pl.InOut[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.AIV)
    def upD(self, p0: pl.InOut[pl.Tensor[[2, 4], pl.FP32]]) -> pl.Tensor[[2, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.AIV)
    def upE(self, p0: pl.InOut[pl.Tensor[[1, 4], pl.FP32]]) -> pl.Tensor[[1, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]],
        b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]],
        c: pl.Scalar[pl.INT64],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        u = pl.create_tensor([4, 4], dtype=pl.FP32)
        t = self.wrB(t)
'''
SWAP = """        if c > 0:
            a = pl.assemble(a, t, [4, 0])
        else:
            r1 = t
            t = u
            u = r1
"""
LOOP_SWAP = """        for i in pl.range(n):
            r1 = t
            t = u
            u = r1
"""

# body -> why it is refused: each writes bytes of the placed source after its assemble while
# the target's rows are read after it
WRITES = {
    # a view of a view made before an if that assembles in one branch and swaps in the other
    "a_view_of_a_view_made_before_a_swapping_if": """        v = pl.tensor.slice(t, [2, 4], [2, 0])
        w = pl.tensor.slice(v, [1, 4], [1, 0])
""" + SWAP + """        w = self.upE(w)
        return a
""",
    # the same with the view, the target not returned: the caller reads the InOut parameter
    "a_view_made_before_a_swapping_if_the_target_an_unreturned_parameter": """        v = pl.tensor.slice(t, [2, 4], [2, 0])
""" + SWAP + """        v = self.upD(v)
        return b
""",
    # a view made before an if without else
    "a_view_made_before_an_if": """        v = pl.tensor.slice(t, [2, 4], [2, 0])
        if c > 0:
            a = pl.assemble(a, t, [4, 0])
        v = self.upD(v)
        return a
""",
    # a view of a view made after the assemble
    "a_view_of_a_view_made_after_the_assemble": """        a = pl.assemble(a, t, [4, 0])
        v = pl.tensor.slice(t, [2, 4], [2, 0])
        w = pl.tensor.slice(v, [1, 4], [1, 0])
        w = self.upE(w)
        return a
""",
    # a view made before a loop that assembles, written after the loop
    "a_view_made_before_a_loop_written_after_it": """        v = pl.tensor.slice(t, [2, 4], [2, 0])
        for i in pl.range(2):
            a = pl.assemble(a, t, [4, 0])
        v = self.upD(v)
        return a
""",
    # ... written in the loop, after the assemble (the next iteration's assemble comes after it)
    "a_view_made_before_a_loop_written_in_it": """        v = pl.tensor.slice(t, [2, 4], [2, 0])
        for i in pl.range(n):
            a = pl.assemble(a, t, [4, 0])
            v = self.upD(v)
        return a
""",
    # a swap in a loop carry after the assemble, then a write through the view made before
    "a_view_made_before_a_loop_swapping_the_source": """        v = pl.tensor.slice(t, [2, 4], [2, 0])
        a = pl.assemble(a, t, [4, 0])
""" + LOOP_SWAP + """        v = self.upD(v)
        return a
""",
    # ... a write through the carry that is the source after an even number of swaps
    "a_carry_swapped_in_a_loop_written_after_it": """        a = pl.assemble(a, t, [4, 0])
""" + LOOP_SWAP + """        u = self.upB(u)
        return a
""",
    # ... written in the loop
    "a_carry_swapped_in_a_loop_written_in_it": """        a = pl.assemble(a, t, [4, 0])
        for i in pl.range(n):
            r1 = t
            t = u
            u = r1
            u = self.upB(u)
        return a
""",
    # a view made in a branch (an if result that is a view of the source or of another buffer)
    "a_view_made_in_a_branch": """        if c > 0:
            w = pl.tensor.slice(t, [2, 4], [2, 0])
        else:
            w = pl.tensor.slice(u, [2, 4], [0, 0])
        a = pl.assemble(a, t, [4, 0])
        w = self.upD(w)
        return a
""",
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_write_through_a_view_of_the_placed_source_is_refused(name):
    with pytest.raises(UserError, match="'t' is used after it was assembled into 'a'"):
        compile_text(HEAD + WRITES[name])


def atom(*a) -> int:
    return R.ATOMS.index(a)


def test_a_read_through_a_view_made_before_a_swapping_if_compiles_and_checks():
    # the rebinds grammar's r55910001074 with the write through the view made a read: the read
    # sees t's rows 2..3 as the copy holds them, c = 0 and 1
    prog = R.build((("ifelse", ("atom",)), "atom"), (atom("as", "t"), atom("rv")), "none")
    assert "else:\n            r1 = t\n            t = u\n            u = r1\n" in prog.source
    rep = prog.check()
    assert rep.refusal is None and rep.classes() == set(), runner.describe(rep)
    assert rep.runs == 2


def test_the_write_through_a_view_made_before_a_swapping_if_is_a_right_refusal():
    # r55910001074 itself: the tester finds no correct compilation, the refusal names it
    prog = R.build((("ifelse", ("atom",)), "atom"), (atom("as", "t"), atom("uv")), "none")
    rep = prog.check()
    assert rep.refusal is not None and rep.refusal_check() == "name", runner.describe(rep)
    assert rep.classes() == set()
