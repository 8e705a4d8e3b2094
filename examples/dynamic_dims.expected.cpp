// Orchestration Function: orch_dyn
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
    Tensor ext_y = from_tensor_arg(orch_args.tensor(1));

    // Dynamic-dim symbols (extent of the declaring argument)
    int64_t M = (int64_t)orch_args.tensor(0).shapes[0];

    PTO2_SCOPE() {
        int64_t rows = M;
        int64_t cols = 128;
        uint32_t scratch_ci_shapes[2] = {static_cast<uint32_t>(M), static_cast<uint32_t>(cols)};
        TensorCreateInfo scratch_ci(scratch_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(scratch_ci);
        const Tensor& scratch = alloc_0.get_ref(0);

        // Task 0: fill
        Arg params_t0;
        params_t0.add_output(scratch);
        params_t0.add_scalar((uint64_t)rows);
        rt_submit_aiv_task(0, params_t0);
        for (int64_t r = 0; r < M; r += 1) {
            PTO2_SCOPE() {

                // Task 1: row_op
                Arg params_t1;
                params_t1.add_input(scratch);
                params_t1.add_inout(ext_y);
                params_t1.add_scalar((uint64_t)r);
                rt_submit_aiv_task(1, params_t1);
            }
        }
    }
}

}  // extern "C"
