// Orchestration Function: run
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
    Tensor ext_a = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_b = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_c = from_tensor_arg(orch_args.tensor(2));
    Tensor ext_d = from_tensor_arg(orch_args.tensor(3));

    PTO2_SCOPE() {

        // Task 0: acc
        Arg params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_inout(ext_b);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: acc
        Arg params_t1;
        params_t1.add_no_dep(ext_a);
        params_t1.add_inout(ext_c);
        rt_submit_aiv_task(0, params_t1);

        // Task 2: acc
        Arg params_t2;
        params_t2.add_inout(ext_b);
        params_t2.add_inout(ext_d);
        rt_submit_aiv_task(0, params_t2);

        // Task 3: acc
        Arg params_t3;
        params_t3.add_input(ext_d);
        params_t3.add_inout(ext_c);
        rt_submit_aiv_task(0, params_t3);
    }
}

}  // extern "C"
