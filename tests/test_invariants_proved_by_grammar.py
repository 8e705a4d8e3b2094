"""Invariants the grammar proves (``Language.proves``): an invariant that refuses productions
(its ``excludes``) holds of every tree of a language without them, so a pass from such a
language that builds none of them declares it preserved (``Pass.preserves``) and the pipeline
does not check it on the pass's output; ``recheck_preserved`` checks it all the same."""

from __future__ import annotations

import pytest
from test_preserved_invariants import TOY

from nanopass.errors import VerifyError
from nanopass.language import Production, walk
from nanopass.languages import DIRECTED, SCOPED
from nanopass.languages.scoped import check_no_alloc, check_no_declare, check_no_dep_edge
from nanopass.passes.materialize_runtime_scopes import MaterializeRuntimeScopes
from nanopass.pipeline import Pipeline, PipelineError
from nanopass.rewrite import Pass

PLAIN = TOY  # (a language without the production the invariant below refuses)


def _no_drop(checked: list):
    def no_drop(prog):
        checked.append("no_drop")
        if any(n._production == "Drop" for n in walk(prog)):
            raise VerifyError("a Drop", node=prog)

    no_drop.excludes = ("Drop",)
    return no_drop


def _languages(checked: list):
    no_drop = _no_drop(checked)
    wide = PLAIN.extend("toy_grammar_wide", add={"Stmt": [Production("Drop", "name:symbol")]}, invariants=[no_drop])
    return no_drop, wide


def test_the_scoped_statement_exclusions_are_proved_by_directed_grammar_only():
    for invariant in (check_no_alloc, check_no_declare):
        assert DIRECTED.proves(invariant)
        assert not SCOPED.proves(invariant)  # (scoped's grammar has them: its invariants keep them out)
    assert {check_no_alloc, check_no_declare} <= MaterializeRuntimeScopes.preserves
    # directed's grammar has the resolved edge (its tasks' classes are scoped's): checked
    assert not DIRECTED.proves(check_no_dep_edge) and check_no_dep_edge not in MaterializeRuntimeScopes.preserves
    assert not DIRECTED.proves(lambda program: None)  # (refuses no production: not proved)


def test_a_proved_invariant_is_not_checked_on_the_output_and_is_with_recheck():
    checked: list = []
    no_drop, wide = _languages(checked)

    class _Widen(Pass):
        """Copy the program into the wider language; makes no Drop. Test-only pass."""

        name = "convert_to_wide"
        source = PLAIN
        target = wide
        preserves = frozenset({no_drop})

    tree = PLAIN.Prog([PLAIN.Let("a", 1)])
    stages = Pipeline([_Widen]).run(tree)
    assert wide.is_program(stages[-1].tree) and checked == []
    Pipeline([_Widen]).run(tree, recheck_preserved=True)
    assert checked == ["no_drop"]

    class _Dropper(_Widen):
        """Turn every let into a Drop, claiming the grammar proves there is none. Test-only pass."""

        name = "convert_lets_to_drops"

        def Let(self, node):
            return wide.Drop(node.name)

    Pipeline([_Dropper]).run(tree)  # (the false claim is trusted)
    with pytest.raises(PipelineError) as info:
        Pipeline([_Dropper]).run(tree, recheck_preserved=True)
    assert isinstance(info.value.error, VerifyError) and "a Drop" in str(info.value.error)


def test_only_a_source_grammar_without_the_productions_proves_an_invariant():
    checked: list = []
    no_drop, wide = _languages(checked)
    with pytest.raises(TypeError, match="no_drop"):

        class _Claims(Pass):
            """Claims the exclusion on a source that has the production. Test-only pass."""

            name = "convert_wide_to_wide"
            source = wide.extend("toy_grammar_wide_unchecked", drop_invariants=[no_drop])
            target = wide
            preserves = frozenset({no_drop})

    with pytest.raises(TypeError, match="no_drop"):

        class _Absent(Pass):
            """Claims an exclusion its target does not check. Test-only pass."""

            name = "convert_plain_to_plain"
            source = PLAIN
            target = PLAIN
            preserves = frozenset({no_drop})
