// Orchestration Function: orch_scalars
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 6 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_y = from_tensor_arg(orch_args.tensor(1));

    // Scalar params
    union { uint64_t u64; float val; } gain_conv;
    gain_conv.u64 = orch_args.scalar(0);
    float gain = gain_conv.val;
    union { uint64_t u64; int32_t val; } count_conv;
    count_conv.u64 = orch_args.scalar(1);
    int32_t count = count_conv.val;
    union { uint64_t u64; bool val; } enabled_conv;
    enabled_conv.u64 = orch_args.scalar(2);
    bool enabled = enabled_conv.val;
    union { uint64_t u64; uint8_t val; } tag_conv;
    tag_conv.u64 = orch_args.scalar(3);
    uint8_t tag = tag_conv.val;

    PTO2_SCOPE() {
        float half_gain = gain * 0.5f;
        int32_t last = count - 1;

        // Task 0: blend
        Arg params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_inout(ext_y);
        params_t0.add_scalar(to_u64(half_gain));
        params_t0.add_scalar((uint64_t)(last * 16));
        params_t0.add_scalar((uint64_t)enabled);
        params_t0.add_scalar((uint64_t)tag);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: blend
        Arg params_t1;
        params_t1.add_input(ext_x);
        params_t1.add_inout(ext_y);
        params_t1.add_scalar(to_u64(2.5f));
        params_t1.add_scalar((uint64_t)0);
        params_t1.add_scalar((uint64_t)true);
        params_t1.add_scalar((uint64_t)7);
        rt_submit_aiv_task(0, params_t1);
        if (count >= 2 && enabled) {
            PTO2_SCOPE() {

                // Task 2: blend
                Arg params_t2;
                params_t2.add_input(ext_x);
                params_t2.add_inout(ext_y);
                params_t2.add_scalar(to_u64(gain));
                params_t2.add_scalar((uint64_t)(count / 2 % 4 * 16));
                params_t2.add_scalar((uint64_t)!enabled);
                params_t2.add_scalar((uint64_t)tag);
                rt_submit_aiv_task(0, params_t2);
            }
        }
    }
}

}  // extern "C"
