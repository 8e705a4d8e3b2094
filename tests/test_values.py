"""Value semantics (issue 21): which write each read observes, in the program as written and in the
emitted program (``tools/values.py``), and ``nanopass check``'s comparison of the two."""

from __future__ import annotations

from conftest import EXAMPLES, load_program

from nanopass.api import run_pipeline, surface_of
from nanopass.tools import check as check_module
from nanopass.tools.check import check_stages, program_inputs, written_program
from nanopass.tools.interpret_ssa import interpret
from nanopass.tools.trace import Buffer, Copy, HostRead, HostWrite, Task, TensorArg, Trace, View, row_major_strides
from nanopass.tools.values import UNDEFINED, compare_values, observations

TILE = (4, 4)
BIG = (8, 4)


class Traced:
    """A trace written by hand: entry ``x``, created ``big`` (8x4) and ``part`` (4x4)."""

    def __init__(self):
        self.trace = Trace()
        self.trace.buffers["x"] = Buffer("x", TILE, "FLOAT32", "entry", 0)
        self.trace.buffers["big"] = Buffer("big", BIG, "FLOAT32", "alloc")
        self.trace.buffers["part"] = Buffer("part", TILE, "FLOAT32", "alloc", init=0)
        self.ids = 0

    @staticmethod
    def view(buffer: str, row: int = 0, shape=TILE, base=BIG) -> View:
        return View(buffer, row * base[1], shape, row_major_strides(base))

    def task(self, *slots: tuple[View, str], kernel: str = "k") -> None:
        self.ids += 1
        args = tuple(TensorArg(view, tag) for view, tag in slots)
        self.trace.events.append(Task(self.ids, "kernel", None, args, (), (), "auto", kernel=kernel))


def whole(buffer: str, shape=TILE) -> View:
    return View(buffer, 0, shape, row_major_strides(shape))


def test_a_read_observes_the_last_writer_of_each_element_and_a_copy_moves_versions():
    t = Traced()
    t.task((whole("x"), "INPUT"), (Traced.view("big", 0), "OUTPUT_EXISTING"))  # task 0: big rows 0..3
    t.task((whole("x"), "INPUT"), (whole("part"), "OUTPUT_EXISTING"))  # task 1: part
    t.trace.events.append(Copy(whole("part"), Traced.view("big", 4)))  # big rows 4..7 := part
    t.trace.events.append(HostWrite(whole("x"), (1, 1), 7))
    t.task((whole("big", BIG), "INPUT"), (whole("x"), "INOUT"))  # task 2 reads all of big, x
    t.trace.events.append(HostRead(whole("x"), (1, 1), 0, line=9))
    reads = {r.key: r for r in observations(t.trace)}
    big = reads[("task", 2, 0)]
    # each element is the write of its task as the element at the same index of the slot's view
    assert big.versions[:16] == tuple(("task", 0, 1, index) for index in big.positions[:16])
    assert big.versions[16:] == tuple(("task", 1, 1, (row - 4, col)) for row, col in big.positions[16:])
    x = reads[("task", 2, 1)]
    assert x.versions[5] == ("host", 0) and x.versions[0] == ("entry", 0, 0)
    assert reads[("get", 9, 0)].versions == (("task", 2, 1, (1, 1)),)


def test_unwritten_created_elements_are_undefined_or_their_fill():
    t = Traced()
    t.task((whole("big", BIG), "INPUT"), (whole("part"), "INPUT"))
    [big, part] = observations(t.trace)
    assert set(big.versions) == {UNDEFINED} and set(part.versions) == {("fill", 0)}


def written_and_fused():
    """Issue 21, class 5: task 0 writes rows 0..3 of big; task 1 writes part, which is assembled
    into rows 0..3 after task 2 read them. As written, task 2 sees task 0's rows; with part placed
    inside big (a view), task 1 overwrites them before task 2 reads."""
    written = Traced()
    written.task((whole("x"), "INPUT"), (Traced.view("big", 0), "OUTPUT_EXISTING"))
    written.task((whole("x"), "INPUT"), (whole("part"), "OUTPUT_EXISTING"))
    written.task((Traced.view("big", 0), "INPUT"), (whole("x"), "INOUT"))
    written.trace.events.append(Copy(whole("part"), Traced.view("big", 0)))
    written.task((Traced.view("big", 0), "INPUT"), (whole("x"), "INOUT"))
    fused = Traced()
    fused.task((whole("x"), "INPUT"), (Traced.view("big", 0), "OUTPUT_EXISTING"))
    fused.task((whole("x"), "INPUT"), (Traced.view("big", 0), "INOUT"))  # tagged INOUT to order it
    fused.task((Traced.view("big", 0), "INPUT"), (whole("x"), "INOUT"))
    fused.task((Traced.view("big", 0), "INPUT"), (whole("x"), "INOUT"))
    return written.trace, fused.trace


def test_placing_an_assembled_source_inside_its_target_early_changes_what_a_read_observes():
    written, fused = written_and_fused()
    [mismatch] = compare_values(written, fused)
    assert mismatch.read.key == ("task", 2, 0)
    assert (mismatch.written, mismatch.emitted, mismatch.position) == (("task", 0, 1, (0, 0)), ("task", 1, 1, (0, 0)), (0, 0))
    # the INOUT tag on task 1's slot is ordering, not a read: the kernel writes its Out parameter
    assert "task 2" in str(mismatch) and "the write of task 0" in str(mismatch)


def test_the_same_program_compares_equal():
    written, _ = written_and_fused()
    assert compare_values(written, written) == []


def test_copies_survive_json():
    written, _ = written_and_fused()
    again = Trace.from_json(written.to_json())
    assert again.events == written.events


def test_returned_tensors_survive_json():
    program = load_program(EXAMPLES / "basic.py")
    tree = written_program(surface_of(program))
    written = interpret(tree, program_inputs(surface_of(program), {}))
    assert written.returned, "basic.py returns a tensor"
    again = Trace.from_json(written.to_json())
    assert again.returned == written.returned and again.events == written.events


def test_the_program_as_written_keeps_each_assemble_a_copy():
    program = load_program(EXAMPLES / "tensor_ops.py")
    tree = written_program(surface_of(program))
    inputs = program_inputs(surface_of(program), {})
    trace = interpret(tree, inputs, copies=True)
    [copy] = [e for e in trace.events if isinstance(e, Copy)]
    assert copy.target.offset == 16 * 64 and copy.source.shape == (16, 64)
    result = check_stages(run_pipeline(program), inputs)
    assert result.written is not None and result.mismatches == []


def test_check_reports_a_value_mismatch_and_exits_1(monkeypatch, capsys):
    from nanopass import cli

    written, fused = written_and_fused()
    monkeypatch.setattr(check_module, "compare_values", lambda *args: compare_values(written, fused))
    code = cli.main(["check", str(EXAMPLES / "basic.py")])
    out = capsys.readouterr().out
    assert code == 1
    assert "value mismatch: task 2 (k), slot 0, reads element [0, 0] of big" in out
    assert out.endswith("0 hazards\n1 value mismatch with the program as written\n")


def test_a_task_whose_read_and_written_slots_come_to_share_elements_is_a_mismatch():
    # issue 21, class 5: the task writing the placed source also reads the target's rows
    written, fused = Traced(), Traced()
    written.task((Traced.view("big", 0), "INPUT"), (whole("part"), "OUTPUT_EXISTING"))
    fused.task((Traced.view("big", 0), "INPUT"), (Traced.view("big", 0), "OUTPUT_EXISTING"))
    [mismatch] = compare_values(written.trace, fused.trace)
    assert str(mismatch) == (
        "task 0 (k) reads slot 0 and writes slot 1, which share elements in the emitted program but not in the "
        "program as written"
    )
    assert compare_values(fused.trace, fused.trace) == []  # sharing as written is the program's own


def written_shared_and_placed():
    """Issue 21, fuzz_deps --seed 40000's class-5 reports: in each of two iterations, task A writes
    rows 0..3 of big and task B writes part (a kernel Out parameter), assembled into those rows. As
    written, part is one buffer for both iterations, so its Out argument is tagged INOUT (an earlier
    iteration wrote it); placed, B writes the rows A just wrote."""
    written, placed = Traced(), Traced()
    for _ in range(2):
        written.task((whole("x"), "INPUT"), (Traced.view("big", 0), "INOUT"), kernel="wr")
        written.task((whole("x"), "INPUT"), (whole("part"), "INOUT"), kernel="wr")
        written.trace.events.append(Copy(whole("part"), Traced.view("big", 0)))
        placed.task((whole("x"), "INPUT"), (Traced.view("big", 0), "INOUT"), kernel="wr")
        placed.task((whole("x"), "INPUT"), (Traced.view("big", 0), "INOUT"), kernel="wr")
    return written.trace, placed.trace


def test_a_slot_reads_what_its_kernel_parameter_declares_not_what_its_tag_orders():
    written, placed = written_shared_and_placed()
    # by the tags, B "reads" part (its fill, then its first run's write) as written, A's rows placed
    b_reads = {("task", 1, 1), ("task", 3, 1)}
    assert {m.read.key for m in compare_values(written, placed)} == b_reads
    # the kernel writes its Out parameter and reads only its In one: nothing differs
    assert compare_values(written, placed, {"wr": ("In", "Out")}) == []
    # an InOut parameter is read, and a kernel the table does not name keeps its tags
    assert {m.read.key for m in compare_values(written, placed, {"wr": ("In", "InOut")})} == b_reads
    assert {m.read.key for m in compare_values(written, placed, {"other": ("In", "Out")})} == b_reads


def test_kernel_directions_are_the_tensor_parameters_declared_directions():
    program = load_program(EXAMPLES / "tensor_ops.py")
    directions = check_module.kernel_directions(written_program(surface_of(program)))
    # scale_rows(src, factor: Scalar, dst: Out), reduce_cols(flat, square, dst: Out)
    assert directions["scale_rows"] == ("In", "Out")
    assert directions["reduce_cols"] == ("In", "In", "Out")


def test_reads_are_matched_by_key_whatever_order_the_emitted_program_makes_them_in():
    # The emitted program makes its host read of line 9 before task 2 (the reads are drawn from
    # the program as written past task 2's to find it), drops the read of line 3 and adds one at
    # line 11: one mismatch for the moved read, one for the added, none for the tasks' reads.
    def traced(host_reads_before: list[int], host_reads_after: list[int]) -> Trace:
        t = Traced()
        t.task((whole("x"), "INPUT"), (Traced.view("big", 0), "OUTPUT_EXISTING"))  # task 0
        for line in host_reads_before:
            t.trace.events.append(HostRead(whole("x"), (1, 1), 0, line=line))
        t.task((Traced.view("big", 0), "INPUT"), (whole("x"), "INOUT"))  # task 1
        for line in host_reads_after:
            t.trace.events.append(HostRead(whole("x"), (1, 1), 0, line=line))
        t.task((Traced.view("big", 0), "INPUT"), (whole("part"), "OUTPUT_EXISTING"))  # task 2
        return t.trace

    written = traced([3], [9])
    emitted = traced([9], [11])
    mismatches = compare_values(written, emitted)
    assert [(m.read.key, m.written, m.emitted) for m in mismatches] == [
        (("get", 9, 0), ("task", 1, 1, (1, 1)), ("entry", 0, 5)),
        (("get", 11, 0), ("absent",), ("task", 1, 1, (1, 1))),
    ]
    assert compare_values(written, written) == []


def test_the_replay_holds_only_what_a_later_read_observes():
    # a chain of 200 tasks, each reading the tile the one before wrote into a buffer of its own:
    # the replay keeps the elements of the tiles a later read may observe, not of every tile so far
    t = Traced()
    for k in range(200):
        t.trace.buffers[f"t{k}"] = Buffer(f"t{k}", TILE, "FLOAT32", "alloc")
        t.task((whole("x" if k == 0 else f"t{k - 1}"), "INPUT"), (whole(f"t{k}"), "OUTPUT_EXISTING"))
    t.task((whole("t199"), "INPUT"), (whole("x"), "INOUT"))
    from nanopass.tools.values import _observe

    reads = _observe(t.trace, None, ())
    held = []
    for read in reads:
        held.append(sum(len(elements) for elements in reads.gi_frame.f_locals["memory"].values()))
        k = read.key[1]
        if 0 < k < 201 and read.key[2] == 0:  # what task k read is what task k - 1 wrote
            assert read.versions == tuple(("task", k - 1, 1, index) for index in read.positions)
    assert len(held) == 202 and max(held) <= 3 * 16  # x and at most two tiles, never the 200 tiles' 3,200 elements
