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
    for before, after in zip(ALL, ALL[1:]):
        assert after.parent is before
        diff = before.diff(after)
        assert "(no differences)" not in diff, f"{after.name} adds nothing to {before.name}"
        assert set(after.nodes.values()) != set(before.nodes.values())


def test_named_languages_exist():
    names = {language.name for language in ALL}
    assert {"surface", "ssa", "scoped", "carried", "dep-annotated", "emission"} <= names
