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
    const Tensor& ext_a = orch_args.tensor(0).ref();
    const Tensor& ext_b = orch_args.tensor(1).ref();
    const Tensor& ext_out = orch_args.tensor(2).ref();

    // Scalar params
    float scale = from_u64<float>(orch_args.scalar(0));

    PTO2_SCOPE() {

        // Task 0: sum_stage
        L0TaskArgs params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_input(ext_b);
        params_t0.add_inout(ext_out);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId s_tid = task_0_outs.task_id();

        // Task 1: main_incore_1
        L0TaskArgs params_t1;
        params_t1.add_no_dep(ext_b);
        params_t1.add_inout(ext_out);
        params_t1.add_scalar(to_u64(scale));
        PTO2TaskId params_t1_deps[1];
        uint32_t params_t1_deps_count = 0;
        params_t1_deps[params_t1_deps_count++] = s_tid;
        params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
        rt_submit_aiv_task(1, params_t1);
        for (int64_t i = 0; i < 2; i += 1) {
            PTO2_SCOPE() {

                // Task 2: main_incore_2
                L0TaskArgs params_t2;
                params_t2.add_input(ext_a);
                params_t2.add_inout(ext_out);
                params_t2.add_scalar(i);
                rt_submit_aiv_task(2, params_t2);
            }
        }
    }
}

}  // extern "C"
