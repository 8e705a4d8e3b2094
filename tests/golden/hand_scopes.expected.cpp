// Orchestration Function: orch_hand
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
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_y = from_tensor_arg(orch_args.tensor(1));

    // Task 0: work
    Arg params_t0;
    params_t0.add_input(ext_x);
    params_t0.add_inout(ext_y);
    rt_submit_aiv_task(0, params_t0);
    PTO2_SCOPE() {
        for (int64_t i = 0; i < 2; i += 1) {

            // Task 1: work
            Arg params_t1;
            params_t1.add_input(ext_x);
            params_t1.add_inout(ext_y);
            rt_submit_aiv_task(0, params_t1);
        }
    }
    for (int64_t j = 0; j < 2; j += 1) {
        PTO2_SCOPE() {

            // Task 2: work
            Arg params_t2;
            params_t2.add_input(ext_x);
            params_t2.add_inout(ext_y);
            rt_submit_aiv_task(0, params_t2);
        }
    }
}

}  // extern "C"
