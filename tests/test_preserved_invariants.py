"""Invariants a pass declares it preserves (``Pass.preserves``): not checked again on its output,
remembered for the next check of the same body, and every declaration of the pipeline's passes
holds on the example, golden and bench programs (``recheck_preserved``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO, bench_file, load_program

from nanopass.api import orchestration_functions, surface_of
from nanopass.errors import VerifyError
from nanopass.language import Language, Nonterminal, Production, integer, symbol, walk
from nanopass.languages.statements import BODY_FIELDS, Walk, reusing_walks
from nanopass.passes.pipeline import PASSES, PIPELINE
from nanopass.pipeline import Pipeline, PipelineError
from nanopass.rewrite import Pass, PassContext

TOY = Language(
    "toy_preserved",
    terminals=[symbol, integer],
    entry="Prog",
    nonterminals=[
        Nonterminal("Stmt", Production("Let", "name:symbol", "value:integer")),
        Nonterminal("Prog", Production("Prog", "body:Stmt*")),
    ],
)


def _counting_invariants(checked: list):
    def no_negative_values(prog):
        checked.append("no_negative_values")
        if any(n.value < 0 for n in walk(prog) if n._production == "Let"):
            raise VerifyError("a negative value", node=prog)

    def distinct_names(prog):
        checked.append("distinct_names")
        names = [n.name for n in walk(prog) if n._production == "Let"]
        if len(set(names)) != len(names):
            raise VerifyError("a name defined twice", node=prog)

    return no_negative_values, distinct_names


def _toy_passes(no_negative_values, distinct_names, language):
    class _Negate(Pass):
        """Negate every value; names are kept (it declares so). Test-only pass."""

        name = "convert_values_to_negative"
        source = language
        target = language
        preserves = frozenset({distinct_names, no_negative_values})  # (the second is a false claim)

        def Let(self, node):
            return language.Let(node.name, -node.value)

    class _Rename(Pass):
        """Give every let the same name; claims to preserve nothing. Test-only pass."""

        name = "rename_lets_alike"
        source = language
        target = language

        def Let(self, node):
            return language.Let("x", node.value)

    return _Negate, _Rename


def test_a_preserved_invariant_is_not_checked_again_and_the_others_are():
    checked: list = []
    no_negative_values, distinct_names = _counting_invariants(checked)
    toy = TOY.extend("toy_preserved_counted", invariants=[no_negative_values, distinct_names])
    negate, rename = _toy_passes(no_negative_values, distinct_names, toy)
    negate.preserves = frozenset({distinct_names})  # (the true claim only)
    distinct_names.record = lambda prog: checked.append(("record", prog))
    tree = toy.Prog([toy.Let("a", 0), toy.Let("b", 0)])
    stages = Pipeline([negate]).run(tree)
    # the input checked; the output checked but for the names, which it is told to remember
    assert checked == ["no_negative_values", "distinct_names", "no_negative_values", ("record", stages[-1].tree)]
    checked.clear()
    Pipeline([negate]).run(tree, recheck_preserved=True)
    assert checked == ["no_negative_values", "distinct_names", "no_negative_values", "distinct_names"]
    checked.clear()
    with pytest.raises(PipelineError) as info:  # a pass that preserves nothing is checked in full
        Pipeline([rename]).run(tree)
    assert isinstance(info.value.error, VerifyError) and info.value.error.pass_name == "rename_lets_alike"


def test_recheck_preserved_catches_a_false_declaration():
    checked: list = []
    no_negative_values, distinct_names = _counting_invariants(checked)
    toy = TOY.extend("toy_preserved_false", invariants=[no_negative_values, distinct_names])
    negate, _ = _toy_passes(no_negative_values, distinct_names, toy)
    tree = toy.Prog([toy.Let("a", 1)])
    Pipeline([negate]).run(tree)  # the false claim is trusted
    with pytest.raises(PipelineError) as info:
        Pipeline([negate]).run(tree, recheck_preserved=True)
    assert isinstance(info.value.error, VerifyError) and "negative" in str(info.value.error)


def test_a_pass_preserves_only_invariants_of_both_its_languages():
    no_negative_values, distinct_names = _counting_invariants([])
    toy = TOY.extend("toy_preserved_declared", invariants=[no_negative_values])
    with pytest.raises(TypeError, match="distinct_names"):

        class _Claims(Pass):
            """Claims an invariant its languages do not have. Test-only pass."""

            name = "convert_claims"
            source = toy
            target = toy
            preserves = frozenset({distinct_names})

    both = TOY.extend("toy_preserved_both", invariants=[no_negative_values, distinct_names])

    class _Keeps(Pass):
        """Declares what its languages have. Test-only pass."""

        name = "convert_keeps"
        source = both
        target = both
        preserves = frozenset({distinct_names})

    with pytest.raises(TypeError, match="distinct_names"):  # (a subclass on other languages inherits the claim)

        class _KeepsOnToy(_Keeps):
            """The same pass on a language without the invariant. Test-only pass."""

            name = "convert_keeps_on_toy"
            source = toy
            target = toy


def test_the_pipeline_declares_preserved_invariants():
    declared = {cls.name for cls in PASSES if cls.preserves}
    assert {"classify_iter_arg_carry", "resolve_dep_edges", "materialize_runtime_scopes", "remove_dead_values",
            "derive_call_directions", "batch_tensor_creates", "hoist_scope_escapes", "remap_output_aliases",
            "encode_scalars"} <= declared


# -- the declarations of the pipeline's passes, on every program at hand -------------------------

GOLDEN_SOURCES = sorted(
    p.with_name(p.name.replace(".expected.cpp", ".py"))
    for d in (EXAMPLES, REPO / "tests" / "golden")
    for p in d.glob("*.expected.cpp")
)
BENCH_SHAPES = ["straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles", "reuses"]


def _run_rechecking(program, options: dict) -> None:
    for func_name in orchestration_functions(program):
        with reusing_walks():
            PIPELINE.run(
                surface_of(program, func_name), PassContext(options=dict(options)), input_name="parse_dsl",
                recheck_preserved=True,
            )


@pytest.mark.parametrize("source", GOLDEN_SOURCES, ids=[p.stem for p in GOLDEN_SOURCES])
def test_preserved_invariants_hold_on_golden_programs(source: Path):
    from test_golden import golden_options

    _run_rechecking(load_program(source), golden_options(source))


@pytest.mark.parametrize("shape", BENCH_SHAPES)
def test_preserved_invariants_hold_on_bench_shapes(shape, tmp_path):
    _run_rechecking(load_program(bench_file(tmp_path, shape, 40)), {})


# -- check_single_definition remembers a body with its parameters' names --------------------------


def test_a_body_that_passed_single_definition_is_refused_with_a_parameter_of_a_name_it_defines(example):
    from nanopass.languages import SCOPED
    from nanopass.languages.ssa import check_single_definition

    stages = PIPELINE.run(surface_of(example("basic")), PassContext(), stop_after="materialize_runtime_scopes")
    program = stages[-1].tree
    assert SCOPED.is_program(program)
    func = program.orch
    defined = next(stmt.var for stmt in walk(func.body) if stmt._production == "Let")
    clash = func.params[0].replace(name=defined.name)
    clashing = program.replace(orch=func.replace(params=(clash,) + func.params[1:]))
    with reusing_walks():
        check_single_definition(program)  # passes, and is remembered
        check_single_definition(program)  # the same body again
        with pytest.raises(VerifyError, match="defined more than once"):
            check_single_definition(clashing)  # the same body, another parameter name


# -- the walk of a body ---------------------------------------------------------------------------


def _pre_order(body, out: list) -> list:
    for stmt in body:
        out.append(stmt)
        for field in BODY_FIELDS.get(stmt._production, ()):
            _pre_order(getattr(stmt, field), out)
    return out


@pytest.mark.parametrize("shape", BENCH_SHAPES)
def test_the_walk_of_a_body_is_its_pre_order_and_its_compound_statements(shape, tmp_path):
    stages = PIPELINE.run(surface_of(load_program(bench_file(tmp_path, shape, 40))), PassContext())
    compound_seen = 0
    for stage in stages[1:-1]:  # (the emission language has no statements of these kinds)
        body = stage.tree.orch.body
        order = _pre_order(body, [])
        walk = Walk(body)
        assert walk.order == order
        assert walk.compound == [stmt for stmt in order if stmt._production in BODY_FIELDS]
        compound_seen += len(walk.compound)
    assert compound_seen  # (the shape has loops, branches or scopes)


# -- a wrong declaration is caught by every compile that rechecks --------------------------------


@pytest.fixture
def wrong_declaration(monkeypatch):
    """``remove_dead_values`` (which declares it preserves the single definitions) made to define
    its output's first value twice: a declaration its output breaks. Returns the error's text."""
    from nanopass.passes.remove_dead_values import RemoveDeadValues

    run = RemoveDeadValues.run

    def define_twice(self, program):
        result = run(self, program)
        func = result.orch
        first = next(stmt for stmt in func.body if stmt._production == "Let")
        return result.replace(orch=func.replace(body=(first,) + func.body))

    monkeypatch.setattr(RemoveDeadValues, "run", define_twice)
    return "defined more than once"


def test_a_wrong_declaration_is_trusted_without_recheck_and_caught_with_it(wrong_declaration, example):
    tree = surface_of(example("basic"))
    with reusing_walks():
        PIPELINE.run(tree, PassContext(), input_name="parse_dsl", stop_after="remove_dead_values")  # trusted
    with reusing_walks(), pytest.raises(PipelineError) as info:
        PIPELINE.run(tree, PassContext(), input_name="parse_dsl", recheck_preserved=True)
    assert isinstance(info.value.error, VerifyError) and info.value.error.pass_name == "remove_dead_values"
    assert wrong_declaration in str(info.value.error)


def test_the_testers_compile_rechecking_the_declarations(wrong_declaration, tmp_path):
    """The adversarial tester's, the dependency fuzzer's and the front-end fuzzer's compiles fail
    on a wrong declaration, as an internal error of the pass that made it."""
    from nanopass.tools.attack import record
    from nanopass.tools.fuzz_deps import compile_text
    from nanopass.tools.fuzz_frontend import Checker

    text = (EXAMPLES / "basic.py").read_text()
    path = tmp_path / "attack.py"
    path.write_text(text.replace("class Basic", "class Attack"))
    attacked = record.compile_dsl(path)
    assert attacked.error_kind == "internal" and "remove_dead_values" in attacked.error, attacked
    assert wrong_declaration in attacked.error
    with pytest.raises(VerifyError, match=wrong_declaration) as info:
        compile_text(text)
    assert info.value.pass_name == "remove_dead_values"
    outcome = Checker(tmp_path, gxx=False).check(text)
    assert outcome.kind == "internal-error" and "remove_dead_values" in outcome.message, outcome


def test_run_verify_all_rechecks_the_declarations(wrong_declaration, capsys):
    from nanopass.cli import main

    source = str(EXAMPLES / "basic.py")
    # trusted: the break goes unseen, or is found where a later pass that does not declare it is checked
    assert main(["run", source, "-q"]) in (0, 3)
    assert "in pass 'remove_dead_values'" not in capsys.readouterr().err
    assert main(["run", source, "-q", "--verify-all"]) == 3  # an internal compiler error, of the right pass
    err = capsys.readouterr().err
    assert "in pass 'remove_dead_values'" in err and wrong_declaration in err
