"""A ``pl.assemble`` after an ``if`` whose source may be a create made in a branch of it
(``fuse_create_assemble_to_slice.place_chosen`` through ``_find_create_in_branch``; tools/attack
rebinds, "may be ... or ...: '…' is not made in a block around the assemble").

``t = create; if c > 0: t = create; ...; a = pl.assemble(a, t, ...)``: the if chooses which create
the assemble takes, by a condition known at each create. The create in the branch is made only on
the paths through that branch, so it is made the view of the rows where the assemble takes it
(its paths' conditions, which hold in its branch) and the other create where the assemble takes
it; each checked as a single create (nothing touches the rows from its creation to the assemble).
A create in a loop is made once per iteration: still refused, saying so.

Each program that compiles is checked on its values for c in 0 and 1 (``tools/properties.check_text``)."""

from __future__ import annotations

import pytest

from test_fuse_across_blocks import LINE, MADE, RUNS, checked_and_placed, refusal

OTHER = """        q = pl.create_tensor([16, 16], dtype=pl.FP32)
        q = self.step(y, q)
"""

# body -> a pattern of the C++ the views must stand in (re.S)
PLACEABLE = {
    # the same name's earlier create kept on the other path, and read after the branch's create
    "replaces_the_earlier_create": (MADE + """        r = p
        if c > 0:
            p = pl.create_tensor([16, 16], dtype=pl.FP32)
            p = self.step(y, p)
        y = self.bump(r, y)
        big = pl.assemble(big, p, [16, 0])
        return big
""", r"if \(c > 0\) \{.*alloc_tensors.*\} else \{.*ext_big\.view\(.*if \(c > 0\) \{\s*PTO2_SCOPE\(\) \{\s*"
        r"uint32_t \w+\[2\] = \{16, 0\};.*Tensor p__ssa_v2 = ext_big\.view\("),
    # another create on the other path, the branch's create not at the top of the branch
    "another_create_in_the_else": (MADE + OTHER + """        if c > 0:
            y = self.bump(x, y)
            p = pl.create_tensor([16, 16], dtype=pl.FP32)
            p = self.step(y, p)
        else:
            p = q
        big = pl.assemble(big, p, [16, 0])
        y = self.bump(q, y)
        return big
""", r"ext_big\.view\(.*ext_big\.view\("),
    # a create in an if nested in the branch
    "nested_ifs": (MADE + """        r = p
        if c > 0:
            y = self.bump(x, y)
            if n > 1:
                p = pl.create_tensor([16, 16], dtype=pl.FP32)
                p = self.step(y, p)
        y = self.bump(r, y)
        big = pl.assemble(big, p, [16, 0])
        return big
""", r"ext_big\.view\(.*ext_big\.view\("),
}

# tests/test_assemble_exclusive_creates.py's pairs that share no buffer: refused there before the
# choice through a branch's create; body (each create the view where the assemble takes it)
NOT_SHARED = {
    # the first create read (through a copy) after the second is made, in the branch
    "the_first_read_after_the_second_is_made": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        o = t
        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
            y = self.bump(o, y)
        big = pl.assemble(big, t, [16, 0])
        return big
""",
    # the first read after the assemble (test_assemble_completeness' wording case until then)
    "the_first_read_after_the_assemble": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        o = t
        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        big = pl.assemble(big, t, [0, 0])
        y = self.bump(o, y)
        return big
""",
    # the first create read through a view after the if (on the branch's path, after the second)
    "a_view_of_the_first_read_after_the_if": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        v = pl.tensor.slice(t, [8, 16], [0, 0])
        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        big = pl.assemble(big, t, [16, 0])
        e = pl.tensor.read(v, [1, 1])
        pl.tensor.write(y, [0, 0], e)
        return big
""",
    # the first passed on by the other branch: after the if, 'o' is the first on the branch's path too
    "the_first_passed_on_through_the_other_branch": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        o = t
        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        else:
            o = x
        big = pl.assemble(big, t, [16, 0])
        y = self.bump(o, y)
        return big
""",
    # the second written from the first: on the branch's path the first is its own buffer
    "the_second_written_from_the_first": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        if c > 0:
            o = t
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(o, t)
        big = pl.assemble(big, t, [16, 0])
        return big
""",
    # the second create never written in its branch: the rows hold what the copy holds, undefined
    "a_second_create_never_written": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
        big = pl.assemble(big, t, [16, 0])
        return big
""",
    # in a manual scope: no buffer shared, each create the view only on its own paths
    "in_a_manual_scope": """        with pl.manual_scope():
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(x, t)
            if c > 0:
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.step(y, t)
            big = pl.assemble(big, t, [16, 0])
        return big
""",
    # exclusive branches whose creates differ in fill: each the view in its branch, the fill overwritten
    "exclusive_but_different_fills": """        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
            t = self.step(x, t)
        else:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""",
}

# body -> (the line of the error, counted from the body's first, and the message's start)
REFUSED = {
    # the branch's create: a read of the rows between its creation and the assemble
    "rows_read_after_the_branch_create": (MADE + """        r = p
        if c > 0:
            p = pl.create_tensor([16, 16], dtype=pl.FP32)
            p = self.step(y, p)
        s = pl.tensor.slice(big, [16, 16], [16, 0])
        y = self.bump(s, y)
        y = self.bump(r, y)
        big = pl.assemble(big, p, [16, 0])
        return big
""", 10, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): task bump (line "),
    # a create in a loop: each iteration makes one
    "create_in_a_loop": (MADE + """        r = p
        for i in pl.range(n):
            p = pl.create_tensor([16, 16], dtype=pl.FP32)
            p = self.step(y, p)
        y = self.bump(r, y)
        big = pl.assemble(big, p, [16, 0])
        return big
""", 8, "pl.assemble needs a source made by pl.create_tensor, the same one on every path; 'p' may be "),
}


@pytest.mark.parametrize("name", sorted(PLACEABLE))
def test_a_create_in_a_branch_is_the_view_where_the_assemble_after_the_if_takes_it(name):
    body, pattern = PLACEABLE[name]
    checked_and_placed(body, RUNS + [{"n": "1", "c": "1"}], pattern)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_create_in_a_branch_whose_placement_would_be_seen_is_refused(name):
    body, line, message = REFUSED[name]
    error = refusal(body, line, message)
    if name == "create_in_a_loop":
        assert f"'p' is made in the loop of line {LINE + 4}, a buffer of its own in each iteration" in str(error), str(error)


@pytest.mark.parametrize("name", sorted(NOT_SHARED))
def test_creates_that_share_no_buffer_are_each_the_view_on_their_own_paths(name):
    runs = [{"n": str(n), "c": str(c)} for n in (0, 2) for c in (0, 1)]
    assert "ext_big.view(" in checked_and_placed(NOT_SHARED[name], runs)
