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
    const Tensor& ext_y = orch_args.tensor(1).ref();

    // Scalar params
    int64_t n = from_u64<int64_t>(orch_args.scalar(0));

    PTO2_SCOPE() {
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
            PTO2TaskId seed = PTO2TaskId::invalid();

            // Task 0: step
            L0TaskArgs params_t0;
            params_t0.add_input(ext_x);
            params_t0.add_inout(ext_y);
            PTO2TaskId params_t0_deps[1];
            uint32_t params_t0_deps_count = 0;
            if (seed.is_valid()) params_t0_deps[params_t0_deps_count++] = seed;
            params_t0.set_dependencies(params_t0_deps, params_t0_deps_count);
            TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
            PTO2TaskId first = task_0_outs.task_id();

            // Task 1: step
            L0TaskArgs params_t1;
            params_t1.add_input(ext_x);
            params_t1.add_inout(ext_y);
            PTO2TaskId params_t1_deps[1];
            uint32_t params_t1_deps_count = 0;
            params_t1_deps[params_t1_deps_count++] = first;
            params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
            TaskOutputTensors task_1_outs = rt_submit_aiv_task(0, params_t1);
            PTO2TaskId second = task_1_outs.task_id();
            PTO2TaskId tids[2]; for (int64_t __init_i = 0; __init_i < 2; ++__init_i) tids[__init_i] = PTO2TaskId::invalid();
            tids[0] = first;
            PTO2TaskId prev = second;
            PTO2TaskId prev__rv_v2 = prev;
            for (int64_t i = 0; i < n; i += 1) {

                // Task 2: step
                L0TaskArgs params_t2;
                params_t2.add_input(ext_x);
                params_t2.add_inout(ext_y);
                PTO2TaskId params_t2_deps[1];
                uint32_t params_t2_deps_count = 0;
                if (prev__rv_v2.is_valid()) params_t2_deps[params_t2_deps_count++] = prev__rv_v2;
                params_t2.set_dependencies(params_t2_deps, params_t2_deps_count);
                TaskOutputTensors task_2_outs = rt_submit_aiv_task(0, params_t2);
                PTO2TaskId prev__ssa_v3 = task_2_outs.task_id();
                prev__rv_v2 = prev__ssa_v3;
            }
            PTO2TaskId snap = tids[0];
            tids[0] = prev__rv_v2;

            // Task 3: step
            L0TaskArgs params_t3;
            params_t3.add_input(ext_x);
            params_t3.add_inout(ext_y);
            PTO2TaskId params_t3_deps[2];
            uint32_t params_t3_deps_count = 0;
            if (snap.is_valid()) params_t3_deps[params_t3_deps_count++] = snap;
            if (tids[1].is_valid()) params_t3_deps[params_t3_deps_count++] = tids[1];
            params_t3.set_dependencies(params_t3_deps, params_t3_deps_count);
            TaskOutputTensors task_3_outs = rt_submit_aiv_task(0, params_t3);
            PTO2TaskId third = task_3_outs.task_id();

            // Task 4: step
            L0TaskArgs params_t4;
            params_t4.add_input(ext_x);
            params_t4.add_inout(ext_y);
            PTO2TaskId params_t4_deps[2];
            uint32_t params_t4_deps_count = 0;
            for (int64_t slot = 0; slot < 2; ++slot) {
                if (tids[slot].is_valid()) params_t4_deps[params_t4_deps_count++] = tids[slot];
            }
            params_t4.set_dependencies(params_t4_deps, params_t4_deps_count);
            TaskOutputTensors task_4_outs = rt_submit_aiv_task(0, params_t4);
            PTO2TaskId fourth = task_4_outs.task_id();
            PTO2TaskId chosen = PTO2TaskId::invalid();
            if ((n > 3)) {

                // Task 5: step
                L0TaskArgs params_t5;
                params_t5.add_input(ext_x);
                params_t5.add_inout(ext_y);
                PTO2TaskId params_t5_deps[1];
                uint32_t params_t5_deps_count = 0;
                params_t5_deps[params_t5_deps_count++] = third;
                params_t5.set_dependencies(params_t5_deps, params_t5_deps_count);
                TaskOutputTensors task_5_outs = rt_submit_aiv_task(0, params_t5);
                PTO2TaskId chosen__ssa_v0 = task_5_outs.task_id();
                chosen = chosen__ssa_v0;
            } else {
                PTO2TaskId chosen__ssa_v1 = fourth;
                chosen = chosen__ssa_v1;
            }

            // Phase-fence barrier 0: dependency-only dummy task
            L0TaskArgs params_phase_fence_barrier_0;
            PTO2TaskId params_phase_fence_barrier_0_deps[2];
            uint32_t params_phase_fence_barrier_0_deps_count = 0;
            if (chosen.is_valid()) params_phase_fence_barrier_0_deps[params_phase_fence_barrier_0_deps_count++] = chosen;
            params_phase_fence_barrier_0_deps[params_phase_fence_barrier_0_deps_count++] = fourth;
            params_phase_fence_barrier_0.set_dependencies(params_phase_fence_barrier_0_deps, params_phase_fence_barrier_0_deps_count);
            PTO2TaskId barrier = PTO2TaskId::invalid();
            if (params_phase_fence_barrier_0_deps_count == 1) {
                barrier = params_phase_fence_barrier_0_deps[0];
            } else if (params_phase_fence_barrier_0_deps_count > 1) {
                TaskOutputTensors phase_fence_barrier_0_outs = rt_submit_dummy_task(params_phase_fence_barrier_0);
                barrier = phase_fence_barrier_0_outs.task_id();
            }

            // Phase-fence barrier 1: dependency-only dummy task
            L0TaskArgs params_phase_fence_barrier_1;
            TaskOutputTensors phase_fence_barrier_1_outs = rt_submit_dummy_task(params_phase_fence_barrier_1);
            PTO2TaskId empty = phase_fence_barrier_1_outs.task_id();

            // Task 6: step
            L0TaskArgs params_t6;
            params_t6.add_input(ext_x);
            params_t6.add_inout(ext_y);
            PTO2TaskId params_t6_deps[2];
            uint32_t params_t6_deps_count = 0;
            if (barrier.is_valid()) params_t6_deps[params_t6_deps_count++] = barrier;
            if (empty.is_valid()) params_t6_deps[params_t6_deps_count++] = empty;
            params_t6.set_dependencies(params_t6_deps, params_t6_deps_count);
            rt_submit_aiv_task(0, params_t6);
        }
    }
}

}  // extern "C"
