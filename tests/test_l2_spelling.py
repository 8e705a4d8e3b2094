"""``--abi l2`` spells what the examples do not show as the reference does (reference-surface.md
S2-S7, reference-behaviour.md sections 8-11); each output is compiled with g++ against the stand-in
runtime header."""

from __future__ import annotations

from conftest import REPO, compile_check, load_program

import nanopass

SPELLINGS = '''
import nanopass.dsl as pl

@pl.program
class Spellings:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, src: pl.Tensor[[8, 32], pl.FP32], tag: pl.Scalar[pl.UINT8], on: pl.Scalar[pl.BOOL],
          n: pl.Scalar[pl.INT64], f: pl.Scalar[pl.FP32], dst: pl.InOut[pl.Tensor[[8, 32], pl.FP32]]
          ) -> pl.Tensor[[8, 32], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, big: pl.Tensor[[24, 32], pl.FP32], res: pl.InOut[pl.Tensor[[8, 32], pl.FP32]],
             n: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 32], pl.FP32]:
        with pl.manual_scope():
            ids = pl.array.create(4, pl.TASK_ID)
            for i in pl.parallel(4):
                win = pl.tensor.slice(big, [8, 32], [i * 4, 0])
                res, t = pl.submit(self.k, win, 7, True, n, 0.0000001, res)
                ids[i] = t
            top = pl.tensor.slice(big, [8, 32], [0, 0])
            res, u = pl.submit(self.k, top, 1, False, n - 1, 2.5, res, deps=[ids])
        if n > 2:
            res = self.k(res, 0, True, n, 1.5, res)
        return res
'''


def compiled(tmp_path, text: str, name: str, abi: str = "l2"):
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    code = nanopass.generate_orchestration(load_program(path), abi=abi).code
    compile_check(code, tmp_path, f"{name}_{abi}.cpp")
    return code


def test_l2_spells_expressions_scalars_arrays_and_views_as_the_reference(tmp_path):
    code = compiled(tmp_path, SPELLINGS, "spellings")
    lines = [line.strip() for line in code.splitlines()]
    assert not code.startswith("//") and code.startswith("#include <stddef.h>\n")  # S4
    config = lines.index("return PTO2OrchestrationConfig{")
    assert lines[config : config + 3] == ["return PTO2OrchestrationConfig{", ".expected_arg_count = 3,", "};"]
    # one line each (reference-behaviour 9.10): declaration and fill of a TaskId array
    assert "PTO2TaskId ids[4]; for (int64_t __init_i = 0; __init_i < 4; ++__init_i) ids[__init_i] = PTO2TaskId::invalid();" in lines
    # S2: a slice's extents clamped to what is left of the source, offsets first
    assert "uint32_t win_offsets[2] = {static_cast<uint32_t>((i * 4)), 0};" in lines
    assert (
        "uint32_t win_shapes[2] = {(win_offsets[0] >= ext_big.shapes[0] ? 0u : std::min<uint32_t>(8, ext_big.shapes[0] - "
        "win_offsets[0])), (win_offsets[1] >= ext_big.shapes[1] ? 0u : std::min<uint32_t>(32, ext_big.shapes[1] - "
        "win_offsets[1]))};" in lines
    )
    # section 10.3: literals cast to their own type, variables bare, floats to_u64 with six decimals
    # when those hold the value
    assert "params_t0.add_scalar((uint64_t)static_cast<uint8_t>(7));" in lines
    assert "params_t0.add_scalar((uint64_t)1);" in lines and "params_t1.add_scalar((uint64_t)0);" in lines
    assert "params_t0.add_scalar(n);" in lines and "params_t1.add_scalar((uint64_t)(n - 1));" in lines
    assert "params_t0.add_scalar(to_u64(1e-07f));" in lines and "params_t1.add_scalar(to_u64(2.500000f));" in lines
    assert "if ((n > 2)) {" in lines  # S7: a comparison in parentheses inside the if's
    seed = compiled(tmp_path, SPELLINGS, "spellings", abi="seed")
    assert "if (n > 2) {" in seed and "params_t0.add_scalar((uint64_t)n);" in seed and "std::min" not in seed


def test_a_group_dispatch_is_commented_and_ordered_as_the_reference(tmp_path):
    # reference-behaviour 10.5: "// Group <g>: ...", MixedKernels before the dependencies
    text = (REPO / "examples" / "group_mixed.py").read_text().replace(
        "        p = self.attention_block(q, k, s, p)\n",
        "        with pl.manual_scope():\n"
        "            p, t0 = pl.submit(self.vector_only, s, p)\n"
        "            p, t1 = pl.submit(self.attention_block, q, k, s, p, deps=[t0])\n",
    )
    for abi in ("seed", "l2"):
        lines = [line.strip() for line in compiled(tmp_path, text, "groups", abi).splitlines()]
        head = lines.index("// Group attention_block: MixedKernels (AIC + AIV lanes)")
        body = lines[head : lines.index("TaskOutputTensors task_1_outs = rt_submit_task(mixed_1, params_t1);", head)]
        assert body.index("MixedKernels mixed_1 = {1, 0, 0};") < body.index("PTO2TaskId params_t1_deps[1];")
        assert "// Group vector_only: AIV-only SPMD" in lines


def test_a_group_sets_early_resolve_before_its_dependencies(tmp_path):
    # reference-behaviour 10.1/10.5: a Group is called through a launch function, whose order is
    # launch spec; early resolve; dependencies (a direct call's: dependencies; launch spec; early resolve)
    text = (REPO / "examples" / "group_mixed.py").read_text().replace(
        "        p = self.attention_block(q, k, s, p)\n",
        "        with pl.manual_scope():\n"
        "            p, t0 = pl.submit(self.vector_only, s, p)\n"
        "            p, t1 = pl.submit(self.attention_block, q, k, s, p, deps=[t0], allow_early_resolve=True)\n",
    )
    assert "allow_early_resolve=True" in text
    lines = [line.strip() for line in compiled(tmp_path, text, "groups", "l2").splitlines()]
    head = lines.index("// Group attention_block: MixedKernels (AIC + AIV lanes)")
    body = lines[head : lines.index("TaskOutputTensors task_1_outs = rt_submit_task(mixed_1, params_t1);", head) + 1]
    assert body[-6:] == [
        "params_t1.set_allow_early_resolve(true);",
        "PTO2TaskId params_t1_deps[1];",
        "uint32_t params_t1_deps_count = 0;",
        "params_t1_deps[params_t1_deps_count++] = t0;",
        "params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);",
        "TaskOutputTensors task_1_outs = rt_submit_task(mixed_1, params_t1);",
    ]


PHI_WITHOUT_EXTERNAL = '''
import nanopass.dsl as pl

@pl.program
class NoExternal:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, flag: pl.Scalar[pl.INT64], x: pl.Tensor[[16, 16], pl.FP32]):
        a = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        c = pl.create_tensor([16, 16], dtype=pl.FP32)
        if flag > 0:
            src = a
        else:
            src = b
        c = self.k(src, c)
'''


def test_a_tensor_if_result_starts_as_an_external_tensor_only_when_one_is_declared(tmp_path):
    # reference-behaviour.md section 7.4's placeholder is the first tensor parameter; `x` is never
    # read, so it is not declared (README, unread-params) and the result is declared uninitialised
    for abi in ("seed", "l2"):
        code = compiled(tmp_path, PHI_WITHOUT_EXTERNAL, f"noext_{abi}", abi)
        assert "        Tensor src;\n        if (" in code and "ext_x" not in code
        with_x = compiled(tmp_path, PHI_WITHOUT_EXTERNAL.replace("c = self.k(src, c)", "c = self.k(src, c)\n"
                                                                 "        c = self.k(x, c)"), f"ext_{abi}", abi)
        assert "        Tensor src = ext_x;\n" in with_x
