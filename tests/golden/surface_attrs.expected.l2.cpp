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
    const Tensor& ext_a = orch_args.tensor(0).ref();
    const Tensor& ext_b = orch_args.tensor(1).ref();
    const Tensor& ext_c = orch_args.tensor(2).ref();
    const Tensor& ext_d = orch_args.tensor(3).ref();

    PTO2_SCOPE() {

        // Task 0: acc
        L0TaskArgs params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_inout(ext_b);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: acc
        L0TaskArgs params_t1;
        params_t1.add_no_dep(ext_a);
        params_t1.add_inout(ext_c);
        rt_submit_aiv_task(0, params_t1);

        // Task 2: acc
        L0TaskArgs params_t2;
        params_t2.add_inout(ext_b);
        params_t2.add_inout(ext_d);
        rt_submit_aiv_task(0, params_t2);

        // Task 3: acc
        L0TaskArgs params_t3;
        params_t3.add_input(ext_d);
        params_t3.add_inout(ext_c);
        rt_submit_aiv_task(0, params_t3);
    }
}

}  // extern "C"
