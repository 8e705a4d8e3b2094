"""pl.assemble of a loop carry whose init is a pl.create_tensor: the source is that create only
if no iteration rebinds the carry to another buffer. attack --seed 5330 (program r53300000662):
``t = pl.create_tensor(...)``, ``for i in pl.range(1): t = w``, ``a = pl.assemble(a, t, ...)``
compiled to C++ that never copied ``w`` into ``a``'s rows (the pass took the carry for its init,
made the create a view of those rows, and the assemble a no-op): a wrong value, no error. Such a
source is refused as the same assemble of ``w`` itself is."""

from __future__ import annotations

import pytest

import nanopass
from conftest import load_program
from dsl_header import header, orch

T = "pl.Tensor[[4, 4], pl.FP32]"
A = "pl.Tensor[[8, 4], pl.FP32]"
PARAMS = f"a: pl.InOut[{A}], w: pl.InOut[{T}], n: pl.Scalar[pl.INT64]"
KERNELS = [f"fill(out: pl.InOut[{T}])"]
FIRST_BODY_LINE = 12  # (the header's 9 lines with one kernel, then the orch's 2)


def compile_body(tmp_path, body: str):
    path = tmp_path / "prog.py"
    path.write_text(header(KERNELS) + orch(PARAMS, body, returns=A))
    return nanopass.generate_orchestration(load_program(path))


def refusal(tmp_path, body: str) -> nanopass.UserError:
    with pytest.raises(nanopass.UserError) as caught:
        compile_body(tmp_path, body)
    return caught.value


@pytest.mark.parametrize("trips", ["1", "n"])
def test_a_carry_rebound_to_a_parameter_is_refused_at_the_assemble(tmp_path, trips):
    error = refusal(tmp_path, f"""
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        for i in pl.range({trips}):
            t = w
        a = pl.assemble(a, t, [2, 0])
        return a""")
    assert "'t' may be 'w'" in error.message
    assert (error.span.line, error.span.col) == (FIRST_BODY_LINE + 3, 8)  # (col from 0: the `a` of `a =`)


def test_a_carry_that_may_be_either_of_two_creates_is_refused(tmp_path):
    # (swapped on every trip, the trip count would choose: tests/test_assemble_chosen_creates.py;
    # swapped from the second trip on, the loop's counter chooses, not known at the creates)
    error = refusal(tmp_path, """
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        u = pl.create_tensor([4, 4], dtype=pl.FP32)
        for i in pl.range(n):
            if i > 0:
                v = t
                t = u
                u = v
        a = pl.assemble(a, t, [2, 0])
        return a""")
    assert "pl.assemble needs a source made by pl.create_tensor" in error.message
    assert "which of them it takes is decided by the counter of the loop of line " in error.message
    assert error.span.line == FIRST_BODY_LINE + 7


def test_a_carry_its_loop_writes_in_place_is_still_placed_in_the_rows(tmp_path):
    code = compile_body(tmp_path, """
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        for i in pl.range(n):
            t = self.fill(t)
        a = pl.assemble(a, t, [2, 0])
        return a""").code
    # the create is a view of a's rows 2..5 (no buffer of its own), which the kernel writes
    assert "rt_submit_aiv_task" in code and ".view(" in code
    assert "make_tensor" not in code.split("aicpu_orchestration_entry", 1)[1]
