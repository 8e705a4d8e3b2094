// Orchestration Function: orch_war_many_readers
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
        uint32_t a_ci_shapes[2] = {16, 16};
        TensorCreateInfo a_ci(a_ci_shapes, 2, DataType::FLOAT32);
        uint32_t b_ci_shapes[2] = {16, 16};
        TensorCreateInfo b_ci(b_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(a_ci, b_ci);
        const Tensor& a = alloc_0.get_ref(0);
        const Tensor& b = alloc_0.get_ref(1);

        // Task 0: read
        Arg params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_inout(a);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId read_tid = task_0_outs.task_id();

        // Task 1: read
        Arg params_t1;
        params_t1.add_input(ext_x);
        params_t1.add_inout(b);
        TaskOutputTensors task_1_outs = rt_submit_aiv_task(0, params_t1);
        PTO2TaskId read_tid__dep_v1 = task_1_outs.task_id();

        // Task 2: read
        Arg params_t2;
        params_t2.add_input(ext_x);
        params_t2.add_inout(ext_y);
        TaskOutputTensors task_2_outs = rt_submit_aiv_task(0, params_t2);
        PTO2TaskId read_tid__dep_v2 = task_2_outs.task_id();

        // Task 3: write
        Arg params_t3;
        params_t3.add_input(ext_z);
        params_t3.add_inout(ext_x);
        PTO2TaskId params_t3_deps[3];
        uint32_t params_t3_deps_count = 0;
        params_t3_deps[params_t3_deps_count++] = read_tid;
        params_t3_deps[params_t3_deps_count++] = read_tid__dep_v1;
        params_t3_deps[params_t3_deps_count++] = read_tid__dep_v2;
        params_t3.set_dependencies(params_t3_deps, params_t3_deps_count);
        rt_submit_aiv_task(1, params_t3);

        // Task 4: write
        Arg params_t4;
        params_t4.add_input(ext_z);
        params_t4.add_inout(ext_x);
        rt_submit_aiv_task(1, params_t4);
    }
}

}  // extern "C"
