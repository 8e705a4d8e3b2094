// Orchestration Function: orch_order
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 2 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_a = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(1));

    PTO2_SCOPE() {
        uint32_t x_ci_shapes[2] = {8, 8};
        TensorCreateInfo x_ci(x_ci_shapes, 2, DataType::FLOAT32);
        uint32_t y_ci_shapes[2] = {8, 8};
        TensorCreateInfo y_ci(y_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(x_ci, y_ci);
        const Tensor& x = alloc_0.get_ref(0);
        const Tensor& y = alloc_0.get_ref(1);

        // Task 0: split
        Arg params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_output(x);
        params_t0.add_output(y);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: use
        Arg params_t1;
        params_t1.add_input(y);
        params_t1.add_input(x);
        params_t1.add_output(ext_out);
        rt_submit_aiv_task(1, params_t1);
    }
}

}  // extern "C"
