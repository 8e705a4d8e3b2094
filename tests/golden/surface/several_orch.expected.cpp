// Orchestration Function: alpha
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
    Tensor ext_w = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_y = from_tensor_arg(orch_args.tensor(2));

    PTO2_SCOPE() {
        uint32_t t_ci_shapes[2] = {16, 16};
        TensorCreateInfo t_ci(t_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(t_ci);
        const Tensor& t = alloc_0.get_ref(0);

        // Task 0: add
        Arg params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_input(ext_w);
        params_t0.add_output(t);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: scale
        Arg params_t1;
        params_t1.add_input(t);
        params_t1.add_output(ext_y);
        rt_submit_aiv_task(1, params_t1);
    }
}

}  // extern "C"
