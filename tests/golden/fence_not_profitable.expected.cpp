// Orchestration Function: orch_small
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
            PTO2TaskId tids[2];
            for (int64_t __init_i = 0; __init_i < 2; ++__init_i) {
                tids[__init_i] = PTO2TaskId::invalid();
            }
            for (int64_t i = 0; i < 2; i += 1) {

                // Task 0: work
                Arg params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_y);
                TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
                PTO2TaskId t = task_0_outs.task_id();
                tids[i] = t;
            }
            for (int64_t j = 0; j < 2; j += 1) {

                // Task 1: work
                Arg params_t1;
                params_t1.add_input(ext_x);
                params_t1.add_inout(ext_y);
                PTO2TaskId params_t1_deps[2];
                uint32_t params_t1_deps_count = 0;
                for (int64_t slot = 0; slot < 2; ++slot) {
                    if (tids[slot].is_valid()) params_t1_deps[params_t1_deps_count++] = tids[slot];
                }
                params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
                rt_submit_aiv_task(0, params_t1);
            }
        }
    }
}

}  // extern "C"
