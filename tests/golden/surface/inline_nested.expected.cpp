// Orchestration Function: drive
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 4 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_y = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_z = from_tensor_arg(orch_args.tensor(2));

    // Scalar params
    union { uint64_t u64; int64_t val; } m_conv;
    m_conv.u64 = orch_args.scalar(0);
    int64_t m = m_conv.val;

    PTO2_SCOPE() {
        uint32_t tmp_inline0_ci_shapes[2] = {16, 16};
        TensorCreateInfo tmp_inline0_ci(tmp_inline0_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(tmp_inline0_ci);
        const Tensor& tmp_inline0 = alloc_0.get_ref(0);

        // Task 0: step
        Arg params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_output(tmp_inline0);
        rt_submit_aiv_task(0, params_t0);
        for (int64_t i_inline1 = 0; i_inline1 < 4; i_inline1 += 1) {
            PTO2_SCOPE() {

                // Task 1: scale
                Arg params_t1;
                params_t1.add_input(tmp_inline0);
                params_t1.add_inout(ext_y);
                params_t1.add_scalar(to_u64(0.5f));
                rt_submit_aiv_task(1, params_t1);
            }
        }
        for (int64_t i_inline2 = 0; i_inline2 < m + 1; i_inline2 += 1) {
            PTO2_SCOPE() {

                // Task 2: scale
                Arg params_t2;
                params_t2.add_input(ext_x);
                params_t2.add_inout(ext_y);
                params_t2.add_scalar(to_u64(0.5f));
                rt_submit_aiv_task(1, params_t2);
            }
        }

        // Task 3: scale
        Arg params_t3;
        params_t3.add_input(ext_z);
        params_t3.add_inout(ext_y);
        params_t3.add_scalar(to_u64(1.0f));
        rt_submit_aiv_task(1, params_t3);

        // Task 4: scale
        Arg params_t4;
        params_t4.add_input(ext_y);
        params_t4.add_inout(ext_z);
        params_t4.add_scalar(to_u64(2.0f));
        rt_submit_aiv_task(1, params_t4);
    }
}

}  // extern "C"
