"""tools/hazards.find_hazards files earlier accesses by box in bitsets; its hazards are exactly
the pairwise definition's (every conflicting pair of accesses, in program order, that the runtime
does not order), on generated programs at a random interpretable stage, with the runtime model
and without it (every conflicting pair; manual programs rendered without their dependencies
have unordered pairs too)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nanopass.errors import UserError
from nanopass.tools.fuzz_deps import compile_text, inputs_for
from nanopass.tools.properties import has_no_correct_compilation
from nanopass.tools.gen_programs import programs
from nanopass.tools import hazards
from nanopass.tools.hazards import Hazard, _severity, accesses, find_hazards, independent
from nanopass.tools.runtime_model import model
from nanopass.tools.check import trace_of
from nanopass.tools.trace import Task, Trace, overlaps

PROPERTY = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck), max_examples=40)


def pairwise(trace, runtime):
    """find_hazards as first written: every pair of accesses of one buffer."""
    by_buffer = {}
    for access in accesses(trace):
        by_buffer.setdefault(access.buffer, []).append(access)
    found = {}
    for buffer, items in by_buffer.items():
        for j, b in enumerate(items):
            for a in items[:j]:
                if a.event == b.event or not (a.write or b.write) or not overlaps(a.box, b.box):
                    continue
                if runtime is not None and runtime.ordered(a.event, b.event):
                    continue
                kind = "RAW" if a.write and b.read else "WAW" if a.write and b.write else "WAR"
                waived = None
                if a.no_dep or b.no_dep:
                    waived = "a pl.no_dep argument"
                elif a.manual_dep or b.manual_dep:
                    waived = "a manual_dep tensor"
                elif independent(trace.events[a.event], trace.events[b.event]):
                    waived = "different iterations of one pl.parallel loop"
                hazard = Hazard(kind, a.event, b.event, buffer, a.box, b.box, waived)
                previous = found.get((a.event, b.event, buffer))
                if previous is None or _severity(hazard) < _severity(previous):
                    found[(a.event, b.event, buffer)] = hazard
    return sorted(found.values(), key=lambda h: (h.second, h.first, h.buffer))


@PROPERTY
@given(st.one_of(programs(manual=False), programs(manual=True)), st.integers(0, 2**31))
def test_hazards_are_the_pairwise_definitions(program, seed):
    rng = random.Random(seed)
    text = program.render()
    try:
        stages, surface = compile_text(text)
    except UserError as error:  # (an assemble placement a use would see: not a program to check)
        assume(not has_no_correct_compilation(error))
        raise
    inputs = inputs_for(surface, program.values())
    stage = rng.choice([s for s in stages if s.language.name in ("directed", "encoded", "emission")])
    trace = trace_of(stage, inputs)
    runtime = model(trace)
    assert find_hazards(trace, runtime) == pairwise(trace, runtime)
    assert find_hazards(trace, unordered=True) == pairwise(trace, None)
    # ``among``: the hazards of the pairs it names, exactly as the full result has them
    for ordering in (runtime, None):
        full = find_hazards(trace, ordering, unordered=ordering is None)
        chosen = {(h.first, h.second) for h in full if rng.random() < 0.5}
        among: dict[int, int] = {}
        for first, second in chosen:
            among[second] = among.get(second, 0) | 1 << first
        assert find_hazards(trace, ordering, unordered=ordering is None, among=among) == [
            h for h in full if (h.first, h.second) in chosen]


@PROPERTY
@given(st.one_of(programs(manual=False), programs(manual=True)), st.integers(0, 2**31))
def test_hazards_with_a_window_rebased_at_every_access(program, seed):
    """The windows' bases rise at every chance (``_LEAST_SHIFT`` 0, not 64): the same hazards, on
    traces where some tasks lost their explicit dependencies (a compiled program has no failing
    hazard, and its floors seldom fall)."""
    rng = random.Random(seed)
    try:
        stages, surface = compile_text(program.render())
    except UserError as error:
        assume(not has_no_correct_compilation(error))
        raise
    stage = rng.choice([s for s in stages if s.language.name in ("directed", "encoded", "emission")])
    trace = trace_of(stage, inputs_for(surface, program.values()))
    # some tasks lose their explicit dependencies: pairs left unordered, floors that fall
    events = [replace(e, deps=()) if isinstance(e, Task) and rng.random() < 0.3 else e for e in trace.events]
    trace = Trace(trace.buffers, events)
    runtime = model(trace)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hazards, "_LEAST_SHIFT", 0)
        full = find_hazards(trace, runtime)
        assert full == pairwise(trace, runtime)
        chosen = {(h.first, h.second) for h in full if rng.random() < 0.5}
        among: dict[int, int] = {}
        for first, second in chosen:
            among[second] = among.get(second, 0) | 1 << first
        assert find_hazards(trace, runtime, among=among) == [h for h in full if (h.first, h.second) in chosen]
