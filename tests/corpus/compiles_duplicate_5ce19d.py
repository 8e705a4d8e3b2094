# fuzz: tuple_results: duplicate: duplicate 'out = self.normalize(probs, sums, out)'; duplicate: duplicate 'out = self.normalize(probs, sums, out)'
# expect: compiles
import nanopass.dsl as pl

@pl.program
class TupleResults:

    @pl.function(type=pl.FunctionType.AIV)
    def softmax_stats(self, s: pl.Tensor[[16, 64], pl.FP32], scale: pl.Scalar[pl.FP32], p: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], m: pl.InOut[pl.Tensor[[16, 1], pl.FP32]], l: pl.Out[pl.Tensor[[16, 1], pl.FP32]]) -> tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[16, 1], pl.FP32]]:
        t: pl.Tile[[16, 64], pl.FP32] = pl.load(s, [0, 0], [16, 64])
        p2: pl.Tensor[[16, 64], pl.FP32] = pl.store(t, [0, 0], p)
        m2: pl.Tensor[[16, 1], pl.FP32] = pl.store(t, [0, 0], m)
        l2: pl.Tensor[[16, 1], pl.FP32] = pl.store(t, [0, 0], l)
        return (p2, m2, l2)

    @pl.function(type=pl.FunctionType.AIV)
    def normalize(self, p: pl.Tensor[[16, 64], pl.FP32], l: pl.Tensor[[16, 1], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32] = pl.load(p, [0, 0], [16, 64])
        r: pl.Tensor[[16, 64], pl.FP32] = pl.store(t, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tuple(self, sij: pl.Tensor[[16, 64], pl.FP32], scale: pl.Scalar[pl.FP32], pij: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], mij: pl.InOut[pl.Tensor[[16, 1], pl.FP32]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        lij = pl.create_tensor([16, 1], dtype=pl.FP32)
        pij, mij, lij = self.softmax_stats(sij, scale, pij, mij, lij)
        (probs, maxes, sums), tid = pl.submit(self.softmax_stats, sij, scale, pij, mij, lij)
        out = self.normalize(probs, sums, out)
        out = self.normalize(probs, sums, out)
        out = self.normalize(probs, sums, out)
        return out
