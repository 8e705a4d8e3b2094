# class: refusal
# printed-scalars grammar, after the pipeline (printed_scalars.py), random seeds 3, 5, 7, 9, shrunk: `y__ssa_v1: pl.Tensor[[M, N], pl.FP32] = self.k0(y__ssa_v0, s__ssa_v0, ...)` with the kernel declared over `pl.Tensor[[P, Q], pl.FP32]`, then `return y__ssa_v1`: "'orch' returns a pl.Tensor[[P, Q], pl.FP32] where its return type declares pl.Tensor[[M, N], pl.FP32]". The result keeps the callee's symbols where the DSL form and the printed form as written bind P, Q to the argument's M, N (both compile); `return y__ssa_v0`, the same buffer, compiles too
#
# found on land42 (d191156), fixed in session 23:
# nothing (fixed)
# pypto.program: Attack
import pypto.language as pl

M = pl.dynamic("M")
N = pl.dynamic("N")
P = pl.dynamic("P")
Q = pl.dynamic("Q")

@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def k0(t__ssa_v0: pl.InOut[pl.Tensor[[P, Q], pl.FP32]], s0__ssa_v0: pl.Scalar[pl.INT64]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator, auto_scope=False)
    def orch(self, x__ssa_v0: pl.Tensor[[M, 4], pl.FP32], y__ssa_v0: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri__ssa_v0: pl.InOut[pl.Tensor[[16], pl.INT64, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 128)]], rf__ssa_v0: pl.InOut[pl.Tensor[[16], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 128)]], s__ssa_v0: pl.Scalar[pl.INT64]) -> pl.Tensor[[M, N], pl.FP32]:
        with pl.scope():
            y__ssa_v1: pl.Tensor[[M, N], pl.FP32] = self.k0(y__ssa_v0, s__ssa_v0, attrs={"arg_directions": [pl.adir.inout, pl.adir.scalar]})
            return y__ssa_v1
