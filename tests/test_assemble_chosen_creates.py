"""An assemble whose source is one of several ``pl.create_tensor``s that one run all makes, the
one it takes chosen by ``if``s before it (``fuse_create_assemble_to_slice.place_chosen``).

The runtime has no copy: a source is placed by making its create a view of the target's rows
from its creation on. Two creates that one run both makes cannot both be that view (the later
one's writes would go to the bytes the earlier one holds), but when the ``if``s that choose which
one the assemble takes test conditions known where each create is made, each can be the view
exactly where the assemble takes it and its own buffer elsewhere: no run makes two of them views
of the same rows. Each is then checked as a single create placed only where its assemble runs
(docs/semantics.md "Across blocks"): its rows unused from its creation to the assemble, a fill
overwritten first, the uses after the assemble reads that see the copy.

Each program that compiles is checked on its values for the scalars that take each branch
(``tools/properties.check_text``: every stage interpreted, no hazard, every read observing what
it observes in the program as written, each assemble a copy); the C++ of some is read below.
A sequential ``pl.range`` loop of step 1 whose body passes its carries on (swapped, one copied to
another, by ``if``s of conditions known at the creates) chooses by its trip count: the result
holds the init of the carry the body's map, applied trip count times, leads to, a condition on
the loop's bounds (``n % 2 == 1`` for a swap).

The programs refused name the reason: a choice made by a loop's counter or a ``pl.parallel`` loop,
a condition not known where a create is made, a check of one create's placement that fails, a
second assemble of one of them where another is the view."""

from __future__ import annotations

import re

import pytest

from nanopass.errors import UserError
from nanopass.pipeline import PipelineError
from nanopass.tools.properties import Findings, check_text, compile_text
from test_fuse_across_blocks import HEAD, LINE, _cpp

# (n odd and even, 0 among them, for the loops whose trip count chooses; c for the ifs and as a
# trip count of 0 and 1)
RUNS_ODD_AND_EVEN = [{"n": str(n), "c": str(c)} for n in range(4) for c in (0, 1)]

MADE = """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = self.step(y, u)
"""

PLACEABLE = {
    # the attack tester's exhaustive rebinds program 55: the source is u where c > 0, t elsewhere;
    # v, a view of t, is dead; u read after the assemble (it sees the copy where it is the view)
    "swap_in_an_if": MADE + """        v = pl.tensor.slice(t, [8, 16], [0, 0])
        if c > 0:
            t = u
        big = pl.assemble(big, t, [16, 0])
        y = self.bump(u, y)
        return big
""",
    # both read after the assemble: where one is the view, the rows hold its value; the other is
    # its own buffer
    "both_read_after_the_assemble": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        v = t
        if c > 0:
            v = u
        big = pl.assemble(big, v, [0, 0])
        y = self.bump(t, y)
        y = self.bump(u, y)
        return big
""",
    # the choice in both branches of an if
    "if_else": MADE + """        if c > 0:
            s = t
        else:
            s = u
        big = pl.assemble(big, s, [16, 0])
        return big
""",
    # three creates, chosen by two nested ifs (on c, then n)
    "nested_ifs": MADE + """        w = pl.create_tensor([16, 16], dtype=pl.FP32)
        w = self.step(x, w)
        w = self.bump(y, w)
        if c > 0:
            s = t
        else:
            if n > 0:
                s = u
            else:
                s = w
        big = pl.assemble(big, s, [32, 0])
        y = self.bump(w, y)
        return big
""",
    # the assemble in an if of its own: each create the view where it is chosen and that if runs
    "assemble_in_an_if": MADE + """        s = t
        if c > 0:
            s = u
        if n > 0:
            big = pl.assemble(big, s, [16, 0])
        return big
""",
    # the choice and the assemble in a loop, the rows read after the assemble in each iteration
    "in_a_loop": MADE + """        for i in pl.range(n):
            s = t
            if c > 0:
                s = u
            big = pl.assemble(big, s, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            y = self.bump(r, y)
        return big
""",
    # t assembled again where it is the one chosen: the rows hold it already
    "assembled_again_where_chosen": MADE + """        s = t
        if c > 0:
            s = u
        big = pl.assemble(big, s, [16, 0])
        if c > 0:
            y = self.bump(x, y)
        else:
            big = pl.assemble(big, t, [16, 0])
        return big
""",
    # a swap in a loop where c > 0: after n trips t is u where c > 0 and n is odd
    "swapped_in_a_loop": MADE + """        for i in pl.range(n):
            if c > 0:
                o = t
                t = u
                u = o
        big = pl.assemble(big, t, [16, 0])
        y = self.bump(u, y)
        return big
""",
    # carries swapped by the yield, one written each trip: t is u after an odd number of trips
    "carries_swapped_by_the_yield": MADE + """        for i, (p, q) in pl.range(n, init_values=(t, u)):
            q = self.bump(x, q)
            t, u = pl.yield_(q, p)
        big = pl.assemble(big, t, [16, 0])
        y = self.bump(u, y)
        return big
""",
    # both written before a swap in a loop that may not run; u assembled, t read after
    "a_swap_in_a_loop_that_may_not_run": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        for i in pl.range(n):
            r = t
            t = u
            u = r
        big = pl.assemble(big, u, [0, 0])
        y = self.bump(t, y)
        return big
""",
    # two trips of a swap (constant bounds): t is t again, u never the source (its own buffer)
    "two_trips_of_a_swap": MADE + """        for i, (p, q) in pl.range(2, init_values=(t, u)):
            q = self.bump(x, q)
            t, u = pl.yield_(q, p)
        big = pl.assemble(big, t, [16, 0])
        y = self.bump(u, y)
        return big
""",
    # t rebound to u in a loop from 1 to n: t is u once the loop runs (n > 1)
    "a_copy_in_a_loop": MADE + """        for i in pl.range(1, n):
            t = u
        big = pl.assemble(big, t, [16, 0])
        return big
""",
    # a swap in a loop nest: t is u after an odd number of inner trips in all (n and c trips)
    "swaps_in_a_loop_nest": MADE + """        for i, (p, q) in pl.range(n, init_values=(t, u)):
            for j, (p2, q2) in pl.range(c, init_values=(p, q)):
                p2 = self.bump(x, p2)
                p, q = pl.yield_(q2, p2)
            t, u = pl.yield_(q, p)
        big = pl.assemble(big, t, [16, 0])
        y = self.bump(u, y)
        return big
""",
}


@pytest.mark.parametrize("name", sorted(PLACEABLE))
def test_creates_chosen_by_ifs_are_each_the_view_where_chosen_and_run_right(name):
    findings = Findings()
    failures = check_text(HEAD + PLACEABLE[name], RUNS_ODD_AND_EVEN, findings)
    assert failures == [], "\n".join(f"{f.kind}: {f.message}" for f in failures)
    assert findings.refused_by_design == 0 and findings.programs == 1


def _guarded_view(name: str, cond: str, view_in_then: bool, offset: str) -> str:
    """A pattern of the C++ of ``name`` made the view of big's rows at ``offset`` where ``cond``
    holds (``view_in_then``) or fails, its own buffer (an allocation) otherwise."""
    view = (rf"Tensor {name}__ssa_v0__placed = ext_big\.view\({name}__ssa_v0__placed_shapes, "
            rf"{name}__ssa_v0__placed_offsets\);\s*{name} = {name}__ssa_v0__placed;")
    own = rf"alloc_tensors\({name}__ssa_v0__own_ci\);.*?{name} = {name}__ssa_v0__own;"
    offsets = rf"uint32_t {name}__ssa_v0__placed_offsets\[2\] = \{{{offset}\}};\s*"
    view = offsets + r"uint32_t [^;]*;\s*" + view
    first, second = (view, own) if view_in_then else (own, view)
    return rf"Tensor {name} = [^;]*;\s*if \({cond}\) \{{.*?{first}.*?\}} else \{{.*?{second}"


# the C++ read against docs/semantics.md's placement: each create an if over the condition that
# chooses it, yielding the view of the assemble's rows (its offset) there and an allocation of its
# own elsewhere; the tasks write the names; the assemble is no copy (no statement of its own)
CPP = {
    # t is the view where c <= 0, u where c > 0
    "swap_in_an_if": [_guarded_view("t", "c > 0", False, "16, 0"), _guarded_view("u", "c > 0", True, "16, 0")],
    "if_else": [_guarded_view("t", "c > 0", True, "16, 0"), _guarded_view("u", "c > 0", False, "16, 0")],
    # t where c > 0; u where c <= 0 and n > 0; w where both fail (its own buffer where either holds)
    "nested_ifs": [_guarded_view("t", "c > 0", True, "32, 0"), _guarded_view("u", r"!\(c > 0\) && n > 0", True, "32, 0"),
                   _guarded_view("w", r"!\(c > 0\) && !\(n > 0\)", True, "32, 0")],
    # t where the loop runs no trip or an even number of them, u where an odd number
    "carries_swapped_by_the_yield": [
        _guarded_view("t", r"!\(0 < n\) \|\| \(0 < n && n % 2 == 0\)", True, "16, 0"),
        _guarded_view("u", r"0 < n && n % 2 == 1", True, "16, 0"),
    ],
}


@pytest.mark.parametrize("name", sorted(CPP))
def test_each_chosen_create_is_the_view_only_where_the_assemble_takes_it(name):
    code = _cpp(PLACEABLE[name])
    for pattern in CPP[name]:
        assert re.search(pattern, code, re.S), (pattern, code)
    creates = len(CPP[name])
    assert code.count(".view(") == creates and code.count("alloc_tensors(") == creates, code


SEVERAL = "pl.assemble needs a source made by pl.create_tensor, the same one on every path; "
UNCHOSEN = ("; nor can each be the view only where the assemble takes it (ifs before it choosing by conditions "
            "known where each is made): ")

# body -> (the line of the error in the body, the start of its message, a part of it or None)
REFUSED = {
    # the condition read from a tensor after t is made: not known where t is made
    "a_condition_read_after_a_create": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        e = pl.tensor.read(y, [0, 0])
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        s = t
        if e > 0.0:
            s = u
        big = pl.assemble(big, s, [16, 0])
        return big
""", 9, SEVERAL, UNCHOSEN + "which of them it takes is decided by 'e', which is not known where 't' is created "
        "(line 28)"),
    # t written after the assemble: where it is the view the write would change the rows
    "one_written_after_the_assemble": (MADE + """        s = t
        if c > 0:
            s = u
        big = pl.assemble(big, s, [16, 0])
        t = self.bump(x, t)
        y = self.bump(t, y)
        return big
""", 8, "'t' is used after it was assembled into 'big'", None),
    # the rows read between t's creation and the assemble (before u is made): as the view, t's
    # rows would be read before the assemble
    "the_rows_read_after_one_is_made": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        r = pl.tensor.slice(big, [16, 16], [16, 0])
        y = self.bump(r, y)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        s = t
        if c > 0:
            s = u
        big = pl.assemble(big, s, [16, 0])
        return big
""", 10, "pl.assemble cannot make 't' a view of 'big' (the runtime cannot copy): task bump (line 31) reads the rows "
        "of 'big' that 't' would share, between the creation of 't' and the assemble", None),
    # a fill never overwritten: as a view nothing fills it
    # the swap decided by the loop's counter, which is not known where t is made
    "swapped_on_the_loop_counter": (MADE + """        for i in pl.range(n):
            if i >= 1:
                o = t
                t = u
                u = o
        big = pl.assemble(big, t, [16, 0])
        return big
""", 10, SEVERAL + "'t' may be 't' (the pl.create_tensor of line 28) or 'u' (the pl.create_tensor of line 29) here",
        UNCHOSEN + "which of them it takes is decided by the counter of the loop of line 32, which is not known where "
        "'t' is created (line 28)"),
    # a pl.parallel loop's iterations are not ordered: its trips choose nothing known
    "swapped_in_a_parallel_loop": (MADE + """        for i, (p, q) in pl.parallel(n, init_values=(t, u)):
            t, u = pl.yield_(q, p)
        big = pl.assemble(big, t, [16, 0])
        return big
""", 7, SEVERAL, UNCHOSEN + "which of them it takes is decided by a loop (line 32) that is not a pl.range of step 1"),
    "a_fill_never_overwritten": ("""        t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = self.step(y, u)
        s = t
        if c > 0:
            s = u
        big = pl.assemble(big, s, [16, 0])
        return big
""", 7, "pl.assemble cannot make 't' a view of 'big' (the runtime cannot copy): 't' is made with an init_value", None),
    # t assembled again where u may be the one chosen (the view of the same rows there)
    "assembled_again_where_another_is_chosen": (MADE + """        s = t
        if c > 0:
            s = u
        big = pl.assemble(big, s, [16, 0])
        r = pl.tensor.slice(big, [16, 16], [16, 0])
        y = self.bump(r, y)
        big = pl.assemble(big, t, [16, 0])
        return big
""", 11, "pl.assemble cannot make 't' a view of 'big' (the runtime cannot copy): 't' is made a view of those rows only "
        "where the assemble of line 35 takes it among other creates, and this one may run where that one takes "
        "another", None),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_creates_not_chosen_so_or_failing_a_check_stay_refused(name):
    body, line, start, part = REFUSED[name]
    with pytest.raises((UserError, PipelineError)) as raised:
        compile_text(HEAD + body)
    error = raised.value.error if isinstance(raised.value, PipelineError) else raised.value
    message = str(error).split(": error: ", 1)[-1]
    assert message.startswith(start), message
    assert part is None or part in message, message
    assert error.span is not None and error.span.line == LINE + line
