"""``r = pl.submit(...)`` with one name binds the whole tuple (reference-surface.md section 1: "a
single LHS binds the whole tuple"; frontend-behaviour.md 3.5: the Submit's type is
``Tuple[<declared returns>..., TID]``): ``r[0]`` is the result, ``r[1]``/``r[-1]`` the TaskId, and
``r`` alone is refused where a value is read. The printed IR's ``_submit_tmp`` of a kernel that
returns nothing (``Tuple[TID]``) reads back as ``(), tid``."""

from __future__ import annotations

import pytest

import nanopass
from conftest import load_program
from nanopass.errors import UserError

HEAD = '''
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def probe(self, src: pl.Tensor[[16, 16], pl.FP32]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], mid: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
'''


def _compile(body: str, tmp_path) -> str:
    lines = "".join(f"            {line}\n" for line in body.strip().splitlines())
    path = tmp_path / "single_name.py"
    path.write_text(HEAD + lines + "        return out\n")
    return nanopass.generate_orchestration(load_program(path)).code


@pytest.mark.parametrize("tid", ["r[1]", "r[-1]"])
def test_the_last_element_is_the_task_id_and_the_first_the_result(tid, tmp_path):
    code = _compile(f"r = pl.submit(self.copy, x, mid)\ny = r[0]\nout, t = pl.submit(self.copy, y, out, deps=[{tid}])", tmp_path)
    # task 1 reads task 0's output (ext_mid, through y = r[0]) and waits for task 0's TaskId, named r
    assert "PTO2TaskId r = task_0_outs.task_id();" in code
    assert "params_t1.add_input(ext_mid);" in code
    assert "params_t1_deps[params_t1_deps_count++] = r;" in code


def test_a_kernel_without_results_gives_a_tuple_of_its_task_id_alone(tmp_path):
    code = _compile("p = pl.submit(self.probe, x)\nout, t = pl.submit(self.copy, x, out, deps=[p[0]])", tmp_path)
    assert "PTO2TaskId p = task_0_outs.task_id();" in code
    assert "params_t1_deps[params_t1_deps_count++] = p;" in code


def test_spmd_submit_to_one_name_is_the_tuple_too(tmp_path):
    code = _compile("g = pl.spmd_submit(self.copy, x, mid, core_num=4)\nout, t = pl.submit(self.copy, g[0], out, deps=[g[-1]])", tmp_path)
    assert "params_t0.launch_spec.set_block_num(4);" in code
    assert "params_t1_deps[params_t1_deps_count++] = g;" in code


@pytest.mark.parametrize("body, column, part", [
    # columns from 0 (Span.col; the CLI prints col + 1); the body is indented 12 columns.
    # deps=[r]: r is 44 characters into "out, t = pl.submit(self.copy, x, out, deps=[r])"
    ("r = pl.submit(self.copy, x, mid)\nout, t = pl.submit(self.copy, x, out, deps=[r])", 56, "use the TaskId r[1]"),
    # r as a tensor argument: 16 characters into "out = self.copy(r, out)"
    ("r = pl.submit(self.copy, x, mid)\nout = self.copy(r, out)", 28, "use the result r[0], the TaskId r[1]"),
    # r[0] (a tensor) as a dep: at r[0], 44 characters in
    ("r = pl.submit(self.copy, x, mid)\nout, t = pl.submit(self.copy, x, out, deps=[r[0]])", 56, "not the TaskId"),
    # index 2 of a 2-tuple: at the index, 6 characters into "y = r[2]"
    ("r = pl.submit(self.copy, x, mid)\ny = r[2]", 18, "index 2 is out of range"),
])
def test_the_whole_tuple_or_a_wrong_element_is_refused_where_it_is_used(body, column, part, tmp_path):
    with pytest.raises(UserError) as info:
        _compile(body, tmp_path)
    assert info.value.span.line == 21 and info.value.span.col == column, info.value.span
    assert part in str(info.value) + (info.value.hint or "")


def test_the_printed_form_of_a_submit_without_results_reads_back():
    # the existing compiler prints a void kernel's submit as a one-element tuple read by index
    text = HEAD.replace("with pl.manual_scope():", "with pl.manual_scope():\n"
                        "            _submit_tmp: pl.Tuple[pl.Scalar[pl.TASK_ID]] = pl.submit(self.probe, x)\n"
                        "            p = _submit_tmp[0]\n"
                        "            out, t = pl.submit(self.copy, x, out, deps=[p])") + "        return out\n"
    text = text.replace("type=pl.FunctionType.Orchestration", "type=pl.FunctionType.Orchestration, "
                        "level=pl.Level.CHIP, role=pl.Role.Orchestrator")  # (what marks the printed form)
    code = nanopass.compile_text(text).code
    assert "PTO2TaskId p = task_0_outs.task_id();" in code
    assert "params_t1_deps[params_t1_deps_count++] = p;" in code


@pytest.mark.parametrize("annotation", [
    "tuple[pl.Tensor[[16, 16], pl.FP32], pl.TaskId]",
    "pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.TASK_ID]]",
])
def test_an_annotation_of_the_whole_tuple_is_accepted(annotation, tmp_path):
    code = _compile(f"r: {annotation} = pl.submit(self.copy, x, mid)\nout, t = pl.submit(self.copy, r[0], out, "
                    "deps=[r[1]])", tmp_path)
    assert "params_t1_deps[params_t1_deps_count++] = r;" in code


@pytest.mark.parametrize("body, held", [
    # the result's type: r is not the result (was: accepted, the annotation unchecked)
    ("r: pl.Tensor[[16, 16], pl.FP32] = pl.submit(self.copy, x, mid)",
     "holds the whole tuple of the pl.submit, its result, then its TaskId: "
     "pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.TASK_ID]]"),
    ("r: pl.TaskId = pl.submit(self.probe, x)",
     "holds the whole tuple of the pl.submit, its TaskId alone: pl.Tuple[pl.Scalar[pl.TASK_ID]]"),
    ("r: tuple[pl.Tensor[[16, 16], pl.FP16], pl.TaskId] = pl.spmd_submit(self.copy, x, mid, core_num=2)",
     "holds the whole tuple of the pl.spmd_submit, its result, then its TaskId"),
])
def test_a_wrong_annotation_of_the_whole_tuple_is_refused_at_it(body, held, tmp_path):
    with pytest.raises(UserError) as info:
        _compile(body, tmp_path)
    # at the annotation: line 20 (the body's first), 3 characters after the 12 blanks ("r: ")
    assert (info.value.span.line, info.value.span.col) == (20, 15), info.value.span
    assert f"type annotation of 'r' is '{body.split(': ', 1)[1].split(' = ')[0]}', but 'r' {held}" in info.value.message
