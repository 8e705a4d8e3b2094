"""Middle passes that skip an analysis their input cannot need give what the full analysis gives.

``define_dynamic_dim_symbols`` reads the body's names only when the function declares a
``pl.dynamic`` symbol, and looks at its tasks only when a kernel's parameter has a symbolic
extent; ``materialize_runtime_scopes`` finds which allocations each name holds only when a body
it would wrap yields a name and makes an allocation (``allocates_in``), and not at all when the
function makes none, and asks which
allocations a body's yield passes out only when some name holds one;
``drop_edges_after_first_run`` finds the loops around the tasks only when some task has a
compiler edge; ``remove_dead_values`` finds no liveness when every name it could remove is read
(``every_value_read``), and its liveness walks the expressions of the effects' other reads only
when the names their arguments and dependencies read leave a removable value dead; the lean
passes and ``runtime_order`` find a function's join cells once while it is handed on unchanged
(``cells.join_cells``, kept), and the names a new binder or cell may not take are read from the
body's walk (``cells.taken_names``, compared with the definition the passes spelled out on every
directed stage). Each test
counts the skipped walk on a benchmark shape that needs none, and compares the pass's output with
the output of the same pass made to run the full analysis, on every example and on random
control-flow programs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, bench_file, compiled_stages, counting, fuzz_budget, load_program, run_both_ways, running, stage_input
from program_gen import control_flow_programs

from nanopass.api import run_pipeline
from nanopass.passes import (
    allocations,
    cells,
    define_dynamic_dim_symbols,
    drop_edges_after_first_run,
    materialize_runtime_scopes,
    remove_dead_values,
)
from nanopass.passes.pipeline import PIPELINE

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHORTCUT_PASSES = ("define_dynamic_dim_symbols", "materialize_runtime_scopes", "drop_edges_after_first_run", "remove_dead_values")


def compile_bench(tmp_path, shape: str, size: int) -> None:
    run_pipeline(load_program(bench_file(tmp_path, shape, size)))


def test_no_dynamic_symbol_reads_no_names_and_no_tasks(tmp_path, monkeypatch):
    reads = counting(monkeypatch, define_dynamic_dim_symbols, "var_reads")
    walks = counting(monkeypatch, define_dynamic_dim_symbols, "iter_stmts")
    compile_bench(tmp_path, "nested", 8)
    assert reads == [] and walks == []


def test_the_join_cells_of_a_function_handed_on_are_found_once(tmp_path, monkeypatch):
    # scopes: each scope's loop joins its task's runs in a cell, which the lean passes and
    # runtime_order each ask about; drop_latest_runs_from_joins alone changes the function (it
    # folds the joins of the first three scopes' loops, whose waiters are in the next scope's
    # loop, once after the loop), so one walk finds them before it and one the function it hands on
    found = counting(monkeypatch, cells, "_join_cells")
    compile_bench(tmp_path, "scopes", 16)
    assert len(found) == 2


@pytest.mark.parametrize("shape", ["straight", "nested", "mixed"])
def test_scopes_without_a_yielded_allocation_walk_no_allocations(tmp_path, monkeypatch, shape):
    # straight: no loop or if, so no body that yields; nested: the loops yield y, a parameter's
    # buffer, and no statement allocates; mixed: the creates are at the top level, and no loop
    # body or branch that yields allocates
    held = counting(monkeypatch, materialize_runtime_scopes, "held_allocations")
    compile_bench(tmp_path, shape, 8)
    assert held == []


@pytest.mark.parametrize("shape", ["nested", "scopes"])
def test_bodies_yielding_names_of_no_allocation_ask_nothing_of_them(tmp_path, monkeypatch, shape):
    # the loops yield y (a parameter's buffer) and TaskIds: no name holds an allocation
    asked = counting(monkeypatch, materialize_runtime_scopes, "escaping_allocations")
    compile_bench(tmp_path, shape, 8)
    assert asked == []


@pytest.mark.parametrize("shape", ["straight", "nested"])
def test_no_compiler_edge_finds_no_loops_around_tasks(tmp_path, monkeypatch, shape):
    # the runtime orders every pair of these shapes (the tensors' TensorMap entries): no task
    # waits through a compiler edge
    looped = counting(monkeypatch, drop_edges_after_first_run, "_tasks_in_loops")
    compile_bench(tmp_path, shape, 8)
    assert looped == []


@pytest.mark.parametrize("shape", ["nested"])  # (the scopes' pl.parallel TaskId results are dead: tests/test_remove_dead_values_parallel_results.py)
def test_dead_values_all_needed_by_named_arguments_walk_no_other_expression(tmp_path, monkeypatch, shape):
    # every carry of these shapes (y, and the scopes' TaskIds) is read by name by a task argument
    # or dependency: the scalar arguments' arithmetic, the loop bounds and the return are not
    # walked
    # (the liveness the pass asks when a removable name is unread: this shape's are all read, so
    # the pass asks none, ``every_value_read``; asked here, as fuse_create_assemble_to_slice does)
    stages = run_pipeline(load_program(bench_file(tmp_path, shape, 8)))
    before = stage_input(stages, "remove_dead_values")
    walked = counting(monkeypatch, remove_dead_values, "names_read")
    live, removable = remove_dead_values.RemoveDeadValues.liveness(before.orch.body, enough=True, apart=True)
    assert removable and removable <= live
    walked_nodes = [node for (nodes,) in walked for node in nodes]
    # only the values of live lets (the None seeds), if any (the sources of live carries that
    # are names are read as names, without a walk)
    assert {node._production for node in walked_nodes} <= {"Var", "NoTask"}


LIVENESS = remove_dead_values.RemoveDeadValues.liveness

# every shortcut condition forced to say the analysis is needed
FORCED_OFF = [
    (allocations, "makes_allocations", lambda func, kernels: True),
    (materialize_runtime_scopes, "makes_allocations", lambda func, kernels: True),
    (materialize_runtime_scopes.MaterializeRuntimeScopes, "yields_names", staticmethod(lambda body: True)),
    (materialize_runtime_scopes.MaterializeRuntimeScopes, "holds_allocations", lambda self: True),
    (materialize_runtime_scopes.MaterializeRuntimeScopes, "allocates_in", lambda self, body: True),
    (define_dynamic_dim_symbols, "_has_symbolic_extent", lambda kernel: True),
    (drop_edges_after_first_run, "body_has", lambda body, fact: True),
    (remove_dead_values.RemoveDeadValues, "liveness",
     staticmethod(lambda body, dummies=False, enough=False, apart=False: LIVENESS(body, dummies, apart=apart))),
    (remove_dead_values, "every_value_read", lambda body: False),
]


def outputs_of_shortcut_passes(stages) -> list[tuple[str, object, object]]:
    """For each pass of ``SHORTCUT_PASSES``: (name, its output, its output when every shortcut
    condition is forced to say the analysis is needed), on the pipeline's input to it."""
    return [(name, *run_both_ways(running(PIPELINE.passes[PIPELINE.names().index(name)]), stage_input(stages, name), FORCED_OFF))
            for name in SHORTCUT_PASSES]


def check_same_outputs(stages) -> None:
    compared = outputs_of_shortcut_passes(stages)
    assert sorted(name for name, _, _ in compared) == sorted(SHORTCUT_PASSES)
    for name, fast, full in compared:
        assert fast == full, name


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.stem)
def test_examples(path: Path):
    stages = compiled_stages(path)
    check_same_outputs(stages)
    check_taken_names(stages)


@PROPERTY
@given(control_flow_programs())
def test_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    stages = compiled_stages(path)
    check_same_outputs(stages)
    check_taken_names(stages)


def names_as_first_defined(func) -> set:
    """``cells.taken_names`` as the passes that make names each spelled it out: every Binder under
    the body (``binders_in_order``, Declare's included), the parameters, the dynamic dimensions
    and the cells."""
    from nanopass.languages.statements import binders_in_order, iter_stmts

    names = {p.name for p in func.params} | {d.name for d in func.dyn_dims}
    names.update(b.name for b in binders_in_order(func.body))
    names.update(s.cell for s in iter_stmts(func.body) if s._production in ("CellDecl", "CellSet"))
    return names


def check_taken_names(stages) -> None:
    """On every stage of the directed language (where the passes that make cells and barriers run)."""
    directed = [stage for stage in stages if stage.language.name == "directed"]
    assert directed
    for stage in directed:
        assert cells.taken_names(stage.tree.orch) == names_as_first_defined(stage.tree.orch), stage.name
