# pypto.program: PrintedChain
# The existing compiler's printed IR after its pipeline: SSA names, pl.scope, explicit yields,
# a tuple submit result read through _submit_tmp[k], MemRefs and its analysis hints as attrs.
import nanopass.dsl as pl

@pl.program
class PrintedChain:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def step(src__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], dst__ssa_v0: pl.InOut[pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)]]) -> pl.Tensor[[16, 64], pl.FP32]:
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        t__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(src__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        r__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)] = pl.tile.store(t__ssa_v0, [0, 0], dst__ssa_v0)
        return dst__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator, auto_scope=False)
    def orch_chain(self, src__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], out__ssa_v0: pl.InOut[pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)]], n__ssa_v0: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.scope():
            with pl.scope(mode=pl.ScopeMode.MANUAL):
                prev__ssa_v0: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
                for i__idx_v0, (out__iter_v1, prev__iter_v1) in pl.range(n__ssa_v0, init_values=(out__ssa_v0, prev__ssa_v0), attrs={"iter_arg_rebind_0": False, "iter_arg_rebind_1": True}):
                    _submit_tmp__ssa_v0: pl.Tuple[pl.Tensor[[16, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.step, src__ssa_v0, out__iter_v1, deps=[prev__iter_v1], attrs={"arg_directions": [pl.adir.input, pl.adir.inout]})
                    out__ssa_v3: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 4096)] = _submit_tmp__ssa_v0[0]
                    prev__ssa_v3: pl.Scalar[pl.TASK_ID] = _submit_tmp__ssa_v0[1]
                    out__rv_v2, prev__rv_v2 = pl.yield_(out__ssa_v3, prev__ssa_v3)
            return out__rv_v2
