// Orchestration Function: orch_groups
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
    Tensor ext_q = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_k = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_v = from_tensor_arg(orch_args.tensor(2));
    Tensor ext_pf = from_tensor_arg(orch_args.tensor(3));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(4));

    PTO2_SCOPE() {
        uint32_t s_ci_shapes[2] = {16, 16};
        TensorCreateInfo s_ci(s_ci_shapes, 2, DataType::FLOAT32);
        uint32_t p_ci_shapes[2] = {16, 16};
        TensorCreateInfo p_ci(p_ci_shapes, 2, DataType::FLOAT32);
        uint32_t o_ci_shapes[2] = {16, 64};
        TensorCreateInfo o_ci(o_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(s_ci, p_ci, o_ci);
        const Tensor& s = alloc_0.get_ref(0);
        const Tensor& p = alloc_0.get_ref(1);
        const Tensor& o = alloc_0.get_ref(2);

        // Group attention_block: MixedKernels (AIC + AIV lanes)
        Arg params_t0;
        params_t0.add_input(ext_q);
        params_t0.add_input(ext_k);
        params_t0.add_output(s);
        params_t0.add_output(p);
        MixedKernels mixed_0 = {0, 1, 1};
        rt_submit_task(mixed_0, params_t0);

        // Group vector_only: AIV-only SPMD
        Arg params_t1;
        params_t1.add_input(s);
        params_t1.add_inout(p);
        rt_submit_aiv_task(1, params_t1);

        // Task 2: pv_matmul
        Arg params_t2;
        params_t2.add_input(ext_pf);
        params_t2.add_input(ext_v);
        params_t2.add_output(o);
        rt_submit_aic_task(2, params_t2);

        // Task 3: rescale
        Arg params_t3;
        params_t3.add_input(o);
        params_t3.add_output(ext_out);
        rt_submit_aiv_task(3, params_t3);
    }
}

}  // extern "C"
