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
    const Tensor& ext_flags = orch_args.tensor(0).ref();
    const Tensor& ext_out = orch_args.tensor(1).ref();

    // Scalar params
    int32_t e = from_u64<int32_t>(orch_args.scalar(0));

    PTO2_SCOPE() {
        uint32_t indices_first[1] = {1};
        int32_t first = get_tensor_data<int32_t>(ext_flags, 1, indices_first);
        {
          uint32_t indices_flags[1] = {2};
          set_tensor_data<int32_t>(ext_flags, 1, indices_flags, e);
        }
        {
          uint32_t indices_out[2] = {0, 7};
          set_tensor_data<int32_t>(ext_out, 2, indices_out, (first + e));
        }

        // Task 0: fill
        L0TaskArgs params_t0;
        params_t0.add_input(ext_flags);
        params_t0.add_inout(ext_out);
        params_t0.add_scalar(first);
        rt_submit_aiv_task(0, params_t0);
        uint32_t indices_last[2] = {1, 7};
        int32_t last = get_tensor_data<int32_t>(ext_out, 2, indices_last);
        {
          uint32_t indices_out[2] = {1, 0};
          set_tensor_data<int32_t>(ext_out, 2, indices_out, last);
        }
    }
}

}  // extern "C"
