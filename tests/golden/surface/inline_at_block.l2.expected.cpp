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
    const Tensor& ext_x = orch_args.tensor(0).ref();
    const Tensor& ext_acc = orch_args.tensor(1).ref();
    const Tensor& ext_y = orch_args.tensor(2).ref();
    const Tensor& ext_z = orch_args.tensor(3).ref();

    PTO2_SCOPE() {
        uint32_t ret0__out_ci_shapes[2] = {16, 16};
        TensorCreateInfo ret0__out_ci(ret0__out_ci_shapes, 2, DataType::FLOAT32);
        uint32_t ret0__out_v1_ci_shapes[2] = {16, 16};
        TensorCreateInfo ret0__out_v1_ci(ret0__out_v1_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(ret0__out_ci, ret0__out_v1_ci);
        const Tensor& ret0__out = alloc_0.get_ref(0);
        const Tensor& ret0__out_v1 = alloc_0.get_ref(1);

        // Task 0: drive_incore_0
        L0TaskArgs params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_inout(ext_acc);
        params_t0.add_output(ret0__out);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: step
        L0TaskArgs params_t1;
        params_t1.add_input(ret0__out);
        params_t1.add_output(ext_y);
        rt_submit_aiv_task(1, params_t1);

        // Task 2: drive_incore_1
        L0TaskArgs params_t2;
        params_t2.add_input(ext_y);
        params_t2.add_inout(ext_acc);
        params_t2.add_output(ret0__out_v1);
        rt_submit_aiv_task(2, params_t2);

        // Task 3: step
        L0TaskArgs params_t3;
        params_t3.add_input(ret0__out_v1);
        params_t3.add_output(ext_z);
        rt_submit_aiv_task(1, params_t3);
    }
}

}  // extern "C"
