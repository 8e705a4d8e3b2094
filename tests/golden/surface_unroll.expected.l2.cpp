#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 3,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_x = orch_args.tensor(0).ref();
    const Tensor& ext_acc = orch_args.tensor(1).ref();

    // Scalar params
    int64_t n = from_u64<int64_t>(orch_args.scalar(0));

    PTO2_SCOPE() {
        uint32_t col_offsets[2] = {0, 0};
        uint32_t col_shapes[2] = {(col_offsets[0] >= ext_x.shapes[0] ? 0u : std::min<uint32_t>(16, ext_x.shapes[0] - col_offsets[0])), (col_offsets[1] >= ext_x.shapes[1] ? 0u : std::min<uint32_t>(16, ext_x.shapes[1] - col_offsets[1]))};
        Tensor col = ext_x.view(col_shapes, col_offsets);

        // Task 0: step
        L0TaskArgs params_t0;
        params_t0.add_input(col);
        params_t0.add_inout(ext_acc);
        params_t0.add_scalar((uint64_t)0);
        rt_submit_aiv_task(0, params_t0);
        uint32_t col__ssa_v1_offsets[2] = {0, 16};
        uint32_t col__ssa_v1_shapes[2] = {(col__ssa_v1_offsets[0] >= ext_x.shapes[0] ? 0u : std::min<uint32_t>(16, ext_x.shapes[0] - col__ssa_v1_offsets[0])), (col__ssa_v1_offsets[1] >= ext_x.shapes[1] ? 0u : std::min<uint32_t>(16, ext_x.shapes[1] - col__ssa_v1_offsets[1]))};
        Tensor col__ssa_v1 = ext_x.view(col__ssa_v1_shapes, col__ssa_v1_offsets);

        // Task 1: step
        L0TaskArgs params_t1;
        params_t1.add_input(col__ssa_v1);
        params_t1.add_inout(ext_acc);
        params_t1.add_scalar((uint64_t)1);
        rt_submit_aiv_task(0, params_t1);
        uint32_t col__ssa_v2_offsets[2] = {0, 32};
        uint32_t col__ssa_v2_shapes[2] = {(col__ssa_v2_offsets[0] >= ext_x.shapes[0] ? 0u : std::min<uint32_t>(16, ext_x.shapes[0] - col__ssa_v2_offsets[0])), (col__ssa_v2_offsets[1] >= ext_x.shapes[1] ? 0u : std::min<uint32_t>(16, ext_x.shapes[1] - col__ssa_v2_offsets[1]))};
        Tensor col__ssa_v2 = ext_x.view(col__ssa_v2_shapes, col__ssa_v2_offsets);

        // Task 2: step
        L0TaskArgs params_t2;
        params_t2.add_input(col__ssa_v2);
        params_t2.add_inout(ext_acc);
        params_t2.add_scalar((uint64_t)2);
        rt_submit_aiv_task(0, params_t2);
        uint32_t last_offsets[2] = {0, 48};
        uint32_t last_shapes[2] = {(last_offsets[0] >= ext_x.shapes[0] ? 0u : std::min<uint32_t>(16, ext_x.shapes[0] - last_offsets[0])), (last_offsets[1] >= ext_x.shapes[1] ? 0u : std::min<uint32_t>(16, ext_x.shapes[1] - last_offsets[1]))};
        Tensor last = ext_x.view(last_shapes, last_offsets);
        for (int64_t j = 0; j < n; j += 1) {
            PTO2_SCOPE() {

                // Task 3: step
                L0TaskArgs params_t3;
                params_t3.add_input(last);
                params_t3.add_inout(ext_acc);
                params_t3.add_scalar(j);
                rt_submit_aiv_task(0, params_t3);
            }
        }
    }
}

}  // extern "C"
