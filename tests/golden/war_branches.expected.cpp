// Orchestration Function: orch_war_branches
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

    // Scalar params
    union { uint64_t u64; int64_t val; } n_conv;
    n_conv.u64 = orch_args.scalar(0);
    int64_t n = n_conv.val;

    PTO2_SCOPE() {
        PTO2TaskId readers = PTO2TaskId::invalid();
        if (n > 0) {
            PTO2_SCOPE() {

                // Task 0: read
                Arg params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_inout(ext_y);
                TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
                PTO2TaskId read_tid = task_0_outs.task_id();
                readers = read_tid;
            }
        } else {
            PTO2_SCOPE() {
                uint32_t z2_ci_shapes[2] = {16, 16};
                TensorCreateInfo z2_ci(z2_ci_shapes, 2, DataType::FLOAT32);
                TaskOutputTensors alloc_0 = alloc_tensors(z2_ci);
                const Tensor& z2 = alloc_0.get_ref(0);

                // Task 1: read
                Arg params_t1;
                params_t1.add_input(ext_x);
                params_t1.add_inout(z2);
                TaskOutputTensors task_1_outs = rt_submit_aiv_task(0, params_t1);
                PTO2TaskId read_tid__dep_v1 = task_1_outs.task_id();
                readers = read_tid__dep_v1;

                // Task 2: read
                Arg params_t2;
                params_t2.add_input(z2);
                params_t2.add_inout(ext_y);
                rt_submit_aiv_task(0, params_t2);
            }
        }

        // Task 3: write
        Arg params_t3;
        params_t3.add_input(ext_z);
        params_t3.add_inout(ext_x);
        PTO2TaskId params_t3_deps[1];
        uint32_t params_t3_deps_count = 0;
        if (readers.is_valid()) params_t3_deps[params_t3_deps_count++] = readers;
        params_t3.set_dependencies(params_t3_deps, params_t3_deps_count);
        rt_submit_aiv_task(1, params_t3);
    }
}

}  // extern "C"
