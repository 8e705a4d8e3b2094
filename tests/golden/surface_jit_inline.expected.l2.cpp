#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 3,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_x = orch_args.tensor(0).ref();
    const Tensor& ext_y = orch_args.tensor(1).ref();
    const Tensor& ext_z = orch_args.tensor(2).ref();

    PTO2_SCOPE() {
        uint32_t scratch_inline0_ci_shapes[2] = {16, 16};
        TensorCreateInfo scratch_inline0_ci(scratch_inline0_ci_shapes, 2, DataType::FLOAT32);
        uint32_t scratch_inline1_ci_shapes[2] = {16, 16};
        TensorCreateInfo scratch_inline1_ci(scratch_inline1_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(scratch_inline0_ci, scratch_inline1_ci);
        const Tensor& scratch_inline0 = alloc_0.get_ref(0);
        const Tensor& scratch_inline1 = alloc_0.get_ref(1);

        // Task 0: twice
        L0TaskArgs params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_output(scratch_inline0);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: twice
        L0TaskArgs params_t1;
        params_t1.add_input(scratch_inline0);
        params_t1.add_output(ext_y);
        rt_submit_aiv_task(0, params_t1);

        // Task 2: twice
        L0TaskArgs params_t2;
        params_t2.add_input(ext_y);
        params_t2.add_output(scratch_inline1);
        rt_submit_aiv_task(0, params_t2);

        // Task 3: twice
        L0TaskArgs params_t3;
        params_t3.add_input(scratch_inline1);
        params_t3.add_output(ext_z);
        rt_submit_aiv_task(0, params_t3);
    }
}

}  // extern "C"
