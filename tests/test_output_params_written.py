"""check_output_params_written: a warning when an orchestration output cannot reach the caller."""

from __future__ import annotations

import textwrap

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


def test_returning_a_rebound_output_parameter_warns(tmp_path):
    # docs/semantics.md gap 1: d is rebound to a new tensor and returned; the caller's d is never written
    path = tmp_path / "rebound.py"
    path.write_text(BASIC.replace("        d = self.kernel_add(c, b, d)\n",
                                  "        d = pl.create_tensor([16, 16], dtype=pl.FP32)\n        d = self.kernel_add(c, b, d)\n"))
    stages = nanopass.generate_orchestration(load_program(path)).stages
    warnings = [(w.pass_name, w.message, w.span.line) for s in stages for w in s.warnings]
    assert warnings == [
        ("check_output_params_written",
         "Out parameter 'd' of 'orch_basic' is never written: the caller's buffer keeps its old contents", 25),
        ("check_output_params_written",
         "'orch_basic' returns 'd', which is not a parameter's buffer: the caller never sees it (nothing copies "
         "it into an output parameter)", 31),
    ]


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
