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
    const Tensor& ext_x = orch_args.tensor(0).ref();
    const Tensor& ext_y = orch_args.tensor(1).ref();
    const Tensor& ext_flags = orch_args.tensor(2).ref();

    PTO2_SCOPE() {

        // Task 0: step
        L0TaskArgs params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_inout(ext_y);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: step
        L0TaskArgs params_t1;
        params_t1.add_input(ext_x);
        params_t1.add_inout(ext_y);
        rt_submit_aiv_task(0, params_t1);
        {
          uint32_t indices_flags[1] = {0};
          set_tensor_data<int32_t>(ext_flags, 1, indices_flags, 1);
        }
    }
}

}  // extern "C"
