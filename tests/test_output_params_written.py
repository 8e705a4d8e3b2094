"""check_output_params_written: a warning when an orchestration output cannot reach the caller."""

from __future__ import annotations

import textwrap

import pytest

from conftest import EXAMPLES, PROGRAMS, load_program, run_cli

import nanopass

BASIC = (EXAMPLES / "basic.py").read_text()

# pl.submit(self.combine, a, out, ...) for combine(a, b, out: Out): 'out' lands in 'b' (an input)
# and the runtime allocates combine's output; the orchestration's 'out' is never written
SHIFTED = textwrap.dedent('''\
    import nanopass.dsl as pl


    @pl.program
    class Shift:
        @pl.function(type=pl.FunctionType.AIV)
        def combine(
            self,
            a: pl.Tensor[[16, 16], pl.FP32],
            b: pl.Tensor[[16, 16], pl.FP32],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        ) -> pl.Tensor[[16, 16], pl.FP32]:
            t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
            r: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
            return r

        @pl.function(type=pl.FunctionType.Orchestration)
        def orch(
            self,
            a: pl.Tensor[[16, 16], pl.FP32],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        ) -> pl.Tensor[[16, 16], pl.FP32]:
            first = pl.system.task_dummy(deps=[])
            out, tid = pl.submit(self.combine, a, out, deps=[first])
            return out
''')


def test_a_shifted_output_argument_warns_at_the_parameter_and_the_return(tmp_path):
    path = tmp_path / "shift.py"
    path.write_text(SHIFTED)
    result = run_cli("run", str(path), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == (f"{path}:21:9: warning: Out parameter 'out' of 'orch' is never written: the caller's "
                        "buffer keeps its old contents")
    assert lines[1] == "    21 |         out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],"
    assert lines[2].strip() == "^" and lines[2].index("^") == lines[1].index("out:")
    assert lines[3] == ("  help: 'out' is passed to 'combine' at line 24 as its input 'b'; that call gives 2 of the "
                        "kernel's 3 tensor arguments: those after a missing one shift left, and the runtime "
                        "allocates the output left out")
    assert lines[4].startswith(f"{path}:25:9: warning: 'orch' returns 'out', which is not a parameter's buffer")
    quiet = run_cli("run", str(path), "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""
    checked = run_cli("check", str(path))  # the check passes: the warning is the only sign
    assert checked.returncode == 0 and "warning: Out parameter 'out'" in checked.stderr


REBOUND = "        d = pl.create_tensor([16, 16], dtype=pl.FP32)\n        d = self.kernel_add(c, b, d)\n"


def rebound(tmp_path, body: str = REBOUND):
    """basic.py with ``d = self.kernel_add(c, b, d)`` replaced by ``body``."""
    path = tmp_path / "rebound.py"
    path.write_text(BASIC.replace("        d = self.kernel_add(c, b, d)\n", body))
    return path


def test_a_rebound_output_parameter_returned_is_the_callers_buffer(tmp_path):
    # docs/semantics.md still-open 1: d was rebound to a new tensor and returned, the caller's d
    # never written (a warning); the create is now the parameter's buffer, as the program means
    path = rebound(tmp_path)
    result = nanopass.generate_orchestration(load_program(path))
    assert [w for s in result.stages for w in s.warnings] == []
    assert result.code == nanopass.generate_orchestration(load_program(EXAMPLES / "basic.py")).code
    from nanopass.tools.check import check_program

    checked = check_program(load_program(path), {}, gxx=True)
    assert checked.failing == [] and checked.mismatches == []


def test_a_rebound_output_parameter_made_in_a_manual_scope_is_the_callers_buffer(tmp_path):
    body = ("        with pl.manual_scope():\n            d = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            "            d = self.kernel_add(c, b, d)\n")
    code = nanopass.generate_orchestration(load_program(rebound(tmp_path, body))).code
    assert "params_t1.add_output(ext_d);" in code and code.count("TensorCreateInfo") == 1  # c's only


# body -> (the line of the return, the reason given)
UNPLACEABLE = {
    "an init_value": ("        d = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.0)\n        c = self.kernel_add(d, b, c)\n",
                      "the tensor created at line 29 has an init_value"),
    "made in a loop": ("        for i in pl.range(2):\n            d = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
                       "            d = self.kernel_add(c, b, d)\n", "it is created at line 30 in a loop"),
    "the parameter used": ("        c = self.kernel_add(d, b, c)\n" + REBOUND,
                           "'d' (the caller's buffer) is used at line 29, which would see the new tensor"),
    "two creates": ("        v = pl.tensor.read(a, [0, 0])\n        if v > 0.0:\n"
                    "            d = pl.create_tensor([16, 16], dtype=pl.FP32)\n        else:\n"
                    "            d = pl.create_tensor([16, 16], dtype=pl.FP32)\n        d = self.kernel_add(c, b, d)\n",
                    "it may be one of several tensors (made on different paths)"),
}


@pytest.mark.parametrize("name", sorted(UNPLACEABLE))
def test_a_rebound_output_parameter_that_cannot_be_the_callers_buffer_is_refused(tmp_path, name):
    body, reason = UNPLACEABLE[name]
    path = rebound(tmp_path, body)
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(load_program(path))
    error = caught.value
    assert error.message.startswith("'orch_basic' returns 'd', rebound to a new tensor, not the caller's 'd'")
    assert error.message.endswith(reason) or reason in error.message, error.message
    returned = path.read_text().splitlines()[error.span.line - 1]
    assert returned.strip() == "return d" and "pass it as their output argument" in error.hint


def test_an_inout_parameter_only_read_warns(tmp_path):
    path = tmp_path / "read_only.py"
    source = BASIC.replace("d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]", "d: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]")
    path.write_text(source.replace("        d = self.kernel_add(c, b, d)\n        return d\n",
                                   "        c = self.kernel_add(d, b, c)\n        return d\n"))
    result = run_cli("run", str(path), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "warning: InOut parameter 'd' of 'orch_basic' is never written" in result.stderr
    assert "help: 'd' is passed to 'kernel_add' at line 29 as its input 'a'" in result.stderr
    assert "returns" not in result.stderr  # d is the caller's buffer


def test_no_example_or_test_program_warns():
    for path in sorted(EXAMPLES.glob("*.py")) + sorted(PROGRAMS.glob("*.py")):
        stages = nanopass.generate_orchestration(load_program(path)).stages
        assert [w for s in stages for w in s.warnings] == [], path
