"""An assemble whose source may be one of several ``pl.create_tensor``s (``fuse_create_assemble_to_slice``,
``share_exclusive_creates``).

A source is placed by making its create a view of the target's rows from its creation on. Two
creates can both be that view where no run needs both values at once, and the compiler then makes
them one buffer, which is placed as a single create (each path from it to the assemble leaving the
rows alone, a fill overwritten on each path, the uses after the assemble seeing the copy):

- a create at the top of each branch of one ``if`` (the same shape, dtype and fill, the shape read
  from names bound before the ``if``): every run makes exactly one, so it is made once, before the
  ``if``;
- a create before an ``if`` and one at the top of a branch that replaces it (the same shape and
  dtype), where the second is overwritten by a task's ``Out`` argument in its branch before
  anything reads it and nothing reads the first one's value from the second's creation on (through
  its name, a copy, a view, a carry): the second becomes a copy of the first. A read of the first
  before the second is made stays, ordered before the second's writer.

Creates that one run may both make while both values are needed (the first read after the second
is made, through a copy or a view), and pairs the compiler does not prove (a second create never
written in its branch, creates in a manual scope, creates on exclusive branches that differ), are
not shared: where ``if``s choose which one the assemble takes, each is the view where it is taken
(two creates made before those ``if``s: tests/test_assemble_chosen_creates.py; one made in a
branch: tests/test_assemble_create_in_a_branch.py, which holds those pairs). A pair whose
placement a check refuses stays refused (that check's own message).

Each program that compiles is checked on its values for the scalars that take either branch
(``tools/properties.check_text``: every stage interpreted, no hazard, every read observing what it
observes in the program as written, each assemble a copy); the C++ of some is read below."""

from __future__ import annotations

import re

import pytest

from nanopass.errors import UserError
from nanopass.pipeline import PipelineError
from nanopass.tools.properties import Findings, check_text, compile_text
from test_fuse_across_blocks import HEAD, LINE, RUNS

PLACEABLE = {
    # the program: a create at the top of each branch, each written by its own task
    "two_branches": """        if n > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(x, t)
        else:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        big = pl.assemble(big, t, [16, 0])
        return big
""",
    # an elif chain: three creates, shared pairwise from the innermost if out
    "elif_chain": """        if n > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(x, t)
        elif c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        else:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(x, t)
            t = self.bump(y, t)
        big = pl.assemble(big, t, [32, 0])
        return big
""",
    # the same fill in both branches, overwritten by an Out argument on each path
    "filled_and_overwritten": """        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
            t = self.step(x, t)
        else:
            t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
            t = self.step(y, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""",
    # the source read after the assemble (a read nothing writes before it: it sees the copy)
    "read_after_the_assemble": """        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(x, t)
        else:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
            t = self.bump(x, t)
        big = pl.assemble(big, t, [16, 0])
        y = self.bump(t, y)
        return big
""",
    # the if in a loop: each iteration makes one create, assembles it, and the rows are read after
    "in_a_loop": """        for i in pl.range(2):
            if c > 0:
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.step(x, t)
            else:
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.step(y, t)
            big = pl.assemble(big, t, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            y = self.bump(r, y)
        return big
""",
    # a create before an if that a branch replaces: the first one's value is not read once the
    # second is made (the assemble takes the second on that path)
    "replaced_in_a_branch": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        big = pl.assemble(big, t, [0, 0])
        y = self.bump(x, y)
        return big
""",
    # the first read in the branch before the second is made: that read is ordered before the
    # second's writer (nothing else orders them: a write-after-read edge)
    "replaced_after_a_read_of_the_first": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        if c > 0:
            y = self.bump(t, y)
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(x, t)
        big = pl.assemble(big, t, [16, 0])
        return big
""",
    # in the else branch, in a loop whose body makes the first create each iteration
    "replaced_in_the_else_branch_in_a_loop": """        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(x, t)
            if c > 0:
                y = self.bump(x, y)
            else:
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.step(y, t)
            big = pl.assemble(big, t, [16, 0])
        return big
""",
    # a copy of the first in the branch that nothing reads, and a host read of it before the if
    "replaced_after_a_host_read_with_a_dead_copy": """        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        e = pl.tensor.read(t, [1, 1])
        o = t
        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
            z = o
        big = pl.assemble(big, t, [16, 0])
        pl.tensor.write(y, [0, 0], e)
        return big
""",
}


@pytest.mark.parametrize("name", sorted(PLACEABLE))
def test_creates_whose_values_no_run_needs_at_once_share_the_rows_and_run_right(name):
    findings = Findings()
    failures = check_text(HEAD + PLACEABLE[name], RUNS, findings)
    assert failures == [], "\n".join(f"{f.kind}: {f.message}" for f in failures)
    assert findings.refused_by_design == 0 and findings.programs == 1


REPLACED = (
    "a create before an if that a branch replaces by a second shares the rows only where the second is overwritten "
    "before it is read and nothing reads the first from then on, but "
)
SEVERAL = "pl.assemble needs a source made by pl.create_tensor, the same one on every path; "
MADE_ON = "each create is a buffer of its own, and a source is made a view of the rows of 'big' from its creation on; "

# body -> (the line of the error in the body, the start of its message)
REFUSED = {
    # shared, then placed: a branch reads the rows between its create and the assemble, which as a
    # view would see the source there
    "a_branch_reads_the_rows_after_its_create": ("""        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(x, t)
        else:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
            r = pl.tensor.slice(big, [16, 16], [0, 0])
            y = self.bump(r, y)
        big = pl.assemble(big, t, [0, 0])
        return big
""", 9, "pl.assemble cannot make 't' a view of 'big' (the runtime cannot copy): task bump "
        f"(line {LINE + 8}) reads the rows of 'big' that 't' would share, between the creation of 't' and the assemble"),
    # shared, then placed: the fill is overwritten on one path only (bump reads it on the other)
    "a_fill_read_on_one_path": ("""        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
            t = self.step(x, t)
        else:
            t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)
            t = self.bump(y, t)
        big = pl.assemble(big, t, [0, 0])
        return big
""", 7, "pl.assemble cannot make 't' a view of 'big' (the runtime cannot copy): 't' is made with an init_value, "
        "and as a view of 'big' nothing would fill it"),
    # shared, then placed: the rows written after the assemble, then the source read (it would see
    # the new rows, the copy the source's)
    "a_read_of_the_source_after_its_rows_are_written": ("""        if c > 0:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(x, t)
        else:
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.step(y, t)
        big = pl.assemble(big, t, [0, 0])
        r = pl.tensor.slice(big, [16, 16], [0, 0])
        r = self.step(y, r)
        y = self.bump(t, y)
        return big
""", 7, "'t' is used after it was assembled into 'big'"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_creates_that_cannot_share_the_rows_stay_refused(name):
    body, line, message = REFUSED[name]
    with pytest.raises((UserError, PipelineError)) as raised:
        compile_text(HEAD + body)
    error = raised.value.error if isinstance(raised.value, PipelineError) else raised.value
    assert str(error).split(": error: ", 1)[-1].startswith(message), str(error)
    assert error.span is not None and error.span.line == LINE + line


# the C++ of an accepted program, read against docs/semantics.md's placement: one view of the
# target's rows (the assemble's offset, the source's shape) made before the if, which every path's
# tasks write; no buffer is allocated for the source
VIEWS = {
    "two_branches": (r"uint32_t t_offsets\[2\] = \{16, 0\};\s*uint32_t t_shapes\[2\] = \{16, 16\};\s*"
                     r"Tensor t = ext_big\.view\(t_shapes, t_offsets\);\s*if \(n > 0\) \{.*add_input\(ext_x\);\s*"
                     r"params_t0\.add_output\(t\);.*\} else \{.*add_input\(ext_y\);\s*params_t1\.add_output\(t\);"),
    "elif_chain": (r"uint32_t t_offsets\[2\] = \{32, 0\};\s*uint32_t t_shapes\[2\] = \{16, 16\};\s*"
                   r"Tensor t = ext_big\.view\(t_shapes, t_offsets\);\s*if \(n > 0\) \{.*params_t0\.add_output\(t\);"
                   r".*\} else \{.*if \(c > 0\) \{.*params_t1\.add_output\(t\);.*\} else \{.*params_t2\.add_output\(t\);"
                   r".*params_t3\.add_inout\(t\);"),
    # the second create a copy of the first: one view, written by the first's task, then by the
    # branch's (an InOut, after it); the bump of y after the if waits for the branch's step, which read y
    "replaced_in_a_branch": (r"uint32_t t_offsets\[2\] = \{0, 0\};\s*uint32_t t_shapes\[2\] = \{16, 16\};\s*"
                             r"Tensor t = ext_big\.view\(t_shapes, t_offsets\);.*params_t0\.add_input\(ext_x\);\s*"
                             r"params_t0\.add_output\(t\);.*if \(c > 0\) \{.*params_t1\.add_input\(ext_y\);\s*"
                             r"params_t1\.add_inout\(t\);.*\}\s*\}\s*// Task 2: bump"),
    # the read of the first in the branch comes before the second's writer: an explicit edge
    "replaced_after_a_read_of_the_first": (r"Tensor t = ext_big\.view\(t_shapes, t_offsets\);.*if \(c > 0\) \{.*"
                                           r"params_t1\.add_input\(t\);.*PTO2TaskId bump_tid = .*"
                                           r"params_t2\.add_inout\(t\);.*params_t2_deps\[params_t2_deps_count\+\+\] = "
                                           r"bump_tid;"),
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_the_shared_create_is_one_view_made_before_the_if(name):
    from test_fuse_across_blocks import _cpp

    code = _cpp(PLACEABLE[name])
    assert re.search(VIEWS[name], code, re.S), code
    assert "alloc_tensors" not in code and code.count(".view(") == 1, code


@pytest.mark.parametrize("ifs", [3, 12])
def test_the_ifs_of_exclusive_creates_are_shared_in_one_round(ifs, monkeypatch):
    # every if's pair is shared at once: the function is analysed again once, however many ifs
    # (one round per pair analysed it again per if: quadratic, 2.3 s of the pass at 200 ifs)
    from conftest import counting

    from nanopass.passes.fuse_create_assemble_to_slice import FuseCreateAssembleToSlice

    lines = []
    for i in range(ifs):
        lines += [f"if n > {i}:",
                  f"    t{i} = pl.create_tensor([16, 16], dtype=pl.FP32)",
                  f"    t{i} = self.k1(x, t{i})",
                  "else:",
                  f"    t{i} = pl.create_tensor([16, 16], dtype=pl.FP32)",
                  f"    t{i} = self.k2(x, t{i})",
                  f"out = pl.assemble(out, t{i}, [{16 * i}, 0])"]
    source = f'''import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k1(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def k2(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[{16 * ifs}, 16], pl.FP32]],
             n: pl.Scalar[pl.INT64]) -> pl.Tensor[[{16 * ifs}, 16], pl.FP32]:
''' + "".join(f"        {line}\n" for line in lines) + "        return out\n"
    calls = counting(monkeypatch, FuseCreateAssembleToSlice, "analyse")
    from nanopass.api import result_from_stages

    stages, _program = compile_text(source)
    code = result_from_stages(stages).code
    assert code.count(".view(") == ifs  # (each pair one view of its rows)
    assert len(calls) == 2  # the input, and the program with every pair shared
