"""util.renamed looks only at the fields of a node that may read a name (``_reading_fields``: not
those of kind Binder or Type, which it never entered) and looks into an argument or dependency
whose value is a name in place (``_WRAPPERS``). Those facts hold of every language; with both
forced off (every child field looked at, every wrapper entered by a call), the passes that rename
(remove_dead_values, place_loop_allocations_before_scopes) make the same trees on every example
and golden program, the bench shapes and random programs (manual scopes too).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from conftest import bench_file, corpus_tests, pass_inputs, random_file, run_both_ways, running

from nanopass.language import _LANGUAGES
from nanopass.languages.terms import LoopKind
from nanopass.passes import remove_dead_values, util
from nanopass.passes.place_loop_allocations_before_scopes import PlaceLoopAllocationsBeforeScopes
from nanopass.passes.remove_dead_values import RemoveDeadValues
from nanopass.passes.util import iter_stmts

importlib.import_module("nanopass.passes.pipeline")  # every language and pass

ALL_FIELDS = [(util, "_reading_fields", lambda cls: cls._child_fields), (util, "_READING", {}), (util, "_WRAPPERS", frozenset())]
PASSES = [RemoveDeadValues, PlaceLoopAllocationsBeforeScopes]


def test_the_kinds_left_out_read_no_name():
    for language in _LANGUAGES.values():
        for kind in util._NAMELESS_KINDS:
            if kind in language.nonterminals:
                assert {cls._production for cls in language.classes(kind)} <= util._NAMELESS, (language.name, kind)


def test_a_wrapper_reads_its_value_alone():
    for language in _LANGUAGES.values():
        for name in util._WRAPPERS:
            cls = language.nodes.get(name)
            if cls is not None:
                assert util._reading_fields(cls) == (("value", False),), (language.name, name)


def check(path: Path) -> int:
    runs = 0
    for pass_cls in PASSES:
        for given in pass_inputs(path, pass_cls.name):
            fast, full = run_both_ways(running(pass_cls), given, ALL_FIELDS)
            assert fast == full, (path.name, pass_cls.name)
            runs += 1
    return runs


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    assert sum(check(random_file(tmp_path, 4040 + seed, manual=manual)) for seed in range(40))


def split_loops_renamed(given) -> list:
    """``util.renamed`` of each statement of the per-iteration loops whose TaskId carries
    remove_dead_values splits, each iter_arg to its init (the renaming that pass makes, asked of
    ``renamed`` itself: the pass looks at a task's dependencies in place)."""
    out = []
    for stmt in iter_stmts(given.orch.body):
        if stmt._production == "For" and stmt.kind is LoopKind.parallel:
            inits = {it.var.name: it.init.name for it in stmt.iters if remove_dead_values._split_carry(it)}
            if inits:
                out += [util.renamed(inner, inits) for inner in stmt.body]
    return out


def test_the_tables_are_used_where_a_carry_is_renamed(tmp_path, monkeypatch):
    (given,) = pass_inputs(bench_file(tmp_path, "scopes", 8), "remove_dead_values")
    monkeypatch.setattr(util, "_READING", {})
    out = split_loops_renamed(given)
    assert out and util._READING  # (the task of each loop reads the init)
    task = next(cls for cls in util._READING if cls._production == "Task")
    assert [name for name, _ in util._READING[task]] == ["args", "deps", "launch"]


def test_a_field_wrongly_left_out_changes_the_tree(tmp_path):
    # (so the comparisons above can fail: the dependencies, where each task reads the init)
    (given,) = pass_inputs(bench_file(tmp_path, "scopes", 8), "remove_dead_values")
    fast, wrong = run_both_ways(split_loops_renamed, given,
                                [(util, "_READING", {}), (util, "_NAMELESS_KINDS", util._NAMELESS_KINDS | {"Dep"})])
    assert fast != wrong
