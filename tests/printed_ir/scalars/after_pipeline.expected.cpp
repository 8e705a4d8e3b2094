#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 6,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_x = orch_args.tensor(0).ref();
    const Tensor& ext_y = orch_args.tensor(1).ref();

    // Scalar params
    float gain = from_u64<float>(orch_args.scalar(0));
    int32_t count = from_u64<int32_t>(orch_args.scalar(1));
    bool enabled = from_u64<bool>(orch_args.scalar(2));
    uint8_t tag = from_u64<uint8_t>(orch_args.scalar(3));

    PTO2_SCOPE() {
        float half_gain = (gain * 0.500000f);
        int32_t last = (count - 1);

        // Task 0: blend
        L0TaskArgs params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_inout(ext_y);
        params_t0.add_scalar(to_u64(half_gain));
        params_t0.add_scalar((uint64_t)(last * 16));
        params_t0.add_scalar(enabled);
        params_t0.add_scalar(tag);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: blend
        L0TaskArgs params_t1;
        params_t1.add_input(ext_x);
        params_t1.add_inout(ext_y);
        params_t1.add_scalar(to_u64(2.500000f));
        params_t1.add_scalar((uint64_t)0);
        params_t1.add_scalar((uint64_t)1);
        params_t1.add_scalar((uint64_t)static_cast<uint8_t>(7));
        rt_submit_aiv_task(0, params_t1);
        if (((2 <= count) && enabled)) {
            PTO2_SCOPE() {

                // Task 2: blend
                L0TaskArgs params_t2;
                params_t2.add_input(ext_x);
                params_t2.add_inout(ext_y);
                params_t2.add_scalar(to_u64(gain));
                params_t2.add_scalar((uint64_t)(((count / 2) % 4) * 16));
                params_t2.add_scalar((uint64_t)(!enabled));
                params_t2.add_scalar(tag);
                rt_submit_aiv_task(0, params_t2);
            }
        }
    }
}

}  // extern "C"
