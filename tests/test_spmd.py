"""SPMD launches (reference-surface.md section 1): ``pl.spmd_submit``, ``with/for pl.spmd(...)``,
``pl.cluster()`` and ``attrs={"split": ...}``; one task per launch, its launch spec printed after
the dependencies and before the submit; misuse is a located user error."""

from __future__ import annotations

import textwrap

import pytest

from conftest import compile_check, load_program

import nanopass
from nanopass.errors import UserError
from nanopass.passes.frontend.ops.submits import PREDICATE_REFUSED
from nanopass.tools.check import check_program

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def blk(self, src: pl.Tensor[[64, 32], pl.FP32], dst: pl.InOut[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[64, 32], pl.FP32], out: pl.InOut[pl.Tensor[[64, 32], pl.FP32]], n: pl.Scalar[pl.INT32]) -> pl.Tensor[[64, 32], pl.FP32]:
'''


def write(tmp_path, body: str):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8) + "        return out\n")
    return path


def compile_(tmp_path, body: str, abi: str = "seed") -> str:
    return nanopass.generate_orchestration(load_program(write(tmp_path, body)), abi=abi).code


def error(tmp_path, body: str) -> str:
    with pytest.raises(UserError) as info:
        compile_(tmp_path, body)
    span = info.value.span
    return f"{span.line}:{span.col + 1}: {info.value.message}"


def lines_of_task(code: str, n: int) -> list[str]:
    """The lines of task ``n``, from its comment to its submit."""
    lines = [line.strip() for line in code.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("// ") and f"params_t{n};" in lines[i + 1])
    end = next(i for i in range(start, len(lines)) if "rt_submit" in lines[i])
    return lines[start:end + 1]


def test_the_launch_spec_follows_the_dependencies_and_precedes_the_submit(tmp_path):
    code = compile_(tmp_path, """
        out, g0 = pl.spmd_submit(self.blk, a, out, core_num=4, sync_start=True)
        out, g1 = pl.spmd_submit(self.blk, a, out, core_num=n * 2, deps=[g0])
    """)
    assert lines_of_task(code, 0)[-3:] == [
        "params_t0.launch_spec.set_block_num(4);",
        "params_t0.launch_spec.set_require_sync_start(true);",
        "TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);",
    ]
    assert lines_of_task(code, 1)[-3:] == [
        "params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);",
        "params_t1.launch_spec.set_block_num(n * 2);",
        "rt_submit_aiv_task(0, params_t1);",
    ]


def test_a_block_count_computed_only_for_the_launch_is_kept(tmp_path):
    code = compile_(tmp_path, """
        for i in pl.range(3):
            blocks = i + n
            out, g = pl.spmd_submit(self.blk, a, out, core_num=blocks)
    """)
    assert "int32_t blocks = i + n;" in code or "int64_t blocks = i + n;" in code
    assert "params_t0.launch_spec.set_block_num(blocks);" in code


def test_with_spmd_outlines_the_block_into_a_kernel_launched_on_its_blocks(tmp_path):
    result = nanopass.generate_orchestration(load_program(write(tmp_path, """
        with pl.spmd(4) as g:
            b = pl.tile.get_block_idx()
            t = pl.load(a, [b * 16, 0], [16, 32])
            out = pl.store(t, [b * 16, 0], out)
        for i in pl.spmd(n, sync_start=True, deps=[g]):
            t = pl.load(out, [i * 16, 0], [16, 32])
            out = pl.store(pl.exp(t), [i * 16, 0], out)
    """)))
    assert result.kernel_ids == {"orch_incore_0": 0, "orch_incore_1": 1}
    assert lines_of_task(result.code, 0) == [
        "// Spmd orch_spmd_0: orch_incore_0", "Arg params_t0;", "params_t0.add_input(ext_a);", "params_t0.add_inout(ext_out);",
        "params_t0.launch_spec.set_block_num(4);",
        "TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);",
    ]
    assert "// Spmd orch_spmd_1: orch_incore_1" in result.code
    assert "params_t1.launch_spec.set_block_num(n);" in result.code
    assert "params_t1.launch_spec.set_require_sync_start(true);" in result.code


def test_dumps_follow_the_arguments_and_early_resolve_follows_the_launch_spec(tmp_path):
    # reference-behaviour.md 10.5: dump after the argument adds; a direct call (pl.spmd_submit)
    # then sets its dependencies, launch spec and early resolve; a call through a launch function
    # (a with pl.spmd region, 10.1/10.6) sets its launch spec and early resolve, then its
    # dependencies. (reference-surface.md section 11 puts early resolve "after deps and before the
    # launch spec/submit", but its examples have no launch spec; 10.5 is the code's order.)
    code = compile_(tmp_path, """
        out, g0 = pl.spmd_submit(self.blk, a, out, core_num=4, dumps=[a], allow_early_resolve=True)
        out, g1 = pl.spmd_submit(self.blk, a, out, core_num=4, deps=[g0], allow_early_resolve=True)
        with pl.spmd(2, deps=[g1], dumps=[out], allow_early_resolve=True):
            out = pl.store(pl.load(a, [0, 0], [16, 32]), [0, 0], out)
    """)
    assert lines_of_task(code, 0)[-5:] == [
        "params_t0.add_inout(ext_out);",
        "params_t0.dump(ext_a);",
        "params_t0.launch_spec.set_block_num(4);",
        "params_t0.set_allow_early_resolve(true);",
        "TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);",
    ]
    assert lines_of_task(code, 1)[-4:] == [
        "params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);",
        "params_t1.launch_spec.set_block_num(4);",
        "params_t1.set_allow_early_resolve(true);",
        "TaskOutputTensors task_1_outs = rt_submit_aiv_task(0, params_t1);",
    ]
    task2 = lines_of_task(code, 2)
    assert task2[task2.index("params_t2.add_inout(ext_out);") + 1] == "params_t2.dump(ext_out);"
    assert task2[-7:] == [
        "params_t2.launch_spec.set_block_num(2);",
        "params_t2.set_allow_early_resolve(true);",
        "PTO2TaskId params_t2_deps[1];",
        "uint32_t params_t2_deps_count = 0;",
        "params_t2_deps[params_t2_deps_count++] = g1;",
        "params_t2.set_dependencies(params_t2_deps, params_t2_deps_count);",
        "rt_submit_aiv_task(1, params_t2);",
    ]


def test_a_block_count_of_zero_is_a_runtime_error_the_checker_reports(tmp_path):
    path = write(tmp_path, "out, g = pl.spmd_submit(self.blk, a, out, core_num=n)\n")
    result = check_program(load_program(path), {"n": "0"})
    assert result.fatal is not None and "set_block_num(0)" in result.fatal


@pytest.mark.parametrize("abi", ["seed", "l2"])
def test_spmd_output_compiles(tmp_path, abi):
    code = compile_(tmp_path, "out, g = pl.spmd_submit(self.blk, a, out, core_num=n, sync_start=True)\n", abi)
    compile_check(code, tmp_path)


@pytest.mark.parametrize("body, message", [
    ("out, g = pl.spmd_submit(self.blk, a, out)\n", "12:18: pl.spmd_submit needs core_num=N (the number of blocks to launch)"),
    ("out, g = pl.spmd_submit(self.blk, a, out, core_num=0)\n",
     "12:60: core_num must be between 1 and 32767 (the runtime's block count is an int16_t), got 0"),
    ("out, g = pl.spmd_submit(self.blk, a, out, core_num=1.5)\n", "12:60: core_num must be an integer (the number of blocks)"),
    ("out, g = pl.spmd_submit(self.blk, a, out, core_num=2, sync_start=n)\n", "12:74: sync_start= must be True or False"),
    ("out, g = pl.spmd_submit(self.blk, a, out, core_num=2, predicate=n > 1)\n",
     "12:73: " + PREDICATE_REFUSED.format(what="pl.spmd_submit")),
    ("with pl.spmd(2, predicate=n > 1):\n    out = pl.assemble(out, a, [0, 0])\n",
     "12:35: " + PREDICATE_REFUSED.format(what="pl.spmd")),
    ("out, g = pl.spmd_submit(self.blk, a, out, core_num=2, dumps=[n])\n",
     "12:70: pl.spmd_submit's dumps= entries must be tensors the task takes as arguments; 'n' is not one"),
    ("with pl.spmd(4, allow_early_resolve='yes'):\n    out = pl.store(pl.load(a, [0, 0], [16, 32]), [0, 0], out)\n",
     "12:45: allow_early_resolve= must be True or False"),
    ("pl.spmd_submit(self.blk, a, out, core_num=2)\n",
     "12:9: pl.spmd_submit(...) must be unpacked: out, tid = pl.spmd_submit(...)"),
    ("out, g = pl.spmd_submit(a, out, core_num=2)\n",
     "12:18: pl.spmd_submit's first argument must be a kernel: pl.spmd_submit(self.k, ...)"),
    ("with pl.spmd():\n    out = pl.store(pl.load(a, [0, 0], [16, 32]), [0, 0], out)\n",
     "12:14: pl.spmd needs core_num (the number of blocks to launch)"),
    ("with pl.spmd(4, colour=1):\n    out = pl.store(pl.load(a, [0, 0], [16, 32]), [0, 0], out)\n",
     "12:32: pl.spmd has no keyword argument 'colour'"),
    ("for i, j in pl.spmd(4):\n    out = pl.store(pl.load(a, [0, 0], [16, 32]), [0, 0], out)\n",
     "12:13: the variable of a pl.spmd loop is one name (the block index)"),
    ("with pl.spmd(4):\n    out = self.blk(a, out)\n", "13:19: a pl.spmd block holds tile and tensor operations only"),
    ("with pl.cluster():\n    out = pl.store(pl.load(a, [0, 0], [16, 32]), [0, 0], out)\n",
     "13:19: a pl.cluster block holds kernel calls self.k(...) only"),
    ("g = pl.system.task_invalid()\nwith pl.spmd(4):\n    h = g\n    out = pl.store(pl.load(a, [0, 0], [16, 32]), [0, 0], out)\n",
     "14:17: pl.spmd block uses 'g', a TaskId: a kernel cannot take it"),
])
def test_misuse_is_a_located_error(tmp_path, body, message):
    assert error(tmp_path, body) == message


CLUSTER = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIC)
    def qk(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16], s: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(q, k)
        return s

    @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.%s})
    def soft(self, s: pl.Tensor[[16, 16], pl.FP32], p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return p

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16], p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.cluster(name_hint="attention"):
            s = self.qk(q, k, s)
            p = self.soft(s, p)
        p = self.soft(s, p)
        return p
'''


@pytest.mark.parametrize("split, mixed", [("UP_DOWN", "{0, 1, 1}"), ("LEFT_RIGHT", "{0, 1, 1}"), ("NONE", "{0, 1, -1}")])
def test_a_cluster_is_one_group_task_and_split_fills_both_vector_slots(tmp_path, split, mixed):
    path = tmp_path / "cluster.py"
    path.write_text(CLUSTER % split)
    result = nanopass.generate_orchestration(load_program(path))
    code = result.code
    assert f"MixedKernels mixed_0 = {mixed};" in code.replace("INVALID_KERNEL_ID", "-1")
    assert "params_t0.add_output(s);" in code and "params_t0.add_output(ext_p);" in code
    assert "rt_submit_aiv_task(1, params_t1);" in code  # a vector kernel with a split attribute alone: one AIV task
    assert result.kernel_ids == {"qk": 0, "soft": 1}  # a Group launches its members' ids


def test_a_bad_split_mode_is_a_located_error(tmp_path):
    path = tmp_path / "cluster.py"
    path.write_text(CLUSTER.replace('pl.SplitMode.%s', '"up"'))
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    assert (info.value.span.line, info.value.message) == (
        11, "attrs={'split': ...} takes pl.SplitMode.NONE, UP_DOWN or LEFT_RIGHT")


MIXED = '''\
import nanopass.dsl as pl


@pl.program
class Mixed:
    @pl.function(type=pl.FunctionType.InCore%s)
    def attn(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16], p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(q, k)
        v: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.exp(c)
        p = pl.store(v, [0, 0], p)
        return p

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16], p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        p = self.attn(q, k, p)
        return p
'''


def test_a_mixed_kernel_without_a_split_runs_on_the_cube_core(tmp_path):
    # D6: an InCore kernel using cube tiles is one AIC task (the reference expands it into a Group)
    path = tmp_path / "mixed.py"
    path.write_text(MIXED % "")
    assert "rt_submit_aic_task(0, params_t0);" in nanopass.generate_orchestration(load_program(path)).code


@pytest.mark.parametrize("attr", [', attrs={"split": pl.SplitMode.UP_DOWN}', ", dual_aiv_dispatch=True"])
def test_a_split_on_a_mixed_kernel_is_a_located_error(tmp_path, attr):
    # reference-surface.md section 1: the split asks the mixed-kernel expansion, which nanopass does not do
    path = tmp_path / "mixed.py"
    path.write_text(MIXED % attr)
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    assert (info.value.span.line, info.value.span.col) == (7, 4)
    assert info.value.message.startswith("kernel 'attn' uses the cube core (Left/Right/Acc/Mat tiles or a matmul) "
                                         "and asks to split its vector part across the AIV sub-cores")
    assert "with pl.cluster()" in info.value.hint


def test_a_split_on_a_mixed_kernel_is_refused_by_the_cli_without_a_traceback(tmp_path):
    from conftest import run_cli

    path = tmp_path / "mixed.py"
    path.write_text(MIXED % ', attrs={"split": pl.SplitMode.LEFT_RIGHT}')
    done = run_cli("run", str(path))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"{path}:7:5: error: kernel 'attn' uses the cube core")


@pytest.mark.parametrize("second, earlier", [
    ("p = self.soft(s, p)", "soft"),  # a second call of the same AIV kernel
    ("p = self.soft2(s, p)", "soft"),  # another AIV kernel
    ("s = self.qk(q, k, s)", "qk"),  # a second AIC call
])
def test_a_second_call_on_a_core_in_a_cluster_is_a_located_error(tmp_path, second, earlier):
    """A Group task runs one AIC and one AIV kernel once each (MixedKernels' slots): the second
    call on a core would silently not run (it was dropped from the members before)."""
    source = (CLUSTER % "NONE").replace(
        "            p = self.soft(s, p)\n        p = self.soft(s, p)\n",
        f"            p = self.soft(s, p)\n            {second}\n        p = self.soft(s, p)\n")
    source = source.replace(
        "    @pl.function(type=pl.FunctionType.Orchestration)",
        "    @pl.function(type=pl.FunctionType.AIV)\n"
        "    def soft2(self, s: pl.Tensor[[16, 16], pl.FP32], p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
        "        return p\n\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)")
    path = tmp_path / "cluster.py"
    path.write_text(source)
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    name = second.split("self.")[1].split("(")[0]
    core = "AIC" if name == "qk" else "AIV"
    assert info.value.message.startswith(f"'attention' calls a second {core} kernel '{name}' (after '{earlier}' at line ")
    lines = source.splitlines()
    assert info.value.span.line == max(i for i, text in enumerate(lines) if text == f"            {second}") + 1
