"""Data (INT64) arrays that outlive the block that makes them: an array made in a ``with`` block
or an ``if`` branch and read after it, and an array carried through a loop by value
(docs/semantics.md, "Gaps the checker finds in the compiler").

Each program is checked for ``n`` of 0, 1 and 2 (reference, emission and, for the last, the
compiled C++ on the recording runtime must agree), and the value the task receives is the one
the program computes.
"""

from __future__ import annotations

import pytest

from conftest import load_program

from nanopass.tools.check import check_program

KERNELS = '''
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def take(self, s: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''


def taken(tmp_path, body: str, values=(0, 1, 2)) -> dict[int, list[int]]:
    """n -> the scalars the ``take`` tasks receive, in order, once every trace agrees."""
    lines = body.strip("\n").splitlines()
    path = tmp_path / "program.py"
    path.write_text(KERNELS + "".join(" " * 8 + line + "\n" for line in lines) + "        return y\n")
    program = load_program(path)
    out = {}
    for k, n in enumerate(values):
        result = check_program(program, {"n": str(n)}, gxx=k == len(values) - 1)
        assert result.failing == []
        out[n] = [t.scalars[0] for t in result.emission.tasks()]
    return out


# (body, n -> the scalars the tasks receive)
ESCAPING = {
    # an array made in an if branch of a with block (the Declare before the block was an internal
    # error: "cannot declare 'a' ahead of its value")
    "branch of a with block": ('''
with pl.manual_scope():
    if n > 0:
        a = pl.array.create(4, pl.INT64)
        a[0] = 3
    else:
        a = pl.array.create(4, pl.INT64)
v = a[0]
y = self.take(v, y)
''', {0: [0], 1: [3], 2: [3]}),
    # an array if result outside any block (declared as a scalar: g++ refused the subscripts)
    "if result": ('''
if n > 1:
    a = pl.array.create(4, pl.INT64)
    a[2] = n
else:
    a = pl.array.create(4, pl.INT64)
    a[2] = 7
v = a[2]
y = self.take(v, y)
''', {0: [7], 1: [7], 2: [2]}),
    # a carry yielding a fresh array each iteration ("rebinding a data array carry is not supported")
    "carry of a fresh array": ('''
a = pl.array.create(4, pl.INT64)
a[0] = 5
for i, (c,) in pl.range(n, init_values=(a,)):
    t = c[0]
    e = pl.array.create(4, pl.INT64)
    e[0] = t + i + 1
    d = pl.yield_(e)
v = d[0]
y = self.take(v, y)
u = a[0]
y = self.take(u, y)
''', {0: [5, 5], 1: [6, 5], 2: [8, 5]}),
    # two array carries swapped each iteration: each copy reads the value before the other's
    "swap of two carries": ('''
a = pl.array.create(4, pl.INT64)
b = pl.array.create(4, pl.INT64)
b[0] = 7
for i, (c, e) in pl.range(n, init_values=(a, b)):
    t = c[0]
    c[0] = t + 1
    d, f = pl.yield_(e, c)
v = d[0]
y = self.take(v, y)
w = f[0]
y = self.take(w, y)
''', {0: [0, 7], 1: [7, 1], 2: [1, 8]}),
    # the same carry in a with block, its result read after the block
    "carry in a with block": ('''
a = pl.array.create(4, pl.INT64)
with pl.manual_scope():
    for i, (c,) in pl.range(n, init_values=(a,)):
        e = pl.array.create(4, pl.INT64)
        e[0] = i + 10
        d = pl.yield_(e)
v = d[0]
y = self.take(v, y)
''', {0: [0], 1: [10], 2: [11]}),
}


@pytest.mark.parametrize("name", sorted(ESCAPING))
def test_a_data_array_read_after_the_block_that_makes_it(tmp_path, name):
    body, expected = ESCAPING[name]
    assert taken(tmp_path, body) == expected
