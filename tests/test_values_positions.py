"""Value semantics see where an element sits, not only which write it comes from: a task's write
gives each element the version (task, slot, the kernel's index into that slot's view), so that an
element transposed, shifted or reshaped away from where the program as written puts it is a
mismatch (``tools/values.py``). Before, every element a task wrote had the version ``("task", k)``:
a miscompile that placed ``s`` into ``y``'s rows instead of ``pl.tensor.transpose(s, 0, 1)`` checked
clean (the fuse_create_assemble_to_slice defect 4640f00 fixed, found only by reading the C++)."""

from __future__ import annotations

import pytest
from conftest import load_program
from dsl_header import header, orch

from nanopass.language import Node
from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes.regions import FULL
from nanopass.tools.check import check_program
from nanopass.tools.trace import Buffer, Copy, Task, TensorArg, Trace, View, row_major_strides
from nanopass.tools.values import compare_values

T = "pl.Tensor[[8, 8], pl.FP32]"
KERNELS = [f"produce(a: {T}, out: pl.Out[{T}])", f"consume(a: {T}, out: pl.Out[{T}])"]
BODY = """
    s = pl.create_tensor([8, 8], dtype=pl.FP32)
    s = self.produce(x, s)
    t = s
    for i in pl.range(n):
        t = pl.tensor.transpose(s, 0, 1)
    y = pl.assemble(y, t, [0, 0])
    z = pl.create_tensor([8, 8], dtype=pl.FP32)
    z = self.consume(y, z)
    return y"""


def test_a_source_placed_untransposed_is_a_value_mismatch(tmp_path, monkeypatch):
    # The miscompile of commit 4640f00's parent, made again: the refusal "'t' may be a view of 's'"
    # does not see the transpose, so s becomes a view of y's rows and y holds s, not its transpose.
    blind = fuse.FuseCreateAssembleToSlice.fuse

    def fuse_without_views(self, stmts, at):
        source = stmts[at].value.source.name
        places = self.places
        self.places = {**places, source: frozenset((root, FULL) for root, _ in places.get(source, ()))}
        try:
            return blind(self, stmts, at)
        finally:
            self.places = places

    monkeypatch.setattr(fuse.FuseCreateAssembleToSlice, "fuse", fuse_without_views)
    path = tmp_path / "prog.py"
    path.write_text(header(KERNELS) + orch(f"x: {T}, y: pl.InOut[{T}], n: pl.Scalar[pl.INT64]", BODY, returns=T))
    program = load_program(path)
    assert check_program(program, {"n": "0"}).mismatches == []  # the loop never runs: t is s
    [mismatch, at_the_end] = check_program(program, {"n": "1"}).mismatches
    assert str(mismatch) == (
        "task 1 (consume) at line 23, slot 0, reads element [0, 1] of y (entry tensor 1): the program as written "
        "observes the write of task 0 (slot 1, element [1, 0]), the emitted program the write of task 0 "
        "(slot 1, element [0, 1])"
    )
    assert str(at_the_end) == (  # the caller's y too (tests/test_values_at_the_end.py)
        "the end of the program reads element [0, 1] of output parameter y: the program as written observes the "
        "write of task 0 (slot 1, element [1, 0]), the emitted program the write of task 0 (slot 1, element [0, 1])"
    )


# -- traces by hand: task 0 writes `part` (4 x 4); `big` (8 x 4) is read by task 1 ----------------------


def traced(*events) -> Trace:
    trace = Trace()
    trace.buffers["x"] = Buffer("x", (4, 4), "FLOAT32", "entry", 0)
    trace.buffers["big"] = Buffer("big", (8, 4), "FLOAT32", "alloc")
    trace.buffers["part"] = Buffer("part", (4, 4), "FLOAT32", "alloc")
    trace.events.extend(events)
    return trace


def task(number: int, read: View, written: View) -> Task:
    return Task(number, "kernel", None, (TensorArg(read, "INPUT"), TensorArg(written, "OUTPUT_EXISTING")), (), (), "auto")


def rows(first: int, count: int = 4, buffer: str = "big") -> View:
    return View(buffer, first * 4, (count, 4), row_major_strides((8, 4)))


PART = View("part", 0, (4, 4), (4, 1))
PART_T = View("part", 0, (4, 4), (1, 4))  # pl.tensor.transpose(part, 0, 1)
X = View("x", 0, (4, 4), (4, 1))


def test_a_transposed_copy_and_an_untransposed_placement_differ():
    written = traced(task(1, X, PART), Copy(PART_T, rows(0)), task(2, rows(0), X))
    placed = traced(task(1, X, rows(0)), task(2, rows(0), X))  # part placed in big's rows as is
    [mismatch] = compare_values(written, placed)
    assert mismatch.read.key == ("task", 1, 0) and mismatch.position == (0, 1)
    assert (mismatch.written, mismatch.emitted) == (("task", 0, 1, (1, 0)), ("task", 0, 1, (0, 1)))
    transposed = View("big", 0, (4, 4), (1, 4))  # placed as the transpose of big's rows: the same values
    assert compare_values(written, traced(task(1, X, transposed), task(2, rows(0), X))) == []


def test_a_placement_one_row_off_is_a_mismatch_where_the_same_task_wrote_both_rows():
    # task 1 reads rows 1..2, which task 0 writes in both programs (as part's rows 1..2 as written,
    # as its rows 0..1 when placed at row 1 instead of row 0)
    written = traced(task(1, X, PART), Copy(PART, rows(0)), task(2, rows(1, 2), X))
    [mismatch] = compare_values(written, traced(task(1, X, rows(1)), task(2, rows(1, 2), X)))
    assert (mismatch.position, mismatch.written, mismatch.emitted) == ((0, 0), ("task", 0, 1, (1, 0)), ("task", 0, 1, (0, 0)))
    assert compare_values(written, traced(task(1, X, rows(0)), task(2, rows(1, 2), X))) == []


def test_a_reshape_read_in_another_order_is_a_mismatch():
    # as written: part (4 x 4) reshaped to 2 x 8 and copied into big (8 x 4) viewed as 4 x 8 (rows 0..3)
    wide = View("big", 0, (2, 8), (8, 1))
    written = traced(task(1, X, PART), Copy(View("part", 0, (2, 8), (8, 1)), wide), task(2, rows(0), X))
    assert compare_values(written, traced(task(1, X, rows(0)), task(2, rows(0), X))) == []  # row-major: the same
    by_columns = View("big", 0, (4, 4), (1, 4))  # the 16 elements in column-major order
    [mismatch] = compare_values(written, traced(task(1, X, by_columns), task(2, rows(0), X)))
    assert mismatch.position == (0, 1)


def test_a_task_reading_a_view_of_another_shape_is_a_mismatch():
    # the kernel's indices are its view's: rows 0..3 as 4 x 4 are not the same read as 2 x 8
    written = traced(task(1, X, rows(0)), task(2, rows(0), X))
    emitted = traced(task(1, X, rows(0)), task(2, View("big", 0, (2, 8), (8, 1)), X))
    [mismatch] = compare_values(written, emitted)
    assert str(mismatch) == (
        "task 1 (kernel), slot 0, reads a view of shape [2, 8] of big, the program as written one of shape [4, 4] of big"
    )


# -- a compiler that transposes along other axes or slices at another offset than the program ---------

C = "pl.Tensor[[4, 4, 4], pl.FP32]"
W = "pl.Tensor[[8, 8], pl.FP32]"
H = "pl.Tensor[[4, 8], pl.FP32]"
VIEWS = [f"produce(a: {C}, out: pl.Out[{C}])", f"consume(a: {C}, out: pl.Out[{C}])",
         f"produce_w(a: {W}, out: pl.Out[{W}])", f"consume_h(a: {H}, out: pl.Out[{H}])"]
VIEWS_BODY = """
    s = pl.create_tensor([4, 4, 4], dtype=pl.FP32)
    s = self.produce(x, s)
    t = pl.tensor.transpose(s, 0, 1)
    z = pl.create_tensor([4, 4, 4], dtype=pl.FP32)
    z = self.consume(t, z)
    w = pl.create_tensor([8, 8], dtype=pl.FP32)
    w = self.produce_w(v, w)
    u = pl.tensor.slice(w, [4, 8], [2, 0])
    h = pl.create_tensor([4, 8], dtype=pl.FP32)
    h = self.consume_h(u, h)
    return z"""


def _edited(node, edit):
    """``node`` with ``edit`` applied to every node of it, children first."""
    if isinstance(node, tuple):
        items = tuple(_edited(item, edit) for item in node)
        return items if any(a is not b for a, b in zip(items, node)) else node
    if not isinstance(node, Node):
        return node
    changes = {}
    for name in node._fields:
        value = getattr(node, name)
        new = _edited(value, edit)
        if new is not value:
            changes[name] = new
    return edit(node.replace(**changes) if changes else node)


def _transpose_0_2(node):
    return node.replace(axis2=2) if node._production == "TransposeTensor" else node


def _slice_at_row_3(node):
    if node._production == "SliceTensor":
        return node.replace(offset=(node.offset[0].replace(value=3), *node.offset[1:]))
    return node


@pytest.mark.parametrize("edit, want", [
    (_transpose_0_2, "task 1 (consume) at line 28, slot 0, reads element [0, 0, 1] of s: the program as written "
                     "observes the write of task 0 (slot 1, element [0, 0, 1]), the emitted program the write of task 0 "
                     "(slot 1, element [1, 0, 0])"),
    (_slice_at_row_3, "task 3 (consume_h) at line 33, slot 0, reads element [0, 0] of w: the program as written "
                      "observes the write of task 2 (slot 1, element [2, 0]), the emitted program the write of task 2 "
                      "(slot 1, element [3, 0])"),
])
def test_a_view_the_compiler_changes_after_the_front_end_is_a_mismatch(tmp_path, monkeypatch, edit, want):
    # (the edit made to the output of a pass the program as written skips, check.written_program: every
    # stage the checker compares with the emission has it, the program as written not)
    run = fuse.FuseCreateAssembleToSlice.run
    monkeypatch.setattr(fuse.FuseCreateAssembleToSlice, "run", lambda self, tree: _edited(run(self, tree), edit))
    path = tmp_path / "prog.py"
    path.write_text(header(VIEWS) + orch(f"x: {C}, v: {W}", VIEWS_BODY, returns=C))
    program = load_program(path)
    [mismatch] = check_program(program, {}).mismatches
    assert str(mismatch) == want
    monkeypatch.undo()
    assert check_program(program, {}).mismatches == []
