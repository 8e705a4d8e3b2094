# class: refusal
# printed grammar, random seed 42 (printed420000110, as written), shrunk; the DSL form is refused alike: a host read of b[0, 1] whose value nothing uses, between the create of t7 and its assemble into rows 0..3 of b. The placement rule (docs/semantics.md) refuses any read of those rows there, a dead one too, though a dead read observes nothing (the tester's semantics: a correct compilation exists; a live read is a right refusal, tied by name)
#
# found on land42 (d191156), fixed in session 24:
# nothing (fixed)
# pypto.program: Attack
import pypto.language as pl

@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t7: pl.Tensor[[4, 4], pl.FP32] = pl.tensor.create([4, 4], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        v8: pl.Scalar[pl.FP32] = pl.tensor.read(b, [0, 1])
        b: pl.Tensor[[8, 4], pl.FP32] = pl.tensor.assemble(b, t7, [0, 0])
        return a
