// Orchestration Function: main
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
    Tensor ext_a = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_b = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(2));

    PTO2_SCOPE() {
        uint32_t ret0__out_ci_shapes[2] = {32, 64};
        TensorCreateInfo ret0__out_ci(ret0__out_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(ret0__out_ci);
        const Tensor& ret0__out = alloc_0.get_ref(0);

        // Task 0: sum_stage
        Arg params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_input(ext_b);
        params_t0.add_output(ret0__out);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId s_tid = task_0_outs.task_id();

        // Task 1: mul_stage
        Arg params_t1;
        params_t1.add_input(ret0__out);
        params_t1.add_input(ext_a);
        params_t1.add_inout(ext_out);
        PTO2TaskId params_t1_deps[1];
        uint32_t params_t1_deps_count = 0;
        params_t1_deps[params_t1_deps_count++] = s_tid;
        params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
        params_t1.set_allow_early_resolve(true);
        rt_submit_aiv_task(1, params_t1);
    }
}

}  // extern "C"
