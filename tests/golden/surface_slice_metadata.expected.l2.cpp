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
    const Tensor& ext_big = orch_args.tensor(0).ref();
    const Tensor& ext_flat = orch_args.tensor(1).ref();
    const Tensor& ext_res = orch_args.tensor(2).ref();

    PTO2_SCOPE() {
        uint32_t win_offsets[2] = {16, 0};
        uint32_t win_shapes[2] = {(win_offsets[0] >= ext_big.shapes[0] ? 0u : std::min<uint32_t>(8, ext_big.shapes[0] - win_offsets[0])), (win_offsets[1] >= ext_big.shapes[1] ? 0u : std::min<uint32_t>(32, ext_big.shapes[1] - win_offsets[1]))};
        Tensor win = ext_big.view(win_shapes, win_offsets);

        // Task 0: scale_rows
        L0TaskArgs params_t0;
        params_t0.add_input(win);
        params_t0.add_output(ext_res);
        rt_submit_aiv_task(0, params_t0);
        uint32_t pad_offsets[2] = {0, 0};
        uint32_t pad_shapes[2] = {(pad_offsets[0] >= ext_big.shapes[0] ? 0u : std::min<uint32_t>(8, ext_big.shapes[0] - pad_offsets[0])), (pad_offsets[1] >= ext_big.shapes[1] ? 0u : std::min<uint32_t>(32, ext_big.shapes[1] - pad_offsets[1]))};
        Tensor pad = ext_big.view(pad_shapes, pad_offsets);

        // Task 1: scale_rows
        L0TaskArgs params_t1;
        params_t1.add_input(pad);
        params_t1.add_inout(ext_res);
        rt_submit_aiv_task(0, params_t1);
        uint32_t v_shapes[2] = {8, 32};
        Tensor v = ext_flat.reshape(v_shapes, 2);

        // Task 2: scale_rows
        L0TaskArgs params_t2;
        params_t2.add_input(v);
        params_t2.add_inout(ext_res);
        rt_submit_aiv_task(0, params_t2);
    }
}

}  // extern "C"
