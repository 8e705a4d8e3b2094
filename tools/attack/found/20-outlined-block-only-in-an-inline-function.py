# class: refusal
# An outlined block (`with pl.at(...)`) written only in an Inline function, called from a plain
# `@pl.function`: refused with "has no @pl.function(type=pl.FunctionType.Orchestration)".
# reference-surface.md sections 3 and 5: the reference inlines every call first (full pipeline),
# then outlines, and "an Opaque function that contains at least one outlined block is promoted
# to Orchestration"; after inlining, `orch` contains the block. nanopass promotes a plain
# function only when the block is written in its own body: the same program with
# `@pl.function(type=pl.FunctionType.Orchestration)` on `orch` compiles to one task blk1.
#
# found on branch attack4 (land21 + the surface generator): `python -m nanopass.tools.attack
# --surface --seed 1 --seconds 1200 --jobs 1 --out DIR` (8 of the first 280 programs of seeds 1
# and 2), reduced by hand.
# reproduce: nanopass run tools/attack/found/20-outlined-block-only-in-an-inline-function.py
#   -> 19:1: error: program 'Attack' has no @pl.function(type=pl.FunctionType.Orchestration)
# (Fixed: a plain function that holds a block after inlining is promoted; tests/test_outlining.py::
# test_a_plain_function_calling_an_inline_function_that_holds_a_block_is_the_orchestration_function.)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Inline)
    def step(self, x: pl.Tensor[[8, 4], pl.FP32], q: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="blk1"):
            t = pl.load(x, [0, 0], [8, 4])
            q = pl.store(t, [0, 0], q)
        return q

    @pl.function
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        a = self.step(x, a)
        return a
