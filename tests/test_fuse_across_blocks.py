"""``fuse_create_assemble_to_slice`` across blocks (``fuse_across``, ``check_uses_after``;
docs/semantics.md "Still open" 16, tools/attack/found/42-44).

A source made in a block around its assemble, or in a ``with`` block before it, is placed on the
path where the assemble runs: through ``with`` blocks the create becomes the view; through an
``if`` (or a ``pl.range`` loop) whose condition is known at the create, the create becomes an
``if`` over that condition (the loop's start below its stop) yielding the view when the assemble
will run and a fresh buffer otherwise. The uses of the source after its assemble may follow the
``with`` blocks around it. Where the path is not known at the create (a condition read after it,
two conditions, a ``pl.while_`` loop; a ``pl.parallel`` one: test_assemble_in_parallel_loops), or a use after the assemble follows an
``if`` or a loop around it, the program is refused, located at the assemble.

Each program that compiles is checked on its values for the scalars that take and skip the
assemble (``tools/properties.check_text``: every stage interpreted, no hazard, every read seeing
what it sees in the program as written, where each assemble is a copy)."""

from __future__ import annotations

import re

import pytest

from nanopass.errors import UserError
from nanopass.pipeline import PipelineError
from nanopass.tools.properties import Findings, check_text
from test_fuse_nested_assembles import HEAD as NESTED_HEAD

# (test_fuse_nested_assembles' program head: kernels wr-like ``step`` and ``bump``, with the
# scalars n and c added to the orchestration's parameters)
HEAD = NESTED_HEAD.replace(
    "        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],\n",
    "        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],\n        n: pl.Scalar[pl.INT64],\n        c: pl.Scalar[pl.INT64],\n",
)
LINE = HEAD.count("\n")  # (the line before the body's first)
MADE = """        p = pl.create_tensor([16, 16], dtype=pl.FP32)
        p = self.step(x, p)
"""
RUNS = [{"n": str(n), "c": str(c)} for n in (0, 2) for c in (0, 1)]

# body -> a pattern of the C++ the view must stand in (re.S)
PLACEABLE = {
    # found/43: the assemble in an if, the condition known at the create: the view when it runs
    "if": (MADE + """        if c > 0:
            big = pl.assemble(big, p, [16, 0])
        return big
""", r"if \(c > 0\) \{.*ext_big\.view\(.*\} else \{.*alloc_tensors"),
    # in the else branch: the view when the condition fails
    "else": (MADE + """        if c > 0:
            y = self.bump(x, y)
        else:
            big = pl.assemble(big, p, [16, 0])
        return big
""", r"if \(c > 0\) \{.*alloc_tensors.*\} else \{.*ext_big\.view\("),
    # a pl.range loop: each iteration assembles again; the view when it runs at least once
    "loop": (MADE + """        for i in pl.range(n):
            big = pl.assemble(big, p, [16, 0])
        return big
""", r"if \(0 < n\) \{.*ext_big\.view\(.*\} else \{.*alloc_tensors"),
    # a loop of constant bounds known to run: the view itself, no if around it
    "loop_known_to_run": (MADE + """        for i in pl.range(2):
            big = pl.assemble(big, p, [16, 0])
        return big
""", r"^(?!.*\bif \().*Tensor p = ext_big\.view\("),
    # one known not to run keeps its (false) condition: the source its own buffer
    "loop_known_not_to_run": (MADE + """        for i in pl.range(2, 2):
            big = pl.assemble(big, p, [16, 0])
        return big
""", r"if \(2 < 2\) \{.*ext_big\.view\(.*\} else \{.*alloc_tensors"),
    # an if in a loop, both conditions known at the create: the view when both hold
    "if_in_a_loop": (MADE + """        for i in pl.range(n):
            if c > 0:
                big = pl.assemble(big, p, [16, 0])
        return big
""", r"if \(0 < n && c > 0\) \{.*ext_big\.view\(.*\} else \{.*alloc_tensors"),
    # the rows read after the assemble in the loop: they hold the source until one is written
    "loop_reads_the_rows_after_the_assemble": (MADE + """        for i in pl.range(n):
            big = pl.assemble(big, p, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            y = self.bump(r, y)
        return big
""", r"if \(0 < n\) \{.*ext_big\.view\("),
    # a manual scope around the assemble: it runs once, the create is the view
    "with_around_the_assemble": (MADE + """        with pl.manual_scope():
            big = pl.assemble(big, p, [16, 0])
        return big
""", r"^(?!.*alloc_tensors).*ext_big\.view\("),
    # the create and writer in a manual scope, the assemble after it
    "create_in_a_with_block": ("""        with pl.manual_scope():
            p = pl.create_tensor([16, 16], dtype=pl.FP32)
            p, tp = pl.submit(self.step, x, p)
        big = pl.assemble(big, p, [16, 0])
        return big
""", r"^(?!.*alloc_tensors).*PTO2ScopeMode::MANUAL.*ext_big\.view\("),
    # found/42: the source read after the manual scope of its assemble
    "read_after_the_with_block": ("""        with pl.manual_scope():
            p = pl.create_tensor([16, 16], dtype=pl.FP32)
            p, tp = pl.submit(self.step, x, p)
            big = pl.assemble(big, p, [16, 0])
        y = self.bump(p, y)
        return big
""", r"^(?!.*alloc_tensors).*ext_big\.view\("),
    # found/44: the source read in a with block before a write of its rows there
    "read_in_a_with_block_before_a_write": (MADE + """        big = pl.assemble(big, p, [16, 0])
        with pl.manual_scope():
            q, tq = pl.submit(self.bump, p, y)
            pl.tensor.write(big, [17, 1], 1.0)
        return big
""", r"^(?!.*alloc_tensors).*ext_big\.view\("),
    # the source read after the if around its assemble: on the path that placed it, the read
    # follows the assemble; on the other, the source is its own buffer
    "read_after_the_if": (MADE + """        if c > 0:
            big = pl.assemble(big, p, [16, 0])
        y = self.bump(p, y)
        return big
""", r"if \(c > 0\) \{.*ext_big\.view\("),
    # the source read after its assemble inside the if
    "read_in_the_if": (MADE + """        if c > 0:
            big = pl.assemble(big, p, [16, 0])
            y = self.bump(p, y)
        return big
""", r"if \(c > 0\) \{.*ext_big\.view\("),
}

# body -> (the line of the assemble, counted from the body's first, and the message's start)
REFUSED = {
    # whether the if runs the assemble is decided after the create (i is the loop's)
    "condition_after_the_create": (MADE + """        for i in pl.range(n):
            if i > 0:
                big = pl.assemble(big, p, [16, 0])
        return big
""", 5, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): 'p' is created outside the "
        "pl.range loop and the if around the assemble, and whether the assemble runs is decided by 'i'"),
    "condition_bound_after_the_create": (MADE + """        k = c + 1
        if k > 1:
            big = pl.assemble(big, p, [16, 0])
        return big
""", 5, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): 'p' is created outside the if "
        "around the assemble, and whether the assemble runs is decided by 'k'"),
    # a use of the source after the loop around its assemble, which the loop's body writes after it
    "write_in_the_loop_read_after_it": (MADE + """        for i in pl.range(n):
            big = pl.assemble(big, p, [16, 0])
            p = self.bump(x, p)
        y = self.bump(p, y)
        return big
""", 4, "'p' is used after it was assembled into 'big'"),
    # the rows written after the assemble in the loop: the next iteration's copy would restore them
    "loop_writes_the_rows_after_the_assemble": (MADE + """        for i in pl.range(n):
            big = pl.assemble(big, p, [16, 0])
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            r = self.bump(x, r)
        return big
""", 4, "pl.assemble cannot make 'p' a view of 'big' (the runtime cannot copy): task bump (line "),
    # the rows read after a write of the source after the assemble in the loop
    "loop_reads_the_rows_after_a_write_of_the_source": (MADE + """        for i in pl.range(n):
            big = pl.assemble(big, p, [16, 0])
            p = self.bump(x, p)
            r = pl.tensor.slice(big, [16, 16], [16, 0])
            y = self.bump(r, y)
        return big
""", 4, "'p' is used after it was assembled into 'big'"),
    # a use after the with block that a write of the source's rows in it comes before
    "read_after_a_write_in_the_with_block": ("""        with pl.manual_scope():
            p = pl.create_tensor([16, 16], dtype=pl.FP32)
            p, tp = pl.submit(self.step, x, p)
            big = pl.assemble(big, p, [16, 0])
            pl.tensor.write(big, [17, 1], 1.0)
        y = self.bump(p, y)
        return big
""", 4, "'p' is used after it was assembled into 'big'"),
}


@pytest.mark.parametrize("name", sorted(PLACEABLE))
def test_a_source_made_in_another_block_is_placed_where_the_assemble_runs(name):
    body, pattern = PLACEABLE[name]
    checked_and_placed(body, RUNS, pattern)


def checked_and_placed(body: str, runs: list[dict], pattern: str | None = None) -> str:
    """The C++ of ``HEAD + body``, after the hazard checker found it clean on ``runs`` (one
    program, nothing refused by design) and, with ``pattern``, that the C++ matches it."""
    findings = Findings()
    failures = check_text(HEAD + body, runs, findings)
    assert failures == [], "\n".join(f"{f.kind}: {f.message}" for f in failures)
    assert findings.refused_by_design == 0 and findings.programs == 1
    code = _cpp(body)
    if pattern is not None:
        assert re.search(pattern, code, re.S), code
    return code


def refusal(body: str, line: int, message: str):
    """The error that refuses ``HEAD + body``: its message starts with ``message`` and it names
    line ``LINE + line``."""
    with pytest.raises((UserError, PipelineError)) as raised:
        _cpp(body)
    error = raised.value.error if isinstance(raised.value, PipelineError) else raised.value
    assert str(error).split(": error: ", 1)[-1].startswith(message), str(error)
    assert error.span is not None and error.span.line == LINE + line
    return error


def _cpp(body: str) -> str:
    import tempfile
    from pathlib import Path

    import nanopass
    from nanopass.loader import load_programs

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "across.py"
        path.write_text(HEAD + body)
        return nanopass.generate_orchestration(load_programs(str(path))[0]).code


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_placement_the_path_does_not_decide_at_the_create_is_refused_at_the_assemble(name):
    body, line, message = REFUSED[name]
    error = refusal(body, line, message)
    assert re.search(rf"across\.py:{LINE + line}:\d+: error", str(error)), str(error)
