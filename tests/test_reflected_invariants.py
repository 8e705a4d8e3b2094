"""Invariants a pass declares it reflects (``Pass.reflects``: its output meets one only if its
input does) are checked on its output in place of its input, the output of the pass before: once
where they were checked twice. A failure there that the input fails too, or any failure of the
pass on such an input, is reported as the failure of the pass that made the input; the end of a
run (``stop_after``) and ``recheck_preserved`` check every stage in full; and classify_iter_arg_carry
reflects the scope placement and the absence of resolved edges."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, load_program

from nanopass.api import run_pipeline
from nanopass.errors import VerifyError
from nanopass.language import Language, Nonterminal, Production, integer, symbol, walk
from nanopass.languages.scoped import check_no_dep_edge, check_scope_placement
from nanopass.passes.classify_iter_arg_carry import ClassifyIterArgCarry
from nanopass.pipeline import Pipeline, PipelineError

TOY = Language(
    "toy_reflected",
    terminals=[symbol, integer],
    entry="Prog",
    nonterminals=[
        Nonterminal("Stmt", Production("Let", "name:symbol", "value:integer")),
        Nonterminal("Prog", Production("Prog", "body:Stmt*")),
    ],
)


def _toy(checked: list, name: str):
    def distinct_names(prog):
        checked.append(prog)
        names = [n.name for n in walk(prog) if n._production == "Let"]
        if len(set(names)) != len(names):
            raise VerifyError("a name defined twice", node=prog)

    toy = TOY.extend(name, invariants=[distinct_names])

    from nanopass.rewrite import Pass

    class Rename(Pass):
        """Name every let ``x`` when asked to (``alike``), else ``v<value>``. Test-only pass."""

        name = "rename_lets"
        source = toy
        target = toy
        alike = False

        def Let(self, node):
            return toy.Let("x" if self.alike else f"v{node.value}", node.value)

    class Increment(Pass):
        """Add one to every value, names kept: it reflects the names' distinctness. Test-only pass."""

        name = "convert_values_up"
        source = toy
        target = toy
        reflects = frozenset({distinct_names})
        fails = False

        def Let(self, node):
            if self.fails:
                raise ValueError("a pass that fails on its input")
            return toy.Let(node.name, node.value + 1)

    return toy, distinct_names, Rename, Increment


def test_a_reflected_invariant_is_checked_on_the_output_of_the_pass_that_reflects_it():
    checked: list = []
    toy, _, rename, increment = _toy(checked, "toy_reflected_once")
    tree = toy.Prog([toy.Let("a", 1), toy.Let("b", 2)])
    stages = Pipeline([rename, increment]).run(tree)
    assert checked == [tree, stages[2].tree]  # (the input, then the last output alone)
    checked.clear()
    stages = Pipeline([rename, increment]).run(tree, recheck_preserved=True)
    assert checked == [tree, stages[1].tree, stages[2].tree]
    checked.clear()
    stages = Pipeline([rename, increment]).run(tree, stop_after="rename_lets")
    assert checked == [tree, stages[1].tree]


def test_a_reflected_failure_is_the_failure_of_the_pass_before():
    checked: list = []
    toy, _, rename, increment = _toy(checked, "toy_reflected_blamed")
    tree = toy.Prog([toy.Let("a", 1), toy.Let("b", 2)])
    rename.alike = True  # (its output defines x twice)
    for recheck in (False, True):
        with pytest.raises(PipelineError) as info:
            Pipeline([rename, increment]).run(tree, recheck_preserved=recheck)
        assert isinstance(info.value.error, VerifyError) and info.value.error.pass_name == "rename_lets"
    increment.fails = True  # (a pass given an input the check has yet to refuse)
    with pytest.raises(PipelineError) as info:
        Pipeline([rename, increment]).run(tree)
    assert isinstance(info.value.error, VerifyError) and info.value.error.pass_name == "rename_lets"
    rename.alike = False  # (a good input: the pass's own failure)
    with pytest.raises(PipelineError) as info:
        Pipeline([rename, increment]).run(tree)
    assert info.value.error.pass_name == "convert_values_up" and "fails on its input" in str(info.value.error)


def test_a_pass_reflects_only_invariants_of_both_its_languages():
    toy, distinct_names, _, _ = _toy([], "toy_reflected_declared")
    from nanopass.rewrite import Pass

    with pytest.raises(TypeError, match="distinct_names"):

        class _Claims(Pass):
            """Claims an invariant its languages do not have. Test-only pass."""

            name = "convert_claims_reflected"
            source = TOY
            target = TOY
            reflects = frozenset({distinct_names})


def test_classify_iter_arg_carry_reflects_the_scope_placement_and_the_absence_of_resolved_edges():
    assert ClassifyIterArgCarry.reflects == {check_scope_placement, check_no_dep_edge}
    assert ClassifyIterArgCarry.reflects <= ClassifyIterArgCarry.preserves


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.stem)
def test_the_reflected_checks_pass_where_every_stage_is_checked(path):
    stages = run_pipeline(load_program(path), recheck_preserved=True)
    assert stages["classify_iter_arg_carry"].tree is not None
