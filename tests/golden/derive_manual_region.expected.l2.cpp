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
    const Tensor& ext_x = orch_args.tensor(0).ref();
    const Tensor& ext_acc = orch_args.tensor(1).ref();

    PTO2_SCOPE() {
        uint32_t t_ci_shapes[2] = {16, 16};
        TensorCreateInfo t_ci(t_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(t_ci);
        const Tensor& t = alloc_0.get_ref(0);
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {

            // Task 0: step
            L0TaskArgs params_t0;
            params_t0.add_input(ext_x);
            params_t0.add_output(t);
            TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
            PTO2TaskId step_tid = task_0_outs.task_id();

            // Task 1: accumulate
            L0TaskArgs params_t1;
            params_t1.add_input(t);
            params_t1.add_inout(ext_acc);
            PTO2TaskId params_t1_deps[1];
            uint32_t params_t1_deps_count = 0;
            params_t1_deps[params_t1_deps_count++] = step_tid;
            params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
            TaskOutputTensors task_1_outs = rt_submit_aiv_task(1, params_t1);
            PTO2TaskId accumulate_tid = task_1_outs.task_id();

            // Task 2: accumulate
            L0TaskArgs params_t2;
            params_t2.add_input(ext_x);
            params_t2.add_inout(ext_acc);
            PTO2TaskId params_t2_deps[1];
            uint32_t params_t2_deps_count = 0;
            params_t2_deps[params_t2_deps_count++] = accumulate_tid;
            params_t2.set_dependencies(params_t2_deps, params_t2_deps_count);
            rt_submit_aiv_task(1, params_t2);
        }
    }
}

}  // extern "C"
