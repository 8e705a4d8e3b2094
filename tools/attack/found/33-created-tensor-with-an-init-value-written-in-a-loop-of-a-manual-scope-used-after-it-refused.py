# class: refusal
# 33 with a task updating the created buffer in the loop: refused with a located error (the runtime fills a buffer only when it allocates it, and the runs' number is known only at run time)
#
# on branch uaf22 (refused, as the tester's semantics counts right):
# refused: prog.py:15:17: error: 'w' is created with an initial value in a loop inside a `with` block, written in the block and used after it, and a loop around it has a trip count known only at run time: the block frees what is allocated in it when it ends, so every run needs a buffer made before the block that starts from the initial value, and the runtime API fills a buffer only when it allocates it (it has no fill of an existing buffer); the compiler makes a filled block for each run only for loops of constant trip counts
# no correct compilation: n=1 c=0: host read (line 17, #1) uses a buffer created with init_value in a loop of a run-time trip count in the `with` block of line 12 after the block, which wrote a buffer of that create
# no correct compilation: n=2 c=0: host read (line 17, #2) uses a buffer created with init_value in a loop of a run-time trip count in the `with` block of line 12 after the block, which wrote a buffer of that create
# no correct compilation: n=3 c=0: host read (line 17, #3) uses a buffer created with init_value in a loop of a run-time trip count in the `with` block of line 12 after the block, which wrote a buffer of that create
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def up(self, p0: pl.InOut[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], v: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            m = None
            for i1 in pl.range(n):
                w = pl.create_tensor([4, 4], dtype=pl.FP32, init_value=0.5)
                w, m = pl.submit(self.up, w, deps=[m])
        h2 = pl.tensor.read(w, [1, 1])
        pl.tensor.write(sink, [2], h2)
        return a
