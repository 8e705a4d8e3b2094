"""convert_to_ssa records the name of every Binder it defines and hands the list to
``check_single_definition`` (``hand_binder_names``), which reads it instead of walking the output's
binders. The list holds the same names as the walk's ``binder_names()`` (as many times each) on every
example, golden and found program, every bench shape and random programs (a third with manual
scopes); the check gives the same verdict with the handed names and without them; a pass that
makes a name twice is caught through the handed names too; and a word is read once, for its body only.
"""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import CORPUS, SHAPES, bench_file, counting, pass_inputs, random_file

from nanopass.errors import VerifyError
from nanopass.languages import ssa
from nanopass.languages.ssa import check_single_definition
from nanopass.languages.statements import Walk, reusing_walks
from nanopass.passes.convert_to_ssa import ConvertToSsa
from nanopass.rewrite import PassContext

PASS = "convert_to_ssa"


def converted(given):
    """The pass's output on ``given`` and the names it handed with it (the word left unread)."""
    with reusing_walks():
        out = ConvertToSsa(PassContext()).run(given)
    assert ssa._handed.body is out.orch.body
    return out, ssa._handed.names


def verdict(program, handed: list | None):
    """``check_single_definition`` of ``program`` with ``handed`` names (None: none handed), outside
    any reuse of walks: the error's message, or None."""
    ssa._handed.body, ssa._handed.names = (program.orch.body, handed) if handed is not None else (None, [])
    try:
        check_single_definition(program)
    except VerifyError as error:
        return str(error)
    return None


def same_names(path) -> int:
    count = 0
    for given in pass_inputs(path, PASS):
        out, handed = converted(given)
        assert Counter(handed) == Counter(Walk(out.orch.body).binder_names()), path.name
        assert verdict(out, list(handed)) is None and verdict(out, None) is None
        count += len(handed)
    return count


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus(path):
    same_names(path)


@pytest.mark.parametrize("shape", SHAPES)
def test_shapes(tmp_path, shape):
    assert same_names(bench_file(tmp_path, shape, 24)) > 0


def test_random_programs(tmp_path):
    for seed in range(4250, 4310):
        same_names(random_file(tmp_path, seed, manual=seed % 3 == 0))


def test_a_name_made_twice_is_caught_through_the_handed_names(tmp_path, monkeypatch):
    (given,) = pass_inputs(bench_file(tmp_path, "nested", 3), PASS)
    monkeypatch.setattr(ConvertToSsa, "fresh", lambda self, base, role: base + "__twice")
    out, handed = converted(given)
    assert len(set(handed)) < len(handed)  # (the recorded names show the clash)
    message = verdict(out, list(handed))
    assert message is not None and "defined more than once" in message
    assert verdict(out, None) == message


def test_the_word_is_read_once_and_for_its_body_only(tmp_path, monkeypatch):
    (given,) = pass_inputs(bench_file(tmp_path, "nested", 3), PASS)
    out, handed = converted(given)
    other, _ = converted(given)  # (another body: the same statements, a new tuple)
    assert other.orch.body is not out.orch.body
    walks = counting(monkeypatch, ssa, "walk_of")
    ssa.hand_binder_names(out.orch.body, handed)
    check_single_definition(other)  # not read for another body: its binders walked
    assert len(walks) == 1 and ssa._handed.body is out.orch.body
    check_single_definition(out)  # read for its own: no walk
    assert len(walks) == 1 and ssa._handed.body is None  # and dropped
    check_single_definition(out)  # (outside a reuse of walks: nothing remembered) walked again
    assert len(walks) == 2
