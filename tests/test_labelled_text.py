"""The labelled text form (issue 23): every field of a node of several fields is written
``name: value``; it parses back to the same tree in every language, mixed with the positional
form too, and a label of the wrong field is refused at its place."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, load_program

from nanopass.api import run_pipeline
from nanopass.languages import ALL, SURFACE
from nanopass.strategies import trees
from nanopass.text import TextSyntaxError, parse, unparse

IDS = [language.name for language in ALL]
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("language", ALL, ids=IDS)
def test_labelled_text_parses_back_to_the_same_tree(language):
    @SETTINGS
    @given(trees(language, depth=4, max_list=2), st.sampled_from([100, 40]), st.booleans())
    def check(tree, width, spans):
        text = unparse(tree, width=width, show_spans=spans, labelled=True)
        assert parse(language, text) == tree
        if any(len(node._field_specs) > 1 for node in _nodes(tree)):
            assert ": " in text

    check()


@pytest.mark.parametrize("language", ALL, ids=IDS)
def test_each_nonterminal_parses_back_labelled(language):
    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def check(data):
        for nonterminal in language.nonterminals:
            tree = data.draw(trees(language, nonterminal, depth=2, max_list=2))
            assert parse(language, unparse(tree, labelled=True), nonterminal) == tree

    check()


def _nodes(tree):
    from nanopass.language import walk

    return list(walk(tree))


def test_every_stage_of_an_example_round_trips_labelled():
    for stage in run_pipeline(load_program(EXAMPLES / "manual_phases.py")):
        text = unparse(stage.tree, labelled=True)
        assert parse(stage.language, text) == stage.tree, stage.name


def test_the_labels_name_the_fields():
    tree = parse(SURFACE, "(Var x)", "Expr")
    assert unparse(tree, labelled=True) == "(Var x)"  # one field: no label
    stmt = parse(SURFACE, "(Let (Binder x (ScalarType INT64)) (Var y))", "Stmt")
    assert unparse(stmt, labelled=True) == "(Let var: (Binder name: x type: (ScalarType INT64)) value: (Var y))"
    # labelled and positional fields may mix
    assert parse(SURFACE, "(Let var: (Binder x (ScalarType INT64)) (Var y))", "Stmt") == stmt


def test_a_label_of_another_field_is_refused_where_it_stands():
    with pytest.raises(TextSyntaxError, match=r"expected the field 'var' of \(Let \.\.\.\), got the label 'value:'") as info:
        parse(SURFACE, "(Let value: (Var y) var: (Binder x (ScalarType INT64)))", "Stmt")
    assert info.value.span.line == 1
