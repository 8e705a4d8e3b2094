"""An output the runtime allocates whose kernel parameter's shape reads a ``pl.dynamic`` symbol.

The emitted code spells the output's shape (``TensorCreateInfo``), so the symbol must be defined at
entry (``define_dynamic_dim_symbols``); the orchestration can define it only when one of its tensor
parameters declares it, else the call is a located user error. Read after a ``with`` block, such an
output gets a buffer made before the block like one of constant shape
(``place_scope_escaping_outputs``), not a buffer the block's scope frees.
"""

from __future__ import annotations

import json

from conftest import compile_check, run_cli

KERNELS = '''\
import nanopass.dsl as pl

M = pl.dynamic("M")


@pl.program
class DynOut:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, x: pl.Tensor[[M, 128], pl.FP32], buf: pl.Out[pl.Tensor[[M, 128], pl.FP32]]) -> pl.Tensor[[M, 128], pl.FP32]:
        return buf

    @pl.function(type=pl.FunctionType.AIV)
    def use(self, a: pl.Tensor[[M, 128], pl.FP32], y: pl.InOut[pl.Tensor[[M, 128], pl.FP32]]) -> pl.Tensor[[M, 128], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[{rows}, 128], pl.FP32], y: pl.InOut[pl.Tensor[[{rows}, 128], pl.FP32]]) -> pl.Tensor[[{rows}, 128], pl.FP32]:
'''


def program(tmp_path, body: str, rows: str = "M"):
    path = tmp_path / "dyn_out.py"
    path.write_text(KERNELS.format(rows=rows) + "".join(f"        {line}\n" for line in body.splitlines()))
    return path


def compiled_and_checked(path, tmp_path) -> str:
    result = run_cli("run", "-q", str(path))
    assert result.returncode == 0, result.stderr
    code = result.stdout
    assert "int64_t M = (int64_t)orch_args.tensor(0).shapes[0];" in code  # defined at entry
    compile_check(code, tmp_path)
    checked = run_cli("check", "--json", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert report["hazards"] == 0 and report["mismatches"] == 0, report
    assert all(run["warnings"] == [] for run in report["runs"]), report  # (no buffer used after its scope)
    return code


def test_the_symbol_of_a_runtime_outputs_shape_is_defined_at_entry(tmp_path):
    path = program(tmp_path, "w, t = pl.submit(self.fill, x)\ny = self.use(w, y)\nreturn y")
    code = compiled_and_checked(path, tmp_path)
    assert "_synth_out_1_shapes[2] = {static_cast<uint32_t>(M), 128};" in code


def test_a_runtime_output_of_symbolic_shape_read_after_a_manual_scope_gets_a_buffer_before_it(tmp_path):
    body = "with pl.manual_scope():\n    w, t = pl.submit(self.fill, x)\ny = self.use(w, y)\nreturn y"
    code = compiled_and_checked(program(tmp_path, body), tmp_path)
    made, scope = code.index("alloc_tensors("), code.index("PTO2_SCOPE(PTO2ScopeMode::MANUAL)")
    assert made < scope and "_ci_shapes[2] = {static_cast<uint32_t>(M), 128};" in code[:scope]
    assert "params_t0.add_output(w__out_v0);" in code[scope:]


def test_a_runtime_output_of_a_symbol_the_orchestration_does_not_declare_is_refused_at_the_call(tmp_path):
    path = program(tmp_path, "w, t = pl.submit(self.fill, x)\ny = self.use(w, y)\nreturn y", rows="32")
    result = run_cli("run", str(path))
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{path}:18:16: error: the runtime allocates the output 'buf' of 'fill' here, of extent 'M', " \
           "which no tensor parameter of 'orch' declares" in result.stderr
    assert "help: pass 'fill' a buffer for 'buf', or declare 'M' in the shape of a tensor parameter" in result.stderr
    assert "Traceback" not in result.stderr
