"""order_write_after_read's leaner representations give what the plain ones give, both ways.

Each switch below (module, attribute, value that forces the plain way) is forced off and on: the
hazard walk (its sites, chained sites and pairs, writes tracked and not) and the pass's output
are equal on every example, golden and found program, on the bench shapes and on random
programs (AUTO and MANUAL-scope ones, and random control flow). The leaner way is counted taken
on the shapes it is for.

- ``live_accesses.GRID_FROM``: a ``RegionIndex`` files its boxes in a grid only once it holds more
  than that many regions (forced off: a grid from the first box, as before).
- ``hazards.OUTERMOST_REPLAYED``: after the first pass over the straight body of an outermost
  ``pl.parallel`` loop that certainly runs, the walk replays its end to the fixpoint without
  marking facts as of an earlier iteration, keeping logs or the loop's head
  (``replayed_to_fixpoint``; forced off: the general fixpoint, ``settled`` and all).
- ``hazards.STRAIGHT_LOOPS``: such a loop that runs more than once is taken by a path of its own
  (``straight_loop``; forced off: by ``loop``; tests/test_war_straight_loops.py has its shapes).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from conftest import CORPUS, SHAPES, bench_file, random_file
from program_gen import control_flow_programs
from test_hazard_shortcuts import PROPERTY, walk_result, war_inputs, war_output

from nanopass.passes import hazards, live_accesses

# name -> (owner, attribute, the value that forces the plain way)
SWITCHES = {
    "grid": (live_accesses, "GRID_FROM", -1),
    "outermost": (hazards, "OUTERMOST_REPLAYED", False),
    "straight": (hazards, "STRAIGHT_LOOPS", False),
}


def check_both_ways(program, switch: str) -> None:
    fast = (walk_result(program), war_output(program))
    owner, name, value = SWITCHES[switch]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(owner, name, value)
        full = (walk_result(program), war_output(program))
    assert fast == full


@pytest.mark.parametrize("switch", sorted(SWITCHES))
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_lean_way_changes_nothing(path: Path, switch):
    for program in war_inputs(path):
        check_both_ways(program, switch)


@pytest.mark.parametrize("switch", sorted(SWITCHES))
def test_the_lean_way_changes_nothing_on_shapes_and_random_programs(tmp_path, switch):
    paths = [bench_file(tmp_path, shape, size) for shape in SHAPES for size in (6, 24)]
    paths += [random_file(tmp_path, seed, manual=seed % 2 == 1) for seed in range(4010, 4034)]
    compared = 0
    for path in paths:
        for program in war_inputs(path):
            check_both_ways(program, switch)
            compared += 1
    assert compared >= len(SHAPES) * 2 + 12


@PROPERTY
@given(control_flow_programs())
def test_the_lean_way_changes_nothing_on_random_control_flow(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    for program in war_inputs(path):
        for switch in SWITCHES:
            check_both_ways(program, switch)


def test_small_indexes_make_no_grid_and_large_ones_do(tmp_path, monkeypatch):
    made = []
    original = live_accesses.RegionIndex._grid_cells
    monkeypatch.setattr(live_accesses.RegionIndex, "_grid_cells", lambda self, box: made.append(box) or original(self, box))
    war_output(war_inputs(bench_file(tmp_path, "reuses", 24))[0])  # (a buffer and one tile of it each)
    assert made == []
    war_output(war_inputs(bench_file(tmp_path, "tiles", 24))[0])  # (many tiles of one buffer)
    assert made


def test_outermost_parallel_loops_are_replayed_to_the_fixpoint_on_the_scopes_shape(tmp_path, monkeypatch):
    program = war_inputs(bench_file(tmp_path, "scopes", 16))[0]  # (4 scopes, a pl.parallel(4) loop in each)
    kept, marked = [], []
    monkeypatch.setattr(hazards, "keeps_first_pass", lambda *args, f=hazards.keeps_first_pass: (kept.append(f(*args)), kept[-1])[1])
    monkeypatch.setattr(hazards.Access, "retagged", lambda self, tags, f=hazards.Access.retagged: (marked.append(tags), f(self, tags))[1])
    war_output(program)
    assert kept == [True] * 4 and marked == []  # (each loop's fixpoint replayed, no fact marked)
    monkeypatch.setattr(hazards, "OUTERMOST_REPLAYED", False)
    war_output(program)
    assert kept == [True] * 8 and marked  # (the general fixpoint marks the facts of earlier iterations)
