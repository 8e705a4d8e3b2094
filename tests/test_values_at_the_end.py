"""The end of the program reads every element of every ``Out`` / ``InOut`` parameter
(``tools/values.py``, ``final_views``): what the caller is left with is compared with the program
as written, not only what reads inside the program observe. Before, a miscompile whose only
effect is a wrong final value of an output parameter checked clean (tools/attack rebinds seed
5591's r55910001074: an assemble's target ``a`` ending with a later write in rows 6-7; only the
attack tester's "value final" comparison saw it)."""

from __future__ import annotations

from conftest import EXAMPLES, load_program
from dsl_header import header, orch
from test_assemble_source_written_through_an_earlier_view import PROGRAM

from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes import place_returned_creates_in_output_params as place
from nanopass.tools.check import check_program
from nanopass.tools.trace import Buffer, Task, TensorArg, Trace, View, row_major_strides
from nanopass.tools.values import compare_values


def test_a_target_left_with_a_later_write_is_a_mismatch_at_the_end(tmp_path, monkeypatch):
    # the refusal "'t' is used after it was assembled into 'a'" off: t becomes a's rows 4-7, so
    # upD's write through v (t's rows 2-3) lands in a's rows 6-7, which as written hold wrB's copy
    monkeypatch.setattr(fuse.FuseCreateAssembleToSlice, "check_uses_after", lambda self, *args: None)
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    program = load_program(path)
    assert check_program(program, {"c": "0"}).mismatches == []  # no assemble ran
    result = check_program(program, {"c": "1"})
    assert result.failing == []  # nothing inside the program reads a: only its end sees the difference
    assert [str(m) for m in result.mismatches] == [
        "the end of the program reads element [6, 0] of output parameter a: the program as written observes the "
        "write of task 0 (slot 0, element [2, 0]), the emitted program the write of task 1 (slot 0, element [0, 0])"
    ]


def test_a_returned_create_is_what_the_caller_holds(tmp_path, monkeypatch):
    # ``d = pl.create_tensor(...)``, written by a task, ``return d``: the caller's d holds the
    # create's contents (place_returned_creates_in_output_params makes the create the parameter)
    path = tmp_path / "rebound.py"
    path.write_text((EXAMPLES / "basic.py").read_text().replace(
        "        d = self.kernel_add(c, b, d)\n",
        "        d = pl.create_tensor([16, 16], dtype=pl.FP32)\n        d = self.kernel_add(c, b, d)\n"))
    program = load_program(path)
    assert check_program(program, {}).mismatches == []
    # without the placement the caller's d is never written: a wrong final value
    monkeypatch.setattr(place.PlaceReturnedCreatesInOutputParams, "run", lambda self, program: program)
    [mismatch] = check_program(program, {}).mismatches
    assert str(mismatch) == (
        "the end of the program reads element [0, 0] of output parameter d: the program as written observes the "
        "write of task 1 (slot 2, element [0, 0]), the emitted program the entry tensor's initial element (slot 2, "
        "offset 0)"
    )


A = "pl.Tensor[[8, 4], pl.FP32]"


# -- traces by hand: one task writes rows of the entry tensor `y` (8 x 4) ---------------------------


def writing(first: int) -> Trace:
    trace = Trace()
    trace.buffers["y"] = Buffer("y", (8, 4), "FLOAT32", "entry", 0)
    rows = View("y", first * 4, (4, 4), row_major_strides((8, 4)))
    trace.events.append(Task(0, "kernel", None, (TensorArg(rows, "OUTPUT_EXISTING"),), (), (), "auto"))
    return trace


def test_only_output_parameters_are_read_at_the_end():
    assert compare_values(writing(0), writing(4)) == []  # y is an input: nobody sees it after the end
    assert compare_values(writing(0), writing(0), outputs={0: "y"}) == []
    [mismatch] = compare_values(writing(0), writing(4), outputs={0: "y"})
    assert str(mismatch) == (
        "the end of the program reads element [0, 0] of output parameter y: the program as written observes the "
        "write of task 0 (slot 0, element [0, 0]), the emitted program the entry tensor's initial element (slot 0, "
        "offset 0)"
    )


def test_a_returned_tensor_of_another_name_is_not_what_the_caller_holds(tmp_path):
    # ``a = f`` (an output the runtime allocates, made under another name), ``return a``: no copy
    # reaches the caller's a (the compiler warns); its end is a's own buffer in both programs
    # (tools/attack seed 5610's r56100000134 and r56100000273, false mismatches of a rule that
    # took any created buffer returned as the parameter's)
    path = tmp_path / "prog.py"
    path.write_text(header([f"k(x: {A}, out: pl.Out[{A}])"]) + orch(
        f"x: {A}, a: pl.InOut[{A}], c: pl.Scalar[pl.INT64]",
        "f, tid = pl.submit(self.k, x)\nt = pl.create_tensor([8, 4], dtype=pl.FP32, init_value=0.5)\n"
        "if c > 0:\n    a = t\nelse:\n    a = f\nreturn a", returns=A))
    program = load_program(path)
    assert check_program(program, {"c": "0"}).mismatches == [] and check_program(program, {"c": "1"}).mismatches == []
