// Orchestration Function: orch_ping_pong
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 2 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_init = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(1));

    PTO2_SCOPE() {
        uint32_t cur_ci_shapes[2] = {32, 32};
        TensorCreateInfo cur_ci(cur_ci_shapes, 2, DataType::FLOAT32);
        uint32_t nxt_ci_shapes[2] = {32, 32};
        TensorCreateInfo nxt_ci(nxt_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(cur_ci, nxt_ci);
        const Tensor& cur = alloc_0.get_ref(0);
        const Tensor& nxt = alloc_0.get_ref(1);

        // Task 0: step
        Arg params_t0;
        params_t0.add_input(ext_init);
        params_t0.add_output(cur);
        rt_submit_aiv_task(0, params_t0);
        Tensor cur__rv_v3 = cur;
        Tensor nxt__rv_v2 = nxt;
        for (int64_t sweep = 0; sweep < 3; sweep += 1) {
            PTO2_SCOPE() {
                Tensor cur__rv_v5 = cur__rv_v3;
                Tensor nxt__rv_v4 = nxt__rv_v2;
                for (int64_t i = 0; i < 4; i += 1) {
                    PTO2_SCOPE() {

                        // Task 1: step
                        Arg params_t1;
                        params_t1.add_input(cur__rv_v5);
                        params_t1.add_inout(nxt__rv_v4);
                        rt_submit_aiv_task(0, params_t1);
                        Tensor cur__rv_v5_next = nxt__rv_v4;
                        Tensor nxt__rv_v4_next = cur__rv_v5;
                        cur__rv_v5 = cur__rv_v5_next;
                        nxt__rv_v4 = nxt__rv_v4_next;
                    }
                }
                cur__rv_v3 = cur__rv_v5;
                nxt__rv_v2 = nxt__rv_v4;
            }
        }

        // Task 2: step
        Arg params_t2;
        params_t2.add_input(cur__rv_v3);
        params_t2.add_output(ext_out);
        rt_submit_aiv_task(0, params_t2);
    }
}

}  // extern "C"
