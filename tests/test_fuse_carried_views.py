"""pl.assemble of a loop carry that starts as a pl.create_tensor and is a view of that create in
other iterations (issue 24). fuse_create_assemble_to_slice took the carry for its init
(``buffer_roots``' default) and checked only that the storage map gives it no other buffer:
``t = pl.tensor.transpose(s, 0, 1)`` in the loop is the same buffer, indexed otherwise. The
create became a view of y and the assemble nothing: y held s, not its transpose, for n >= 1 (the
value checker follows which write each element observes, not where in the tensor it lands, so it
did not see it). The runtime cannot copy, so no compilation keeps the transpose: refused, as the
assemble of the transpose itself is."""

from __future__ import annotations

import pytest

import nanopass
from conftest import load_program
from dsl_header import header, orch

T = "pl.Tensor[[8, 8], pl.FP32]"
PARAMS = f"x: {T}, y: pl.InOut[{T}], n: pl.Scalar[pl.INT64]"
KERNELS = [f"produce(a: {T}, out: pl.Out[{T}])", f"update(a: {T}, out: pl.InOut[{T}])"]
FIRST_BODY_LINE = 16  # (the header's 13 lines with two kernels, then the orch's 2)


def compile_body(tmp_path, body: str):
    path = tmp_path / "prog.py"
    path.write_text(header(KERNELS) + orch(PARAMS, body, returns=T))
    return nanopass.generate_orchestration(load_program(path))


@pytest.mark.parametrize("loop", ["pl.range(n)", "pl.range(1)", "pl.parallel(2)"])
def test_a_carry_that_may_be_a_transpose_of_the_create_is_refused(tmp_path, loop):
    with pytest.raises(nanopass.UserError) as caught:
        compile_body(tmp_path, f"""
            s = pl.create_tensor([8, 8], dtype=pl.FP32)
            s = self.produce(x, s)
            t = s
            for i in {loop}:
                t = pl.tensor.transpose(s, 0, 1)
            y = pl.assemble(y, t, [0, 0])
            return y""")
    error = caught.value
    assert "pl.assemble needs a source made by pl.create_tensor; 't' may be a view of 's' here" in error.message
    assert error.span.line == FIRST_BODY_LINE + 5


def test_a_carry_its_loop_updates_in_place_is_still_placed(tmp_path):
    # t is s's whole buffer, as s indexes it, on every iteration: placed in y (no buffer of its own)
    code = compile_body(tmp_path, """
        s = pl.create_tensor([8, 8], dtype=pl.FP32)
        s = self.produce(x, s)
        t = s
        for i in pl.range(n):
            t = self.update(x, t)
        y = pl.assemble(y, t, [0, 0])
        return y""").code
    entry = code.split("aicpu_orchestration_entry", 1)[1]
    assert ".view(" in entry and "make_tensor" not in entry and "alloc_tensors" not in entry
