// Orchestration Function: orch_war_manual_boundary
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 4 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_y = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_z = from_tensor_arg(orch_args.tensor(2));

    PTO2_SCOPE() {
        uint32_t z3_ci_shapes[2] = {16, 16};
        TensorCreateInfo z3_ci(z3_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(z3_ci);
        const Tensor& z3 = alloc_0.get_ref(0);
        PTO2TaskId write_last = PTO2TaskId::invalid();

        // Task 0: write
        Arg params_t0;
        params_t0.add_input(ext_z);
        params_t0.add_inout(ext_x);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId write_tid = task_0_outs.task_id();

        // Task 1: read
        Arg params_t1;
        params_t1.add_input(ext_z);
        params_t1.add_inout(ext_y);
        TaskOutputTensors task_1_outs = rt_submit_aiv_task(1, params_t1);
        PTO2TaskId read_tid = task_1_outs.task_id();
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {

            // Task 2: read
            Arg params_t2;
            params_t2.add_input(ext_x);
            params_t2.add_inout(ext_y);
            PTO2TaskId params_t2_deps[2];
            uint32_t params_t2_deps_count = 0;
            params_t2_deps[params_t2_deps_count++] = write_tid;
            params_t2_deps[params_t2_deps_count++] = read_tid;
            params_t2.set_dependencies(params_t2_deps, params_t2_deps_count);
            TaskOutputTensors task_2_outs = rt_submit_aiv_task(1, params_t2);
            PTO2TaskId t1 = task_2_outs.task_id();

            // Task 3: write
            Arg params_t3;
            params_t3.add_input(ext_y);
            params_t3.add_inout(ext_x);
            PTO2TaskId params_t3_deps[1];
            uint32_t params_t3_deps_count = 0;
            params_t3_deps[params_t3_deps_count++] = t1;
            params_t3.set_dependencies(params_t3_deps, params_t3_deps_count);
            TaskOutputTensors task_3_outs = rt_submit_aiv_task(0, params_t3);
            PTO2TaskId t2 = task_3_outs.task_id();
            write_last = t2;
        }

        // Task 4: read
        Arg params_t4;
        params_t4.add_input(ext_x);
        params_t4.add_inout(z3);
        PTO2TaskId params_t4_deps[1];
        uint32_t params_t4_deps_count = 0;
        if (write_last.is_valid()) params_t4_deps[params_t4_deps_count++] = write_last;
        params_t4.set_dependencies(params_t4_deps, params_t4_deps_count);
        rt_submit_aiv_task(1, params_t4);
    }
}

}  // extern "C"
