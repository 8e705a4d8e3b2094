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
    Tensor ext_a = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_mid = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(2));

    PTO2_SCOPE() {

        // Task 0: blk
        Arg params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_output(ext_mid);
        params_t0.dump(ext_a);
        params_t0.launch_spec.set_block_num(4);
        params_t0.set_allow_early_resolve(true);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId g0 = task_0_outs.task_id();

        // Spmd orch_spmd_0: orch_incore_0
        Arg params_t1;
        params_t1.add_input(ext_mid);
        params_t1.add_inout(ext_out);
        params_t1.dump(ext_mid);
        params_t1.launch_spec.set_block_num(2);
        params_t1.set_allow_early_resolve(true);
        PTO2TaskId params_t1_deps[1];
        uint32_t params_t1_deps_count = 0;
        params_t1_deps[params_t1_deps_count++] = g0;
        params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
        rt_submit_aiv_task(1, params_t1);

        // Task 2: scale
        Arg params_t2;
        params_t2.add_inout(ext_out);
        params_t2.dump(ext_out);
        params_t2.set_allow_early_resolve(true);
        rt_submit_aiv_task(2, params_t2);
    }
}

}  // extern "C"
