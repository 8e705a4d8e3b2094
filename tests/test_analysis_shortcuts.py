"""Analyses that compute a fact once instead of again and again give what the plain definition gives.

Each helper here replaced a simpler formulation that repeated work (a walk per enclosing body, a
whole-function sweep per loop level); the simple one is kept below as the reference, and both
run on the examples and on random control-flow programs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, bench_file, compiled_stages, fuzz_budget, load_program
from program_gen import control_flow_programs

from nanopass.api import run_pipeline
from nanopass.language import children_of
from nanopass.languages import DIRECTED as D
from nanopass.languages.terms import ArgDir, LoopKind, ParamDir
from nanopass.passes.convert_to_ssa import definitions
from nanopass.passes.derive_call_directions import DeriveCallDirections
from nanopass.passes.hazards import storage_map
from nanopass.passes.kernels import kernel_table, output_param_of_result
from nanopass.passes.util import (
    BODY_FIELDS,
    assigned_names,
    assigned_names_by_body,
    defined_binders,
    iter_stmts,
    last_yield,
    static_trip_count,
    var_reads,
)

PROPERTY = settings(max_examples=fuzz_budget(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- references ------------------------------------------------------------------------------------


def reference_var_reads(nodes) -> dict[str, int]:
    counts: dict[str, int] = {}
    stack = list(nodes) if isinstance(nodes, (list, tuple)) else [nodes]
    while stack:
        node = stack.pop()
        if node._production == "Var":
            counts[node.name] = counts.get(node.name, 0) + 1
        elif node._production not in ("TensorType", "ScalarType", "ArrayType", "TileType"):
            stack.extend(children_of(node))
    return counts


def reference_storage_map(func, kernels) -> dict[str, frozenset]:
    """Whole-function sweeps until nothing changes (every name's places to the fixpoint)."""
    from nanopass.passes.hazards import FULL, FULL_VIEW, UNKNOWN, Full, sub_region

    store: dict[str, frozenset] = {}
    for param in func.params:
        if param.type._production == "TensorType":
            store[param.name] = frozenset({(param.name, FULL)})

    def of(expr) -> frozenset:
        return store.get(expr.name, frozenset()) if expr is not None and expr._production == "Var" else frozenset()

    def places(stmt) -> list[tuple[str, frozenset]]:
        kind = stmt._production
        if kind == "Let" and stmt.var.type._production == "TensorType":
            v, name = stmt.value, stmt.var.name
            if v._production == "CreateTensor":
                return [(name, frozenset({(name, FULL)}))]
            if v._production == "SliceTensor":
                return [(name, frozenset((r, sub_region(g, v.shape, v.offset)) for r, g in of(v.tensor)))]
            if v._production in ("TransposeTensor", "ReshapeTensor"):
                return [(name, frozenset((r, FULL_VIEW if isinstance(g, Full) else UNKNOWN) for r, g in of(v.tensor)))]
            if v._production == "AssembleTensor":
                return [(name, of(v.target))]
            if v._production == "Var":
                return [(name, of(v))]
        if kind == "Task":
            out = []
            for i, res in enumerate(stmt.outs):
                binder = getattr(res, "var", res)
                p = output_param_of_result(kernels[stmt.kernel], i)
                if p is not None and p < len(stmt.args):
                    out.append((binder.name, of(stmt.args[p].value)))
                else:
                    out.append((binder.name, frozenset({(binder.name, FULL)})))
            return out
        if kind == "For":
            yld = last_yield(stmt.body)
            runs = static_trip_count(stmt) or 0
            out = []
            tensors = [k for k, it in enumerate(stmt.iters) if it.var.type._production == "TensorType"]
            yielded = {k: (yld.values[k] if yld is not None else None) for k in tensors}
            for k in tensors:
                it, result = stmt.iters[k], stmt.results[k]
                merged = of(it.init) | of(yielded[k])
                out.append((it.var.name, of(it.init) if runs == 1 else merged))
                if not runs:
                    out.append((result.name, merged))
            if runs:  # the results: the last iteration's yields, the loop unrolled
                index = {stmt.iters[k].var.name: k for k in tensors}
                held = {k: of(stmt.iters[k].init) for k in tensors}
                for _ in range(runs):
                    step = {}
                    for k in tensors:
                        value = yielded[k]
                        j = index.get(value.name) if value is not None and value._production == "Var" else None
                        step[k] = held[j] if j is not None else of(value)
                    held = step
                out += [(stmt.results[k].name, held[k]) for k in tensors]
            return out
        if kind == "If":
            yields = [y for y in (last_yield(stmt.then), last_yield(stmt.orelse)) if y is not None]
            return [
                (r.name, frozenset().union(*(of(y.values[k]) for y in yields)))
                for k, r in enumerate(getattr(stmt, "results", ()))
                if r.type._production == "TensorType"
            ]
        return []

    changed = True
    while changed:
        changed = False
        for stmt in iter_stmts(func.body):
            for name, value in places(stmt):
                if not value <= store.get(name, frozenset()):
                    store[name] = store.get(name, frozenset()) | value
                    changed = True
    return store


class TaskByTaskDirections(DeriveCallDirections):
    """derive_call_directions with each task's directions decided by ``directions`` (the rule
    ``analyze`` applies inline, written apart) into ``decided``, and its writes by ``written_roots``:
    for an analysis of a subclass."""

    name = DeriveCallDirections.name  # (a class of its own handlers: its ``Task``)

    def run(self, program):
        self.decided = {}  # id(task) -> its directions
        return super().run(program)

    def analyze_writers(self, func):
        super().analyze_writers(func)  # (decided into ``decided``: the output is built by ``Task``)
        return None

    def directions(self, task, seq_depth: int, seen: set[str] | None = None) -> list[ArgDir]:
        """The task's argument directions, after the writes of ``seen`` (default ``self.seen``)."""
        seen = self.seen if seen is None else seen
        dirs = []
        for arg, param in zip(task.args, self.kernels[task.kernel].params):
            if param.type._production != "TensorType":
                dirs.append(ArgDir.Scalar)
            elif arg.no_dep:
                dirs.append(ArgDir.NoDep)
            elif param.dir is ParamDir.In:
                dirs.append(ArgDir.Input)
            elif param.dir is ParamDir.InOut or seq_depth > 0:
                dirs.append(ArgDir.InOut)
            elif not seen.isdisjoint(held := self.held_buffers(arg.value)) or self.may_be_inout_param(arg.value, held):
                dirs.append(ArgDir.InOut)
            else:
                dirs.append(ArgDir.OutputExisting)
        return dirs

    def written_roots(self, task) -> set[str]:
        """The buffers ``task`` may write."""
        out: set[str] = set()
        for arg, param in zip(task.args, self.kernels[task.kernel].params):
            if param.dir is not ParamDir.In:
                out |= self.held_buffers(arg.value)
        return out

    def Task(self, task):
        args = [D.Arg.make(arg.value, d if arg.hint is None else self.weigh_hint(arg, d, task), span=arg.span)
                for arg, d in zip(task.args, self.decided[id(task)])]
        return D.Task.make(task.outs, task.tid, task.kernel, args, task.dumps, task.early_resolve, task.deps,
                           task.launch, span=task.span)


class ReferenceCallDirections(TaskByTaskDirections):
    """derive_call_directions with the buffers each name may be from whole-function sweeps
    (``reference_storage_map``) and a walk per loop for its writes."""

    def analyze_writers(self, func):
        self.store = reference_storage_map(func, self.kernels)
        self.held = {}
        self.inout_params = {p.name for p in func.params if p.dir is ParamDir.InOut}
        self.analyze(func.body, 0)

    def analyze(self, stmts, seq_depth, seen=None):
        seen = set() if seen is None else seen
        for stmt in stmts:
            kind = stmt._production
            if kind == "Task":
                self.decided[id(stmt)] = self.directions(stmt, seq_depth, seen)
                seen |= self.written_roots(stmt)
            elif kind == "For":
                self.analyze(stmt.body, seq_depth + (stmt.kind is LoopKind.seq), set(seen))
                seen |= self.subtree_writes(stmt.body)
            elif kind == "If":
                self.analyze(stmt.then, seq_depth, set(seen))
                self.analyze(stmt.orelse, seq_depth, set(seen))
                seen |= self.subtree_writes(stmt.then) | self.subtree_writes(stmt.orelse)
            elif kind in ("Scope", "CompilerScope"):
                self.analyze(stmt.body, seq_depth, seen)

    def subtree_writes(self, stmts):
        out: set[str] = set()
        for stmt in iter_stmts(stmts):
            if stmt._production == "Task":
                out |= self.written_roots(stmt)
        return out


# -- checks ----------------------------------------------------------------------------------------


def bodies(stmts):
    yield stmts
    for stmt in iter_stmts(stmts):
        for field in BODY_FIELDS.get(stmt._production, ()):
            yield getattr(stmt, field)


def reference_defined_once(func) -> set[str]:
    """The names one Binder of the body defines and nothing else does (no parameter, no dynamic
    dim, no other Binder), less those shaped like a version (``__``)."""
    outer = {p.name for p in func.params} | {d.name for d in func.dyn_dims}
    names = [binder.name for stmt in iter_stmts(func.body) for binder in defined_binders(stmt)]
    return {name for name in names if names.count(name) == 1 and name not in outer and "__" not in name}


def check_stages(stages) -> None:
    for before, stage in zip(stages, stages[1:]):
        if stage.name == "derive_call_directions":
            assert ReferenceCallDirections().run(before.tree) == stage.tree
    for stage in stages:
        func = getattr(stage.tree, "orch", None)
        if func is None:
            continue
        by_body = assigned_names_by_body(func.body)
        for body in bodies(func.body):
            assert by_body[id(body)] == assigned_names(body)
        if "dyn_dims" in func._fields:  # (convert_to_ssa's one walk for both, on every stage that has them)
            once, assigned_by_loop_body = definitions(func)
            assert once == reference_defined_once(func)
            loop_bodies = {id(s.body) for s in iter_stmts(func.body) if s._production in ("For", "While")}
            assert assigned_by_loop_body == {key: names for key, names in by_body.items() if key in loop_bodies}
        for stmt in iter_stmts(func.body):
            assert var_reads(stmt) == reference_var_reads(stmt)
            assert list(var_reads(stmt)) == list(reference_var_reads(stmt))  # same order too
        if stage.name in ("derive_call_directions", "order_write_after_read", "derive_auto_scope_dependencies"):
            kernels = kernel_table(stage.tree)
            assert storage_map(func, kernels) == reference_storage_map(func, kernels)
        if stage.name == "check_output_params_written":  # order_write_after_read's input
            check_war_prefilter(stage.tree)


def check_war_prefilter(program) -> None:
    """``unordered_war_possible`` is a necessary condition: where it says no (and no manual scope
    is there), the full analysis finds no pair that needs an edge."""
    from nanopass.languages.terms import ScopeMode
    from nanopass.passes.hazards import find_hazards, unordered_war_possible, untracked_roots
    from nanopass.passes.order_write_after_read import needs_edge

    func = program.orch
    if any(s._production == "Scope" and s.mode is ScopeMode.manual for s in iter_stmts(func.body)):
        return
    kernels, untracked = kernel_table(program), untracked_roots(func)
    store = storage_map(func, kernels)
    if not unordered_war_possible(func, store, untracked):
        assert not find_hazards(func, kernels, untracked, track_writes=False, keep=needs_edge, store=store).pairs


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.stem)
def test_examples(path: Path):
    check_stages(compiled_stages(path))


@PROPERTY
@given(control_flow_programs())
def test_random_programs(tmp_path_factory, source):
    path = tmp_path_factory.mktemp("p") / "generated.py"
    path.write_text(source)
    check_stages(run_pipeline(load_program(path)))


# -- storage_map's result carried over derive_call_directions -----------------------------------------


def storage_walks_while_compiling(program, monkeypatch) -> tuple[list[str], list]:
    """The passes that walked for storage_map during a compile, and, for every stage from
    derive_call_directions to order_write_after_read, (stage, what storage_map answers inside
    the compile, a fresh walk of the same tree)."""
    from nanopass.passes import hazards
    from nanopass.passes.pipeline import PIPELINE

    names = PIPELINE.names()
    running = [names[0]]
    fresh = hazards._storage_map
    walks: list[str] = []
    answers = []

    def counted(func, kernels):
        walks.append(running[0])
        return fresh(func, kernels)

    def observer(stage):
        if stage.name in ("derive_call_directions", "check_output_params_written", "order_write_after_read"):
            func, kernels = stage.tree.orch, kernel_table(stage.tree)
            answers.append((stage.name, storage_map(func, kernels), fresh(func, kernels)))
        if stage.name in names[:-1]:
            running[0] = names[names.index(stage.name) + 1]

    monkeypatch.setattr(hazards, "_storage_map", counted)
    run_pipeline(program, observer=observer)
    return walks, answers


def test_the_storage_walk_of_the_ssa_program_serves_the_passes_after_derive_call_directions(tmp_path, monkeypatch):
    # y is an InOut parameter and returned: place_returned_creates_in_output_params asks for the
    # storage map; check_output_params_written and order_write_after_read ask again after
    # derive_call_directions, which changes the arguments' directions only
    walks, answers = storage_walks_while_compiling(load_program(bench_file(tmp_path, "nested", 8)), monkeypatch)
    assert walks == ["place_returned_creates_in_output_params"]
    assert [stage for stage, _, _ in answers] == ["derive_call_directions", "check_output_params_written",
                                                  "order_write_after_read"]
    for stage, kept_answer, fresh_answer in answers:
        assert kept_answer == fresh_answer, stage


@PROPERTY
@given(control_flow_programs())
def test_carried_storage_maps_are_fresh_walks_of_random_programs(tmp_path_factory, source):
    path = tmp_path_factory.mktemp("p") / "generated.py"
    path.write_text(source)
    with pytest.MonkeyPatch.context() as monkeypatch:
        _, answers = storage_walks_while_compiling(load_program(path), monkeypatch)
    for stage, kept_answer, fresh_answer in answers:
        assert kept_answer == fresh_answer, stage


# -- convert_to_ssa renames an expression by its own recursion: what the generic visit gives -------


def _ssa_with_and_without_own_renaming(program):
    """convert_to_ssa's output with ``renamed`` (its own recursion over expressions) and with the
    generic visit in its place (the identity clauses and the Var handler), and how many
    expressions ``renamed`` read."""
    from nanopass.passes.convert_to_ssa import ConvertToSsa
    from nanopass.rewrite import PassContext

    surface = program.surface()
    own = ConvertToSsa(PassContext()).run(surface)
    read = []
    generic = ConvertToSsa(PassContext())
    generic.renamed = lambda expr: read.append(expr) or generic.visit(expr)
    return own, generic.run(surface), read


@pytest.mark.parametrize("shape", ["nested", "mixed", "branches", "scopes"])
def test_own_renaming_gives_what_the_generic_visit_gives_on_the_bench_shapes(tmp_path, shape):
    own, plain, read = _ssa_with_and_without_own_renaming(load_program(bench_file(tmp_path, shape, 40)))
    assert own == plain and read  # (read: loop bounds, arithmetic task arguments, conditions)


RENAMED = """\
import nanopass.dsl as pl


@pl.program
class Renamed:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], s: pl.Scalar[pl.INT64], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        s = n + 1
        s = s * 2
        for i in pl.range(s + 1):
            if s > i:
                o = self.k(a, s - i, o)
            if not s < i:
                o = self.k(a, -s, o)
            s = s + 1
        return o
"""


def test_own_renaming_renames_the_reassigned_variables_of_every_kind_of_expression(tmp_path):
    path = tmp_path / "renamed.py"
    path.write_text(RENAMED)
    own, plain, read = _ssa_with_and_without_own_renaming(load_program(path))
    assert own == plain
    assert {e._production for e in read} >= {"Bin", "Cmp", "Un", "Var"}
    text = repr(own.orch)
    assert "(Bin add (Var s__ssa_v1) (Int 1" in text and "(Cmp gt (Var s__iter_v2) (Var i))" in text


@PROPERTY
@given(control_flow_programs())
def test_own_renaming_gives_what_the_generic_visit_gives_on_random_programs(tmp_path_factory, source):
    path = tmp_path_factory.mktemp("p") / "generated.py"
    path.write_text(source)
    own, plain, _read = _ssa_with_and_without_own_renaming(load_program(path))
    assert own == plain
