"""storage_map's loop path (written out: flow, body, flow again; a For's trip count and the last
iteration's yields inline) gives the reference's places (``reference_storage_map``: sweeps to a
fixpoint, a loop of constant bounds unrolled) for loops of constant bounds that swap or rotate
their carries (the result is the last iteration's buffer), run once, run an unknown number of
times, or carry no tensor; on the bench shapes too."""

from __future__ import annotations

import pytest

from conftest import SHAPES, bench_file, pass_input
from test_analysis_shortcuts import reference_storage_map

from nanopass.passes.hazards import FULL, _storage_map
from nanopass.passes.kernels import kernel_table

HEAD = '''\
import nanopass.dsl as pl


@pl.program
class Loops:
    @pl.function(type=pl.FunctionType.AIV)
    def wr(self, src: pl.Tensor[[4, 4], pl.FP32], dst: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[4, 4], pl.FP32], o: pl.Out[pl.Tensor[[4, 4], pl.FP32]],
             p: pl.Out[pl.Tensor[[4, 4], pl.FP32]], q: pl.Out[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64]):
'''

BODIES = {
    # (after the loop: the buffers o, p and q name)
    "swap twice": ("        for i, (o, p) in pl.range(2, init_values=(o, p)):\n            o, p = pl.yield_(p, o)\n",
                   ("o", "p", "q")),
    "swap three times": ("        for i, (o, p) in pl.range(3, init_values=(o, p)):\n            o, p = pl.yield_(p, o)\n",
                         ("p", "o", "q")),
    "rotate four times": ("        for i, (o, p, q) in pl.range(4, init_values=(o, p, q)):\n            o, p, q = pl.yield_(p, q, o)\n",
                          ("p", "q", "o")),
    "swap once": ("        for i, (o, p) in pl.range(1, init_values=(o, p)):\n            o, p = pl.yield_(p, o)\n",
                  ("p", "o", "q")),
    "swap n times": ("        for i, (o, p) in pl.range(n, init_values=(o, p)):\n            o, p = pl.yield_(p, o)\n",
                     ("op", "op", "q")),
    "write in a loop": ("        for i, (o,) in pl.range(2, init_values=(o,)):\n            o = self.wr(x, o)\n            o = pl.yield_(o)\n",
                        ("o", "p", "q")),
}
TAIL = "        o = self.wr(x, o)\n        p = self.wr(x, p)\n        q = self.wr(x, q)\n"


@pytest.mark.parametrize("name", sorted(BODIES))
def test_a_loop_s_results_hold_the_buffers_of_its_last_iteration(tmp_path, name):
    body, buffers = BODIES[name]
    path = tmp_path / "loops.py"
    path.write_text(HEAD + body + TAIL)
    tree = pass_input(path, "derive_call_directions")
    kernels = kernel_table(tree)
    store = _storage_map(tree.orch, kernels)
    assert store == reference_storage_map(tree.orch, kernels)
    # the last task writes of o, p and q: the buffers each name then holds
    tasks = [s for s in tree.orch.body if s._production == "Task"][-3:]
    held = ["".join(sorted(root for root, _ in store[task.args[1].value.name])) for task in tasks]
    assert tuple(held) == buffers
    assert all(region is FULL for task in tasks for _, region in store[task.args[1].value.name])


@pytest.mark.parametrize("shape", SHAPES)
def test_the_shapes_places_are_the_reference_s(tmp_path, shape):
    tree = pass_input(bench_file(tmp_path, shape, 24), "derive_call_directions")
    kernels = kernel_table(tree)
    assert _storage_map(tree.orch, kernels) == reference_storage_map(tree.orch, kernels)
