# fuzz: tuple_results: decorator: drop @pl.program of TupleResults; replace: replace 'pl.Scalar' by '[1, 2]'
# expect: 7:33: error: importing the file raised TypeError: list indices must be integers or slices, not DType
import nanopass.dsl as pl

class TupleResults:

    def orch_tuple(self, scale: [1, 2][pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        pass
