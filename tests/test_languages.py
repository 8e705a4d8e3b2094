"""Every intermediate language: well-formed trees round-trip through the text form, ill-formed
nodes are refused at construction, and each language is a distinct delta of the one before."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nanopass.errors import GrammarError
from nanopass.languages import ALL
from nanopass.strategies import Alien, nodes_of, trees
from nanopass.text import parse, unparse

IDS = [language.name for language in ALL]
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("language", ALL, ids=IDS)
def test_round_trip_of_whole_programs(language):
    @SETTINGS
    @given(trees(language, depth=4, max_list=2))
    def check(tree):
        assert language.is_program(tree)
        assert parse(language, unparse(tree)) == tree
        assert parse(language, unparse(tree, width=40)) == tree

    check()


@pytest.mark.parametrize("language", ALL, ids=IDS)
def test_round_trip_of_each_nonterminal(language):
    @SMALL
    @given(st.data())
    def check(data):
        for nonterminal in language.nonterminals:
            tree = data.draw(trees(language, nonterminal, depth=2, max_list=2))
            assert parse(language, unparse(tree), nonterminal) == tree

    check()


def _distinct_classes():
    """Each node class once, with the first language that has it (classes are shared by deltas)."""
    seen = set()
    for language in ALL:
        for cls in language.nodes.values():
            if cls._field_specs and cls not in seen:
                seen.add(cls)
                yield language, cls


CASES = list(_distinct_classes())


@pytest.mark.parametrize("language,cls", CASES, ids=[f"{l.name}-{c._production}" for l, c in CASES])
def test_ill_formed_nodes_raise_grammar_error(language, cls):
    @settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(nodes_of(language, cls))
    def check(node):
        for spec in cls._field_specs:
            bad = (Alien(),) if spec.many else Alien()
            with pytest.raises(GrammarError) as info:
                node.replace(**{spec.name: bad})
            assert f"field '{spec.name}'" in str(info.value) and "<alien>" in str(info.value)

    check()


def test_each_language_is_a_delta_of_the_one_before():
    # a language whose grammar is the one before's admits what that one's invariants kept out
    # (hoisted: the Declare that batched's grammar has so that the two share their node classes)
    for before, after in zip(ALL, ALL[1:]):
        assert after.parent is before
        diff = before.diff(after)
        if "(no differences)" in diff:
            assert set(before.invariants) - set(after.invariants), f"{after.name} adds nothing to {before.name}"
            assert set(after.nodes.values()) == set(before.nodes.values())
        else:
            assert set(after.nodes.values()) != set(before.nodes.values())


def test_an_alloc_before_batching_is_rejected(tmp_path):
    stage = _stage(tmp_path, "resolve_dep_edges")
    assert stage.language.name == "dep-annotated"
    task = _first(stage.tree, lambda s: s._production == "Task")
    _, tree = next(_allocs_of(stage.tree, task, (1,)))
    assert "an Alloc before batch_tensor_creates" in _error_after_good(stage.language, stage.tree, tree)


def test_a_create_let_left_unbatched_is_rejected(tmp_path):
    from nanopass.languages import BATCHED

    stage = _stage(tmp_path, "resolve_dep_edges", shape="mixed")  # (its creates not yet batched)
    assert _first(stage.tree, lambda s: s._production == "Let" and s.value._production == "CreateTensor")
    batched = _stage(tmp_path, "batch_tensor_creates", shape="mixed")
    assert "a create_tensor let left unbatched" in _error_after_good(BATCHED, batched.tree, stage.tree)


def test_a_declare_before_hoisting_is_rejected(tmp_path):
    from nanopass.languages import BATCHED as B, HOISTED

    stage = _stage(tmp_path, "batch_tensor_creates")
    task = _first(stage.tree, lambda s: s._production == "Task")
    binder = task.outs[0] if task.outs[0]._production == "Binder" else task.outs[0].var
    tree = _with_stmt_replaced(stage.tree, task, B.Declare.make(binder))
    assert "a Declare before hoist_scope_escapes" in _error_after_good(stage.language, stage.tree, tree)
    HOISTED.verify(tree)  # (hoisted admits it)


def test_named_languages_exist():
    names = {language.name for language in ALL}
    assert {"surface", "ssa", "scoped", "carried", "dep-annotated", "emission"} <= names


# -- invariants remember what passed while compiling; a rebuilt subtree is still checked ------


def _stage(tmp_path, name, shape="nested"):
    from conftest import bench_file, compiled_stages

    return next(stage for stage in compiled_stages(bench_file(tmp_path, shape, 24)) if stage.name == name)


def _with_stmt_replaced(tree, target, new):
    """``tree`` with the statement object ``target`` replaced by ``new``: only the statements on
    the path to it are rebuilt, every other one is reused (as a pass does)."""
    from nanopass.languages.statements import BODY_FIELDS

    def rebuild(stmts):
        out = []
        for stmt in stmts:
            if stmt is target:
                stmt = new
            elif stmt._production in BODY_FIELDS:
                fields = {f: rebuild(getattr(stmt, f)) for f in BODY_FIELDS[stmt._production]}
                if any(fields[f] is not getattr(stmt, f) for f in fields):
                    stmt = stmt.replace(**fields)
            out.append(stmt)
        return stmts if all(a is b for a, b in zip(out, stmts)) else tuple(out)

    body = rebuild(tree.orch.body)
    assert body is not tree.orch.body
    return tree.replace(orch=tree.orch.replace(body=body))


def _first(tree, predicate):
    from nanopass.languages.statements import iter_stmts

    return next(stmt for stmt in iter_stmts(tree.orch.body) if predicate(stmt))


def _error_after_good(language, good, bad) -> str:
    """Verify ``good`` (twice) then ``bad`` in one compile session, where what passed is
    remembered; ``bad`` must still be rejected. Returns the message."""
    from nanopass.errors import VerifyError
    from nanopass.languages.statements import reusing_walks

    with reusing_walks():
        language.verify(good)
        language.verify(good)
        with pytest.raises(VerifyError) as info:
            language.verify(bad)
    with pytest.raises(VerifyError) as fresh:  # and with nothing remembered: the same error
        language.verify(bad)
    assert str(fresh.value) == str(info.value)
    return str(info.value)


def _innermost_loop(tree):
    return _first(tree, lambda s: s._production == "For" and not any(t._production == "For" for t in s.body[0].body))


def test_a_loop_rebuilt_without_its_yield_inside_a_reused_tree_is_rejected(tmp_path):
    stage = _stage(tmp_path, "classify_iter_arg_carry")
    loop = _innermost_loop(stage.tree)
    scope = loop.body[0]
    bad = _with_stmt_replaced(stage.tree, loop, loop.replace(body=(scope.replace(body=scope.body[:-1]),)))
    assert "must end with a Yield" in _error_after_good(stage.language, stage.tree, bad)


def test_a_bad_carry_plan_inside_a_reused_tree_is_rejected(tmp_path):
    from nanopass.errors import VerifyError
    from nanopass.languages.carried import check_plans
    from nanopass.languages.statements import reusing_walks

    stage = _stage(tmp_path, "classify_iter_arg_carry")
    loop = _innermost_loop(stage.tree)
    it = loop.iters[0]
    with pytest.raises(VerifyError, match="array size cannot be negative"):  # (the plan's node rule)
        it.plan.replace(array=-1)
    plan = it.plan._builder()  # (a plan built around the constructors: the tree's walk must still refuse it)
    plan.rebind, plan.array, plan.per_iteration, plan.body, plan.span = it.plan.rebind, -1, False, 0, None
    plan.__class__ = type(it.plan)
    bad_it = it.replace(plan=plan)
    bad = _with_stmt_replaced(stage.tree, loop, loop.replace(iters=(bad_it, *loop.iters[1:])))
    with reusing_walks():
        check_plans(stage.tree)
        with pytest.raises(VerifyError, match="array size cannot be negative"):
            check_plans(bad)
    with pytest.raises(VerifyError, match="array size cannot be negative"):
        check_plans(bad)


def test_a_bad_task_inside_a_reused_tree_is_rejected(tmp_path):
    from nanopass.languages.statements import iter_stmts

    stage = _stage(tmp_path, "resolve_dep_edges")
    tasks = [s for s in iter_stmts(stage.tree.orch.body) if s._production == "Task"]
    task = tasks[len(tasks) // 2]  # deep inside, between reused loops
    unresolved = stage.language.DepVar(stage.language.Var(task.outs[0].name))  # (tid-bound's edge, shared class)
    bad = _with_stmt_replaced(stage.tree, task, task.replace(deps=(*task.deps, unresolved)))
    assert "unresolved dependency" in _error_after_good(stage.language, stage.tree, bad)


def test_a_duplicate_name_inside_a_reused_tree_is_rejected(tmp_path):
    stage = _stage(tmp_path, "classify_iter_arg_carry")
    loop = _innermost_loop(stage.tree)
    param = stage.tree.orch.params[0].name
    bad = _with_stmt_replaced(stage.tree, loop, loop.replace(var=loop.var.replace(name=param)))
    assert f"'{param}' is defined more than once" in _error_after_good(stage.language, stage.tree, bad)


def test_a_reused_loop_moved_into_a_manual_scope_is_checked_there(tmp_path):
    from nanopass.languages.terms import ScopeMode

    stage = _stage(tmp_path, "classify_iter_arg_carry")
    loop = _innermost_loop(stage.tree)  # its body is an AUTO scope: fine outside manual scopes
    scope = loop.body[0]
    assert scope.mode is ScopeMode.auto
    manual = scope.replace(mode=ScopeMode.manual, body=(loop,))
    bad = _with_stmt_replaced(stage.tree, loop, manual)
    assert "AUTO scope inside a manual scope" in _error_after_good(stage.language, stage.tree, bad)


def test_a_loop_body_rebuilt_without_its_scope_inside_a_reused_tree_is_rejected(tmp_path):
    stage = _stage(tmp_path, "classify_iter_arg_carry")
    loop = _innermost_loop(stage.tree)
    bad = _with_stmt_replaced(stage.tree, loop, loop.replace(body=loop.body[0].body))
    assert "must be one runtime scope" in _error_after_good(stage.language, stage.tree, bad)


def test_a_loop_body_without_its_scope_inside_a_manual_scope_is_accepted(tmp_path):
    from nanopass.languages.statements import reusing_walks
    from nanopass.languages.terms import ScopeMode

    stage = _stage(tmp_path, "classify_iter_arg_carry")
    loop = _innermost_loop(stage.tree)  # inside a manual scope a body need not be one scope
    manual = loop.body[0].replace(mode=ScopeMode.manual, body=(loop.replace(body=loop.body[0].body),))
    good = _with_stmt_replaced(stage.tree, loop, manual)
    with reusing_walks():
        stage.language.verify(stage.tree)
        stage.language.verify(good)
    stage.language.verify(good)


def _scalar_and_tensor_args(task):
    from nanopass.languages.terms import ArgDir

    return [a for a in task.args if a.dir is ArgDir.Scalar], [a for a in task.args if a.dir is not ArgDir.Scalar]


def test_a_scalar_argument_is_added_after_every_tensor_argument(tmp_path):
    """The encoded tree keeps a task's arguments in the kernel's order (``acc(src, k, y)``: a
    scalar between two tensors); the C++ adds the tensors first, in order, then the scalars."""
    import re

    from conftest import bench_file, cpp_of

    encoded = _stage(tmp_path, "encode_scalars")
    task = _first(encoded.tree, lambda s: s._production == "Task" and _scalar_and_tensor_args(s)[0])
    scalars, tensors = _scalar_and_tensor_args(task)
    assert tensors and task.args.index(scalars[0]) < task.args.index(tensors[-1])  # (a scalar before a tensor)
    (code,) = cpp_of([bench_file(tmp_path, "nested", 24)])
    per_task: dict[str, list[str]] = {}  # argument object -> its add calls' kinds, in the C++'s order
    for args, call in re.findall(r"^\s*(\w+)\.add_(input|output|inout|scalar)\w*\(", code, re.M):
        per_task.setdefault(args, []).append("scalar" if call == "scalar" else "tensor")
    assert per_task and all(kinds == sorted(kinds, key=lambda k: k == "scalar") for kinds in per_task.values())
    assert any(kinds[0] == "tensor" and kinds[-1] == "scalar" for kinds in per_task.values())


def _allocs_of(tree, task, sizes):
    """Allocs of ``sizes`` creates each (of fresh names), in place of ``task``: a tree of the
    batched language for each size."""
    from nanopass.languages import BATCHED as B

    binder = task.outs[0] if task.outs[0]._production == "Binder" else task.outs[0].var
    for size in sizes:
        creates = [B.Create.make(binder.replace(name=f"fresh_{i}"), (), binder.type.dtype, False, None) for i in range(size)]
        yield size, _with_stmt_replaced(tree, task, B.Alloc.make(tuple(creates)))


def test_an_alloc_of_no_create_or_of_more_than_an_arg_holds_is_rejected(tmp_path):
    stage = _stage(tmp_path, "batch_tensor_creates")
    task = _first(stage.tree, lambda s: s._production == "Task")
    for size, tree in _allocs_of(stage.tree, task, (0, 1, 32, 33)):
        if size in (1, 32):
            stage.language.verify(tree)
        else:
            assert "an Alloc must hold 1..32 creates" in _error_after_good(stage.language, stage.tree, tree)


def test_a_task_beyond_the_runtime_argument_limits_is_rejected(tmp_path):
    stage = _stage(tmp_path, "encode_scalars")
    task = _first(stage.tree, lambda s: s._production == "Task" and _scalar_and_tensor_args(s)[0])
    scalar, tensor = (found[0] for found in _scalar_and_tensor_args(task))
    for tensors, scalars in ((32, 16), (33, 1), (1, 17)):
        tree = _with_stmt_replaced(stage.tree, task, task.replace(args=(tensor,) * tensors + (scalar,) * scalars))
        if (tensors, scalars) == (32, 16):
            stage.language.verify(tree)
        else:
            assert "a task exceeds the runtime's argument limits" in _error_after_good(stage.language, stage.tree, tree)


def _yield_cases(tree):
    """(message, bad tree) for each rule of check_yields, on the innermost loop of ``tree``."""
    loop = _innermost_loop(tree)
    scope = loop.body[0]  # the loop body's compiler scope: [tasks..., Yield]
    yld = scope.body[-1]
    task = scope.body[0]
    return {
        "a loop needs one result per iter_arg": loop.replace(results=(*loop.results, loop.results[0].replace(name="extra"))),
        "body must end with a Yield of 1 value(s)": loop.replace(body=(scope.replace(body=(*scope.body[:-1], yld.replace(values=yld.values * 2))),)),
        "a Yield in a body that has nothing to carry": loop.replace(iters=(), results=()),
        "a Yield outside the end of a loop or branch body": loop.replace(body=(scope.replace(body=(yld, *scope.body)),)),
    }, loop, task


@pytest.mark.parametrize("message", [
    "a loop needs one result per iter_arg",
    "body must end with a Yield of 1 value(s)",
    "a Yield in a body that has nothing to carry",
    "a Yield outside the end of a loop or branch body",
])
def test_each_yield_rule_rejects_a_loop_inside_a_reused_tree(tmp_path, message):
    stage = _stage(tmp_path, "classify_iter_arg_carry")
    cases, loop, _task = _yield_cases(stage.tree)
    bad = _with_stmt_replaced(stage.tree, loop, cases[message])
    assert message in _error_after_good(stage.language, stage.tree, bad)


def test_a_yield_first_in_a_two_statement_scope_is_rejected(tmp_path):
    """check_yields tests a scope of two statements inline: a Yield before the last is refused
    there as in a longer scope."""
    stage = _stage(tmp_path, "classify_iter_arg_carry")
    _cases, loop, _task = _yield_cases(stage.tree)
    scope = loop.body[0]
    yld = scope.body[-1]
    bad = _with_stmt_replaced(stage.tree, loop, loop.replace(body=(scope.replace(body=(yld, yld)),)))
    assert "a Yield outside the end of a loop or branch body" in _error_after_good(stage.language, stage.tree, bad)


def test_a_yield_in_the_middle_of_a_loop_body_is_rejected(tmp_path):
    """Before compiler scopes a loop body holds its statements directly (ssa, directed)."""
    from nanopass.languages.statements import iter_stmts

    stage = _stage(tmp_path, "convert_to_ssa")
    loop = next(
        s for s in iter_stmts(stage.tree.orch.body)
        if s._production == "For" and not any(t._production == "For" for t in s.body)
    )
    bad = _with_stmt_replaced(stage.tree, loop, loop.replace(body=(loop.body[-1], *loop.body)))
    assert "a Yield outside the end of a loop or branch body" in _error_after_good(stage.language, stage.tree, bad)


# -- the scope rules' general walk (a function with manual scopes) is remembered per body ---------


def _counting_general_walks(monkeypatch) -> list:
    from nanopass.languages import scoped

    calls: list = []
    walk = scoped._check_bodies

    def counted(*args, **kwargs):
        calls.append(args)
        return walk(*args, **kwargs)

    monkeypatch.setattr(scoped, "_check_bodies", counted)
    return calls


def test_a_body_with_manual_scopes_that_passed_the_scope_rules_is_not_walked_again(tmp_path, monkeypatch):
    from nanopass.languages.statements import reusing_walks

    stage = _stage(tmp_path, "classify_iter_arg_carry", "scopes")  # every loop in a manual scope
    walks = _counting_general_walks(monkeypatch)
    with reusing_walks():
        for _ in range(3):
            stage.language.verify(stage.tree)
    assert len(walks) == 1


def test_an_auto_scope_put_in_a_manual_scope_of_a_body_that_passed_is_rejected(tmp_path, monkeypatch):
    from nanopass.languages.terms import ScopeMode

    stage = _stage(tmp_path, "classify_iter_arg_carry", "scopes")
    manual = _first(stage.tree, lambda s: s._production == "Scope" and s.mode is ScopeMode.manual)
    loop = next(s for s in manual.body if s._production == "For")
    auto = manual.replace(mode=ScopeMode.auto, body=(loop,))
    bad = _with_stmt_replaced(stage.tree, loop, auto)
    walks = _counting_general_walks(monkeypatch)
    assert "AUTO scope inside a manual scope" in _error_after_good(stage.language, stage.tree, bad)
    assert len(walks) == 3  # the good body once, the bad one in the session and again afresh


def test_a_body_whose_scope_rules_asked_for_its_allocations_is_walked_each_time(monkeypatch):
    """Whether a body yields an allocation of its own depends on the program's kernels, not on
    the body alone: a general walk that asked is not remembered."""
    from nanopass.languages.statements import reusing_walks
    from nanopass.tools.gen_programs import header
    from nanopass.tools.properties import compile_text

    body = """
for i0, (p1,) in pl.range(2, init_values=(y0,)):
    g4: pl.Tensor[[32, 8], pl.FP32] = pl.create_tensor([32, 8], dtype=pl.FP32)
    s5 = pl.tensor.slice(g4, [8, 8], [8, 0])
    if i0 > 0:
        s5 = self.k_acc(x0, s5)
    o7 = pl.yield_(s5)
y0 = self.k_add(o7, x0, y0)
return y0
"""
    text = header(False, True) + "\n" + "".join(f"        {line}\n" for line in body.strip().splitlines())
    stages, _ = compile_text(text)
    stage = next(s for s in stages if s.name == "classify_iter_arg_carry")
    walks = _counting_general_walks(monkeypatch)
    with reusing_walks():
        for _ in range(2):
            stage.language.verify(stage.tree)
    assert len(walks) == 2


def test_a_parameter_named_as_a_binder_of_a_body_that_passed_is_rejected(tmp_path):
    """The body's names are kept with its walk; the parameters are checked against them anew."""
    stage = _stage(tmp_path, "classify_iter_arg_carry")
    loop = _innermost_loop(stage.tree)
    func = stage.tree.orch
    param = func.params[0].replace(name=loop.var.name)
    bad = stage.tree.replace(orch=func.replace(params=(param, *func.params[1:])))
    assert bad.orch.body is stage.tree.orch.body
    assert f"'{loop.var.name}' is defined more than once" in _error_after_good(stage.language, stage.tree, bad)


def test_the_names_of_a_body_verified_again_are_gathered_once(tmp_path, monkeypatch):
    from nanopass.languages import statements
    from nanopass.languages.statements import reusing_walks

    stage = _stage(tmp_path, "classify_iter_arg_carry")
    sets: list = []
    original = statements.Walk.binder_name_set

    def counted(walk):
        if walk._binder_name_set is None:
            sets.append(walk)
        return original(walk)

    monkeypatch.setattr(statements.Walk, "binder_name_set", counted)
    with reusing_walks():
        for _ in range(3):
            stage.language.verify(stage.tree)
    assert len(sets) == 1


def test_a_dependency_array_holds_one_slot_per_edge_and_n_per_whole_array_of_n():
    from pathlib import Path

    from nanopass.api import run_pipeline
    from nanopass.errors import VerifyError
    from nanopass.languages.dep_annotated import capacity
    from nanopass.languages.statements import iter_stmts
    from nanopass.loader import load_programs

    path = Path(__file__).parent / "found" / "class4_a_parallel_loops_taskid_carry_chains_nothing_for_the_lean_passes.py"
    stage = next(s for s in run_pipeline(load_programs(str(path))[0]) if s.name == "resolve_dep_edges")
    task = next(s for s in iter_stmts(stage.tree.orch.body) if s._production == "Task" and len(s.deps) >= 2)
    one, whole = task.deps[0], task.deps[1]
    deps = (one.replace(size=0), whole.replace(size=4))
    assert capacity(deps) == 5 and capacity(deps[:1]) == 1 and capacity(deps[1:]) == 4
    stage.language.verify(_with_stmt_replaced(stage.tree, task, task.replace(deps=deps)))
    with pytest.raises(VerifyError, match="unresolved dependency"):  # (no other kind of edge: its size is the edges')
        stage.language.verify(_with_stmt_replaced(stage.tree, task, task.replace(deps=(one, stage.language.CellDep("c")))))
