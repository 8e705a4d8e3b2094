"""Outlining's ``_LiveReads`` (passes/frontend/ops/outlining.py): one walk of a function body
answers, for every block and every name it binds, the first read after the block on a path that
has not rebound the name. It gives what the walks it replaces gave (kept below as the reference: a walk of the body per
block, and per block variable whose first later use rebinds it, quadratic in the blocks), on the
corpus, on generated programs, and on the cases of each rule; and a program of many blocks, each
rebinding its names after it, is walked a number of times linear in its blocks."""

from __future__ import annotations

import ast

import pytest
from conftest import REPO

from nanopass.passes.frontend.ops import outlining
from nanopass.passes.frontend.ops.outlining import _LiveReads, _names


def reference_first_live_read(stmts, end, var, rebound):
    """The walk ``_LiveReads`` replaces (outlining.py before it), as it was."""

    def reads(node):
        return None if node is None or rebound else next((n for n in _names(node, ast.Load) if n.id == var), None)

    def binds(node):
        return any(n.id == var for n in _names(node, ast.Store))

    for s in stmts:
        if (s.end_lineno, s.end_col_offset) <= end:
            continue
        if (s.lineno, s.col_offset) < end:
            parts = [s.body, s.orelse] if isinstance(s, (ast.If, ast.For, ast.While)) else [s.body]
            inner = next(p for p in parts if p and (p[-1].end_lineno, p[-1].end_col_offset) >= end)
            read, rebound = reference_first_live_read(inner, end, var, rebound)
        elif isinstance(s, ast.If):
            read = reads(s.test)
            if read is None:
                read, then = reference_first_live_read(s.body, end, var, rebound)
                if read is None:
                    read, other = reference_first_live_read(s.orelse, end, var, rebound)
                    rebound = then and other
        elif isinstance(s, ast.For) and outlining._is_spmd_loop(s):  # a block: its body runs
            read = reads(s.iter)
            if read is None:
                read, rebound = reference_first_live_read(s.body, end, var, rebound or binds(s.target))
        elif isinstance(s, (ast.For, ast.While)):
            read = reads(s.iter if isinstance(s, ast.For) else s.test)
            if read is None:
                read = reference_first_live_read(
                    s.body, end, var, rebound or (isinstance(s, ast.For) and binds(s.target)))[0]
        elif isinstance(s, ast.With):
            read = next(filter(None, (reads(item.context_expr) for item in s.items)), None)
            if read is None:
                read, rebound = reference_first_live_read(s.body, end, var, rebound)
        elif isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            read = reads(s.value)
            if isinstance(s, ast.AugAssign) and read is None and not rebound:
                read = next((n for n in _names(s.target) if n.id == var), None)
            rebound = rebound or any(binds(t) for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))
        else:
            read = reads(s)
            rebound = rebound or binds(s)
        if read is not None:
            return read, rebound
    return None, rebound


def _blocks(stmts, loops=()):
    """(block, the host loops around it): the with statements and ``pl.spmd`` loops of ``stmts``
    (what outlining asks about), at any depth of their compound statements."""
    for s in stmts:
        if isinstance(s, ast.With) or isinstance(s, ast.For) and outlining._is_spmd_loop(s):
            yield s, loops
        inner = loops + (s,) if isinstance(s, (ast.For, ast.While)) and not outlining._is_spmd_loop(s) else loops
        for part in ("body", "orelse"):
            yield from _blocks(getattr(s, part, None) or [], inner)


def _next_iteration_read(node, block, loops) -> bool:
    """Whether ``node`` reads, in a host loop around ``block``, before the block's end: a read of the
    next iteration, which the walk this test keeps as reference did not look for."""
    end = (block.end_lineno, block.end_col_offset)
    return node is not None and isinstance(node.ctx, ast.Load) and (node.lineno, node.col_offset) < end and any(
        (loop.lineno, loop.col_offset) < (node.lineno, node.col_offset) for loop in loops)


def _compare(body) -> int:
    """Checks every (block, name it binds) of ``body``; returns how many."""
    table = _LiveReads(body).found
    checked = 0
    for block, loops in _blocks(body):
        end = (block.end_lineno, block.end_col_offset)
        for var in {n.id for n in _names(block, ast.Store)}:
            found = table.get(((block.lineno, block.col_offset), var))
            expected = reference_first_live_read(body, end, var, False)[0]
            assert found is expected or _next_iteration_read(found, block, loops), (end, var)
            checked += 1
    return checked


def _functions(source: str):
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            yield node.body


CORPUS = sorted([*(REPO / "tests" / "user_programs" / "valid").glob("*.py"), *(REPO / "examples").glob("*.py"),
                 *(REPO / "tests" / "user_programs" / "invalid").glob("*.py")])


def test_the_one_walk_answers_as_the_walks_it_replaces_on_the_corpus():
    checked = 0
    for path in CORPUS:
        try:
            source = path.read_text()
            ast.parse(source)
        except SyntaxError:
            continue
        for body in _functions(source):
            checked += _compare(body)
    assert checked > 50


def test_the_one_walk_answers_as_the_walks_it_replaces_on_generated_programs():
    from nanopass.tools.attack import program as P
    from nanopass.tools.attack import surface_generate

    checked = 0
    for seed in range(30):
        for body in _functions(P.render(surface_generate.generate(seed)).source):
            checked += _compare(body)
    assert checked > 50


CASES = {
    "read after": "with B:\n    t = 1\nx = t\n",
    "rebound, then read": "with B:\n    t = 1\nt = 2\nx = t\n",
    "rebound in one branch": "with B:\n    t = 1\nif c:\n    t = 2\nelse:\n    y = 1\nx = t\n",
    "rebound in both branches": "with B:\n    t = 1\nif c:\n    t = 2\nelse:\n    t = 3\nx = t\n",
    "read in the else-branch": "with B:\n    t = 1\nif c:\n    t = 2\nelse:\n    x = t\nx = t\n",
    "read in the test": "with B:\n    t = 1\nt = 0\nif t > c:\n    pass\n",
    "rebound in a loop": "with B:\n    t = 1\nfor i in pl.range(n):\n    t = 2\nx = t\n",
    "loop target": "with B:\n    i = 1\nfor i in pl.range(n):\n    x = i\nx = i\n",
    "loop reads, then rebinds": "with B:\n    t = 1\nt = 0\nfor i in pl.range(t):\n    x = t\n    t = 3\n    y = t\n",
    "augmented": "with B:\n    t = 1\nif c:\n    t = 0\nt += 1\n",
    "block in a branch": "if c:\n    with B:\n        t = 1\n    t = 2\nelse:\n    x = t\nx = t\n",
    "block in a branch, read in the other": "if c:\n    with B:\n        t = 1\nelse:\n    x = t\ny = t\n",
    "block in the else-branch": "if c:\n    x = t\nelse:\n    with B:\n        t = 1\n    if d:\n        t = 2\nx = t\n",
    "block in a loop": "for i in pl.range(n):\n    with B:\n        t = 1\n    t = 2\nx = t\n",
    "block ending a loop": "for i in pl.range(n):\n    with B:\n        t = 1\nt = 2\nx = t\n",
    "nested ifs": "with B:\n    t = 1\nif c:\n    if d:\n        t = 2\n    else:\n        t = 3\nelse:\n    if e:\n        t = 4\nx = t\n",
    "both branches, nested": "with B:\n    t = 1\nif c:\n    if d:\n        t = 2\n    else:\n        t = 3\nelse:\n    t = 4\nx = t\n",
    "two blocks": "with B:\n    t = 1\nif c:\n    t = 2\nwith B:\n    t = 3\n    u = t\nif d:\n    t = 4\nx = t\n",
    "with reads": "with B:\n    t = 1\nt = 0\nwith pl.at(level=t):\n    t = 2\nx = t\n",
    "rebound in a pl.spmd block": "with B:\n    t = 1\nfor bi in pl.spmd(2):\n    t = 2\nx = t\n",
    "rebound on one path of a pl.spmd block": "with B:\n    t = 1\nfor bi in pl.spmd(2):\n    if c:\n        t = 2\nx = t\n",
    "if holding a block, then-branch rebinds": "if c:\n    with B:\n        t = 1\n    if d:\n        t = 2\n"
                                                "    else:\n        pass\nelse:\n    t = 5\n    x = t\ny = t\n",
}


@pytest.mark.parametrize("case", CASES)
def test_the_one_walk_answers_as_the_walks_it_replaces_in_each_case(case):
    assert _compare(ast.parse(CASES[case].replace("with B:", "with pl.at(level=L):")).body) >= 1


def _outlining_calls(n: int, tmp_path) -> int:
    """The calls of outlining.py's functions (generators' resumptions among them) while the front end
    reads a function of ``n`` blocks, each block's t and u rebound by the next block."""
    import sys

    from conftest import load_program

    lines = ["import nanopass.dsl as pl", "", "", "@pl.program", "class Many:", "    @pl.function",
             "    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],",
             "             out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:"]
    for k in range(n):
        lines += [f"        with pl.at(level=pl.Level.CORE_GROUP, name_hint='b{k}'):", "            t = pl.add(a, b)",
                  "            u = pl.mul(t, a)", "            out = pl.assemble(out, u, [0, 0])"]
    path = tmp_path / f"many{n}.py"
    path.write_text("\n".join(lines + ["        return out", ""]))
    program = load_program(path)
    calls = 0
    source = outlining.__file__

    def count(frame, event, arg):
        nonlocal calls
        if event == "call" and frame.f_code.co_filename == source:
            calls += 1
    sys.setprofile(count)
    try:
        program.surface()
    finally:
        sys.setprofile(None)
    return calls


def test_a_function_of_many_blocks_rebinding_their_names_is_walked_once(tmp_path):
    # the reference walked the rest of the body for each block's t and u (first used after it by
    # the next block's rebinding): 40, 80 and 160 blocks made 16,397, 55,237 and 200,117 calls; the
    # one walk 5,470, 10,950 and 21,910
    small, large = _outlining_calls(30, tmp_path), _outlining_calls(60, tmp_path)
    assert large < 2.3 * small, (small, large)
