"""order_write_after_read hands ``EdgeWriter`` the cells its prework found (``Prework.cells``): the
names no fresh name may take are then those ``cells.taken_names`` finds by a walk, and a function
whose prework found no cell has no cell an earlier pass set for the writer to reuse (no walk for
them). Checked on every example, golden and found program, on the bench's shapes and on random
programs, and on the pass's output of each (no input of the pass in these holds a cell; its output
holds those it made), where the pass, run again, gives the same output whether it is handed the
cells or walks for them; the walk for reused cells is counted left out on the scopes shape.
"""

from __future__ import annotations

import pytest

from conftest import CORPUS, SHAPES, bench_file, counting, random_file
from test_hazard_shortcuts import war_inputs, war_output

from nanopass.passes import cells as cells_module
from nanopass.passes import dep_edges, hazards
from nanopass.passes import order_write_after_read as order_war
from nanopass.passes.kernels import kernel_table
from nanopass.passes.util import iter_stmts


def check(program, monkeypatch) -> bool:
    """Whether the function holds a cell (the prework's cells checked against a walk's); again
    on the pass's output (``program`` unless it is the pass's output already)."""
    func = program.orch
    scan = hazards.prework(func, hazards.storage_map(func, kernel_table(program)))
    walked = {s.cell for s in iter_stmts(func.body) if s._production in ("CellDecl", "CellSet")}
    assert scan.cells == walked
    assert cells_module.taken_names(func, scan.cells) == cells_module.taken_names(func)
    if not scan.cells:
        assert dep_edges._existing_cells(func) == ({}, {})
    out = war_output(program)
    with monkeypatch.context() as patch:  # (the writer handed no cells: it walks for them)
        writer = dep_edges.EdgeWriter
        patch.setattr(order_war, "EdgeWriter", lambda *args, **kwargs: writer(*args, **{**kwargs, "cells": None}))
        assert war_output(program) == out
    return bool(walked)


def check_with_output(program, monkeypatch) -> list[bool]:
    return [check(program, monkeypatch), check(war_output(program), monkeypatch)]


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_prework_finds_every_cell(path, monkeypatch):
    for program in war_inputs(path):
        check_with_output(program, monkeypatch)


def test_the_prework_finds_every_cell_on_shapes_and_random_programs(tmp_path, monkeypatch):
    paths = [bench_file(tmp_path, shape, 12) for shape in SHAPES]
    paths += [random_file(tmp_path, seed, manual=seed % 2 == 1) for seed in range(5780, 5790)]
    celled = [check_with_output(program, monkeypatch) for path in paths for program in war_inputs(path)]
    assert not any(given for given, _ in celled) and any(made for _, made in celled)  # (cells met in outputs)


def test_a_function_without_cells_is_not_walked_for_cells_to_reuse(tmp_path, monkeypatch):
    program = war_inputs(bench_file(tmp_path, "scopes", 16))[0]  # (join cells made, none there before)
    walked = counting(monkeypatch, dep_edges, "_existing_cells")
    out = war_output(program)
    assert walked == [] and any(s._production == "CellSet" for s in iter_stmts(out.orch.body))
