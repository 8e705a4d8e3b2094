// Orchestration Function: run
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 5 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_inp = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_mid = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_fin = from_tensor_arg(orch_args.tensor(3));
    Tensor ext_last = from_tensor_arg(orch_args.tensor(4));

    PTO2_SCOPE() {

        // Task 0: bump
        Arg params_t0;
        params_t0.add_input(ext_inp);
        params_t0.add_output(ext_mid);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: bump
        Arg params_t1;
        params_t1.add_input(ext_mid);
        params_t1.add_output(ext_fin);
        params_t1.dump(ext_mid);
        rt_submit_aiv_task(0, params_t1);

        // Task 2: bump
        Arg params_t2;
        params_t2.add_input(ext_fin);
        params_t2.add_output(ext_last);
        params_t2.dump(ext_fin);
        params_t2.set_allow_early_resolve(true);
        TaskOutputTensors task_2_outs = rt_submit_aiv_task(0, params_t2);
        PTO2TaskId t = task_2_outs.task_id();

        // Task 3: bump
        Arg params_t3;
        params_t3.add_input(ext_mid);
        params_t3.add_inout(ext_last);
        params_t3.dump(ext_mid);
        PTO2TaskId params_t3_deps[1];
        uint32_t params_t3_deps_count = 0;
        params_t3_deps[params_t3_deps_count++] = t;
        params_t3.set_dependencies(params_t3_deps, params_t3_deps_count);
        params_t3.set_allow_early_resolve(true);
        rt_submit_aiv_task(0, params_t3);
    }
}

}  // extern "C"
