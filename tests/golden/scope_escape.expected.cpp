// Orchestration Function: orch_escape
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 3 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(1));

    // Scalar params
    union { uint64_t u64; int64_t val; } n_conv;
    n_conv.u64 = orch_args.scalar(0);
    int64_t n = n_conv.val;

    uint32_t a_ci_shapes[2] = {16, 16};
    TensorCreateInfo a_ci(a_ci_shapes, 2, DataType::FLOAT32);
    uint32_t b_ci_shapes[2] = {16, 16};
    TensorCreateInfo b_ci(b_ci_shapes, 2, DataType::FLOAT32);
    TaskOutputTensors alloc_0 = alloc_tensors(a_ci, b_ci);
    const Tensor& a = alloc_0.get_ref(0);
    const Tensor& b = alloc_0.get_ref(1);
    PTO2TaskId make_once = PTO2TaskId::invalid();
    uint32_t tmp_ci_shapes[2] = {16, 16};
    TensorCreateInfo tmp_ci(tmp_ci_shapes, 2, DataType::FLOAT32);
    TaskOutputTensors alloc_1 = alloc_tensors(tmp_ci);
    const Tensor& tmp = alloc_1.get_ref(0);
    PTO2_SCOPE(PTO2ScopeMode::MANUAL) {

        // Task 0: make
        Arg params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_output(tmp);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId t1 = task_0_outs.task_id();
        make_once = t1;
    }
    int64_t k;
    Tensor cur;
    PTO2_SCOPE() {
        k = n * 2;
        cur = a;
        for (int64_t i = 0; i < n; i += 1) {

            // Task 1: make
            Arg params_t1;
            params_t1.add_input(tmp);
            params_t1.add_inout(b);
            PTO2TaskId params_t1_deps[1];
            uint32_t params_t1_deps_count = 0;
            if (make_once.is_valid()) params_t1_deps[params_t1_deps_count++] = make_once;
            params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
            rt_submit_aiv_task(0, params_t1);
            PTO2TaskId no_task = PTO2TaskId::invalid();
            make_once = no_task;
            cur = b;
        }
    }

    // Task 2: scaled
    Arg params_t2;
    params_t2.add_input(cur);
    params_t2.add_inout(ext_out);
    params_t2.add_scalar((uint64_t)k);
    rt_submit_aiv_task(1, params_t2);
}

}  // extern "C"
