"""``named.binder_list``, the one binder walk of the languages from hoisted to encoded (read by
remap_output_aliases and ``types.type_env``), lists the same
Binders in the same order as a plain recursive walk written here (``reference``), both with an
if's results first and last, on the inputs of remap_output_aliases, encode_scalars and
lower_to_emission of every example, golden program, bench shape and random program; and those
languages share the statement classes it tells apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, pass_inputs, random_file

from nanopass.languages import DIMMED, ENCODED, HOISTED, NAMED
from nanopass.languages.named import binder_list

PASSES = ("remap_output_aliases", "encode_scalars", "lower_to_emission")


def reference(stmts, if_results_first: bool) -> list:
    """Every Binder of ``stmts`` in program order, by production name and recursion."""
    out: list = []
    for stmt in stmts:
        kind = stmt._production
        if kind == "Task":
            out += stmt.outs
            if stmt.tid is not None:
                out.append(stmt.tid)
        elif kind in ("Let", "Dummy", "Declare"):
            out.append(stmt.var)
        elif kind in ("For", "While"):
            if kind == "For":
                out.append(stmt.var)
            out += [it.var for it in stmt.iters]
            out += reference(stmt.body, if_results_first)
            out += stmt.results
        elif kind == "If":
            results = [phi.var for phi in stmt.results]
            if if_results_first:
                out += results
            out += reference(stmt.then, if_results_first) + reference(stmt.orelse, if_results_first)
            if not if_results_first:
                out += results
        elif kind == "Scope":
            out += reference(stmt.body, if_results_first)
        elif kind == "Alloc":
            out += [create.var for create in stmt.creates]
        else:
            assert kind in ("Yield", "Return", "CellDecl", "CellSet", "HostFence", "WriteTensor"), kind
    return out


def _check(path: Path) -> int:
    count = 0
    for name in PASSES:
        for given in pass_inputs(path, name):
            body = given.orch.body
            for first in (True, False):
                ours, expected = binder_list(body, first), reference(body, first)
                assert len(ours) == len(expected) and all(a is b for a, b in zip(ours, expected)), (path.name, name)
            count += 1
    return count


def test_the_languages_share_the_statement_classes():
    for language in (HOISTED, DIMMED, ENCODED):
        for name in ("Task", "For", "While", "If", "Phi", "Yield", "Scope", "Alloc", "Let", "Dummy", "Declare", "Binder", "ScalarType"):
            assert language.nodes[name] is NAMED.nodes[name], (language.name, name)


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
def test_the_binder_list_is_the_reference_walk_on_each_program(path: Path):
    _check(path)


def test_the_binder_list_is_the_reference_walk_on_the_shapes_and_random_programs(tmp_path):
    checked = sum(_check(bench_file(tmp_path, shape, 24)) for shape in SHAPES)
    assert checked == 3 * len(SHAPES)
    for seed in range(40):
        checked += _check(random_file(tmp_path, 3870 + seed, manual=seed % 3 == 1))
    assert checked >= 3 * (len(SHAPES) + 25)
