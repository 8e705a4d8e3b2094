"""``for (i, r) in pl.while_(init_values=...)`` with ``pl.cond(...)`` (reference-surface.md section 14).

The golden program (``tests/golden/surface_while.py``, both ABIs) is compared by ``test_golden`` and
``test_reference_surface``; here: the hazard checker on it and on smaller programs for trip counts
0, 1 and 2 (a while loop is a loop of unknown trip count for the dependency analysis, as
``pl.range`` with a scalar bound), its misuses as located user errors, and the printed-IR round trip.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import REPO, compile_check, load_program

import nanopass
from nanopass.errors import UserError
from nanopass.tools.check import check_program
from nanopass.tools.check_values import choose_values
from nanopass.tools.printed_text import print_printed

GOLDEN = REPO / "tests" / "golden" / "surface_while.py"

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[8, 32], pl.FP32],
             dst: pl.InOut[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[8, 32], pl.FP32],
             dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[8, 32], pl.FP32], res: pl.InOut[pl.Tensor[[8, 32], pl.FP32]],
            out: pl.Out[pl.Tensor[[8, 32], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 32], pl.FP32]:
'''
BODY_LINE = HEADER.count("\n") + 1  # the line of the body's first statement


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8))
    return path


def compile_body(tmp_path: Path, body: str, **options):
    return nanopass.generate_orchestration(load_program(write(tmp_path, body)), **options)


# A task before the loop reads res; the loop's body and the task after it write res. When the
# loop runs, its first write waits for the reader and the last write comes after it (the
# runtime orders writes of one tensor); when it does not, the last write must wait for the
# reader itself: the analysis must not take the loop to run.
READ_THEN_LOOP = """\
    out = self.copy(res, out)
    for (i,) in pl.while_(init_values=(0,)):
        pl.cond(i < n)
        res = self.step(x, res)
        (i2,) = pl.yield_(i + 1)
    res = self.step(x, res)
    return res
"""

# TaskId carries in a manual scope: each iteration waits for the one before, the task after
# the loop for the last (none when the loop did not run).
MANUAL_CHAIN = """\
    with pl.manual_scope():
        prev = pl.system.task_invalid()
        for (i, p) in pl.while_(init_values=(0, prev)):
            pl.cond(i < n)
            res, t = pl.submit(self.step, x, res, deps=[p])
            i2, p2 = pl.yield_(i + 1, t)
        out, t2 = pl.submit(self.copy, res, out, deps=[p2])
    return out
"""


@pytest.mark.parametrize("trips", [0, 1, 2])
@pytest.mark.parametrize("m", [0, 1])
def test_golden_while_has_no_hazard_for_each_trip_count(trips, m):
    # the body's write of tmp happens in the iteration where i == m, if the loop gets there
    result = check_program(load_program(GOLDEN), {"n": str(trips), "m": str(m)})
    assert result.fatal is None and not result.failing and not result.mismatches, result.lines()
    kernels = [t.kernel for t in result.emission.tasks()]
    expected = [kernel for k in range(trips) for kernel in ["step"] + ["copy"] * (k == m)] + ["copy"]
    assert kernels == expected
    assert [t.kernel for t in result.reference.tasks()] == kernels


def test_the_compiled_cpp_runs_the_while_loop_as_the_interpreters_do():
    # g++ builds the C++ with the recording runtime; its trace must be the emission interpreter's
    result = check_program(load_program(GOLDEN), {"n": "2", "m": "1"}, gxx=True)
    assert result.compiled is not None and not result.failing
    assert [t.kernel for t in result.emission.tasks()] == ["step", "step", "copy", "copy"]
    assert len(result.compiled.tasks()) == 4  # (its tasks name kernels by launch, not by name)


def test_golden_while_without_war_ordering_has_the_hazard_the_ordering_removes():
    # copy (iteration m) reads res, step (iteration m + 1) writes it: the runtime leaves the pair unordered
    result = check_program(load_program(GOLDEN), {"n": "2", "m": "0"}, options={"order_war": False})
    assert result.failing
    assert any("WAR on res" in line for line in result.lines())


@pytest.mark.parametrize("trips", [0, 1, 2])
@pytest.mark.parametrize("body", [READ_THEN_LOOP, MANUAL_CHAIN], ids=["read-then-loop", "manual-chain"])
def test_while_programs_have_no_hazard_for_each_trip_count(tmp_path, body, trips):
    result = check_program(load_program(write(tmp_path, body)), {"n": str(trips)})
    assert result.fatal is None and not result.failing and not result.mismatches, result.lines()
    assert len(result.emission.tasks()) == trips + (2 if body is READ_THEN_LOOP else 1)


def test_a_while_loop_may_not_run_so_the_write_after_it_keeps_its_edge(tmp_path):
    # With pl.range(3) the loop certainly runs: its first step waits for copy and the step after
    # the loop follows the last one, so that edge is implied and dropped. A while loop may not run:
    # the edge stays, through a cell the loop's body clears (clear_edges_where_implied).
    counted = compile_body(tmp_path, READ_THEN_LOOP.replace(
        "for (i,) in pl.while_(init_values=(0,)):\n        pl.cond(i < n)\n", "for k, (i,) in pl.range(3, init_values=(0,)):\n"))
    looped = compile_body(tmp_path, READ_THEN_LOOP)
    edge = "params_t2_deps[params_t2_deps_count++] = copy_"
    assert edge not in counted.code
    assert "params_t2_deps[params_t2_deps_count++] = copy_unless_implied;" in looped.code
    assert "copy_unless_implied = copy_tid;" in looped.code and "copy_unless_implied = no_task;" in looped.code


def test_while_prints_as_a_cpp_while_loop_over_its_carries(tmp_path):
    for abi, cond, step in (("seed", "while (i2 < n) {", "i2 = i2 + 1;"), ("l2", "while ((i2 < n)) {", "i2 = (i2 + 1);")):
        code = compile_body(tmp_path, MANUAL_CHAIN, abi=abi).code
        lines = [line.strip() for line in code.splitlines()]
        start = lines.index(cond)
        assert lines[start - 2: start] == ["int64_t i2 = 0;", "PTO2TaskId p2 = PTO2TaskId::invalid();"]
        assert step in lines[start:] and "p2 = t;" in lines[start:]
        compile_check(code, tmp_path, f"manual_chain_{abi}.cpp")


def test_the_values_checked_make_the_loop_run_0_1_2_and_many_times():
    choice = choose_values(load_program(GOLDEN).surface(), {})
    assert {0, 1, 2, 5} <= set(choice.values["n"])  # 0, 1, 2 and LARGE_TRIPS iterations (and the base value)


def test_a_scalar_carry_the_body_changes_conditionally_is_read_by_the_condition(tmp_path):
    # the condition reads a carry that only some iterations change: runs until it reaches n
    body = """\
        for (i, k) in pl.while_(init_values=(0, 0)):
            pl.cond(k < n)
            res = self.step(x, res)
            if i % 2 == 0:
                k = k + 1
            i2, k2 = pl.yield_(i + 1, k)
        return res
    """
    for trips, tasks in ((0, 0), (1, 1), (2, 3), (3, 5)):
        result = check_program(load_program(write(tmp_path, body)), {"n": str(trips)})
        assert result.fatal is None and not result.failing and not result.mismatches, result.lines()
        assert len(result.emission.tasks()) == tasks


def test_nested_while_and_range_loops(tmp_path):
    body = """\
        for j in pl.range(2):
            for (i,) in pl.while_(init_values=(j,)):
                pl.cond(i < n)
                res = self.step(x, res)
                (i2,) = pl.yield_(i + 1)
        return res
    """
    for trips, tasks in ((0, 0), (1, 1), (3, 5)):
        result = check_program(load_program(write(tmp_path, body)), {"n": str(trips)})
        assert result.fatal is None and not result.failing and not result.mismatches, result.lines()
        assert len(result.emission.tasks()) == tasks


@pytest.mark.parametrize("stage", ["parse_dsl", "convert_to_ssa"])
def test_the_printed_form_of_a_while_loop_compiles_to_the_same_cpp(stage):
    result = nanopass.generate_orchestration(load_program(GOLDEN))
    text = print_printed(result.stages[stage].tree)
    assert "in pl.while_(init_values=(0, res" in text and "pl.cond((i < n))" in text
    assert nanopass.compile_text(text).code == result.code


# name -> (body, line in the body (from 0), the text the error points at (its first occurrence on that line), words)
ERRORS = {
    "cond missing": ("for (i,) in pl.while_(init_values=(0,)):\n    res = self.step(x, res)\n    (i2,) = pl.yield_(i + 1)\n"
                     "return res\n", 1, "res", "a pl.while_ loop's body must begin with pl.cond(condition)"),
    "cond not first": ("for (i,) in pl.while_(init_values=(0,)):\n    res = self.step(x, res)\n    pl.cond(i < n)\n"
                       "    (i2,) = pl.yield_(i + 1)\nreturn res\n", 1, "res",
                       "a pl.while_ loop's body must begin with pl.cond(condition)"),
    "cond twice": ("for (i,) in pl.while_(init_values=(0,)):\n    pl.cond(i < n)\n    pl.cond(i < 3)\n"
                   "    (i2,) = pl.yield_(i + 1)\nreturn res\n", 2, "pl.cond",
                   "pl.cond(...) must be the first statement of a pl.while_ loop's body"),
    "cond outside": ("pl.cond(n > 0)\nreturn res\n", 0, "pl.cond",
                     "pl.cond(...) must be the first statement of a pl.while_ loop's body"),
    "cond in a range loop": ("for j in pl.range(n):\n    pl.cond(j < 3)\n    res = self.step(x, res)\nreturn res\n", 1,
                             "pl.cond", "pl.cond(...) must be the first statement of a pl.while_ loop's body"),
    "cond assigned": ("c = pl.cond(n > 0)\nreturn res\n", 0, "pl.cond",
                      "pl.cond(...) must be the first statement of a pl.while_ loop's body"),
    "cond on a tensor": ("for (i,) in pl.while_(init_values=(0,)):\n    pl.cond(res)\n    (i2,) = pl.yield_(i + 1)\n"
                         "return res\n", 1, "res", "a pl.cond condition must be a comparison or another bool expression"),
    "cond on an int": ("for (i,) in pl.while_(init_values=(0,)):\n    pl.cond(i)\n    (i2,) = pl.yield_(i + 1)\n"
                       "return res\n", 1, "i)", "a pl.cond condition must be a comparison or another bool expression"),
    "cond of two": ("for (i,) in pl.while_(init_values=(0,)):\n    pl.cond(i < n, True)\n    (i2,) = pl.yield_(i + 1)\n"
                    "return res\n", 1, "pl.cond", "pl.cond takes one argument"),
    "no init_values": ("for (i,) in pl.while_():\n    pl.cond(i < n)\n    (i2,) = pl.yield_(i + 1)\nreturn res\n", 0,
                       "pl.while_", "pl.while_ needs init_values=(...)"),
    "a positional argument": ("for (i,) in pl.while_(n, init_values=(0,)):\n    pl.cond(i < n)\n"
                              "    (i2,) = pl.yield_(i + 1)\nreturn res\n", 0, "n,", "pl.while_ takes no positional argument"),
    "unknown keyword": ("for (i,) in pl.while_(init_values=(0,), stage=2):\n    pl.cond(i < n)\n"
                        "    (i2,) = pl.yield_(i + 1)\nreturn res\n", 0, "2)", "pl.while_ has no keyword argument 'stage'"),
    "carry count": ("for (i, r) in pl.while_(init_values=(0,)):\n    pl.cond(i < n)\n    (i2,) = pl.yield_(i + 1)\n"
                    "return res\n", 0, "(0,)", "2 loop carries but 1 init values"),
    "loop variable form": ("for k, (i,) in pl.while_(init_values=(0,)):\n    pl.cond(i < n)\n    (i2,) = pl.yield_(i + 1)\n"
                           "return res\n", 0, "(i,)", "the carries of a pl.while_ loop must be plain names"),
    "no yield": ("for (i,) in pl.while_(init_values=(0,)):\n    pl.cond(i < n)\n    res = self.step(x, res)\nreturn res\n",
                 2, "res", "a pl.while_ loop must end with an assignment from pl.yield_(...)"),
    "yield count": ("for (i, r) in pl.while_(init_values=(0, res)):\n    pl.cond(i < n)\n    (i2,) = pl.yield_(i + 1)\n"
                    "return res\n", 2, "pl.yield_", "pl.yield_ gives 1 value(s) but the loop carries 2"),
    "yield targets": ("for (i, r) in pl.while_(init_values=(0, res)):\n    pl.cond(i < n)\n    i2 = pl.yield_(i + 1, r)\n"
                      "return res\n", 2, "i2", "pl.yield_ is unpacked into 1 name(s) but the loop carries 2"),
    "yield type": ("for (i, r) in pl.while_(init_values=(0, res)):\n    pl.cond(i < n)\n    i2, r2 = pl.yield_(r, r)\n"
                   "return res\n", 2, "r,", "the carry 'i' changes type in the loop"),
    "carry after the loop": ("for (i,) in pl.while_(init_values=(0,)):\n    pl.cond(i < n)\n    (i2,) = pl.yield_(i + 1)\n"
                             "res = self.step(x, res)\nm = i + 1\nreturn res\n", 4, "i", "pl.while_ loop at line"),
    "while_ as a value": ("w = pl.while_(init_values=(0,))\nreturn res\n", 0, "pl.while_", "pl.while_(...) is a loop's iterator"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_misuse_is_a_located_user_error(name, tmp_path):
    body, line, at, words = ERRORS[name]
    with pytest.raises(UserError) as info:
        compile_body(tmp_path, body)
    error = info.value
    assert words in error.message
    text = textwrap.dedent(body).splitlines()[line]
    assert (error.span.line, error.span.display_col) == (BODY_LINE + line, 8 + text.index(at) + 1)
