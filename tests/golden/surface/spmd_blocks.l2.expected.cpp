#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 6,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_a = orch_args.tensor(0).ref();
    const Tensor& ext_out = orch_args.tensor(1).ref();
    const Tensor& ext_q = orch_args.tensor(2).ref();
    const Tensor& ext_k = orch_args.tensor(3).ref();
    const Tensor& ext_p = orch_args.tensor(4).ref();

    // Scalar params
    int32_t n = from_u64<int32_t>(orch_args.scalar(0));

    PTO2_SCOPE() {
        uint32_t s_ci_shapes[2] = {16, 16};
        TensorCreateInfo s_ci(s_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(s_ci);
        const Tensor& s = alloc_0.get_ref(0);

        // Spmd main_spmd_0: main_incore_0
        L0TaskArgs params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_inout(ext_out);
        params_t0.launch_spec.set_block_num(4);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId g = task_0_outs.task_id();

        // Spmd main_spmd_1: main_incore_1
        L0TaskArgs params_t1;
        params_t1.add_inout(ext_out);
        params_t1.launch_spec.set_block_num(n);
        params_t1.launch_spec.set_require_sync_start(true);
        PTO2TaskId params_t1_deps[1];
        uint32_t params_t1_deps_count = 0;
        params_t1_deps[params_t1_deps_count++] = g;
        params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
        rt_submit_aiv_task(1, params_t1);

        // Group attention: MixedKernels (AIC + AIV lanes)
        L0TaskArgs params_t2;
        params_t2.add_input(ext_q);
        params_t2.add_input(ext_k);
        params_t2.add_output(s);
        params_t2.add_output(ext_p);
        MixedKernels mixed_2 = {2, 3, 3};
        rt_submit_task(mixed_2, params_t2);

        // Task 3: softmax
        L0TaskArgs params_t3;
        params_t3.add_input(s);
        params_t3.add_inout(ext_p);
        params_t3.launch_spec.set_block_num(2);
        rt_submit_aiv_task(3, params_t3);
    }
}

}  // extern "C"
