# class: g++ rejects
# scalars grammar (--seed 43, e.g. scalars430000199 and 234, shrunk by hand): a scalar PARAMETER keeps its name in the C++ (a variable is renamed): `union: pl.Scalar[pl.INT32]` is printed `union { uint64_t u64; int32_t val; } union_conv; ... int32_t union = ...`. The same for new, true (keywords), orch_args (shadows the entry's parameter, then `orch_args.tensor(0)` fails), Arg and Tensor (the API's types: a later `Tensor v = ...` fails) and 53's macros
#
# found on land41 (2ba6cdd), fixed in session 22:
# nothing (fixed)
import nanopass.dsl as pl

M = pl.dynamic("M")
N = pl.dynamic("N")
P = pl.dynamic("P")
Q = pl.dynamic("Q")


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]], s0: pl.Scalar[pl.INT32]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], union: pl.Scalar[pl.INT32]) -> pl.Tensor[[M, N], pl.FP32]:
        y = self.k0(y, union + 1)
        return y
