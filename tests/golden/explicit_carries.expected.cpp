// Orchestration Function: orch_explicit
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 4 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_m0 = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_l0 = from_tensor_arg(orch_args.tensor(2));

    // Scalar params
    union { uint64_t u64; int64_t val; } n_conv;
    n_conv.u64 = orch_args.scalar(0);
    int64_t n = n_conv.val;

    PTO2_SCOPE() {
        for (int64_t i = 0; i < n; i += 1) {
            PTO2_SCOPE() {

                // Task 0: update
                Arg params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_m0);
                params_t0.add_inout(ext_l0);
                rt_submit_aiv_task(0, params_t0);
            }
        }
    }
}

}  // extern "C"
