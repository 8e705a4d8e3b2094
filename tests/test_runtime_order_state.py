"""``runtime_order``'s facts table, read through ``State.of``: a name with no entry has the facts
``never_ran``, and an entry holds a name's facts less ``never_ran``. The table leaves out what
equals ``never_ran`` (``State.bind``, ``meet``), so a meet costs only the names whose facts differ
from it, and a task's first run none (``never_ran`` held its bits); what ``of`` reads must be what a
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
    facts = {n: draw(bits) & ~never_ran for n in draw(st.sets(st.sampled_from(NAMES + ROOTS)))}  # (stored less never_ran)
    alias = {}
    for name in draw(st.sets(st.sampled_from(NAMES))):  # (a name with facts of its own is no alias)
        alias[name] = draw(st.sampled_from(ROOTS))
        facts.pop(name, None)
    # (a task's entry holds what its latest run is ordered after less never_ran, and none of its own bits)
    order = {t: draw(bits) & ~never_ran & ~own(t) for t in draw(st.sets(st.integers(0, WIDTH - 1)))}
    return State(never_ran, facts, order, width=WIDTH, alias=alias)


def own(task: int) -> int:
    return (1 << task) | (1 << (WIDTH + task))


@settings(max_examples=fuzz_budget(300), deadline=None)
@given(states(), states())
def test_a_meet_is_the_intersection_of_every_names_facts(a, b):
    met = meet(a, b)
    for name in NAMES + ROOTS + ("never_bound",):
        assert met.of(name) == a.of(name) & b.of(name), name
    for name, held in met.facts.items():  # (stored less never_ran; an entry of no fact only as both sides keep it)
        assert held & met.never_ran == 0, name
        assert held or a.facts.get(name) == b.facts.get(name) == 0 and a.never_ran == b.never_ran, name


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


@settings(max_examples=fuzz_budget(300), deadline=None)
@given(states(), states())
def test_a_meet_is_the_intersection_of_every_tasks_order(a, b):
    met = meet(a, b)
    for task in range(WIDTH):
        assert met.after(task) == a.after(task) & b.after(task), task
    for task, held in met.order.items():  # (a run is not ordered after itself)
        assert held & (met.never_ran | own(task)) == 0 and met.after(task) & own(task) == 0, task


@settings(max_examples=fuzz_budget(300), deadline=None)
@given(states(), st.integers(min_value=0, max_value=WIDTH - 1))
def test_a_new_run_changes_every_tasks_order_as_it_changes_never_ran(state, task):
    before = {t: state.after(t) for t in range(WIDTH)}
    state.ran(task)
    for t in range(WIDTH):
        assert state.after(t) == _rerun(before[t], 1 << task, own(task)), t
        assert state.order.get(t, 0) & (state.never_ran | own(t)) == 0, t
        assert t not in state.order or state.after(t) & own(t) == 0, t


# -- the walk forgets the names nothing reads further on (``dead_after``) ----------------------

import dataclasses  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from hypothesis import HealthCheck  # noqa: E402

from conftest import EXAMPLES_AND_GOLDEN, load_program, nested_after_manual_file  # noqa: E402
from program_gen import control_flow_programs  # noqa: E402
from nanopass.api import run_pipeline  # noqa: E402
from nanopass.passes import runtime_order  # noqa: E402
from nanopass.tools.attack import generate as attack_generate  # noqa: E402
from nanopass.tools.attack import program as attack_program  # noqa: E402


def analyses(path: Path, forgetting: bool) -> list:
    """Every ``runtime_order`` result of a compile of ``path`` (the lean passes ask one each), and
    the final tree; the walk forgets dead names or not."""
    results = []
    original = runtime_order._runtime_order

    def recorded(program, track):
        out = original(program, track)
        results.append(None if out is None else (out.runtime, out.implied, out.ordered, list(out.fence_implied.values())))
        return out

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime_order, "_runtime_order", recorded)
        if not forgetting:
            patch.setattr(runtime_order, "dead_after", lambda body: {})
        stages = run_pipeline(load_program(path))
    return results + [stages[-1].tree]


def attack_programs() -> list:
    """Programs of the adversarial tester's generator (written apart from the analysis), without
    the assembles it would refuse at these sizes."""
    out = []
    for seed in range(6):
        for size in (30, 120):
            prog = attack_generate.generate(seed, size)
            out.append(attack_program.render(dataclasses.replace(prog, body=attack_program.without_assembles(prog.body))).source)
    return out


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
def test_forgetting_dead_names_changes_no_analysis_of_an_example(path):
    assert analyses(path, True) == analyses(path, False)


@pytest.mark.parametrize("index", range(12))
def test_forgetting_dead_names_changes_no_analysis_of_a_generated_program(index, tmp_path):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    forgetting = analyses(path, True)
    assert forgetting == analyses(path, False)
    assert index % 2 == 0 or any(r is not None for r in forgetting[:-1])  # (the larger ones are analysed)


@settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(control_flow_programs())
def test_forgetting_dead_names_changes_no_analysis_of_a_random_program(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    assert analyses(path, True) == analyses(path, False)


def names_held_at_runs(path: Path, forgetting: bool = True) -> list[int]:
    """The names the state held (facts and aliases) each time a task ran, in a compile of
    ``path``; the walk forgets dead names or not."""
    seen = []
    original = State.ran

    def counted(state, task):
        seen.append(len(state.facts) + len(state.alias))
        return original(state, task)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(State, "ran", counted)
        if not forgetting:
            patch.setattr(runtime_order, "dead_after", lambda body: {})
        run_pipeline(load_program(path))
    return seen


def test_the_walk_forgets_what_nothing_reads_further_on(tmp_path):
    """On a generated program the tables a new run rewrites hold fewer names with forgetting."""
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[11])
    sizes = {forgetting: sum(names_held_at_runs(path, forgetting)) for forgetting in (True, False)}
    assert 0 < sizes[True] < 0.5 * sizes[False], sizes  # (2,162 against 6,207 names when written)


def largest_state(tmp_path, size: int) -> int:
    """The most names the state held when a task ran, in a compile of the nested shape of
    ``size`` calls after a manual scope (which makes the lean passes ask ``runtime_order``)."""
    seen = names_held_at_runs(nested_after_manual_file(tmp_path, size))
    assert len(seen) > size, len(seen)  # (the walk ran: the analysis did not give up)
    return max(seen)


def test_a_loop_forgets_the_names_its_body_yields(tmp_path):
    """Each block of the nested shape yields an inner loop's result, read by the body's last
    statement only: the walk forgets it after the loop, so the state holds as many names with
    64 blocks as with 8 (it held one more per block before: every copy, meet and state key of
    a loop cost every block so far, quadratic in the blocks)."""
    assert largest_state(tmp_path, 256) == largest_state(tmp_path, 32)


def test_whether_a_loops_iterations_differ_is_found_once_per_loop(tmp_path, monkeypatch):
    """The nested shape's loops of constant bounds (a, c, d of each block) are walked several
    times each (fixpoints of the loops around them); whether their iterations differ is a fact of
    the loop alone, asked of each once."""
    path = nested_after_manual_file(tmp_path, 32)
    asked, walkers = [], []
    original, make = runtime_order.branches_on, runtime_order._Walker.__init__
    monkeypatch.setattr(runtime_order, "branches_on", lambda loop: (asked.append(loop), original(loop))[1])
    monkeypatch.setattr(runtime_order._Walker, "__init__", lambda self, *a, **k: (walkers.append(self), make(self, *a, **k))[1])
    names_held_at_runs(path)
    assert walkers and len(asked) == len(walkers) * 8 * 3  # (8 blocks: 72 asks in 3 walks, 312 before)
