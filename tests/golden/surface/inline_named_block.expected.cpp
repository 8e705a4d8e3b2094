// Orchestration Function: main
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
    Tensor ext_a = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_b = from_tensor_arg(orch_args.tensor(2));

    // Scalar params
    union { uint64_t u64; float val; } f_conv;
    f_conv.u64 = orch_args.scalar(0);
    float f = f_conv.val;

    PTO2_SCOPE() {

        // Task 0: scale_into
        Arg params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_inout(ext_a);
        params_t0.add_scalar(to_u64(f));
        rt_submit_aiv_task(0, params_t0);

        // Task 1: scale_into
        Arg params_t1;
        params_t1.add_input(ext_a);
        params_t1.add_inout(ext_b);
        params_t1.add_scalar(to_u64(f));
        rt_submit_aiv_task(0, params_t1);

        // Task 2: scale_into_1
        Arg params_t2;
        params_t2.add_input(ext_b);
        params_t2.add_inout(ext_a);
        rt_submit_aiv_task(1, params_t2);

        // Task 3: copy_rows
        Arg params_t3;
        params_t3.add_input(ext_a);
        params_t3.add_inout(ext_b);
        params_t3.add_scalar((uint64_t)0);
        rt_submit_aiv_task(2, params_t3);

        // Task 4: scale_into_1
        Arg params_t4;
        params_t4.add_input(ext_b);
        params_t4.add_inout(ext_a);
        rt_submit_aiv_task(1, params_t4);

        // Task 5: copy_rows
        Arg params_t5;
        params_t5.add_input(ext_a);
        params_t5.add_inout(ext_b);
        params_t5.add_scalar((uint64_t)1);
        rt_submit_aiv_task(2, params_t5);
    }
}

}  // extern "C"
