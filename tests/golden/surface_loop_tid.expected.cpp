// Orchestration Function: orch
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 4 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_y = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_z = from_tensor_arg(orch_args.tensor(2));

    // Scalar params
    union { uint64_t u64; int64_t val; } n_conv;
    n_conv.u64 = orch_args.scalar(0);
    int64_t n = n_conv.val;

    PTO2_SCOPE() {
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
            PTO2TaskId t__rv_v2 = PTO2TaskId::invalid();
            for (int64_t i = 0; i < n; i += 1) {

                // Task 0: step
                Arg params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_y);
                PTO2TaskId params_t0_deps[1];
                uint32_t params_t0_deps_count = 0;
                if (t__rv_v2.is_valid()) params_t0_deps[params_t0_deps_count++] = t__rv_v2;
                params_t0.set_dependencies(params_t0_deps, params_t0_deps_count);
                TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
                PTO2TaskId t__ssa_v3 = task_0_outs.task_id();
                t__rv_v2 = t__ssa_v3;
            }

            // Task 1: use
            Arg params_t1;
            params_t1.add_input(ext_y);
            params_t1.add_output(ext_z);
            PTO2TaskId params_t1_deps[1];
            uint32_t params_t1_deps_count = 0;
            if (t__rv_v2.is_valid()) params_t1_deps[params_t1_deps_count++] = t__rv_v2;
            params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
            rt_submit_aiv_task(1, params_t1);
        }
    }
}

}  // extern "C"
