"""The recording runtime (C++) records what orchestration code asks of the runtime."""

from __future__ import annotations

import pytest

from nanopass.tools.recorder import record
from nanopass.tools.sim_runtime import EntryTensor, Inputs
from nanopass.tools.trace import Alloc, Fatal, HostRead, HostWrite, ScopeBegin, ScopeEnd, Task

pytestmark = pytest.mark.slow

PRELUDE = """
#include "pto_orchestration_api.h"
extern "C" {
__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{ .expected_arg_count = 1 };
}
__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
"""
POSTLUDE = "}\n}\n"
X = Inputs((EntryTensor((4, 4), "FLOAT32", "x"),))


def run(body: str, inputs: Inputs = X):
    return record(PRELUDE + body + POSTLUDE, inputs)


def test_allocs_tasks_views_and_element_access_are_recorded():
    trace = run("""
    uint32_t shape[2] = {4, 4};
    TensorCreateInfo ci(shape, 2, DataType::INT32);
    ci.set_initial_value(static_cast<int32_t>(-3));
    TaskOutputTensors al = alloc_tensors(ci);
    const Tensor& t = al.get_ref(0);
    uint32_t at[2] = {1, 2};
    int32_t v = get_tensor_data<int32_t>(t, 2, at);
    set_tensor_data<int32_t>(t, 2, at, v * 2);
    uint32_t vs[2] = {2, 4}, vo[2] = {2, 0};
    Tensor bottom = ext_x.view(vs, vo);
    Arg p;
    p.add_input(bottom);
    p.add_inout(t);
    p.add_scalar((uint64_t)7);
    PTO2TaskId deps[1] = {al.task_id()};
    p.set_dependencies(deps, 1);
    PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
        rt_submit_aiv_task(3, p);
    }
""")
    kinds = [type(e).__name__ for e in trace.events]
    assert kinds == ["ScopeBegin", "Alloc", "HostRead", "HostWrite", "ScopeBegin", "Task", "ScopeEnd", "ScopeEnd"]
    alloc, read, write, task = (trace.events[i] for i in (1, 2, 3, 5))
    assert trace.buffers["b0"].init == 0xFFFFFFFD and read.value == 0xFFFFFFFD and write.value == 0xFFFFFFFA
    assert task.launch == (-1, 3, -1) and task.mode == "manual" and task.deps == (alloc.id,) and task.scalars == (7,)
    bottom, inout = task.tensors
    assert (bottom.view.buffer, bottom.view.offset, bottom.view.shape, bottom.tag) == ("in0", 8, (2, 4), "INPUT")
    assert inout.owner == alloc.id and inout.tag == "INOUT"


def test_an_auto_scope_inside_a_manual_one_is_fatal_and_ends_the_trace():
    trace = run("""
    PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
        PTO2_SCOPE() {
            Arg p;
            p.add_input(ext_x);
            rt_submit_aiv_task(0, p);
        }
    }
""")
    assert isinstance(trace.events[-1], Fatal)
    assert trace.events[-1].message == "rt_scope_begin: AUTO scope inside a MANUAL scope"
    assert not trace.tasks()


def test_an_invalid_dependency_and_an_arg_error_are_fatal():
    invalid = run("""
    Arg p;
    p.add_input(ext_x);
    PTO2TaskId deps[1] = {PTO2TaskId::invalid()};
    p.set_dependencies(deps, 1);
    rt_submit_aiv_task(0, p);
""")
    assert invalid.fatal().message == "submit: invalid explicit dependency"
    late = run("""
    Arg p;
    p.add_scalar((uint64_t)1);
    p.add_input(ext_x);
    rt_submit_aiv_task(0, p);
""")
    assert late.fatal().message == "submit: Arg has an error: tensor added after add_scalar"


def test_too_few_entry_arguments_stop_before_the_entry():
    trace = run("(void)ext_x;", Inputs())
    assert [type(e) for e in trace.events] == [Fatal]
    assert trace.events[0].message == "config: expected_arg_count 1 > 0 arguments"


def test_only_the_recorded_event_types_appear():
    trace = run("Arg p;\np.add_input(ext_x);\nrt_submit_dummy_task(p);\n")
    assert {type(e) for e in trace.events} <= {ScopeBegin, ScopeEnd, Alloc, Task, HostRead, HostWrite, Fatal}
    [task] = trace.tasks()
    assert task.kind == "dummy" and task.launch is None
