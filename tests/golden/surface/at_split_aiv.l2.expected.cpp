#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 2,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_a = orch_args.tensor(0).ref();
    const Tensor& ext_out = orch_args.tensor(1).ref();

    PTO2_SCOPE() {

        // Task 0: halves
        L0TaskArgs params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_inout(ext_out);
        rt_submit_aiv_task(0, params_t0);
        for (int64_t i = 0; i < 4; i += 1) {
            PTO2_SCOPE() {

                // Task 1: main_incore_1
                L0TaskArgs params_t1;
                params_t1.add_input(ext_a);
                params_t1.add_inout(ext_out);
                params_t1.add_scalar(i);
                rt_submit_aiv_task(1, params_t1);
            }
        }
    }
}

}  // extern "C"
