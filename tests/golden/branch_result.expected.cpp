// Orchestration Function: orch_branch
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 3 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(1));

    // Scalar params
    union { uint64_t u64; int32_t val; } mode_conv;
    mode_conv.u64 = orch_args.scalar(0);
    int32_t mode = mode_conv.val;

    PTO2_SCOPE() {
        uint32_t a_ci_shapes[2] = {16, 16};
        TensorCreateInfo a_ci(a_ci_shapes, 2, DataType::FLOAT32);
        uint32_t b_ci_shapes[2] = {16, 16};
        TensorCreateInfo b_ci(b_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(a_ci, b_ci);
        const Tensor& a = alloc_0.get_ref(0);
        const Tensor& b = alloc_0.get_ref(1);
        int64_t scale = 1;
        int64_t scale__phi_v2;
        Tensor t = ext_x;
        if (mode == 0) {
            PTO2_SCOPE() {

                // Task 0: make
                Arg params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_output(a);
                rt_submit_aiv_task(0, params_t0);
                scale__phi_v2 = scale;
                t = a;
            }
        } else {
            PTO2_SCOPE() {

                // Task 1: make
                Arg params_t1;
                params_t1.add_input(ext_x);
                params_t1.add_output(b);
                rt_submit_aiv_task(0, params_t1);
                int64_t scale__ssa_v1 = 2;
                scale__phi_v2 = scale__ssa_v1;
                t = b;
            }
        }

        // Task 2: make
        Arg params_t2;
        params_t2.add_input(t);
        params_t2.add_output(ext_out);
        rt_submit_aiv_task(0, params_t2);
        for (int64_t i = 0; i < scale__phi_v2; i += 1) {
            PTO2_SCOPE() {

                // Task 3: make
                Arg params_t3;
                params_t3.add_input(t);
                params_t3.add_inout(ext_out);
                rt_submit_aiv_task(0, params_t3);
            }
        }
    }
}

}  // extern "C"
