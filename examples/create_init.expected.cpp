// Orchestration Function: orch_create
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
    Tensor ext_src = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_counts = from_tensor_arg(orch_args.tensor(1));

    // Scalar params
    union { uint64_t u64; int64_t val; } n_conv;
    n_conv.u64 = orch_args.scalar(0);
    int64_t n = n_conv.val;

    PTO2_SCOPE() {
        uint32_t acc_ci_shapes[2] = {32, 32};
        TensorCreateInfo acc_ci(acc_ci_shapes, 2, DataType::FLOAT32);
        acc_ci.set_initial_value(0);
        uint32_t bias_ci_shapes[2] = {32, 32};
        TensorCreateInfo bias_ci(bias_ci_shapes, 2, DataType::FLOAT32);
        bias_ci.set_initial_value(static_cast<float>(0.25f));
        uint32_t hist_ci_shapes[1] = {32};
        TensorCreateInfo hist_ci(hist_ci_shapes, 1, DataType::INT32);
        hist_ci.set_initial_value(static_cast<int32_t>(-3));
        uint32_t shared_ci_shapes[2] = {32, 32};
        TensorCreateInfo shared_ci(shared_ci_shapes, 2, DataType::FLOAT32, /*manual_dep=*/true);
        TaskOutputTensors alloc_0 = alloc_tensors(acc_ci, bias_ci, hist_ci, shared_ci);
        const Tensor& acc = alloc_0.get_ref(0);
        const Tensor& bias = alloc_0.get_ref(1);
        const Tensor& hist = alloc_0.get_ref(2);
        const Tensor& shared = alloc_0.get_ref(3);

        // Task 0: accumulate
        Arg params_t0;
        params_t0.add_input(ext_src);
        params_t0.add_inout(acc);
        params_t0.add_inout(hist);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: accumulate
        Arg params_t1;
        params_t1.add_input(acc);
        params_t1.add_inout(bias);
        params_t1.add_inout(ext_counts);
        rt_submit_aiv_task(0, params_t1);

        // Task 2: accumulate
        Arg params_t2;
        params_t2.add_input(bias);
        params_t2.add_inout(shared);
        params_t2.add_inout(ext_counts);
        rt_submit_aiv_task(0, params_t2);
        int64_t rows = n * 2;
        uint32_t small_ci_shapes[2] = {static_cast<uint32_t>(rows), 32};
        TensorCreateInfo small_ci(small_ci_shapes, 2, DataType::FLOAT16);
        TaskOutputTensors alloc_1 = alloc_tensors(small_ci);
        const Tensor& small = alloc_1.get_ref(0);

        // Task 3: gather
        Arg params_t3;
        params_t3.add_input(shared);
        params_t3.add_output(small);
        params_t3.add_scalar((uint64_t)rows);
        rt_submit_aiv_task(1, params_t3);
    }
}

}  // extern "C"
