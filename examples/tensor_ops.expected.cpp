// Orchestration Function: orch_tensor_ops
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
    Tensor ext_table = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_flags = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(2));

    PTO2_SCOPE() {
        uint32_t big_ci_shapes[2] = {64, 64};
        TensorCreateInfo big_ci(big_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(big_ci);
        const Tensor& big = alloc_0.get_ref(0);
        uint32_t indices_factor[2] = {0, 0};
        float factor = get_tensor_data<float>(ext_table, 2, indices_factor);
        uint32_t indices_first[1] = {0};
        int32_t first = get_tensor_data<int32_t>(ext_flags, 1, indices_first);
        {
          uint32_t indices_flags[1] = {1};
          set_tensor_data<int32_t>(ext_flags, 1, indices_flags, first + 1);
        }
        uint32_t top_offsets[2] = {16, 0};
        uint32_t top_shapes[2] = {16, 64};
        Tensor top = ext_table.view(top_shapes, top_offsets);
        uint32_t scaled_offsets[2] = {16, 0};
        uint32_t scaled_shapes[2] = {16, 64};
        Tensor scaled = big.view(scaled_shapes, scaled_offsets);

        // Task 0: scale_rows
        Arg params_t0;
        params_t0.add_input(top);
        params_t0.add_output(scaled);
        params_t0.add_scalar(to_u64(factor));
        rt_submit_aiv_task(0, params_t0);
        uint32_t flat_shapes[2] = {64, 16};
        Tensor flat = scaled.reshape(flat_shapes, 2);
        int64_t rows = 64;
        Tensor wide = big.transpose(0, 1);

        // Task 1: reduce_cols
        Arg params_t1;
        params_t1.add_input(flat);
        params_t1.add_input(wide);
        params_t1.add_output(ext_out);
        rt_submit_aiv_task(1, params_t1);
        {
          uint32_t indices_flags[1] = {2};
          set_tensor_data<int32_t>(ext_flags, 1, indices_flags, rows);
        }
    }
}

}  // extern "C"
