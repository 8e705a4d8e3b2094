// Orchestration Function: orch_1811
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 2 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_data = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(1));

    PTO2_SCOPE() {
        PTO2TaskId prev__rv_v2[4];
        for (int64_t __init_i = 0; __init_i < 4; ++__init_i) {
            prev__rv_v2[__init_i] = PTO2TaskId::invalid();
        }
        for (int64_t phase = 0; phase < 2; phase += 1) {
            PTO2_SCOPE() {
                PTO2TaskId prev__rv_v4[4];
                PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
                    for (int64_t __init_i = 0; __init_i < 4; ++__init_i) {
                        prev__rv_v4[__init_i] = prev__rv_v2[__init_i];
                    }
                    for (int64_t b = 0; b < 4; b += 1) {

                        // Task 0: stripe
                        Arg params_t0;
                        params_t0.add_input(ext_data);
                        params_t0.add_inout(ext_out);
                        params_t0.add_scalar((uint64_t)(phase * 4 + b));
                        PTO2TaskId params_t0_deps[4];
                        uint32_t params_t0_deps_count = 0;
                        for (int64_t slot = 0; slot < 4; ++slot) {
                            if (prev__rv_v2[slot].is_valid()) params_t0_deps[params_t0_deps_count++] = prev__rv_v2[slot];
                        }
                        params_t0.set_dependencies(params_t0_deps, params_t0_deps_count);
                        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
                        PTO2TaskId prev__ssa_v5 = task_0_outs.task_id();
                        prev__rv_v4[b] = prev__ssa_v5;
                    }
                }
                for (int64_t __yield_i = 0; __yield_i < 4; ++__yield_i) {
                    prev__rv_v2[__yield_i] = prev__rv_v4[__yield_i];
                }
            }
        }
    }
}

}  // extern "C"
