# class: g++ rejects
# found by hand with the scalars grammar's model (now in its names): a scalar named `errno` is printed `int32_t errno = a + 1;`, and errno is a macro of the included headers. The same for EOF, BUFSIZ, SEEK_SET, FILENAME_MAX, FOPEN_MAX, TMP_MAX, L_tmpnam, P_tmpdir (<stdio.h>), INT32_MAX, UINT64_MAX, SIZE_MAX (<stdint.h>), PTO_DEVICE_FUNC, PTO2_ERROR_NONE (the API header), for a scalar parameter named errno and a pl.dynamic("EOF"); keywords (new, union, true), stdout, NULL, offsetof, LOG_ERROR, PTO2_SCOPE and the C++'s own names are renamed
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
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], a: pl.Scalar[pl.INT32]) -> pl.Tensor[[M, N], pl.FP32]:
        errno = a + 1
        y = self.k0(y, errno)
        return y
