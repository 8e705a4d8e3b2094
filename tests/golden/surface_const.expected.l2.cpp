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
    const Tensor& ext_inp = orch_args.tensor(0).ref();
    const Tensor& ext_out = orch_args.tensor(1).ref();

    // Scalar params
    int32_t n = from_u64<int32_t>(orch_args.scalar(0));

    PTO2_SCOPE() {
        if ((n > 2)) {
            PTO2_SCOPE() {

                // Task 0: axpy
                L0TaskArgs params_t0;
                params_t0.add_input(ext_inp);
                params_t0.add_output(ext_out);
                params_t0.add_scalar(to_u64(0.500000f));
                rt_submit_aiv_task(0, params_t0);
            }
        }
        int64_t limit = 7;
        if ((n < limit)) {
            PTO2_SCOPE() {

                // Task 1: axpy
                L0TaskArgs params_t1;
                params_t1.add_input(ext_inp);
                params_t1.add_inout(ext_out);
                params_t1.add_scalar(to_u64(2.000000f));
                rt_submit_aiv_task(0, params_t1);
            }
        }
    }
}

}  // extern "C"
