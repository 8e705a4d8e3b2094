// Orchestration Function: orch_loop
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 5 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_acc = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_y = from_tensor_arg(orch_args.tensor(2));

    // Scalar params
    union { uint64_t u64; float val; } alpha_conv;
    alpha_conv.u64 = orch_args.scalar(0);
    float alpha = alpha_conv.val;
    union { uint64_t u64; int64_t val; } steps_conv;
    steps_conv.u64 = orch_args.scalar(1);
    int64_t steps = steps_conv.val;

    PTO2_SCOPE() {
        for (int64_t i = 0; i < steps; i += 1) {
            PTO2_SCOPE() {

                // Task 0: kernel_axpy
                Arg params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_acc);
                params_t0.add_scalar(to_u64(alpha));
                rt_submit_aiv_task(0, params_t0);
            }
        }
        if (steps > 2) {
            PTO2_SCOPE() {

                // Task 1: kernel_copy
                Arg params_t1;
                params_t1.add_input(ext_acc);
                params_t1.add_output(ext_y);
                rt_submit_aiv_task(1, params_t1);
            }
        } else {
            PTO2_SCOPE() {

                // Task 2: kernel_copy
                Arg params_t2;
                params_t2.add_input(ext_x);
                params_t2.add_output(ext_y);
                rt_submit_aiv_task(1, params_t2);
            }
        }
    }
}

}  // extern "C"
