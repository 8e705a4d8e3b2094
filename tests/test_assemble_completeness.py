"""Refusals of valid programs around ``pl.assemble`` (``fuse_create_assemble_to_slice``) that
have a correct compilation, found by tools/attack (branch assemble55), and their near misses.

(a) A source never written before its assemble (made without an ``init_value``, nothing writing
it or assembling into it between its create and the assemble) holds undefined rows: the copy and
the source both hold them, so a read of the source after a write of the target's rows may see
anything, the rows' new values included (docs/semantics.md, "A source never written"). A
statement that reads the source and writes its rows, a source written before the assemble, and a
write of the source after the rows were written with the rows read after it stay refused.

(b) A later assemble into other rows of the same target writes those rows only (its source's
shape at its offset), not the rows an earlier source is placed in: a read of the earlier source
after it still sees the copy. One into overlapping rows stays refused.

(c) A loop carry or an ``if`` result that may hold the source (its init, a yielded value) is a
copy of it, as a view is: a read of it, in the loop or after it, is a read of the source; a write
of it is one of the source (refused when the rows are read after it: the caller's target).

(d) Loop carries that swap two names every iteration and only read the source: after the
assemble (a copy read in every other iteration), or around an assemble of the carry in an ``if``
whose result is read after it (only the loops' own ``Yield``s carry the one buffer; an ``if``'s
is a copy, and a ``Yield`` or a loop's init counts as a use only for its live results, as
``live_uses`` counts them). A write through a carry that may be the source stays refused. A
write of the other buffer such a carry may be (tools/attack rebinds seed 5506's r55060000314) is
no write of the source: it stays refused only for a write of the source itself.

(f) A source made with an ``init_value`` is placed when, on every path from its create to the
assemble, a task overwrites all of it through an ``Out`` argument before anything reads it: a
view of it made, a host element write, a loop of constant bounds known to run whose first
iteration overwrites it, an ``if`` whose branches both do, come before that write. A live host
read, a task reading a view of it, a loop that may not run, and an ``if`` of which one branch
overwrites it stay refused.

(e) A source that may be several buffers is refused naming each by its definition and line (it
said "'t' may be 't' here" for two creates of one name), and why one placement cannot serve them.
A name the storage map holds in one create's whole buffer on every path is that create's, though
its first binding was another's (a swap in a loop of one trip: tools/attack rebinds seed 5506's
r55060000224); with a loop that may not run it may be either, and stays refused.

Each program that compiles is checked on its values (``tools/properties.check_text``: every
stage interpreted, no hazard, every read observing what it observes in the program as written,
where each assemble is a copy)."""

from __future__ import annotations

import pytest

from nanopass.errors import UserError
from nanopass.pipeline import PipelineError
from nanopass.tools.properties import Findings, check_text, compile_text
from test_fuse_across_blocks import HEAD, LINE, RUNS

PLACEABLE = {
    # (a) the rows written after the assemble, then the never written source read
    "a_unwritten_source_read_after_its_rows_are_written": """        t1 = pl.create_tensor([16, 16], dtype=pl.FP32)
        big = pl.assemble(big, t1, [0, 0])
        r = pl.tensor.slice(big, [16, 16], [0, 0])
        r = self.step(x, r)
        y = self.bump(t1, y)
        return big
""",
    # (b) a second assemble into other rows, then a read of the first source
    "b_a_read_of_a_source_after_an_assemble_into_other_rows": """        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(x, u)
        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(y, t)
        big = pl.assemble(big, u, [0, 0])
        big = pl.assemble(big, t, [16, 0])
        y = self.bump(u, y)
        return big
""",
    # (c) the source rebound in a loop (a carry, the source itself when the loop does not run)
    "c_a_read_of_the_source_after_a_loop_rebinding_it": """        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(x, u)
        big = pl.assemble(big, u, [0, 0])
        for i in pl.range(n):
            u = x
        y = self.bump(u, y)
        return big
""",
    # (c) read in the loop too, before the rebinding
    "c_a_read_of_the_source_in_and_after_a_loop_rebinding_it": """        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(x, u)
        big = pl.assemble(big, u, [0, 0])
        for i in pl.range(n):
            y = self.bump(u, y)
            u = x
        y = self.bump(u, y)
        return big
""",
    # (c) an if result that may be the source
    "c_a_read_of_an_if_result_that_may_be_the_source": """        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(x, u)
        big = pl.assemble(big, u, [0, 0])
        v = x
        if c > 0:
            v = u
        y = self.bump(v, y)
        return big
""",
    # (d) swapped carries reading the source after its assemble (fixed with c: the loop's inits)
    "d_swapped_carries_read_the_source_after_its_assemble": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        big = pl.assemble(big, t, [0, 0])
        for i, (p, q) in pl.range(n, init_values=(t, u)):
            y = self.bump(p, y)
            t, u = pl.yield_(q, p)
        return big
""",
    # (d) tools/attack rebinds seed 5502's r55020000157: swapped carries of one buffer assembled
    # in a loop in an if, one of them read after the if
    "d_swapped_carries_of_one_buffer_assembled_in_a_loop_in_an_if": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = t
        if c > 0:
            for i, (p, q) in pl.range(2, init_values=(t, u)):
                big = pl.assemble(big, p, [0, 0])
                t, u = pl.yield_(q, p)
        else:
            r = t
            t = u
            u = r
        y = self.bump(u, y)
        return big
""",
    # (f) the writer in a loop known to run
    "f_the_fill_overwritten_in_a_loop_known_to_run": """        t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
        for i in pl.range(2):
            t = self.step(x, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""",
    # (f) a view made before the writer, read after it
    "f_a_view_made_before_the_fill_is_overwritten": """        t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
        v = pl.tensor.slice(t, [16, 16], [0, 0])
        t = self.step(x, t)
        big = pl.assemble(big, t, [0, 0])
        y = self.bump(v, y)
        return big
""",
    # (f) a host element write before the writer
    "f_a_host_write_before_the_fill_is_overwritten": """        t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
        pl.tensor.write(t, [1, 1], 2.0)
        t = self.step(x, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""",
    # (f) both branches overwrite it
    "f_both_branches_overwrite_the_fill": """        t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
        if c > 0:
            t = self.step(x, t)
        else:
            t = self.step(y, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""",
    # (d) the other buffer of the swapped carries written between the assemble and the reads
    "d_a_write_of_the_other_buffer_of_swapped_carries": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        big = pl.assemble(big, t, [0, 0])
        u = self.bump(x, u)
        for i, (p, q) in pl.range(2, init_values=(t, u)):
            y = self.bump(p, y)
            t, u = pl.yield_(q, p)
        return big
""",
    # (e) after a swap in a loop of one trip, u is the create first bound to t on every path
    "e_a_name_that_is_one_create_after_a_swap_in_a_loop_of_one_trip": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        for i in pl.range(1):
            r = t
            t = u
            u = r
        big = pl.assemble(big, u, [0, 0])
        y = self.bump(t, y)
        return big
""",
}

FILL = "pl.assemble cannot make 't' a view of 'big' (the runtime cannot copy): 't' is made with an init_value"

# body -> (the line of the refused assemble, counted from the body's first, the message's start)
REFUSED = {
    # (a) near miss: the source written before the assemble; the read must see that write
    "a_written_source_read_after_its_rows_are_written": ("""        t1 = pl.create_tensor([16, 16], dtype=pl.FP32)
        t1 = self.step(x, t1)
        big = pl.assemble(big, t1, [0, 0])
        r = pl.tensor.slice(big, [16, 16], [0, 0])
        r = self.step(x, r)
        y = self.bump(t1, y)
        return big
""", 3, "'t1' is used after it was assembled into 'big'"),
    # (a) near miss: one task reads the never written source and writes its rows (placed, the
    # same bytes through two arguments)
    "a_task_reads_the_unwritten_source_and_writes_its_rows": ("""        t1 = pl.create_tensor([16, 16], dtype=pl.FP32)
        big = pl.assemble(big, t1, [0, 0])
        r = pl.tensor.slice(big, [16, 16], [0, 0])
        r = self.bump(t1, r)
        return big
""", 2, "'t1' is used after it was assembled into 'big'"),
    # (a) near miss: the rows written, then the source: the caller reads the rows, which hold
    # the rows' write as written and the source's placed
    "a_unwritten_source_written_after_its_rows": ("""        t1 = pl.create_tensor([16, 16], dtype=pl.FP32)
        big = pl.assemble(big, t1, [0, 0])
        r = pl.tensor.slice(big, [16, 16], [0, 0])
        r = self.step(x, r)
        y = self.bump(t1, y)
        t1 = self.step(y, t1)
        y = self.bump(t1, y)
        return big
""", 2, "'t1' is used after it was assembled into 'big'"),
    # (b) near miss: the second assemble fills half of the first source's rows
    "b_a_read_of_a_source_after_an_assemble_into_overlapping_rows": ("""        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(x, u)
        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(y, t)
        big = pl.assemble(big, u, [0, 0])
        big = pl.assemble(big, t, [8, 0])
        y = self.bump(u, y)
        return big
""", 5, "'u' is used after it was assembled into 'big'"),
    # (c) near miss: the carry written in the loop, the caller reading the target's rows
    "c_a_write_of_the_source_through_a_carry": ("""        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(x, u)
        big = pl.assemble(big, u, [0, 0])
        for i in pl.range(n):
            y = self.bump(u, y)
            u = self.step(y, u)
        y = self.bump(u, y)
        return big
""", 3, "'u' is used after it was assembled into 'big'"),
    # (c) near miss: an if result that may be the source, written
    "c_a_write_of_an_if_result_that_may_be_the_source": ("""        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(x, u)
        big = pl.assemble(big, u, [0, 0])
        v = y
        if c > 0:
            v = u
        v = self.bump(x, v)
        return big
""", 3, "'u' is used after it was assembled into 'big'"),
    # (d) near miss: the swapped carry that holds the source every other iteration written
    "d_a_write_through_a_swapped_carry": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        big = pl.assemble(big, t, [0, 0])
        for i, (p, q) in pl.range(n, init_values=(t, u)):
            p = self.bump(x, p)
            t, u = pl.yield_(q, p)
        return big
""", 5, "'t' is used after it was assembled into 'big'"),
    # (d) near miss: the source itself written there
    "d_a_write_of_the_source_before_swapped_carries_read_it": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        big = pl.assemble(big, t, [0, 0])
        t = self.bump(x, t)
        for i, (p, q) in pl.range(2, init_values=(t, u)):
            y = self.bump(p, y)
            t, u = pl.yield_(q, p)
        return big
""", 5, "'t' is used after it was assembled into 'big'"),
    # (f) near misses: the fill read by the host, by a task through a view, a loop that may not
    # run, one branch only
    "f_a_host_read_of_the_fill": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
        h = pl.tensor.read(t, [1, 1])
        pl.tensor.write(y, [0, 0], h)
        t = self.step(x, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""", 5, FILL),
    "f_a_task_reads_the_fill_through_a_view": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
        v = pl.tensor.slice(t, [16, 16], [0, 0])
        y = self.bump(v, y)
        t = self.step(x, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""", 5, FILL),
    "f_the_writer_in_a_loop_that_may_not_run": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
        for i in pl.range(n):
            t = self.step(x, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""", 4, FILL),
    "f_one_branch_overwrites_the_fill": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
        if c > 0:
            t = self.step(x, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""", 4, FILL),
}


@pytest.mark.parametrize("name", sorted(PLACEABLE))
def test_a_valid_program_compiles_and_runs_right(name):
    findings = Findings()
    failures = check_text(HEAD + PLACEABLE[name], RUNS, findings)
    assert failures == [], "\n".join(f"{f.kind}: {f.message}" for f in failures)
    assert findings.refused_by_design == 0 and findings.programs == 1


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_near_miss_stays_refused(name):
    body, line, message = REFUSED[name]
    with pytest.raises((UserError, PipelineError)) as raised:
        compile_text(HEAD + body)
    error = raised.value.error if isinstance(raised.value, PipelineError) else raised.value
    assert str(error).split(": error: ", 1)[-1].startswith(message), str(error)
    assert error.span is not None and error.span.line == LINE + line


# (e) the wording of a source that may be several buffers: each named by its definition and
# line, and why one placement cannot serve them (both creates: one view of the rows only)
SEVERAL = {
    # (the first create read after the second is made, the second made in a loop: one buffer per iteration; made in an if instead, each is the view
    # where the assemble takes it: tests/test_assemble_create_in_a_branch.py)
    "e_two_creates_of_one_name": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        o = t
        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        big = pl.assemble(big, t, [0, 0])
        y = self.bump(o, y)
        return big
""", 7, "pl.assemble needs a source made by pl.create_tensor, the same one on every path; 't' may be 't' "
        f"(the pl.create_tensor of line {LINE + 1}) or 't' (the pl.create_tensor of line {LINE + 5}) here: each "
        "create is a buffer of its own, and a source is made a view of the rows of 'big' from its creation on; "
        "two of them may both be made in one run"),
    "e_a_parameter_or_a_create": ("""        t = x
        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""", 5, f"pl.assemble needs a source made by pl.create_tensor; 't' may be 'x' (a parameter) or 't' (the "
        f"pl.create_tensor of line {LINE + 3}) here: only a pl.create_tensor can be made a view of the rows of "
        "'big' (the runtime cannot copy)"),
}


@pytest.mark.parametrize("name", sorted(SEVERAL))
def test_a_source_that_may_be_several_buffers_names_each(name):
    body, line, message = SEVERAL[name]
    with pytest.raises((UserError, PipelineError)) as raised:
        compile_text(HEAD + body)
    error = raised.value.error if isinstance(raised.value, PipelineError) else raised.value
    assert str(error).split(": error: ", 1)[-1].startswith(message), str(error)
    assert error.span is not None and error.span.line == LINE + line
