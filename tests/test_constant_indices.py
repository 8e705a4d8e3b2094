"""Constant indices a program provably gets wrong (reference-surface.md section 2: "a window provably
outside the source is a user error"): a slice's or an assemble's offset below 0 or not below 2**32
(the runtime's offsets are uint32_t; ``clamp=True`` lets a window run past the end, not start before
it or past what uint32_t holds), an assemble's window past its target's end, a host element index
outside its axis (or, on a dynamic axis, below 0 or not below 2**32), an array index outside the
array. Each is refused at the index with the axis, the value and the bound; a symbolic index is
the runtime's business, and so is a statement a constant condition skips (a pl.unroll copy's guard)."""

from __future__ import annotations

import textwrap

import pytest

from conftest import load_program

import nanopass
from nanopass.errors import UserError
from nanopass.languages import surface as S
from nanopass.languages.terms import BinOp, CmpOp, DType, UnOp

HEADER = '''\
import nanopass.dsl as pl

M = pl.dynamic("M")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[8, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], d: pl.InOut[pl.Tensor[[M, 16], pl.FP32]],
            v: pl.InOut[pl.Tensor[[16], pl.INT32]],
            n: pl.Scalar[pl.INT64], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        a = pl.array.create(4, pl.INT32)
'''
LINE = 18  # the line of the first statement after HEADER (HEADER has 17 lines)
COL = 9  # its column (8 blanks)


def _path(tmp_path, body: str):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8) + "        return out\n")
    return path


def _error(tmp_path, body: str) -> str:
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(_path(tmp_path, body)))
    span = info.value.span
    return f"{span.line}:{span.col + 1}: {info.value.message}"


def _compiles(tmp_path, body: str) -> str:
    return nanopass.generate_orchestration(load_program(_path(tmp_path, body))).code


# (statement, the column of the bad index counted by hand from the statement's start, the message)
REFUSED = {
    "slice below 0": ("w = pl.slice(x, [8, 16], [-4, 0])\n", 27,
                      "offset -4 of axis 0 is below 0: the window would start before the tensor's first element"),
    "slice below 0 with clamp": ("w = pl.slice(x, [8, 16], [0, -1], clamp=True)\n", 30,
                                 "offset -1 of axis 1 is below 0: the window would start before the tensor's first element"),
    "slice offset from constants": ("w = pl.slice(x, [8, 16], [2 - 6, 0])\n", 27, "offset -4 of axis 0 is below 0"),
    "slice offset 2**32 with clamp": ("w = pl.slice(x, [8, 16], [4294967296, 0], clamp=True)\n", 27,
                                      "offset 4294967296 of axis 0 is not below 2**32 (the runtime's offsets are uint32_t)"),
    "slice offset 2**32 on a dynamic axis": ("w = pl.slice(d, [8, 16], [4294967296, 0])\n", 27,
                                             "offset 4294967296 of axis 0 is not below 2**32"),
    "read one past the end": ("s = pl.tensor.read(x, [0, 16])\n", 27, "index 16 of axis 1 is outside the dimension of extent 16"),
    "read of a 1-D tensor, one index": ("s = pl.tensor.read(v, 16)\n", 23, "index 16 of axis 0 is outside the dimension of extent 16"),
    "subscript below 0": ("s = x[-1, 0]\n", 7, "index -1 of axis 0 is outside the dimension of extent 16"),
    "write below 0": ("pl.tensor.write(out, [3, -2], 1.0)\n", 26, "index -2 of axis 1 is outside the dimension of extent 16"),
    "write 2**32 on a dynamic axis": ("pl.tensor.write(d, [4294967296, 0], 1.0)\n", 21,
                                      "index 4294967296 of axis 0 is not below 2**32 (the runtime's indices are uint32_t)"),
    "read below 0 on a dynamic axis": ("s = pl.tensor.read(d, [-1, 0])\n", 24,
                                       "index -1 of axis 0 is below 0: it is before the tensor's first element"),
    "assemble past the end": ("t = pl.create_tensor([8, 16], dtype=pl.FP32)\nout = pl.assemble(out, t, [4, 0])\n", 28,
                              "the source's window [4, 12) of axis 0 is outside the target's dimension of extent 8"),
    "assemble below 0": ("t = pl.create_tensor([8, 16], dtype=pl.FP32)\nout = pl.assemble(out, t, [0, -1])\n", 31,
                         "offset -1 of axis 1 is below 0"),
    "array write past the end": ("a[4] = 1\n", 3, "index 4 is outside an array of 4"),
    "array read below 0": ("s = a[-1]\n", 7, "index -1 is outside an array of 4"),
    "array update past the end": ("a = pl.array.update_element(a, 9, 1)\n", 32, "index 9 is outside an array of 4"),
    "unroll copy whose guard holds": ("for k in pl.unroll(4):\n    if k < 4:\n        a[k + 1] = 1\n", 3,
                                      "index 4 is outside an array of 4"),
}


@pytest.mark.parametrize("body, col, message", REFUSED.values(), ids=REFUSED.keys())
def test_a_constant_index_provably_outside_is_refused_at_it(tmp_path, body, col, message):
    lines = body.count("\n")
    indent = len(body.splitlines()[-1]) - len(body.splitlines()[-1].lstrip())
    where = f"{LINE + lines - 1}:{COL + indent + col - 1}: "
    assert _error(tmp_path, body).startswith(where + message)


ACCEPTED = {
    "clamp past the end": "w = pl.slice(x, [8, 16], [20, 0], clamp=True)\nout = self.copy(w, out)\n",
    "the last element": "s = pl.tensor.read(x, [15, 15])\npl.tensor.write(v, 15, 1)\n",
    "a symbolic index": "s = pl.tensor.read(x, [n, 0])\nw = pl.slice(x, [8, 16], [n - 4, 0])\nout = self.copy(w, out)\n",
    "a large index on a dynamic axis": "s = pl.tensor.read(d, [4294967295, 0])\n",
    "unroll copies a guard skips": ("for k in pl.unroll(4):\n    if k + 1 < 4 and n > 0:\n        a[k + 1] = 1\n"
                                    "        s = pl.tensor.read(x, [k * 5 + 1, 0])\n"
                                    "        w = pl.slice(x, [8, 16], [k * 4, 0])\n"
                                    "    else:\n        a[k] = 2\n"
                                    "    if k == 3:\n        a[k] = 3\n    else:\n        a[k + 1] = 4\n"),
}


@pytest.mark.parametrize("body", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_an_index_not_provably_outside_compiles(tmp_path, body):
    assert "aicpu_orchestration_entry" in _compiles(tmp_path, body)


def test_constant_truth_is_the_value_of_a_constant_condition():
    from nanopass.passes.frontend.ops.operands import constant_truth

    L = S.LANGUAGE
    two, three = L.Int.make(2, DType.INDEX), L.Int.make(3, DType.INDEX)
    assert constant_truth(L.Bool.make(False)) is False
    assert [constant_truth(L.Cmp.make(op, two, three)) for op in (CmpOp.lt, CmpOp.ge, CmpOp.eq, CmpOp.ne)] == [
        True, False, False, True]
    unknown = L.Cmp.make(CmpOp.lt, L.Var.make("n"), three)
    assert constant_truth(unknown) is None
    yes, no = L.Cmp.make(CmpOp.lt, two, three), L.Bool.make(False)
    # and: False decides, True and True is True; or: True decides, False or False is False
    assert [constant_truth(L.Bin.make(BinOp.and_, a, b)) for a, b in ((unknown, no), (yes, yes), (yes, unknown))] == [
        False, True, None]
    assert [constant_truth(L.Bin.make(BinOp.or_, a, b)) for a, b in ((unknown, yes), (no, no), (no, unknown))] == [
        True, False, None]
    assert constant_truth(L.Un.make(UnOp.not_, yes)) is False and constant_truth(L.Un.make(UnOp.not_, unknown)) is None
