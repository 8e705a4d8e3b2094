#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 5,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_x = orch_args.tensor(0).ref();
    const Tensor& ext_acc = orch_args.tensor(1).ref();
    const Tensor& ext_y = orch_args.tensor(2).ref();

    // Scalar params
    float alpha = from_u64<float>(orch_args.scalar(0));
    int64_t steps = from_u64<int64_t>(orch_args.scalar(1));

    PTO2_SCOPE() {
        for (int64_t i = 0; i < steps; i += 1) {
            PTO2_SCOPE() {

                // Task 0: kernel_axpy
                L0TaskArgs params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_acc);
                params_t0.add_scalar(to_u64(alpha));
                rt_submit_aiv_task(0, params_t0);
            }
        }
        if ((2 < steps)) {
            PTO2_SCOPE() {

                // Task 1: kernel_copy
                L0TaskArgs params_t1;
                params_t1.add_input(ext_acc);
                params_t1.add_output(ext_y);
                rt_submit_aiv_task(1, params_t1);
            }
        } else {
            PTO2_SCOPE() {

                // Task 2: kernel_copy
                L0TaskArgs params_t2;
                params_t2.add_input(ext_x);
                params_t2.add_output(ext_y);
                rt_submit_aiv_task(1, params_t2);
            }
        }
    }
}

}  // extern "C"
