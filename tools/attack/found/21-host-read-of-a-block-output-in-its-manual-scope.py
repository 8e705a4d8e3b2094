# class: refusal (a correct compilation exists; the tester's semantics, following the reference's
# lowering of a block's output, counts it as "no correct compilation", so no run counts it)
# A value made in a `with pl.at(...)` block inside a manual scope and host-read in that scope is
# refused ("get_tensor_data waits only for the tensor's creator and its TensorMap producers, a
# task in a manual scope is neither"). The buffer of a block's output is made by the caller
# (reference-surface.md section 3: `ret<i>__out`, an alloc_tensors), so the task is not its
# creator. The same program written `f, m = pl.submit(self.rd, x)` (or `pl.spmd_submit`), whose
# output the runtime allocates for the task, compiles: the host read waits for the creator. A
# block's output could be lowered the same way (an OUTPUT slot with no caller buffer) when a host
# access in the scope needs its creator.
#
# found on branch attack4 by `python -m nanopass.tools.attack --surface --seed 2 --seconds 1200
# --jobs 1 --out DIR` (a while loop that never ran, so every run's semantics missed it), reduced by
# hand. reproduce: nanopass run tools/attack/found/21-host-read-of-a-block-output-in-its-manual-scope.py
#   -> 26:13: error: the host reads an element of 'f' in the manual scope where task blk1 (line 24) writes it ...
# (Fixed: the read waits through a host wait, a dummy task after blk1 creating one element that the
# host reads first; docs/semantics.md "Still open" 15,
# tests/found/class7_host_read_of_a_block_output_in_its_manual_scope.py.)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], sink: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="blk1"):
                f = pl.muls(x, 2.0)
            v = pl.tensor.read(f, [0, 0])
            pl.tensor.write(sink, [0], v)
        return sink
