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
    const Tensor& ext_x = orch_args.tensor(0).ref();
    const Tensor& ext_a = orch_args.tensor(1).ref();
    const Tensor& ext_b = orch_args.tensor(2).ref();

    // Scalar params
    float f = from_u64<float>(orch_args.scalar(0));

    PTO2_SCOPE() {

        // Task 0: scale_into
        L0TaskArgs params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_inout(ext_a);
        params_t0.add_scalar(to_u64(f));
        rt_submit_aiv_task(0, params_t0);

        // Task 1: scale_into
        L0TaskArgs params_t1;
        params_t1.add_input(ext_a);
        params_t1.add_inout(ext_b);
        params_t1.add_scalar(to_u64(f));
        rt_submit_aiv_task(0, params_t1);

        // Task 2: scale_into_1
        L0TaskArgs params_t2;
        params_t2.add_input(ext_b);
        params_t2.add_inout(ext_a);
        rt_submit_aiv_task(1, params_t2);

        // Task 3: copy_rows
        L0TaskArgs params_t3;
        params_t3.add_input(ext_a);
        params_t3.add_inout(ext_b);
        params_t3.add_scalar((uint64_t)0);
        rt_submit_aiv_task(2, params_t3);

        // Task 4: scale_into_1
        L0TaskArgs params_t4;
        params_t4.add_input(ext_b);
        params_t4.add_inout(ext_a);
        rt_submit_aiv_task(1, params_t4);

        // Task 5: copy_rows
        L0TaskArgs params_t5;
        params_t5.add_input(ext_a);
        params_t5.add_inout(ext_b);
        params_t5.add_scalar((uint64_t)1);
        rt_submit_aiv_task(2, params_t5);
    }
}

}  // extern "C"
