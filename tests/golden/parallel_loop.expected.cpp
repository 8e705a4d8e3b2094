// Orchestration Function: orch_parallel
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

    // Scalar params
    union { uint64_t u64; int64_t val; } rows_conv;
    rows_conv.u64 = orch_args.scalar(0);
    int64_t rows = rows_conv.val;

    PTO2_SCOPE() {
        for (int64_t r = 0; r < rows; r += 16) {
            PTO2_SCOPE() {

                // Task 0: block
                Arg params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_y);
                params_t0.add_scalar((uint64_t)r);
                rt_submit_aiv_task(0, params_t0);
            }
        }
    }
}

}  // extern "C"
