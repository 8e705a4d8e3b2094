"""Issue 24: order_write_after_read's ``placed_through`` in a manual scope, for a name that may be
one of several buffers. A task's argument that is a loop carry (or a loop's result, or an if's
result) may be a placed ``pl.assemble`` source on some iterations or paths and another buffer on
others. ``placed_through`` read ``buffer_roots``' default table, which takes every carry for its
init (and an if's result whose branches differ for a buffer of its own), so a task writing
through ``t`` (``t = w`` before the loop, ``t = s`` in its body, ``s`` placed in ``y``'s rows) went
through no placed source: its pair with another access to those rows was left to the user, who
wrote ``w``, ``s`` and ``y`` as three tensors and the assemble as a copy no ``deps=`` can name. The
emitted C++ left the two writes of ``y``'s rows unordered (the checker: a hazard on ``y``). Such
a name now goes through the placed sources of each value it may hold, and, when one of them is
no placed source, through none alone: every such pair is the compiler's.

Each program is one a careful user writes (every pair of accesses to one tensor as written is
ordered by ``deps=``); each failed the check (a hazard on y, for n = 2) before the change.
"""

from __future__ import annotations

import pytest

from conftest import load_program
from nanopass.tools.check import check_program
from test_issue21_regressions import kernels_of, source, waits_for

# The writer of y's rows 0..3 (as written: a slice of y, not s) and the rows' placed source s.
ROWS_WRITER = """r = pl.tensor.slice(y, [4, 16], [0, 0])
r, tr = pl.submit(self.fill, x, r)"""
SOURCES = """s = pl.create_tensor([4, 16], dtype=pl.FP32)
w = pl.create_tensor([4, 16], dtype=pl.FP32)"""
ASSEMBLE = "y = pl.assemble(y, s, [0, 0])"

PROGRAMS = {
    # the carry is w in iteration 0, s from iteration 1 on (the chain of deps= orders its writers)
    "carry_rebound_to_the_source": (ROWS_WRITER, SOURCES + """
t = w
tt = None
for i in pl.range(n):
    t, tt = pl.submit(self.fill, x, t, deps=[tt])
    t = s
""" + ASSEMBLE),
    # the same in a pl.parallel loop (its iterations declared independent: w, then s)
    "parallel_carry_rebound_to_the_source": (ROWS_WRITER, SOURCES + """
t = w
for i in pl.parallel(2):
    t, tt = pl.submit(self.fill, x, t)
    t = s
""" + ASSEMBLE),
    # the rows written after the assemble, by a task the user cannot relate to s's writer
    "rows_written_after_the_assemble": ("", SOURCES + """
t = w
tt = None
for i in pl.range(n):
    t, tt = pl.submit(self.fill, x, t, deps=[tt])
    t = s
""" + ASSEMBLE + "\n" + ROWS_WRITER),
    # an if's result: s on one path, w on the other
    "if_result": (ROWS_WRITER, SOURCES + """
if n > 1:
    t = s
else:
    t = w
t, tt = pl.submit(self.fill, x, t)
""" + ASSEMBLE),
    # a pl.while_ carry (init_values, pl.yield_): w in iteration 0, s after
    "while_carry": (ROWS_WRITER, SOURCES + """
tt = None
for (i, c0, c1) in pl.while_(init_values=(0, w, tt)):
    pl.cond(i < n)
    c0, c1 = pl.submit(self.fill, x, c0, deps=[c1])
    n_done, d0, d1 = pl.yield_(i + 1, s, c1)
""" + ASSEMBLE),
    # an outer loop's carry, written in an inner loop: w in the outer iteration 0, s in 1
    "outer_carry_written_in_an_inner_loop": (ROWS_WRITER, SOURCES + """
t = w
tt = None
for j in pl.range(2):
    for i in pl.range(n):
        t, tt = pl.submit(self.fill, x, t, deps=[tt])
    t = s
""" + ASSEMBLE),
    # an if's result in a loop: w in iteration 0, s after
    "if_result_in_a_loop": (ROWS_WRITER, SOURCES + """
tt = None
for i in pl.range(n):
    t = w
    if i > 0:
        t = s
    t, tt = pl.submit(self.fill, x, t, deps=[tt])
""" + ASSEMBLE),
}


def body_of(before: str, rest: str) -> str:
    text = (before + "\n" + rest).strip("\n")
    return "with pl.manual_scope():\n" + "".join("    " + line + "\n" for line in text.splitlines())


def checked(tmp_path, body: str, n: int):
    path = tmp_path / "program.py"
    path.write_text(source(body))
    result = check_program(load_program(path), {"n": str(n)})
    assert result.failing == [], "; ".join(str(h) for h in result.failing)
    assert result.mismatches == []
    return result


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_a_task_through_a_name_that_may_be_the_placed_source_is_ordered_with_the_rows_writer(tmp_path, name):
    before, rest = PROGRAMS[name]
    result = checked(tmp_path, body_of(before, rest), n=2)
    fills = kernels_of(result.emission, "fill")
    # by hand (n = 2): the rows' writer r, then the fills through t: w's, then s's (w, s in the
    # loops; s after the if; w, w, s, s in the nest); r and the fills of s write y's rows 0..3
    # (entry tensor 1), w is a buffer of its own
    # (the rows written after the assemble: w's, s's, then r)
    if name == "rows_written_after_the_assemble":
        assert [f.tensors[1].view.buffer for f in fills] == ["b0", "in1", "in1"]
        assert fills[1].id in waits_for(result.emission, fills[2])
        return
    writes_of_w = {"if_result": 0, "outer_carry_written_in_an_inner_loop": 2}.get(name, 1)
    writes_of_s = len(fills) - 1 - writes_of_w
    assert writes_of_s >= 1
    assert [f.tensors[1].view.buffer for f in fills] == ["in1"] + ["b0"] * writes_of_w + ["in1"] * writes_of_s
    rows_writer, first_of_s = fills[0], fills[1 + writes_of_w]
    assert rows_writer.id in waits_for(result.emission, first_of_s)


def test_a_carry_that_is_the_source_in_every_iteration_stays_the_users(tmp_path):
    # t is s on every iteration (a task's InOut result of it): two accesses to one source placed
    # once per instance, which the user names and orders (docs/semantics.md, "The user's"). The
    # compiler adds no edge: with the user's chain the tasks wait for the previous one only.
    body = body_of("", """s = pl.create_tensor([4, 16], dtype=pl.FP32)
t = s
tt = None
for i in pl.range(n):
    t, tt = pl.submit(self.fill, x, t, deps=[tt])
y = pl.assemble(y, t, [0, 0])""")
    result = checked(tmp_path, body, n=3)
    fills = kernels_of(result.emission, "fill")
    assert [f.tensors[1].view.buffer for f in fills] == ["in1"] * 3  # placed in y
    assert [f.deps for f in fills] == [(), (fills[0].id,), (fills[1].id,)]
