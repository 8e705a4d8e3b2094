"""order_write_after_read: what it adds, and every case where it must add nothing."""

from __future__ import annotations

import textwrap

import pytest

from conftest import compile_check, load_program, run_cli

import nanopass

PRELUDE = '''\
import nanopass.dsl as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def read(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def write(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def touch(self, a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], b: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        return a, b

    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def half(self, src: pl.Tensor[[8, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], z: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''


def compile_body(tmp_path, body: str, **options):
    path = tmp_path / "prog.py"
    path.write_text(PRELUDE + textwrap.indent(textwrap.dedent(body), " " * 8))
    result = nanopass.generate_orchestration(load_program(path), **options)
    compile_check(result.code, tmp_path)
    return result.code


def dependency_count(code: str) -> int:
    """How many dependency insertions the C++ makes."""
    return code.count("_deps_count++] =")


def test_the_issue_program_gets_its_edge(tmp_path):
    code = compile_body(tmp_path, "y = self.read(x, y)\nx = self.write(z, x)\nreturn x\n")
    assert dependency_count(code) == 1 and "params_t1_deps[params_t1_deps_count++] = read_tid;" in code


NOTHING_ADDED = {
    "an InOut reader before an InOut writer (the runtime orders it)": "x, y = self.touch(x, y)\nx = self.write(z, x)\nreturn x\n",
    "a NoDep reader": "y = self.read(pl.no_dep(x), y)\nx = self.write(z, x)\nreturn x\n",
    "a manual_dep tensor": (
        "t = pl.create_tensor([16, 16], dtype=pl.FP32, manual_dep=True)\n"
        "t = self.fill(z, t)\ny = self.read(t, y)\nt = self.write(z, t)\nreturn x\n"
    ),
    "a read-write pair inside one manual scope (the user's)": (
        "with pl.manual_scope():\n    y, t0 = pl.submit(self.read, x, y)\n    x, t1 = pl.submit(self.write, z, x)\nreturn x\n"
    ),
    "disjoint constant boxes": (
        "top = pl.tensor.slice(x, [8, 16], [0, 0])\nbottom = pl.tensor.slice(x, [8, 16], [8, 0])\n"
        "s = pl.create_tensor([8, 16], dtype=pl.FP32)\ns = self.half(top, s)\nbottom = self.half(s, bottom)\nreturn x\n"
    ),
    "a reader after the writer (read-after-write: the runtime orders it)": "x = self.write(z, x)\ny = self.read(x, y)\nreturn x\n",
    "two readers (no write)": "y = self.read(x, y)\nt = pl.create_tensor([16, 16], dtype=pl.FP32)\nt = self.fill(x, t)\nreturn x\n",
}


@pytest.mark.parametrize("name", sorted(NOTHING_ADDED))
def test_nothing_added(tmp_path, name):
    assert dependency_count(compile_body(tmp_path, NOTHING_ADDED[name])) == 0


def test_overlapping_constant_boxes_get_an_edge(tmp_path):
    body = (
        "top = pl.tensor.slice(x, [8, 16], [0, 0])\nmid = pl.tensor.slice(x, [8, 16], [4, 0])\n"
        "s = pl.create_tensor([8, 16], dtype=pl.FP32)\ns = self.half(top, s)\nmid = self.half(s, mid)\nreturn x\n"
    )
    compile_body(tmp_path, body)
    result = nanopass.generate_orchestration(load_program(tmp_path / "prog.py"))
    from nanopass.languages.statements import iter_stmts

    def edges(stage: str) -> int:
        tree = result.stages[stage].tree
        return sum(len(s.deps) for s in iter_stmts(tree.orch.body) if s._production == "Task")

    # the hazard pass orders the read of top before the write of mid (rows 4..8 overlap); the
    # second task also reads s, which the first wrote, so the runtime makes that edge itself and
    # drop_implied_dependencies removes it
    assert edges("order_write_after_read") == 1 and edges("drop_implied_dependencies") == 0
    assert dependency_count(result.code) == 0


def test_a_user_edge_is_not_duplicated(tmp_path):
    body = "y, t0 = pl.submit(self.read, x, y)\nx, t1 = pl.submit(self.write, z, x, deps=[t0])\nreturn x\n"
    code = compile_body(tmp_path, body)
    assert dependency_count(code) == 1 and "= t0;" in code


def test_the_flag_turns_the_pass_off(tmp_path):
    body = "y = self.read(x, y)\nx = self.write(z, x)\nreturn x\n"
    assert dependency_count(compile_body(tmp_path, body, order_write_after_read=False)) == 0
    path = tmp_path / "prog.py"
    assert "set_dependencies" not in run_cli("run", str(path), "--no-war-ordering").stdout
    assert "set_dependencies" in run_cli("run", str(path)).stdout


def test_an_output_existing_writer_after_a_reader_gets_an_edge(tmp_path):
    body = "t = pl.create_tensor([16, 16], dtype=pl.FP32)\nt = self.fill(z, t)\ny = self.read(t, y)\nt = self.fill(z, t)\nreturn x\n"
    assert dependency_count(compile_body(tmp_path, body)) == 1


def test_the_dump_lists_each_added_edge_with_both_lines(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(PRELUDE + "        y = self.read(x, y)\n        x = self.write(z, x)\n        return x\n")
    result = run_cli("run", str(path))
    line = PRELUDE.count("\n") + 1
    assert f"task write (line {line + 1}) now waits for read (line {line})" in result.stderr


LOOP_THEN_OVERWRITE = """\
y = self.read(x, y)
for i in pl.range({bound}):
    x = self.write(z, x)
x = self.fill(z, x)
return x
"""


def test_a_loop_that_certainly_runs_supersedes_the_reads_before_it(tmp_path):
    # Every run of the loop's writer waits for the reader; the writer after the loop follows the
    # loop's last run (a write after write) and needs no edge of its own from the reader.
    code = compile_body(tmp_path, LOOP_THEN_OVERWRITE.format(bound=2))
    assert dependency_count(code) == 1
    assert run_cli("check", str(tmp_path / "prog.py"), "--set", "n=3").returncode == 0


def test_a_loop_that_may_not_run_leaves_the_reads_before_it_live(tmp_path):
    # With n = 0 the reader is the last access before the writer after the loop: it needs the edge,
    # through a cell set to no task where the loop made a trip (after a run of the loop's writer,
    # which waited for the reader, the writer after the loop follows that run:
    # drop_implied_dependencies' guard on the loop's trips).
    code = compile_body(tmp_path, LOOP_THEN_OVERWRITE.format(bound="n"))
    assert dependency_count(code) == 2 and "params_t2_deps[params_t2_deps_count++] = read_unless_implied;" in code
    assert "read_unless_implied = read_tid;" in code and "read_unless_implied = no_task" in code
    assert "if (n > 0) {" in code
    for n in ("0", "2"):
        assert run_cli("check", str(tmp_path / "prog.py"), "--set", f"n={n}").returncode == 0
