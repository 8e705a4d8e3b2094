"""Compiler-derived dependencies (opt-in) and phase-fence compression; deterministic output."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import EXAMPLES, REPO, load_program, run_cli

import nanopass
from nanopass.languages import DIRECTED, EMISSION
from nanopass.languages.terms import ArgDir, DType, FuncKind, ParamDir, ScopeMode
from nanopass.pipeline import Pipeline
from nanopass.rewrite import PassContext

GOLDEN = REPO / "tests" / "golden"


def _trips(loop) -> int:
    values = [e.value for e in (loop.start, loop.stop, loop.step)]
    return max(0, (values[1] - values[0] + values[2] - 1) // values[2])


def dependency_insertions(unit) -> int:
    """How many TaskIds the C++ inserts into dependency arrays when it runs (constant loops)."""

    def count(stmts, times: int) -> int:
        total = 0
        for stmt in stmts:
            kind = stmt._production
            if kind == "PushDep":
                total += times
            elif kind == "PushDepSlots":
                total += times * stmt.size
            elif kind == "Deps" or kind == "GuardedDummy":  # (a dependency array: its pushes)
                total += count(stmt.pushes, times)
            elif kind == "ForBlock":
                total += count(stmt.body, times * _trips(stmt))
            elif kind == "ScopeBlock":
                total += count(stmt.body, times)
            elif kind == "IfBlock":
                total += max(count(stmt.then, times), count(stmt.orelse, times))
        return total

    assert unit._production == "Unit"
    return count(unit.body, 1)


def emission_of(path, **options):
    result = nanopass.generate_orchestration(load_program(path), **options)
    return next(s.tree for s in result.stages if s.language is EMISSION)


def test_phase_fence_cuts_4096_insertions_to_128():
    fenced = emission_of(GOLDEN / "phase_fence.py")
    assert dependency_insertions(fenced) == 64 + 64
    source = (GOLDEN / "phase_fence.py").read_text()
    # the same program with the consumers' array edge spelled per slot cannot be fenced
    unfenced_path = REPO / "tests" / "golden" / "phase_fence.py"
    stages = nanopass.api.run_pipeline(load_program(unfenced_path), stop_after="expand_manual_phase_fence")
    assert any(n.kind == "phase-fence" and "4096" in n.message for n in stages[-1].notes)
    assert "deps=[tids]" in source


def test_phase_fence_must_not_trigger():
    for name in ("fence_not_profitable", "fence_array_updated", "fence_array_carry"):
        stages = nanopass.api.run_pipeline(load_program(GOLDEN / f"{name}.py"), stop_after="expand_manual_phase_fence")
        assert not any(n.kind == "phase-fence" for s in stages for n in s.notes), name


def test_derivation_is_off_by_default_and_on_by_flag():
    path = GOLDEN / "derive_manual_region.py"
    default = run_cli("run", str(path))
    derived = run_cli("run", str(path), "--analyze-auto-scopes-for-deps")
    assert default.returncode == derived.returncode == 0
    assert "PTO2ScopeMode::MANUAL" not in default.stdout and "set_dependencies" not in default.stdout
    assert "PTO2ScopeMode::MANUAL" in derived.stdout and derived.stdout.count("set_dependencies(") == 2


def test_derived_edges_keep_their_origin_in_the_dep_annotated_language():
    from nanopass.languages import DEP_ANNOTATED
    from nanopass.language import walk

    result = nanopass.generate_orchestration(
        load_program(GOLDEN / "tid_sources.py"), analyze_auto_scopes_for_deps=True
    )
    tree = next(s.tree for s in result.stages if s.language is DEP_ANNOTATED)
    edges = [n for n in walk(tree) if n._production == "DepEdge"]
    assert any(e.user for e in edges)
    derive = nanopass.generate_orchestration(load_program(GOLDEN / "derive_manual_region.py"), analyze_auto_scopes_for_deps=True)
    tree = next(s.tree for s in derive.stages if s.language is DEP_ANNOTATED)
    assert [e.user for e in walk(tree) if e._production == "DepEdge"] == [False, False]


def test_an_unresolvable_derived_edge_is_dropped_and_noted():
    """A hand-built program whose derived edge names a TaskId from a closed manual scope."""
    from nanopass.passes import pipeline as p

    D = DIRECTED
    t16 = D.TensorType([D.Int(16, DType.INDEX), D.Int(16, DType.INDEX)], DType.FP32)
    tid_t = D.ScalarType(DType.TASK_ID)
    kernel = D.Kernel(
        "k", FuncKind.AIV, [D.Param("a", t16, ParamDir.In), D.Param("o", t16, ParamDir.InOut)], [t16],
        [D.KReturn([D.Var("o")])], False,
    )
    body = [
        D.Scope(ScopeMode.manual, [
            D.Task([D.Binder("o__ssa_v0", t16)], D.Binder("t__ssa_v0", tid_t), "k",
                   [D.Arg(D.Var("a"), ArgDir.Input), D.Arg(D.Var("o"), ArgDir.InOut)], [], False, [], None),
        ]),
        D.Task([D.Binder("o__ssa_v1", t16)], None, "k",
               [D.Arg(D.Var("a"), ArgDir.Input), D.Arg(D.Var("o__ssa_v0"), ArgDir.InOut)], [], False,
               [D.DerivedDep(D.Var("t__ssa_v0"))], None),
        D.Return([D.Var("o__ssa_v1")]),
    ]
    params = [D.Param("a", t16, ParamDir.In), D.Param("o", t16, ParamDir.InOut)]
    program = D.Program("Hand", [kernel], D.Function("orch", params, [t16], True, [], body))
    rest = p.PASSES[p.PASSES.index(p.MaterializeRuntimeScopes):]
    ctx = PassContext()
    stages = Pipeline(rest).run(program, ctx)
    assert any(n.kind == "dropped-edge" and "'t'" in n.message for n in ctx.notes)
    assert "set_dependencies" not in nanopass.api.result_from_stages(stages).code


def test_output_is_byte_identical_whatever_the_hash_seed():
    script = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from conftest import load_program\n"
        "import nanopass\n"
        "for name in ('examples/manual_phases.py', 'tests/golden/war_branches.py', 'tests/golden/derive_boxes.py'):\n"
        "    print(nanopass.generate_orchestration(load_program(__import__('pathlib').Path(name)),"
        " analyze_auto_scopes_for_deps=True).code)\n"
    )
    outputs = set()
    for seed in range(10):
        env = {**os.environ, "PYTHONHASHSEED": str(seed * 7919 + 1)}
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_every_example_still_compiles_with_derivation_on(tmp_path):
    from conftest import compile_check

    for path in sorted(EXAMPLES.glob("*.py")):
        result = nanopass.generate_orchestration(load_program(path), analyze_auto_scopes_for_deps=True)
        compile_check(result.code, tmp_path, path.stem + ".cpp")
