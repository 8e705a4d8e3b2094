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
    Tensor ext_out = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_res = from_tensor_arg(orch_args.tensor(2));

    PTO2_SCOPE() {

        // Task 0: fill_rows
        Arg params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_inout(ext_out);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: scale
        Arg params_t1;
        params_t1.add_input(ext_out);
        params_t1.add_output(ext_res);
        rt_submit_aiv_task(1, params_t1);
    }
}

}  // extern "C"
