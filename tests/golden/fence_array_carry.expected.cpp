// Orchestration Function: orch_carry
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
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_y = from_tensor_arg(orch_args.tensor(1));

    PTO2_SCOPE() {
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
            PTO2TaskId first[8];
            for (int64_t __init_i = 0; __init_i < 8; ++__init_i) {
                first[__init_i] = PTO2TaskId::invalid();
            }
            PTO2TaskId out_ids[8];
            for (int64_t __init_i = 0; __init_i < 8; ++__init_i) {
                out_ids[__init_i] = first[__init_i];
            }
            for (int64_t phase = 0; phase < 8; phase += 1) {

                // Task 0: work
                Arg params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_y);
                PTO2TaskId params_t0_deps[8];
                uint32_t params_t0_deps_count = 0;
                for (int64_t slot = 0; slot < 8; ++slot) {
                    if (out_ids[slot].is_valid()) params_t0_deps[params_t0_deps_count++] = out_ids[slot];
                }
                params_t0.set_dependencies(params_t0_deps, params_t0_deps_count);
                TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
                PTO2TaskId t = task_0_outs.task_id();
                PTO2TaskId nxt[8];
                for (int64_t __init_i = 0; __init_i < 8; ++__init_i) {
                    nxt[__init_i] = PTO2TaskId::invalid();
                }
                nxt[phase] = t;
                for (int64_t __yield_i = 0; __yield_i < 8; ++__yield_i) {
                    out_ids[__yield_i] = nxt[__yield_i];
                }
            }
        }
    }
}

}  // extern "C"
