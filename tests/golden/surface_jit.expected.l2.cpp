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
    const Tensor& ext_y = orch_args.tensor(1).ref();

    PTO2_SCOPE() {
        uint32_t tmp_ci_shapes[2] = {16, 16};
        TensorCreateInfo tmp_ci(tmp_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(tmp_ci);
        const Tensor& tmp = alloc_0.get_ref(0);

        // Task 0: twice
        L0TaskArgs params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_output(tmp);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: twice
        L0TaskArgs params_t1;
        params_t1.add_input(tmp);
        params_t1.add_output(ext_y);
        rt_submit_aiv_task(0, params_t1);
    }
}

}  // extern "C"
