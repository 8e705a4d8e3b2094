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
    const Tensor& ext_buf = orch_args.tensor(1).ref();

    // Scalar params
    int64_t n = from_u64<int64_t>(orch_args.scalar(0));

    PTO2_SCOPE() {
        PTO2TaskId fill_once = PTO2TaskId::invalid();
        PTO2TaskId fill_unless_implied = PTO2TaskId::invalid();
        PTO2TaskId fill_last = PTO2TaskId::invalid();
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
            uint32_t top_offsets[2] = {0, 0};
            uint32_t top_shapes[2] = {(top_offsets[0] >= ext_buf.shapes[0] ? 0u : std::min<uint32_t>(8, ext_buf.shapes[0] - top_offsets[0])), (top_offsets[1] >= ext_buf.shapes[1] ? 0u : std::min<uint32_t>(16, ext_buf.shapes[1] - top_offsets[1]))};
            Tensor top = ext_buf.view(top_shapes, top_offsets);
            uint32_t bottom_offsets[2] = {24, 0};
            uint32_t bottom_shapes[2] = {(bottom_offsets[0] >= ext_buf.shapes[0] ? 0u : std::min<uint32_t>(8, ext_buf.shapes[0] - bottom_offsets[0])), (bottom_offsets[1] >= ext_buf.shapes[1] ? 0u : std::min<uint32_t>(16, ext_buf.shapes[1] - bottom_offsets[1]))};
            Tensor bottom = ext_buf.view(bottom_shapes, bottom_offsets);
            uint32_t middle_offsets[2] = {4, 0};
            uint32_t middle_shapes[2] = {(middle_offsets[0] >= ext_buf.shapes[0] ? 0u : std::min<uint32_t>(8, ext_buf.shapes[0] - middle_offsets[0])), (middle_offsets[1] >= ext_buf.shapes[1] ? 0u : std::min<uint32_t>(16, ext_buf.shapes[1] - middle_offsets[1]))};
            Tensor middle = ext_buf.view(middle_shapes, middle_offsets);

            // Task 0: fill
            L0TaskArgs params_t0;
            params_t0.add_input(ext_x);
            params_t0.add_inout(top);
            TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
            PTO2TaskId fill_tid = task_0_outs.task_id();
            fill_once = fill_tid;

            // Task 1: fill
            L0TaskArgs params_t1;
            params_t1.add_input(ext_x);
            params_t1.add_inout(bottom);
            TaskOutputTensors task_1_outs = rt_submit_aiv_task(0, params_t1);
            PTO2TaskId fill_tid__dep_v1 = task_1_outs.task_id();
            for (int64_t i = 0; i < n; i += 1) {

                // Task 2: fill
                L0TaskArgs params_t2;
                params_t2.add_input(ext_x);
                params_t2.add_inout(middle);
                PTO2TaskId params_t2_deps[2];
                uint32_t params_t2_deps_count = 0;
                if (fill_once.is_valid()) params_t2_deps[params_t2_deps_count++] = fill_once;
                if (fill_last.is_valid()) params_t2_deps[params_t2_deps_count++] = fill_last;
                params_t2.set_dependencies(params_t2_deps, params_t2_deps_count);
                TaskOutputTensors task_2_outs = rt_submit_aiv_task(0, params_t2);
                PTO2TaskId fill_tid__dep_v2 = task_2_outs.task_id();
                PTO2TaskId no_task = PTO2TaskId::invalid();
                fill_once = no_task;
                fill_last = fill_tid__dep_v2;
            }

            // Task 3: fill
            L0TaskArgs params_t3;
            params_t3.add_input(ext_x);
            params_t3.add_inout(bottom);
            PTO2TaskId params_t3_deps[1];
            uint32_t params_t3_deps_count = 0;
            params_t3_deps[params_t3_deps_count++] = fill_tid__dep_v1;
            params_t3.set_dependencies(params_t3_deps, params_t3_deps_count);
            rt_submit_aiv_task(0, params_t3);
            if ((n > 0)) {
                PTO2TaskId no_task__none_v0 = PTO2TaskId::invalid();
                fill_unless_implied = no_task__none_v0;
            } else {
                fill_unless_implied = fill_tid;
            }

            // Task 4: fill
            L0TaskArgs params_t4;
            params_t4.add_input(ext_x);
            params_t4.add_inout(top);
            PTO2TaskId params_t4_deps[2];
            uint32_t params_t4_deps_count = 0;
            if (fill_unless_implied.is_valid()) params_t4_deps[params_t4_deps_count++] = fill_unless_implied;
            if (fill_last.is_valid()) params_t4_deps[params_t4_deps_count++] = fill_last;
            params_t4.set_dependencies(params_t4_deps, params_t4_deps_count);
            rt_submit_aiv_task(0, params_t4);
        }
    }
}

}  // extern "C"
