// Orchestration Function: orch
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
    Tensor ext_flags = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(1));

    // Scalar params
    union { uint64_t u64; int32_t val; } e_conv;
    e_conv.u64 = orch_args.scalar(0);
    int32_t e = e_conv.val;

    PTO2_SCOPE() {
        uint32_t indices_first[1] = {1};
        int32_t first = get_tensor_data<int32_t>(ext_flags, 1, indices_first);
        {
          uint32_t indices_flags[1] = {2};
          set_tensor_data<int32_t>(ext_flags, 1, indices_flags, e);
        }
        {
          uint32_t indices_out[2] = {0, 7};
          set_tensor_data<int32_t>(ext_out, 2, indices_out, first + e);
        }

        // Task 0: fill
        Arg params_t0;
        params_t0.add_input(ext_flags);
        params_t0.add_inout(ext_out);
        params_t0.add_scalar((uint64_t)first);
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
