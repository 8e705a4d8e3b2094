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
    const Tensor& ext_out = orch_args.tensor(1).ref();
    const Tensor& ext_y = orch_args.tensor(2).ref();

    PTO2_SCOPE() {
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
            PTO2TaskId tids[64]; for (int64_t __init_i = 0; __init_i < 64; ++__init_i) tids[__init_i] = PTO2TaskId::invalid();
            for (int64_t i = 0; i < 64; i += 1) {

                // Task 0: produce
                L0TaskArgs params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_out);
                params_t0.add_scalar(i);
                TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
                PTO2TaskId t = task_0_outs.task_id();
                tids[i] = t;
            }

            // Phase-fence barrier 0: dependency-only dummy task
            L0TaskArgs params_phase_fence_barrier_0;
            PTO2TaskId params_phase_fence_barrier_0_deps[64];
            uint32_t params_phase_fence_barrier_0_deps_count = 0;
            for (int64_t slot = 0; slot < 64; ++slot) {
                if (tids[slot].is_valid()) params_phase_fence_barrier_0_deps[params_phase_fence_barrier_0_deps_count++] = tids[slot];
            }
            params_phase_fence_barrier_0.set_dependencies(params_phase_fence_barrier_0_deps, params_phase_fence_barrier_0_deps_count);
            PTO2TaskId phase_fence_barrier_0_tid = PTO2TaskId::invalid();
            if (params_phase_fence_barrier_0_deps_count == 1) {
                phase_fence_barrier_0_tid = params_phase_fence_barrier_0_deps[0];
            } else if (params_phase_fence_barrier_0_deps_count > 1) {
                TaskOutputTensors phase_fence_barrier_0_outs = rt_submit_dummy_task(params_phase_fence_barrier_0);
                phase_fence_barrier_0_tid = phase_fence_barrier_0_outs.task_id();
            }
            for (int64_t j = 0; j < 64; j += 1) {

                // Task 1: consume
                L0TaskArgs params_t1;
                params_t1.add_input(ext_out);
                params_t1.add_inout(ext_y);
                params_t1.add_scalar(j);
                PTO2TaskId params_t1_deps[1];
                uint32_t params_t1_deps_count = 0;
                if (phase_fence_barrier_0_tid.is_valid()) params_t1_deps[params_t1_deps_count++] = phase_fence_barrier_0_tid;
                params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
                rt_submit_aiv_task(1, params_t1);
            }
        }
    }
}

}  // extern "C"
