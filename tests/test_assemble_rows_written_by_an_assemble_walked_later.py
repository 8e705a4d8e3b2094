"""An assemble of another source into rows a placed source shares, in the placement's window
(``fuse_create_assemble_to_slice.check_placement_invisible``).

A source is placed by making its create a view of the target's rows from its creation on, so
nothing may write those rows between the create and the assemble, nor, in a loop around the
assemble, in the rest of the body before the next iteration's assemble (docs/semantics.md
"Across blocks"). The pass rewrites a block's assembles first and the bodies in it after them, so
an assemble of another source in such a window may not be rewritten yet when the placement is
checked: it is then still a ``pl.assemble`` (a write of the rows its source fills), not its
source's accesses to the rows. It was not counted as a write, and with the rows overlapping both
sources became views of the shared rows: the later writer's value stood where the copy puts the
first source's (an assemble in an ``if`` or a loop between the create and an assemble after it;
an assemble after the first in a loop, the rows read after the first in the next iteration).
Each program below compiled on 41ebca4 and its values differed from the program as written
(``check_text``: every read against the reference interpreter); each is refused now, naming the
assemble that writes the rows. Rows that do not overlap, the source itself assembled again into
its rows, and another create of a choice assembled where it is the one chosen (``place_chosen``:
no copy there, refused in its turn where it may run otherwise) stay placed and run right."""

from __future__ import annotations

import pytest

from nanopass.errors import UserError
from nanopass.pipeline import PipelineError
from nanopass.tools.properties import Findings, check_text, compile_text
from test_fuse_across_blocks import HEAD, LINE, _cpp

RUNS = [{"n": str(n), "c": str(c)} for n in range(3) for c in (0, 1)]

MADE = """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
"""

# body -> the line (in the body) of the assemble that writes t's rows
REFUSED = {
    # w's assemble in an if between t's create and t's assemble: rows 24..31 are t's after the
    # copies, w's as views (w is written after t)
    "an_assemble_in_an_if_before": (MADE + """        if c > 0:
            w = pl.create_tensor([16, 16], dtype=pl.FP32)
            w = self.step(y, w)
            big = pl.assemble(big, w, [16, 0])
        big = pl.assemble(big, t, [24, 0])
        return big
""", 6),
    # the same in a loop
    "an_assemble_in_a_loop_before": (MADE + """        for i in pl.range(n):
            w = pl.create_tensor([16, 16], dtype=pl.FP32)
            w = self.step(y, w)
            big = pl.assemble(big, w, [16, 0])
        big = pl.assemble(big, t, [24, 0])
        return big
""", 6),
    # in a loop, w's assemble after t's in the same body: the next iteration's read of t's rows
    # after t's assemble sees w's rows 24..31 (the copy put t's back)
    "an_assemble_after_in_the_loop": (MADE + """        for i in pl.range(n):
            big = pl.assemble(big, t, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            y = self.bump(r, y)
            w = pl.create_tensor([16, 16], dtype=pl.FP32)
            w = self.step(y, w)
            big = pl.assemble(big, w, [24, 0])
        return big
""", 9),
    # the same with w's assemble in an if in the loop
    "an_assemble_in_an_if_after_in_the_loop": (MADE + """        for i in pl.range(n):
            big = pl.assemble(big, t, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            y = self.bump(r, y)
            if c > 0:
                w = pl.create_tensor([16, 16], dtype=pl.FP32)
                w = self.step(y, w)
                big = pl.assemble(big, w, [24, 0])
        return big
""", 10),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_assemble_of_another_source_into_the_rows_in_the_window_refuses(name):
    body, line = REFUSED[name]
    with pytest.raises((UserError, PipelineError)) as raised:
        compile_text(HEAD + body)
    error = raised.value.error if isinstance(raised.value, PipelineError) else raised.value
    message = str(error).split(": error: ", 1)[-1]
    assert message.startswith(
        f"pl.assemble cannot make 't' a view of 'big' (the runtime cannot copy): the pl.assemble of line {LINE + line} "
        "writes the rows of 'big' that 't' would share"
    ), message


PLACEABLE = {
    # w's rows (16..31) and t's (32..47) do not overlap: both placed
    "rows_apart": MADE + """        if c > 0:
            w = pl.create_tensor([16, 16], dtype=pl.FP32)
            w = self.step(y, w)
            big = pl.assemble(big, w, [16, 0])
        big = pl.assemble(big, t, [32, 0])
        return big
""",
    # t itself assembled into its rows in the if: the second assemble is no copy
    "the_source_itself_again": MADE + """        if c > 0:
            big = pl.assemble(big, t, [16, 0])
        big = pl.assemble(big, t, [16, 0])
        r = pl.tensor.slice(big, [16, 16], [16, 0])
        y = self.bump(r, y)
        return big
""",
    # tools/attack exhaustive rebinds program 111: u is the view where c <= 0, t where c > 0; t's
    # assemble in the if runs only where t is the view (no copy there), so it is no write of u's
    # rows (refused by the first form of the check, which took it for one)
    "another_create_of_the_choice_assembled_where_chosen": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        u = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        u = self.step(y, u)
        if c > 0:
            big = pl.assemble(big, t, [16, 0])
        else:
            r1 = t
            t = u
            u = r1
        big = pl.assemble(big, t, [16, 0])
        y = self.bump(u, y)
        return big
""",
    # in a loop, w into other rows after t's assemble, t's rows read in the next iteration
    "rows_apart_in_a_loop": MADE + """        for i in pl.range(n):
            big = pl.assemble(big, t, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            y = self.bump(r, y)
            w = pl.create_tensor([16, 16], dtype=pl.FP32)
            w = self.step(y, w)
            big = pl.assemble(big, w, [32, 0])
        return big
""",
}


@pytest.mark.parametrize("name", sorted(PLACEABLE))
def test_rows_apart_and_the_source_itself_again_stay_placed_and_run_right(name):
    findings = Findings()
    failures = check_text(HEAD + PLACEABLE[name], RUNS, findings)
    assert failures == [], "\n".join(f"{f.kind}: {f.message}" for f in failures)
    assert findings.refused_by_design == 0 and findings.programs == 1
    assert ".view(" in _cpp(PLACEABLE[name])  # (placed: no copy was needed)
