"""An assemble in a ``pl.parallel`` loop of a source made before the loop
(``fuse_create_assemble_to_slice.check_parallel_loops_copy_alike``; tools/attack rebinds seed 6302,
"created outside the pl.parallel loop around the assemble").

The loop's iterations are declared independent: none is known to assemble first. When nothing in
the loop writes the source or the rows it is assembled into, every iteration copies the same value
into the same rows, so the rows hold the source from the first assemble on whichever iteration
that is: the source is placed as for a ``pl.range`` loop (a view of the rows where the loop runs,
``0 < n``; its own buffer otherwise). A write of the source or of those rows in the loop (a task,
the host, another source's assemble) is unordered with another iteration's assemble: refused,
located at the assemble, naming the loop and the write.

Each program that compiles is checked on its values for n in 0 and 2 (``tools/properties.check_text``:
every stage interpreted, no hazard, every read seeing what it sees as written, each assemble a copy)."""

from __future__ import annotations

import re

import pytest

from test_fuse_across_blocks import LINE, MADE, RUNS, checked_and_placed, refusal

VIEW_IF_THE_LOOP_RUNS = r"if \(0 < n\) \{.*ext_big\.view\(.*\} else \{.*alloc_tensors"

# body -> a pattern of the C++ the view must stand in (re.S)
PLACEABLE = {
    # the rebinds grammar's shape: a loop-invariant assemble alone in the loop
    "alone": (MADE + """        for i in pl.parallel(n):
            big = pl.assemble(big, p, [16, 0])
        return big
""", VIEW_IF_THE_LOOP_RUNS),
    # a loop of constant bounds runs: the view itself, no if around it
    "known_to_run": (MADE + """        for i in pl.parallel(2):
            big = pl.assemble(big, p, [16, 0])
        return big
""", r"^(?!.*\bif \().*Tensor p = ext_big\.view\("),
    # the source and the rows read in the loop after the assemble: they hold the same values
    "reads_after_the_assemble": (MADE + """        for i in pl.parallel(n):
            big = pl.assemble(big, p, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            y = self.bump(r, y)
            y = self.bump(p, y)
        return big
""", VIEW_IF_THE_LOOP_RUNS),
    # a pl.range loop inside the pl.parallel one: the view where both run
    "range_in_parallel": (MADE + """        for i in pl.parallel(n):
            for j in pl.range(2):
                big = pl.assemble(big, p, [16, 0])
        return big
""", VIEW_IF_THE_LOOP_RUNS),
    # the source read after the loop: on a path that ran the loop, the read follows an assemble
    "read_after_the_loop": (MADE + """        for i in pl.parallel(n):
            big = pl.assemble(big, p, [16, 0])
        y = self.bump(p, y)
        return big
""", VIEW_IF_THE_LOOP_RUNS),
    # another tensor written in the loop, and rows of the target other than the assembled ones
    "other_writes_in_the_loop": (MADE + """        for i in pl.parallel(n):
            y = self.bump(x, y)
            big = pl.assemble(big, p, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [32, 0])
            r = self.bump(x, r)
        return big
""", VIEW_IF_THE_LOOP_RUNS),
}

# body -> (the line of the assemble, counted from the body's first, and the message's start)
REFUSED = {
    "writes_the_source_before_the_assemble": (MADE + """        for i in pl.parallel(n):
            p = self.bump(x, p)
            big = pl.assemble(big, p, [16, 0])
        return big
""", 5, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): the pl.parallel loop of line "
        f"{LINE + 3} around the assemble writes 'p' (task bump, line {LINE + 4}); its iterations are not ordered"),
    "writes_the_source_after_the_assemble": (MADE + """        for i in pl.parallel(n):
            big = pl.assemble(big, p, [16, 0])
            p = self.bump(x, p)
        return big
""", 4, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): the pl.parallel loop of line "
        f"{LINE + 3} around the assemble writes 'p' (task bump, line {LINE + 5})"),
    "host_writes_the_source": (MADE + """        for i in pl.parallel(n):
            big = pl.assemble(big, p, [16, 0])
            pl.tensor.write(p, [1, 1], 2.0)
        return big
""", 4, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): the pl.parallel loop of line "
        f"{LINE + 3} around the assemble writes 'p' (the host, line {LINE + 5})"),
    "writes_the_rows_after_the_assemble": (MADE + """        for i in pl.parallel(n):
            big = pl.assemble(big, p, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            r = self.bump(x, r)
        return big
""", 4, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): the pl.parallel loop of line "
        f"{LINE + 3} around the assemble writes the rows it fills (task bump, line {LINE + 6})"),
    "host_writes_the_rows": (MADE + """        for i in pl.parallel(n):
            big = pl.assemble(big, p, [16, 0])
            pl.tensor.write(big, [17, 1], 2.0)
        return big
""", 4, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): the pl.parallel loop of line "
        f"{LINE + 3} around the assemble writes the rows it fills (the host, line {LINE + 5})"),
    "another_source_into_the_rows": (MADE + """        q = pl.create_tensor([16, 16], dtype=pl.FP32)
        q = self.step(x, q)
        for i in pl.parallel(n):
            big = pl.assemble(big, p, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            y = self.bump(r, y)
            big = pl.assemble(big, q, [16, 0])
        return big
""", 6, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): the pl.parallel loop of line "
        f"{LINE + 5} around the assemble assembles another source into the rows it fills (line {LINE + 9})"),
}


@pytest.mark.parametrize("name", sorted(PLACEABLE))
def test_a_loop_invariant_assemble_in_a_parallel_loop_is_placed_where_the_loop_runs(name):
    body, pattern = PLACEABLE[name]
    checked_and_placed(body, RUNS, pattern)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_write_of_the_source_or_its_rows_in_the_parallel_loop_is_refused_at_the_assemble(name):
    body, line, message = REFUSED[name]
    error = refusal(body, line, message)
    assert error.hint.startswith("create 'p' inside the pl.parallel loop"), error.hint
    assert re.search(rf"across\.py:{LINE + line}:\d+: error", str(error)), str(error)
