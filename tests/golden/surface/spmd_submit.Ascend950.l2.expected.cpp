#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 4,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_inp = orch_args.tensor(0).ref();
    const Tensor& ext_mid = orch_args.tensor(1).ref();
    const Tensor& ext_fin = orch_args.tensor(2).ref();

    // Scalar params
    int32_t w = from_u64<int32_t>(orch_args.scalar(0));

    PTO2_SCOPE() {

        // Task 0: rowblk
        L0TaskArgs params_t0;
        params_t0.add_input(ext_inp);
        params_t0.add_output(ext_mid);
        params_t0.launch_spec.set_core_num(4);
        params_t0.launch_spec.set_require_sync_start(true);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId g0 = task_0_outs.task_id();

        // Task 1: rowblk
        L0TaskArgs params_t1;
        params_t1.add_input(ext_mid);
        params_t1.add_output(ext_fin);
        PTO2TaskId params_t1_deps[1];
        uint32_t params_t1_deps_count = 0;
        params_t1_deps[params_t1_deps_count++] = g0;
        params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
        params_t1.launch_spec.set_core_num(w);
        rt_submit_aiv_task(0, params_t1);
    }
}

}  // extern "C"
