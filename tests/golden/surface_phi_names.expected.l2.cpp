#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const L2TaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 5,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const L2TaskArgs& orch_args) {
    // External tensors
    const Tensor& ext_a = orch_args.tensor(0).ref();
    const Tensor& ext_b = orch_args.tensor(1).ref();
    const Tensor& ext_out = orch_args.tensor(2).ref();
    const Tensor& ext_rows = orch_args.tensor(3).ref();

    // Scalar params
    int64_t flag = from_u64<int64_t>(orch_args.scalar(0));

    PTO2_SCOPE() {
        PTO2TaskId k_last = PTO2TaskId::invalid();
        int64_t scale = 1;
        int64_t m;
        int64_t scale__phi_v2;
        Tensor src = ext_a;
        if ((flag > 0)) {
            PTO2_SCOPE() {
                int64_t m__ssa_v0 = (flag + 1);
                m = m__ssa_v0;
                scale__phi_v2 = scale;
                src = ext_a;
            }
        } else {
            PTO2_SCOPE() {
                int64_t m__ssa_v1 = (flag - 1);
                int64_t scale__ssa_v1 = 2;
                m = m__ssa_v1;
                scale__phi_v2 = scale__ssa_v1;
                src = ext_b;
            }
        }

        // Task 0: k
        L0TaskArgs params_t0;
        params_t0.add_input(src);
        params_t0.add_output(ext_out);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId k_tid = task_0_outs.task_id();
        Tensor acc__rv_v2 = ext_a;
        for (int64_t i = 0; i < (m * scale__phi_v2); i += 1) {
            uint32_t t_ci_shapes[2] = {16, 16};
            TensorCreateInfo t_ci(t_ci_shapes, 2, DataType::FLOAT32);
            TaskOutputTensors alloc_0 = alloc_tensors(t_ci);
            const Tensor& t = alloc_0.get_ref(0);

            // Task 1: k
            L0TaskArgs params_t1;
            params_t1.add_input(acc__rv_v2);
            params_t1.add_inout(t);
            TaskOutputTensors task_1_outs = rt_submit_aiv_task(0, params_t1);
            PTO2TaskId k_tid__dep_v1 = task_1_outs.task_id();
            k_last = k_tid__dep_v1;
            acc__rv_v2 = t;
        }
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
            PTO2TaskId ids[2]; for (int64_t __init_i = 0; __init_i < 2; ++__init_i) ids[__init_i] = PTO2TaskId::invalid();
            for (int64_t j = 0; j < 2; j += 1) {
                uint32_t half_offsets[2] = {static_cast<uint32_t>((j * 16)), 0};
                uint32_t half_shapes[2] = {(half_offsets[0] >= ext_rows.shapes[0] ? 0u : std::min<uint32_t>(16, ext_rows.shapes[0] - half_offsets[0])), (half_offsets[1] >= ext_rows.shapes[1] ? 0u : std::min<uint32_t>(16, ext_rows.shapes[1] - half_offsets[1]))};
                Tensor half = ext_rows.view(half_shapes, half_offsets);

                // Task 2: k
                L0TaskArgs params_t2;
                params_t2.add_input(acc__rv_v2);
                params_t2.add_inout(half);
                PTO2TaskId params_t2_deps[1];
                uint32_t params_t2_deps_count = 0;
                if (k_last.is_valid()) params_t2_deps[params_t2_deps_count++] = k_last;
                params_t2.set_dependencies(params_t2_deps, params_t2_deps_count);
                TaskOutputTensors task_2_outs = rt_submit_aiv_task(0, params_t2);
                PTO2TaskId tid = task_2_outs.task_id();
                ids[j] = tid;
            }
            PTO2TaskId p = ids[1];

            // Task 3: k
            L0TaskArgs params_t3;
            params_t3.add_input(acc__rv_v2);
            params_t3.add_inout(ext_out);
            PTO2TaskId params_t3_deps[2];
            uint32_t params_t3_deps_count = 0;
            if (p.is_valid()) params_t3_deps[params_t3_deps_count++] = p;
            params_t3_deps[params_t3_deps_count++] = k_tid;
            params_t3.set_dependencies(params_t3_deps, params_t3_deps_count);
            rt_submit_aiv_task(0, params_t3);
        }
    }
}

}  // extern "C"
