"""``runtime_order``'s facts table, read through ``State.of``: a name with no entry has the facts
``never_ran``. The table leaves out what equals ``never_ran`` (``State.bind``, ``meet``), so a new
run and a meet cost only the names whose facts differ from it; what ``of`` reads must be what a
table of every name would give: a meet is the intersection of the two sides' facts name by name
(a name aliased alike on both sides keeps its alias), and a new run of a task changes every
name's facts as it changes ``never_ran``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import fuzz_budget
from nanopass.passes.runtime_order import State, _rerun, meet

WIDTH = 3  # tasks 0..2: bit t is the latest run of t, bit WIDTH + t every older run
NAMES = ("a", "b", "c", "d")
ROOTS = ("p", "q")  # stable names an alias may point to
bits = st.integers(min_value=0, max_value=(1 << 2 * WIDTH) - 1)


@st.composite
def states(draw):
    never_ran = draw(bits)
    facts = {n: draw(bits) for n in draw(st.sets(st.sampled_from(NAMES + ROOTS)))}
    alias = {}
    for name in draw(st.sets(st.sampled_from(NAMES))):  # (a name with facts of its own is no alias)
        alias[name] = draw(st.sampled_from(ROOTS))
        facts.pop(name, None)
    return State(never_ran, facts, {}, width=WIDTH, alias=alias)


@settings(max_examples=fuzz_budget(300), deadline=None)
@given(states(), states())
def test_a_meet_is_the_intersection_of_every_names_facts(a, b):
    met = meet(a, b)
    for name in NAMES + ROOTS + ("never_bound",):
        assert met.of(name) == a.of(name) & b.of(name), name
    for name, held in met.facts.items():  # (what both sides store alike is kept as it is)
        assert held != met.never_ran or a.facts.get(name) == b.facts.get(name) == held, name


@settings(max_examples=fuzz_budget(300), deadline=None)
@given(states(), st.integers(min_value=0, max_value=WIDTH - 1), st.sampled_from(NAMES + ROOTS))
def test_a_new_run_changes_every_names_facts_as_it_changes_never_ran(state, task, rebound):
    state.bind(rebound, state.never_ran)
    assert rebound not in state.facts and state.of(rebound) == state.never_ran
    before = {name: state.of(name) for name in NAMES + ROOTS}
    latest, both = 1 << task, (1 << task) | (1 << (WIDTH + task))
    state.ran(task)
    for name in NAMES + ROOTS:
        assert state.of(name) == _rerun(before[name], latest, both), name
