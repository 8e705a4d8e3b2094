"""Three defects the reference acceptance set exposed (issue 22), each with the smallest program
showing it: the C++ of both ABIs is checked line by line and compiled with g++ against the
stand-in runtime header, and the program is run through the hazard checker."""

from __future__ import annotations

import pytest

from conftest import compile_check, load_program

import nanopass
from nanopass.errors import UserError
from nanopass.tools.check import check_program

NEW_TENSOR = '''
import nanopass.dsl as pl

@pl.program
class NewTensor:
    @pl.function(type=pl.FunctionType.AIV)
    def double(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        return pl.store(t, [0, 0], pl.create_tensor([16, 16], dtype=pl.FP32))

    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        b = self.double(a)
        out = self.copy(b, out)
        c = self.double(b)
        y = self.copy(c, y)
        return y
'''


def unwaived(result) -> list:
    return [h for h in result.hazards if not h.waived]


def program_of(tmp_path, text: str, name: str):
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return load_program(path)


@pytest.mark.parametrize("abi", ["seed", "l2"])
def test_a_kernel_result_no_parameter_holds_gets_a_buffer_the_caller_creates(tmp_path, abi):
    # The C++ named the result 'b' without declaring it (g++: 'b' was not declared in this scope).
    # Reference-surface S6: the kernel gains an Out parameter ret<i>__out, the caller creates it.
    program = program_of(tmp_path, NEW_TENSOR, "new_tensor")
    result = nanopass.generate_orchestration(program, abi=abi)
    lines = result.code.splitlines()
    at = lines.index("        uint32_t ret0__out_ci_shapes[2] = {16, 16};")
    assert lines[at : at + 7] == [
        "        uint32_t ret0__out_ci_shapes[2] = {16, 16};",
        "        TensorCreateInfo ret0__out_ci(ret0__out_ci_shapes, 2, DataType::FLOAT32);",
        "        uint32_t ret0__out_v1_ci_shapes[2] = {16, 16};",
        "        TensorCreateInfo ret0__out_v1_ci(ret0__out_v1_ci_shapes, 2, DataType::FLOAT32);",
        "        TaskOutputTensors alloc_0 = alloc_tensors(ret0__out_ci, ret0__out_v1_ci);",
        "        const Tensor& ret0__out = alloc_0.get_ref(0);",
        "        const Tensor& ret0__out_v1 = alloc_0.get_ref(1);",
    ]
    assert "        params_t0.add_output(ret0__out);" in lines  # double(a) writes its buffer
    assert "        params_t1.add_input(ret0__out);" in lines  # copy(b, out) reads it
    assert "        params_t2.add_input(ret0__out);" in lines and "        params_t2.add_output(ret0__out_v1);" in lines
    assert "        params_t3.add_input(ret0__out_v1);" in lines
    assert result.func_name_to_signature["double"] == ["IN", "OUT"]  # the buffer is an Out parameter now
    compile_check(result.code, tmp_path)
    assert unwaived(check_program(program, {})) == []


SUBMIT_NEW_TENSOR = '''
import nanopass.dsl as pl

@pl.program
class SubmitNewTensor:
    @pl.function(type=pl.FunctionType.AIV)
    def both(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
             ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        return o, pl.create_tensor([16, 16], dtype=pl.FP32)

    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        (o, n), tid = pl.submit(self.both, a)
        out = self.copy(o, out)
        out = self.copy(n, out)
        return out
'''


def test_a_submit_omitting_out_parameters_omits_the_new_buffer_too(tmp_path):
    # pl.submit leaves trailing Out parameters to the runtime: the added ret1__out is one of them.
    program = program_of(tmp_path, SUBMIT_NEW_TENSOR, "submit_new_tensor")
    code = nanopass.generate_orchestration(program).code
    assert "TensorCreateInfo params_t0_synth_out_1(params_t0_synth_out_1_shapes, 2, DataType::FLOAT32);" in code
    assert "TensorCreateInfo params_t0_synth_out_2(params_t0_synth_out_2_shapes, 2, DataType::FLOAT32);" in code
    assert "const Tensor& o = task_0_outs.get_ref(0);" in code and "const Tensor& n = task_0_outs.get_ref(1);" in code
    assert "ret1__out" not in code
    compile_check(code, tmp_path)
    assert unwaived(check_program(program, {})) == []


def test_a_new_tensor_sized_by_a_dimension_the_caller_lacks_is_a_user_error(tmp_path):
    text = NEW_TENSOR.replace("import nanopass.dsl as pl\n", "import nanopass.dsl as pl\nK = pl.dynamic('K')\n").replace(
        "def double(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:",
        "def double(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[K, 16], pl.FP32]:",
    )
    with pytest.raises(UserError) as error:
        nanopass.generate_orchestration(program_of(tmp_path, text, "sized_by_k"))
    assert "kernel 'double' returns a new tensor (result 0) whose shape uses 'K'" in error.value.message
    assert error.value.span.line == text.splitlines().index("        b = self.double(a)") + 1


TWO_FENCES = '''
import nanopass.dsl as pl

@pl.program
class TwoFences:
    @pl.function(type=pl.FunctionType.AIV)
    def produce(self, i: pl.Scalar[pl.INT64], out: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def consume(self, src: pl.Tensor[[64, 64], pl.FP32], y: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, out: pl.InOut[pl.Tensor[[64, 64], pl.FP32]], y: pl.InOut[pl.Tensor[[64, 64], pl.FP32]],
             z: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(8, pl.TASK_ID)
            for i in pl.parallel(8):
                out, t = pl.submit(self.produce, i, out)
                tids[i] = t
            for j in pl.parallel(8):
                y, u = pl.submit(self.consume, out, y, deps=[tids])
            for k in pl.parallel(8):
                z, v = pl.submit(self.consume, out, z, deps=[tids])
        return z
'''


@pytest.mark.parametrize("abi", ["seed", "l2"])
def test_phase_fence_barriers_are_named_as_the_reference_names_them(tmp_path, abi):
    # The barrier's TaskId was 'phase_fence_barrier' (then phase_fence_barrier_1, ...); the
    # reference (reference-behaviour.md section 5) names it phase_fence_barrier_<k>_tid.
    program = program_of(tmp_path, TWO_FENCES, "two_fences")
    code = nanopass.generate_orchestration(program, abi=abi).code
    for k in (0, 1):
        assert f"            // Phase-fence barrier {k}: dependency-only dummy task" in code
        assert f"            PTO2TaskId phase_fence_barrier_{k}_tid = PTO2TaskId::invalid();" in code
        assert f"                phase_fence_barrier_{k}_tid = phase_fence_barrier_{k}_outs.task_id();" in code
    assert "if (phase_fence_barrier_0_tid.is_valid()) params_t1_deps[params_t1_deps_count++] = phase_fence_barrier_0_tid;" in code
    assert "if (phase_fence_barrier_1_tid.is_valid()) params_t2_deps[params_t2_deps_count++] = phase_fence_barrier_1_tid;" in code
    assert "phase_fence_barrier;" not in code and "phase_fence_barrier =" not in code
    compile_check(code, tmp_path)
    assert unwaived(check_program(program, {})) == []


HOST_WRITES = '''
import nanopass.dsl as pl

@pl.program
class HostWrites:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[4], pl.INT32], out: pl.InOut[pl.Tensor[[2, 8], pl.INT32]]) -> pl.Tensor[[2, 8], pl.INT32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, out: pl.InOut[pl.Tensor[[2, 8], pl.INT32]], e: pl.Scalar[pl.INT32]) -> pl.Tensor[[2, 8], pl.INT32]:
        flags = pl.create_tensor([4], dtype=pl.INT32)
        pl.tensor.write(out, [0, 7], e)
        pl.tensor.write(out, [1, 0], e + 1)
        pl.tensor.write(flags, [2], e)
        out = self.k(flags, out)
        return out
'''


@pytest.mark.parametrize("abi", ["seed", "l2"])
def test_a_host_write_names_its_index_array_after_the_dsl_name_in_a_block_of_its_own(tmp_path, abi):
    # The index array was indices_ext_out (the C++ name), then indices_ext_out_1, in the
    # enclosing block; reference-surface S3: indices_<DSL name>, in a block of its own.
    program = program_of(tmp_path, HOST_WRITES, "host_writes")
    code = nanopass.generate_orchestration(program, abi=abi).code
    expected = """\
        {
          uint32_t indices_out[2] = {0, 7};
          set_tensor_data<int32_t>(ext_out, 2, indices_out, e);
        }
        {
          uint32_t indices_out[2] = {1, 0};
          set_tensor_data<int32_t>(ext_out, 2, indices_out, e + 1);
        }
        {
          uint32_t indices_flags[1] = {2};
          set_tensor_data<int32_t>(flags, 1, indices_flags, e);
        }
"""
    if abi == "l2":
        expected = expected.replace("e + 1", "(e + 1)")  # every operation in parentheses, as the reference
    assert expected in code
    assert "indices_ext_out" not in code
    compile_check(code, tmp_path)
    assert unwaived(check_program(program, {"e": "3"})) == []


GENERATED_LOOKING_NAMES = '''
import nanopass.dsl as pl

@pl.program
class GeneratedLookingNames:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        params_t0 = pl.create_tensor([16, 16], dtype=pl.FP32)
        params_t0 = self.copy(a, params_t0)
        out = self.copy(params_t0, out)
        return out
'''


def test_a_variable_named_like_a_generated_name_is_renamed_not_searched_forever(tmp_path):
    # No suffix takes 'params_t0' out of the shape of a generated name: the name search never
    # ended. Such a name now gets the prefix user_.
    code = nanopass.generate_orchestration(program_of(tmp_path, GENERATED_LOOKING_NAMES, "generated_looking")).code
    assert "const Tensor& user_params_t0 = alloc_0.get_ref(0);" in code
    assert "params_t0.add_output(user_params_t0);" in code
    compile_check(code, tmp_path)
