#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 3,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_a = orch_args.tensor(0).ref();
    const Tensor& ext_out = orch_args.tensor(1).ref();
    const Tensor& ext_res = orch_args.tensor(2).ref();

    PTO2_SCOPE() {

        // Task 0: fill_rows
        L0TaskArgs params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_inout(ext_out);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: scale
        L0TaskArgs params_t1;
        params_t1.add_input(ext_out);
        params_t1.add_output(ext_res);
        rt_submit_aiv_task(1, params_t1);
    }
}

}  // extern "C"
