// Orchestration Function: orch_war_loop_then_writer
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
        PTO2TaskId read_last = PTO2TaskId::invalid();
        for (int64_t i = 0; i < n; i += 1) {
            PTO2_SCOPE() {

                // Task 0: read
                Arg params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_y);
                TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
                PTO2TaskId read_tid = task_0_outs.task_id();
                read_last = read_tid;
            }
        }

        // Task 1: write
        Arg params_t1;
        params_t1.add_input(ext_z);
        params_t1.add_inout(ext_x);
        PTO2TaskId params_t1_deps[1];
        uint32_t params_t1_deps_count = 0;
        if (read_last.is_valid()) params_t1_deps[params_t1_deps_count++] = read_last;
        params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
        rt_submit_aiv_task(1, params_t1);
    }
}

}  // extern "C"
