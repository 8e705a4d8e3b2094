// Orchestration Function: orch_tuple
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 5 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_sij = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_pij = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_mij = from_tensor_arg(orch_args.tensor(2));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(3));

    // Scalar params
    union { uint64_t u64; float val; } scale_conv;
    scale_conv.u64 = orch_args.scalar(0);
    float scale = scale_conv.val;

    PTO2_SCOPE() {
        uint32_t lij_ci_shapes[2] = {16, 1};
        TensorCreateInfo lij_ci(lij_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(lij_ci);
        const Tensor& lij = alloc_0.get_ref(0);

        // Task 0: softmax_stats
        Arg params_t0;
        params_t0.add_input(ext_sij);
        params_t0.add_inout(ext_pij);
        params_t0.add_inout(ext_mij);
        params_t0.add_output(lij);
        params_t0.add_scalar(to_u64(scale));
        rt_submit_aiv_task(0, params_t0);

        // Task 1: softmax_stats
        Arg params_t1;
        params_t1.add_input(ext_sij);
        params_t1.add_inout(ext_pij);
        params_t1.add_inout(ext_mij);
        params_t1.add_inout(lij);
        params_t1.add_scalar(to_u64(scale));
        rt_submit_aiv_task(0, params_t1);

        // Task 2: normalize
        Arg params_t2;
        params_t2.add_input(ext_pij);
        params_t2.add_input(lij);
        params_t2.add_output(ext_out);
        rt_submit_aiv_task(1, params_t2);
    }
}

}  // extern "C"
