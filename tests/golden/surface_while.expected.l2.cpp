#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 5,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_x = orch_args.tensor(0).ref();
    const Tensor& ext_res = orch_args.tensor(1).ref();
    const Tensor& ext_out = orch_args.tensor(2).ref();

    // Scalar params
    int64_t n = from_u64<int64_t>(orch_args.scalar(0));
    int64_t m = from_u64<int64_t>(orch_args.scalar(1));

    PTO2_SCOPE() {
        uint32_t tmp_ci_shapes[2] = {8, 32};
        TensorCreateInfo tmp_ci(tmp_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(tmp_ci);
        const Tensor& tmp = alloc_0.get_ref(0);
        PTO2TaskId copy_last = PTO2TaskId::invalid();
        int64_t i2 = 0;
        while ((i2 < n)) {
            PTO2_SCOPE() {

                // Task 0: step
                L0TaskArgs params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_res);
                PTO2TaskId params_t0_deps[1];
                uint32_t params_t0_deps_count = 0;
                if (copy_last.is_valid()) params_t0_deps[params_t0_deps_count++] = copy_last;
                params_t0.set_dependencies(params_t0_deps, params_t0_deps_count);
                rt_submit_aiv_task(0, params_t0);
                PTO2TaskId no_task = PTO2TaskId::invalid();
                copy_last = no_task;
                if ((i2 == m)) {
                    PTO2_SCOPE() {

                        // Task 1: copy
                        L0TaskArgs params_t1;
                        params_t1.add_input(ext_res);
                        params_t1.add_inout(tmp);
                        TaskOutputTensors task_1_outs = rt_submit_aiv_task(1, params_t1);
                        PTO2TaskId copy_tid = task_1_outs.task_id();
                        copy_last = copy_tid;
                    }
                }
                i2 = (i2 + 1);
            }
        }

        // Task 2: copy
        L0TaskArgs params_t2;
        params_t2.add_input(tmp);
        params_t2.add_output(ext_out);
        rt_submit_aiv_task(1, params_t2);
    }
}

}  // extern "C"
