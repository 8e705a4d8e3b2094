// Orchestration Function: orch_outputs
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 3 };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    // External tensors
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_lut = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(2));

    PTO2_SCOPE() {
        uint32_t params_t0_synth_out_1_shapes[2] = {16, 16};
        TensorCreateInfo params_t0_synth_out_1(params_t0_synth_out_1_shapes, 2, DataType::FLOAT32);

        // Task 0: produce
        Arg params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_output(params_t0_synth_out_1);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        const Tensor& fresh = task_0_outs.get_ref(0);

        // Task 1: produce
        Arg params_t1;
        params_t1.add_input(fresh);
        params_t1.add_output(ext_out);
        rt_submit_aiv_task(0, params_t1);

        // Task 2: combine
        Arg params_t2;
        params_t2.add_input(fresh);
        params_t2.add_no_dep(ext_lut);
        params_t2.add_inout(ext_out);
        rt_submit_aiv_task(1, params_t2);
    }
}

}  // extern "C"
