"""The data surface (tensor ops, scalars, tuples, kernel kinds, limits): facts and user errors."""

from __future__ import annotations

import re
import textwrap

import pytest

from conftest import compile_check, load_program, run_cli

import nanopass

PRELUDE = '''\
import nanopass.dsl as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''


def program_file(tmp_path, body: str, prelude: str = PRELUDE):
    path = tmp_path / "prog.py"
    path.write_text(prelude + textwrap.indent(textwrap.dedent(body), " " * 8))
    return path


def compile_body(tmp_path, body: str, prelude: str = PRELUDE):
    from conftest import load_program

    return nanopass.generate_orchestration(load_program(program_file(tmp_path, body, prelude)))


def error_of(tmp_path, body: str, prelude: str = PRELUDE) -> tuple[str, int]:
    path = program_file(tmp_path, body, prelude)
    result = run_cli("run", str(path))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    first = result.stderr.splitlines()[0]
    match = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): error: (.*)", first)
    assert match, first
    return match.group(3), int(match.group(1)) - prelude.count("\n")


ERRORS = {
    "fractional init into an integer tensor": (
        "t = pl.create_tensor([4], dtype=pl.INT32, init_value=1.5)\nreturn o\n", 1, "not an integer but the tensor dtype is INT32"),
    "non-finite init": (
        "t = pl.create_tensor([4], dtype=pl.FP32, init_value=INF)\nreturn o\n", 1, "must be finite"),
    "non-zero fp16 fill": (
        "t = pl.create_tensor([4], dtype=pl.FP16, init_value=1.0)\nreturn o\n", 1, "not supported for FP16"),
    "non-zero bf16 fill": (
        "t = pl.create_tensor([4], dtype=pl.BF16, init_value=2)\nreturn o\n", 1, "not supported for BF16"),
    "init out of the dtype's range": (
        "t = pl.create_tensor([4], dtype=pl.UINT8, init_value=300)\nreturn o\n", 1, "does not fit in UINT8"),
    "init beyond 2^53": (
        "t = pl.create_tensor([4], dtype=pl.INT64, init_value=2**60)\nreturn o\n", 1, "2^53"),
    "unknown dtype": ("t = pl.create_tensor([4], dtype=pl.FP7)\nreturn o\n", 1, "unknown dtype 'pl.FP7'"),
    "tensor without runtime dtype": ("t = pl.create_tensor([4], dtype=pl.FP64)\nreturn o\n", 1, "no tensor dtype for FP64"),
    "too many dimensions": ("t = pl.create_tensor([1, 1, 1, 1, 1, 1], dtype=pl.FP32)\nreturn o\n", 1, "1 to 5 dimensions"),
    "read rank mismatch": ("x = pl.tensor.read(a, [0])\nreturn o\n", 1, "needs 2 indices, got 1"),
    "write rank mismatch": ("pl.tensor.write(o, [0, 1, 2], 1.0)\nreturn o\n", 1, "needs 2 indices, got 3"),
    "subscript rank mismatch": ("x = a[0]\nreturn o\n", 1, "needs 2 indices"),
    "float index": ("x = pl.tensor.read(a, [0.5, 0])\nreturn o\n", 1, "an index must be an integer"),
    "write a float into an int tensor": (
        "t = pl.create_tensor([4], dtype=pl.INT32)\npl.tensor.write(t, [0], 0.5)\nreturn o\n", 2, "cannot write a float"),
    "slice out of bounds": ("v = pl.tensor.slice(a, [8, 16], [12, 0])\nreturn o\n", 1, "outside the dimension"),
    "slice rank mismatch": ("v = pl.tensor.slice(a, [8], [0])\nreturn o\n", 1, "rank 2"),
    "transpose axis out of range": ("v = pl.tensor.transpose(a, 0, 2)\nreturn o\n", 1, "axis2 is out of range"),
    "transpose same axes": ("v = pl.tensor.transpose(a, 1, 1)\nreturn o\n", 1, "two different axes"),
    "reshape changes the element count": ("v = pl.tensor.reshape(a, [8, 8])\nreturn o\n", 1, "element count"),
    "dim axis out of range": ("d = pl.tensor.dim(a, 3)\nreturn o\n", 1, "axis is out of range"),
    "assemble from a parameter": ("o = pl.assemble(o, a, [0, 0])\nreturn o\n", 1, "made by pl.create_tensor"),
    "assembled source used after": (
        "t = pl.create_tensor([16, 16], dtype=pl.FP32)\nt = self.k(a, t)\no = pl.assemble(o, t, [0, 0])\nx = self.k(t, o)\nreturn o\n",
        3, "used after it was assembled"),
    "integer true division": ("x = n / 2\nreturn o\n", 1, "use '//'"),
    "mixed int and float": ("x = n * 1.5\nreturn o\n", 1, "cannot mix INT64 and FP32"),
    "no_dep on a scalar": ("o = self.k(pl.no_dep(n), o)\nreturn o\n", 1, "is a tensor but the argument"),
    "TaskId as a tensor": ("t = None\no = self.k(t, o)\nreturn o\n", 2, "is a tensor but the argument is a pl.Scalar[pl.TASK_ID]"),
    "shape mismatch": ("t = pl.create_tensor([8, 16], dtype=pl.FP32)\no = self.k(t, o)\nreturn o\n", 2, "is pl.Tensor[[16, 16], pl.FP32] but the argument is pl.Tensor[[8, 16], pl.FP32]"),
    "wrong number of results": ("x, y = self.k(a, o)\nreturn o\n", 1, "returns 1 value(s) but 2 name(s)"),
    "missing return": ("o = self.k(a, o)\n", 0, "does not end with a return"),  # at the def line
    "returning a scalar": ("return n\n", 1, "returns tensors"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_user_errors(tmp_path, name):
    body, line, message = ERRORS[name]
    prelude = PRELUDE.replace("import nanopass.dsl as pl\n", "import nanopass.dsl as pl\nINF = float('inf')\n")
    text, at = error_of(tmp_path, body, prelude)
    assert message in text
    assert at == line


def big_kernel_prelude(n_tensors: int, n_scalars: int) -> str:
    params = [f"t{i}: pl.Tensor[[4], pl.FP32]" for i in range(n_tensors)]
    params += [f"s{i}: pl.Scalar[pl.INT32]" for i in range(n_scalars)]
    return PRELUDE.replace(
        "    @pl.function(type=pl.FunctionType.Orchestration)",
        "    @pl.function(type=pl.FunctionType.AIV)\n    def wide(self, " + ", ".join(params) + "):\n        pass\n\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)",
    )


@pytest.mark.parametrize("tensors,scalars", [(33, 0), (1, 17)])
def test_task_argument_limits(tmp_path, tensors, scalars):
    args = ", ".join(["x"] * tensors + ["1"] * scalars)
    body = f"x = pl.create_tensor([4], dtype=pl.FP32)\nself.wide({args})\nreturn o\n"
    text, line = error_of(tmp_path, body, big_kernel_prelude(tensors, scalars))
    assert "at most 32 tensors and 16 scalars" in text and line == 2


def test_task_argument_limits_are_inclusive(tmp_path):
    args = ", ".join(["x"] * 32 + ["1"] * 16)
    body = f"x = pl.create_tensor([4], dtype=pl.FP32)\nself.wide({args})\nreturn o\n"
    result = compile_body(tmp_path, body, big_kernel_prelude(32, 16))
    assert result.code.count("params_t0.add_scalar(") == 16
    compile_check(result.code, tmp_path)


def test_entry_argument_limit(tmp_path):
    params = ", ".join(f"t{i}: pl.Tensor[[4], pl.FP32]" for i in range(129))
    prelude = PRELUDE.replace(
        "def orch(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:",
        f"def orch(self, {params}):",
    )
    path = program_file(tmp_path, "pass\n", prelude)
    result = run_cli("run", str(path))
    assert result.returncode == 1 and "at most 128" in result.stderr


@pytest.mark.parametrize(("abi", "chunks"), [("seed", [32, 8]), ("l2", [16, 16, 8])])
def test_creates_are_batched_in_chunks_of_32_or_16_for_l2(tmp_path, abi, chunks):
    # D8: chunks of 32 (the default ABI); D17: the l2 release's compiler makes chunks of 16
    body = "".join(f"t{i} = pl.create_tensor([4], dtype=pl.FP32)\nself.k(a, t{i})\n" for i in range(40))
    path = program_file(tmp_path, body.replace("[4]", "[16, 16]") + "return o\n", PRELUDE)
    code = nanopass.generate_orchestration(load_program(path), abi=abi).code
    calls = re.findall(r"TaskOutputTensors (alloc_\d+) = alloc_tensors\(([^)]*)\);", code)
    assert [len(args.split(", ")) for _, args in calls] == chunks
    assert [name for name, _ in calls] == [f"alloc_{k}" for k in range(len(chunks))]
    assert code.index(f"alloc_{len(chunks) - 1} = alloc_tensors") < code.index("// Task 0:")  # all at the block's start
    compile_check(code, tmp_path)
    cli = run_cli("run", str(path), "--abi", abi)
    assert cli.returncode == 0 and cli.stdout == code
    from nanopass.tools.check import check_program

    checked = check_program(load_program(path), {"n": "1"})  # the hazard checker: 40 tasks, no hazard
    assert checked.fatal is None and not checked.failing and len(checked.emission.tasks()) == 40, checked.lines()


def test_dynamic_symbols_defined_only_when_used(tmp_path):
    prelude = PRELUDE.replace("import nanopass.dsl as pl\n", "import nanopass.dsl as pl\nM = pl.dynamic('M')\nK = pl.dynamic('K')\n").replace(
        "def orch(self, a: pl.Tensor[[16, 16], pl.FP32],",
        "def orch(self, x: pl.Tensor[[K, M], pl.FP32], y: pl.Tensor[[M, 4], pl.FP32], a: pl.Tensor[[16, 16], pl.FP32],",
    )
    code = compile_body(tmp_path, "for i in pl.range(M):\n    o = self.k(a, o)\nreturn o\n", prelude).code
    assert "int64_t M = (int64_t)orch_args.tensor(0).shapes[1];" in code  # the first declaring parameter
    assert "int64_t K" not in code
    compile_check(code, tmp_path)


def test_the_abis_differ_only_in_the_printer(example):
    """D1: both ABIs print the same emission program (the examples batch fewer than 16 creates, the
    one fact about the target a pass reads); D15: the dynamic-dim read of each."""
    from nanopass.languages import EMISSION

    for stem in ("dynamic_dims", "scalars", "manual_phases", "tensor_ops", "group_mixed", "create_init"):
        program = example(stem)
        seed, l2 = (nanopass.generate_orchestration(program, abi=abi) for abi in ("seed", "l2"))
        assert seed.stages[-1].language is EMISSION and seed.stages[-1].tree == l2.stages[-1].tree, stem
        assert seed.code != l2.code
    dims = nanopass.generate_orchestration(example("dynamic_dims"), abi="l2").code
    seed_dims = nanopass.generate_orchestration(example("dynamic_dims")).code
    assert "    int64_t M = (int64_t)orch_args.tensor(0).shapes[0];" in seed_dims
    assert "    int64_t M = (int64_t)orch_args.tensor(0).ref().shapes[0];" in dims
    assert "    const Tensor& ext_y = orch_args.tensor(1).ref();" in dims
    scalars = nanopass.generate_orchestration(example("scalars"), abi="l2").code
    assert "float gain = from_u64<float>(orch_args.scalar(0));" in scalars and "_conv" not in scalars


def test_result_metadata_for_kernel_kinds(example):
    result = nanopass.generate_orchestration(example("group_mixed"))
    assert result.kernel_ids == {"qk_matmul": 0, "softmax": 1, "pv_matmul": 2, "rescale": 3}
    assert result.core_types["pv_matmul"] == "AIC" and result.core_types["rescale"] == "AIV"
    assert result.core_types["attention_block"] == "MIX" and result.core_types["vector_only"] == "AIV"
    assert result.orchestration_signature == ["IN", "IN", "IN", "IN", "OUT"]


def test_normalize_return_order_names_the_written_parameters():
    from conftest import REPO, load_program

    from nanopass.api import run_pipeline

    stages = run_pipeline(load_program(REPO / "tests" / "golden" / "return_order.py"), stop_after="normalize_return_order")
    kernel = next(k for k in stages[-1].tree.kernels if k.name == "split")
    ret = kernel.body[-1]
    assert [v.name for v in ret.values] == ["y", "x"]
    before = next(k for k in stages[-2].tree.kernels if k.name == "split").body[-1]
    assert [v.name for v in before.values] == ["y2", "x2"]


def test_integer_division_and_remainder_fold_as_the_cpp_computes_them(tmp_path):
    # `//` and `%` print as C `/` and `%` (truncation toward zero); a folded constant must be the
    # value the unfolded C++ gives: -7/2 == -3, 5%-3 == 2, -7%2 == -1 (Python: -4, -1, 1).
    result = compile_body(tmp_path, """
    for i in pl.range(-7 // 2, n + 5 % -3 + (-7) % 2):
        o = self.k(a, o)
    return o
    """)
    assert "for (int64_t i = -3; i < n + 2 + -1; i += 1) {" in result.code
    assert error_of(tmp_path, "for i in pl.range(n + 7 % (2 - 2)):\n    o = self.k(a, o)\nreturn o\n")[0] == (
        "division by zero in a constant expression"
    )
