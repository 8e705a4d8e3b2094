"""Control flow: loops, carries, branches, scopes — properties over random programs, and errors."""

from __future__ import annotations

import re
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import compile_check, fuzz_budget, run_cli
from program_gen import control_flow_programs

from nanopass.api import run_pipeline
from nanopass.languages import CARRIED, SCOPED
from nanopass.passes.classify_iter_arg_carry import ClassifyIterArgCarry
from nanopass.passes.materialize_runtime_scopes import MaterializeRuntimeScopes
from nanopass.text import parse, unparse

PROPERTY = settings(max_examples=fuzz_budget(120), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def compile_source(tmp_path, source: str):
    from conftest import load_program

    path = tmp_path / "generated.py"
    path.write_text(source)
    return run_pipeline(load_program(path))


def again(pass_cls, language):
    """The same pass, applied to its own output language (the 'run it twice' check)."""
    return type(
        pass_cls.__name__ + "Again",
        (pass_cls,),
        {"name": pass_cls.name, "source": language, "target": language, "__doc__": pass_cls.__doc__},
    )


MATERIALIZE_AGAIN = again(MaterializeRuntimeScopes, SCOPED)
CLASSIFY_AGAIN = again(ClassifyIterArgCarry, CARRIED)


@PROPERTY
@given(control_flow_programs())
def test_random_programs_compile_through_every_checked_language(tmp_path_factory, source):
    stages = compile_source(tmp_path_factory.mktemp("p"), source)  # the driver verifies each stage
    by_name = {s.name: s for s in stages}
    scoped = by_name["materialize_runtime_scopes"].tree
    carried = by_name["classify_iter_arg_carry"].tree
    assert MATERIALIZE_AGAIN().run(scoped) == scoped
    assert CLASSIFY_AGAIN().run(carried) == carried
    assert parse(SCOPED, unparse(scoped)) == scoped
    assert parse(CARRIED, unparse(carried)) == carried


@settings(max_examples=fuzz_budget(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(control_flow_programs())
def test_random_programs_give_compilable_cpp(tmp_path_factory, source):
    from nanopass.api import result_from_stages

    tmp = tmp_path_factory.mktemp("p")
    compile_check(result_from_stages(compile_source(tmp, source)).code, tmp)


def test_every_for_and_if_body_gets_its_own_scope(example):
    """D14: the function body and each for/if body outside manual scopes is a PTO2_SCOPE."""
    import nanopass

    code = nanopass.generate_orchestration(example("loop_scalar")).code
    lines = code.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"\s*(for \(|if \(|\} else \{)", line):
            assert lines[i + 1].strip() == "PTO2_SCOPE() {", line
    entry = lines.index("void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {")
    first_scope = next(i for i in range(entry, len(lines)) if "PTO2_SCOPE" in lines[i])
    assert lines[first_scope] == "    PTO2_SCOPE() {"  # the function body's own scope
    assert lines[first_scope + 1 : lines.index("}  // extern \"C\"") - 2][-1] == "    }"


def test_permuted_carries_assign_through_temporaries():
    """D16: a yield that swaps carries reads every value before writing any."""
    from conftest import REPO

    code = (REPO / "tests" / "golden" / "ping_pong.expected.cpp").read_text()
    block = code[code.index("rt_submit_aiv_task(0, params_t1);") :].splitlines()[1:5]
    assert [l.strip() for l in block] == [
        "Tensor cur__rv_v5_next = nxt__rv_v4;",
        "Tensor nxt__rv_v4_next = cur__rv_v5;",
        "cur__rv_v5 = cur__rv_v5_next;",
        "nxt__rv_v4 = nxt__rv_v4_next;",
    ]


PRELUDE = '''\
import nanopass.dsl as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''

ERRORS = {
    "yield arity": ("for i, (x,) in pl.range(n, init_values=(o,)):\n    x = self.k(a, x)\n    y1, y2 = pl.yield_(x, x)\nreturn o\n", 3, "gives 2 value(s) but the loop carries 1"),
    "carry changes type": ("for i, (x,) in pl.range(n, init_values=(o,)):\n    y = pl.yield_(n)\nreturn o\n", 2, "changes type in the loop"),
    "reassigned name changes type": ("for i in pl.range(n):\n    o = 3\nreturn o\n", 2, "cannot re-assign 'o' with a different type"),
    "break": ("for i in pl.range(n):\n    break\nreturn o\n", 2, "'break' is not supported"),
    "continue": ("for i in pl.range(n):\n    continue\nreturn o\n", 2, "'continue' is not supported"),
    "while": ("while n > 0:\n    o = self.k(a, o)\nreturn o\n", 1, "while loops are not supported"),
    "auto scope under auto_scope": ("with pl.scope():\n    o = self.k(a, o)\nreturn o\n", 1, "requires @pl.function(auto_scope=False)"),
    "auto scope in manual scope": None,
    "missing yield": ("for i, (x,) in pl.range(n, init_values=(o,)):\n    x = self.k(a, x)\nreturn o\n", 2, "must end with an assignment from pl.yield_"),
    "python range": ("for i in range(4):\n    o = self.k(a, o)\nreturn o\n", 1, "must iterate over pl.range"),
    "float bound": ("for i in pl.range(2.5):\n    o = self.k(a, o)\nreturn o\n", 1, "a loop bound must be an integer"),
    "too many bounds": ("for i in pl.range(0, 4, 1, 1):\n    o = self.k(a, o)\nreturn o\n", 1, "1 to 3 arguments"),
    "non-bool condition": ("if n:\n    o = self.k(a, o)\nreturn o\n", 1, "must be a comparison"),
    "loop-local used after": ("for i in pl.range(n):\n    t = pl.create_tensor([16, 16], dtype=pl.FP32)\n    t = self.k(a, t)\no = self.k(t, o)\nreturn o\n", 4, "'t' is not visible here"),
    "branch-local used after": ("if n > 0:\n    t = pl.create_tensor([16, 16], dtype=pl.FP32)\no = self.k(t, o)\nreturn o\n", 3, "defined only in the then-branch"),
    "loop variable used after": ("for i in pl.range(n):\n    o = self.k(a, o)\nx = i + 1\nreturn o\n", 3, "'i' is not visible here"),
    "assign to loop variable": ("for i in pl.range(n):\n    i = 2\nreturn o\n", 2, "cannot assign to 'i'"),
}
del ERRORS["auto scope in manual scope"]


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_control_flow_user_errors(tmp_path, name):
    body, line, message = ERRORS[name]
    path = tmp_path / "prog.py"
    path.write_text(PRELUDE + textwrap.indent(body, " " * 8))
    result = run_cli("run", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    first = result.stderr.splitlines()[0]
    match = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): error: (.*)", first)
    assert match, first
    assert message in match.group(3)
    assert int(match.group(1)) - PRELUDE.count("\n") == line


def test_auto_scope_inside_manual_scope_is_refused(tmp_path):
    path = tmp_path / "prog.py"
    source = PRELUDE.replace("Orchestration)", "Orchestration, auto_scope=False)")
    path.write_text(source + "        with pl.manual_scope():\n            with pl.scope():\n                o = self.k(a, o)\n        return o\n")
    result = run_cli("run", str(path))
    assert result.returncode == 1 and "may not be nested inside a manual scope" in result.stderr
