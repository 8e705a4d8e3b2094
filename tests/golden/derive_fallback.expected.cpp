// Orchestration Function: orch_fallback
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
    Tensor ext_y = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_flags = from_tensor_arg(orch_args.tensor(2));

    PTO2_SCOPE() {

        // Task 0: step
        Arg params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_inout(ext_y);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: step
        Arg params_t1;
        params_t1.add_input(ext_x);
        params_t1.add_inout(ext_y);
        rt_submit_aiv_task(0, params_t1);
        {
          uint32_t indices_flags[1] = {0};
          set_tensor_data<int32_t>(ext_flags, 1, indices_flags, 1);
        }
    }
}

}  // extern "C"
