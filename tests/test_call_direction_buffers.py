"""``derive_call_directions``: the buffers an argument may be are ``storage_map``'s, the walk the
passes around it ask of the same function. The pass had a table of its own before (``buffer_roots``
with a loop carry named by its init's root, and a reachability over carry and if-result edges):
a carry made every name of its init's root "hold" what the loop yields, so a write of that
buffer before the loop ordered after a write of the yielded one (``InOut``), which it cannot
touch. A chain of ``if``s that swap two buffers (the case the reachability was made for: a
quadratic fixpoint before it) gets the directions the whole-function sweeps give."""

from __future__ import annotations

from test_analysis_shortcuts import ReferenceCallDirections
from test_place_by_branch import swaps

from conftest import pass_runs
from nanopass.languages.terms import ArgDir
from nanopass.passes.util import iter_stmts

CARRY_FROM_A_WRITTEN_BUFFER = """\
import nanopass.dsl as pl


@pl.program
class Carry:
    @pl.function(type=pl.FunctionType.AIV)
    def kout(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = self.kout(x, b)
        a = self.kout(x, a)
        for i in pl.range(n):
            a = b
        out = self.kout(a, out)
        return out
"""


def directions(tree) -> list[tuple]:
    return [tuple(a.dir for a in s.args) for s in iter_stmts(tree.orch.body) if s._production == "Task"]


def derived(tmp_path, name: str, source: str) -> tuple:
    """(input, output) of derive_call_directions on ``source``."""
    (path := tmp_path / name).write_text(source)
    ((given, output),) = pass_runs(path, "derive_call_directions", refusals=False)
    return given, output


def test_a_write_before_a_loop_that_carries_the_buffer_orders_after_no_write_of_the_yielded_one(tmp_path):
    given, output = derived(tmp_path, "carry.py", CARRY_FROM_A_WRITTEN_BUFFER)
    # b's and a's first writers (a is b only after the loop), then out's first
    assert directions(output) == [(ArgDir.Input, ArgDir.OutputExisting)] * 3
    assert ReferenceCallDirections().run(given) == output


def test_a_chain_of_swaps_gets_the_directions_of_the_whole_function_sweeps(tmp_path):
    given, output = derived(tmp_path, "swaps.py", swaps(12))
    assert ReferenceCallDirections().run(given) == output
    assert ArgDir.InOut in {d for dirs in directions(output) for d in dirs}  # (the swapped buffers are written again)
