"""The examples compile; their C++ is what the spec says and what g++ accepts."""

from __future__ import annotations

import re

import pytest

from conftest import EXAMPLES, compile_check, run_cli

import nanopass

EXAMPLE_STEMS = sorted(p.stem for p in EXAMPLES.glob("*.py"))


def test_cli_prints_exactly_the_expected_basic_output():
    result = run_cli("run", str(EXAMPLES / "basic.py"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == (EXAMPLES / "basic.expected.cpp").read_text()


@pytest.mark.parametrize("stem", EXAMPLE_STEMS)
def test_every_example_compiles_with_gxx(stem, example, tmp_path):
    result = nanopass.generate_orchestration(example(stem))
    compile_check(result.code, tmp_path, f"{stem}.cpp")
    assert result.code.endswith("}  // extern \"C\"\n") and not result.code.endswith("\n\n")


def test_basic_result_metadata(example):
    result = nanopass.generate_orchestration(example("basic"))
    assert result.func_name == "orch_basic"
    assert result.kernel_ids == {"kernel_add": 0}  # D5: one id per kernel, shared by both calls
    assert result.core_types == {"kernel_add": "AIV"}
    assert result.orchestration_signature == ["IN", "IN", "OUT"]
    assert result.expected_arg_count == 3
    assert result.files == {"orchestration/orch_basic.cpp": result.code}


def test_loop_scalar_facts(example):
    code = nanopass.generate_orchestration(example("loop_scalar")).code
    assert ".expected_arg_count = 5" in code
    assert "float alpha = alpha_conv.val;" in code
    assert "alpha_conv.u64 = orch_args.scalar(0);" in code
    assert "int64_t steps = steps_conv.val;" in code and "steps_conv.u64 = orch_args.scalar(1);" in code
    loop = code.index("for (int64_t i = 0; i < steps; i += 1) {")
    assert code[loop:].split("\n")[1].strip() == "PTO2_SCOPE() {"
    assert "Tensor acc" not in code  # no carry variable: acc is written in place
    body = code[loop : code.index("if (steps > 2) {")]
    assert body.index("params_t0.add_inout(ext_acc);") < body.index("params_t0.add_scalar(to_u64(alpha));")
    branches = code[code.index("if (steps > 2) {") :]
    assert "} else {" in branches and branches.count("PTO2_SCOPE() {") == 2
    assert "rt_submit_aiv_task(1, params_t1);" in branches and "rt_submit_aiv_task(1, params_t2);" in branches


def test_manual_phases_facts(example):
    code = nanopass.generate_orchestration(example("manual_phases")).code
    manual = code.index("PTO2_SCOPE(PTO2ScopeMode::MANUAL) {")
    inside = code[manual:]
    assert "PTO2_SCOPE() {" not in inside  # no AUTO scope inside the manual one
    outer = re.search(r"PTO2TaskId (\w+)\[4\];", inside).group(1)
    phase_loop = inside.index("for (int64_t phase = 0; phase < 3; phase += 1) {")
    before = inside[:phase_loop]
    assert re.search(rf"{outer}\[\w+\] = PTO2TaskId::invalid\(\);", before)
    inner = re.search(r"PTO2TaskId (\w+)\[4\];", inside[phase_loop:]).group(1)
    assert re.search(rf"{inner}\[(\w+)\] = {outer}\[\1\];", inside)  # slot-by-slot copy at the top of a phase
    assert "PTO2TaskId params_t0_deps[4];" in inside and "uint32_t params_t0_deps_count = 0;" in inside
    assert re.search(rf"if \({outer}\[(\w+)\]\.is_valid\(\)\) params_t0_deps\[params_t0_deps_count\+\+\] = {outer}\[\1\];", inside)
    assert "params_t0.set_dependencies(params_t0_deps, params_t0_deps_count);" in inside
    assert "TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);" in inside
    fresh = re.search(r"PTO2TaskId (\w+) = task_0_outs\.task_id\(\);", inside).group(1)
    assert f"{inner}[branch] = {fresh};" in inside
    assert re.search(rf"{outer}\[(\w+)\] = {inner}\[\1\];", inside)  # copy back at the end of each phase
    scalars = inside.index("params_t0.add_scalar((uint64_t)row);")
    assert scalars < inside.index("params_t0.add_scalar(to_u64(1.0f));")
    assert inside.index("params_t0.add_inout(ext_out);") < scalars
