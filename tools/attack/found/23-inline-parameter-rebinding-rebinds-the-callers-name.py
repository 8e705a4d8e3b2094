# class: value (the TESTER's model, not the compiler: kept for whoever aligns tools/attack with the spec)
# tools/attack --surface's semantics runs an Inline function as Python would: rebinding a
# parameter inside it (inl0's swap `o3 = q1; q1 = q0; q0 = o3`) rebinds a local only.
# reference-surface.md section 5 says otherwise: "params are substituted by the actual args (a
# rebound Out param rebinds the caller's variable)", so after the first loop `a` names b's buffer
# and `b` a's, and nanopass follows the spec (task k1's argument 1 observes b's initial value; the
# final values follow). Every mismatch reported below is that difference. Either the tester adopts
# the spec's substitution, or (better for users) the compiler warns when an Inline function
# rebinds a parameter to another tensor. Found by `python -m nanopass.tools.attack --surface
# --seed 9 --seconds 900 --jobs 1 --out DIR` on main 51da541 (program s90000180), not reduced;
# the line numbers below are the original file's (add 23 here).
# (Since: nanopass keeps section 5's meaning and warns at `q1 = q0` (line 48): the call passes `a`,
# which the call's results do not assign; `q0 = o3` moves `b`, which the call assigns, so both
# readings agree there. tests/test_inline_functions.py.)
# n=0 c=0: [value task] task k1 (line 54, #2) argument 1 element 0 observes the initial b[0], the program means the initial a[0]
# n=0 c=0: [value final] parameter b element 0 ends with the write of task k2 (line 56, #3), the program means the initial b[0]
# n=0 c=1: [value final] parameter a element 0 ends with the write of task k2 (line 56, #3), the program means the write of task k3 (line 61, #7)
# n=0 c=1: [value final] parameter b element 0 ends with the write of task k3 (line 61, #7), the program means the initial b[0]
# n=1 c=0: [value task] task k0 (line 43, #4) argument 0 element 0 observes the initial b[0], the program means the initial a[0]
# n=1 c=0: [value final] parameter b element 0 ends with the write of task k2 (line 56, #10), the program means the initial b[0]
# n=1 c=1: [value task] task k0 (line 43, #4) argument 1 element 0 observes the initial b[0], the program means the initial a[0]
# n=1 c=1: [value final] parameter a element 0 ends with the write of task k2 (line 56, #19), the program means the write of task k3 (line 61, #23)
# n=1 c=1: [value final] parameter b element 0 ends with the write of task k3 (line 61, #23), the program means the initial b[0]
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, p0: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], p1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> tuple[pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[8, 4], pl.FP32]]:
        return p0, p1

    @pl.function(type=pl.FunctionType.AIV)
    def k1(self, p0: pl.Out[pl.Tensor[[4, 4], pl.FP32]], p1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> tuple[pl.Tensor[[4, 4], pl.FP32], pl.Tensor[[8, 4], pl.FP32]]:
        return p0, p1

    @pl.function(type=pl.FunctionType.AIV)
    def k2(self, p0: pl.Tensor[[4, 4], pl.FP32], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]], p2: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> tuple[pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[8, 4], pl.FP32]]:
        return p1, p2

    @pl.function(type=pl.FunctionType.AIV)
    def k3(self, p0: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], p1: pl.InOut[pl.Tensor[[4, 4], pl.FP32]]) -> tuple[pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[4, 4], pl.FP32]]:
        return p0, p1

    @pl.function(type=pl.FunctionType.Inline)
    def inl0(self, q0: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], q1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], cnt: pl.InOut[pl.Tensor[[4], pl.INT64]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> tuple[pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[8, 4], pl.FP32]]:
        o3 = q1
        q1 = q0
        q0 = o3
        return q0, q1

    @pl.function
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], cnt: pl.InOut[pl.Tensor[[4], pl.INT64]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        for (i1, p2) in pl.while_(init_values=(0, w)):
            pl.cond(i1 < c + 1)
            b, g4 = self.inl0(b, a, sink, cnt, n, c)
            e6, r5 = pl.yield_(i1 + 1, w)
        pl.tensor.write(cnt, [3], n)
        v7 = pl.tensor.read(cnt, [3])
        for (i8, j23, p9, p10) in pl.while_(init_values=(0, v7, b, a)):
            pl.cond(i8 < j23)
            pl.tensor.write(cnt, [0], c + 1)
            v11 = pl.tensor.read(cnt, [0])
            for (i12, j15, p13) in pl.while_(init_values=(0, v11, a)):
                pl.cond(i12 < j15)
                p13, p9 = self.k0(p13, p9)
                v16 = pl.tensor.read(cnt, [2])
                e17, j15_out, r14 = pl.yield_(i12 + 1, v16, a)
            pl.tensor.write(cnt, [2], c + 1)
            v18 = pl.tensor.read(cnt, [2])
            for (i19,) in pl.while_(init_values=(0,)):
                pl.cond(i19 < v18)
                pl.dump_tag(a)
                e20 = pl.yield_(i19 + 1)
            v24 = pl.tensor.read(cnt, [2])
            e25, j23_out, r21, r22 = pl.yield_(i8 + 1, v24, p9, r14)
        w, a = self.k1(w, a)
        pl.dump_tag(x)
        b, a = self.k2(w, b, a, attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing, pl.adir.inout]})
        with pl.spmd(pl.const(3, pl.INT64), name_hint='blk1', dumps=[b]) as t27:
            f26 = pl.muls(b, 2.0)
        v28 = pl.tensor.read(f26, [2, 3])
        pl.tensor.write(sink, [1], v28)
        b, r29 = self.k3(b, r5)
        return a
