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
    const Tensor& ext_data = orch_args.tensor(0).ref();
    const Tensor& ext_out = orch_args.tensor(1).ref();

    PTO2_SCOPE() {
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
            PTO2TaskId prev_tid__rv_v2[4];
            for (int64_t __init_i = 0; __init_i < 4; ++__init_i) prev_tid__rv_v2[__init_i] = PTO2TaskId::invalid();
            for (int64_t phase = 0; phase < 3; phase += 1) {
                PTO2TaskId prev_tid__rv_v4[4];
                for (int64_t __init_i = 0; __init_i < 4; ++__init_i) prev_tid__rv_v4[__init_i] = prev_tid__rv_v2[__init_i];
                for (int64_t branch = 0; branch < 4; branch += 1) {
                    int64_t row = (((phase * 4) + branch) * 16);

                    // Task 0: kernel_stripe
                    L0TaskArgs params_t0;
                    params_t0.add_input(ext_data);
                    params_t0.add_inout(ext_out);
                    params_t0.add_scalar(row);
                    params_t0.add_scalar(to_u64(1.000000f));
                    PTO2TaskId params_t0_deps[4];
                    uint32_t params_t0_deps_count = 0;
                    for (int64_t slot = 0; slot < 4; ++slot) {
                        if (prev_tid__rv_v2[slot].is_valid()) params_t0_deps[params_t0_deps_count++] = prev_tid__rv_v2[slot];
                    }
                    params_t0.set_dependencies(params_t0_deps, params_t0_deps_count);
                    TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
                    PTO2TaskId prev_tid__ssa_v5 = task_0_outs.task_id();
                    prev_tid__rv_v4[branch] = prev_tid__ssa_v5;
                }
                for (int64_t __yield_i = 0; __yield_i < 4; ++__yield_i) prev_tid__rv_v2[__yield_i] = prev_tid__rv_v4[__yield_i];
            }
        }
    }
}

}  // extern "C"
