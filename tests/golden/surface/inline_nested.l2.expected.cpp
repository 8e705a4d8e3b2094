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
    const Tensor& ext_y = orch_args.tensor(1).ref();
    const Tensor& ext_z = orch_args.tensor(2).ref();

    // Scalar params
    int64_t m = from_u64<int64_t>(orch_args.scalar(0));

    PTO2_SCOPE() {
        uint32_t tmp_inline0_ci_shapes[2] = {16, 16};
        TensorCreateInfo tmp_inline0_ci(tmp_inline0_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(tmp_inline0_ci);
        const Tensor& tmp_inline0 = alloc_0.get_ref(0);

        // Task 0: step
        L0TaskArgs params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_output(tmp_inline0);
        rt_submit_aiv_task(0, params_t0);
        for (int64_t i_inline1 = 0; i_inline1 < 4; i_inline1 += 1) {
            PTO2_SCOPE() {

                // Task 1: scale
                L0TaskArgs params_t1;
                params_t1.add_input(tmp_inline0);
                params_t1.add_inout(ext_y);
                params_t1.add_scalar(to_u64(0.500000f));
                rt_submit_aiv_task(1, params_t1);
            }
        }
        for (int64_t i_inline2 = 0; i_inline2 < (m + 1); i_inline2 += 1) {
            PTO2_SCOPE() {

                // Task 2: scale
                L0TaskArgs params_t2;
                params_t2.add_input(ext_x);
                params_t2.add_inout(ext_y);
                params_t2.add_scalar(to_u64(0.500000f));
                rt_submit_aiv_task(1, params_t2);
            }
        }

        // Task 3: scale
        L0TaskArgs params_t3;
        params_t3.add_input(ext_z);
        params_t3.add_inout(ext_y);
        params_t3.add_scalar(to_u64(1.000000f));
        rt_submit_aiv_task(1, params_t3);

        // Task 4: scale
        L0TaskArgs params_t4;
        params_t4.add_input(ext_y);
        params_t4.add_inout(ext_z);
        params_t4.add_scalar(to_u64(2.000000f));
        rt_submit_aiv_task(1, params_t4);
    }
}

}  // extern "C"
