"""``runtime_order``'s ``implied``: which dependencies of a task the rest of its order implies.
It groups the dependencies by the task they name (the first of the strongest stays, the others
are implied) and ORs what the other tasks' groups order after with a prefix and a suffix: time
linear in the dependencies, where it compared each with every other (a task with 400 compiler
edges, tests/test_place_by_branch.swaps at k = 400: drop_implied_dependencies 13 s -> 2.8 s).
Compared with that pairwise definition (kept below) on random dependencies, several on one
task, and on every call of compiles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_place_by_branch import swaps
from test_runtime_order_state import attack_programs

from conftest import EXAMPLES, fuzz_budget, load_program
from nanopass.api import run_pipeline
from nanopass.passes import runtime_order


def pairwise(sources: list, joins: list, strength: list, through: list, lookups: int, width: int, closed) -> set:
    """The implied positions as ``implied`` defined them before, pair by pair."""
    implied = set()
    for i, s in enumerate(sources):
        if s is None:
            continue
        if any(o == s and (strength[j] > strength[i] or (strength[j] == strength[i] and j < i))
               for j, o in enumerate(sources) if j != i):
            implied.add(i)
            continue
        others = lookups
        for t, o in zip(through, sources):
            if o is not None and o != s:
                others |= t
        need = (1 << s) | (joins[i] << (width + s))
        if closed(others) & need == need:
            implied.add(i)
    return implied


WIDTH = 4


@st.composite
def dependencies(draw):
    """Dependencies on few tasks (so that several name the same one), with random strengths,
    joins, orders and lookups, and a ``closed`` that adds the older runs of chained tasks."""
    n = draw(st.integers(0, 8))
    sources = draw(st.lists(st.one_of(st.none(), st.integers(0, WIDTH - 1)), min_size=n, max_size=n))
    joins = [s is not None and draw(st.booleans()) for s in sources]
    strength = [0 if s is None else draw(st.sampled_from([1, 2])) if j else 1 for s, j in zip(sources, joins)]
    bits = st.integers(0, (1 << 2 * WIDTH) - 1)
    through = [0 if s is None else (1 << s) | (j << (WIDTH + s)) | draw(bits) for s, j in zip(sources, joins)]
    chained = draw(st.integers(0, (1 << WIDTH) - 1))
    return sources, joins, strength, through, draw(bits), WIDTH, lambda b: b | (b & chained) << WIDTH


@settings(max_examples=fuzz_budget(500), deadline=None)
@given(dependencies())
def test_implied_positions_are_the_pairwise_definition(case):
    assert runtime_order.implied_positions(*case) == pairwise(*case)


def test_of_two_dependencies_on_one_task_the_first_of_the_strongest_stays():
    always = lambda bits: 0  # noqa: E731 - (nothing else orders after the task)
    # latest run, every run, every run: the first join stays
    assert runtime_order.implied_positions([0, 0, 0], [False, True, True], [1, 2, 2], [1, 17, 17], 0, 4, always) == {0, 2}
    # two on the latest run and one on another task that orders after both
    assert runtime_order.implied_positions([0, 0, 1], [False] * 3, [1] * 3, [1, 1, 3], 0, 4, lambda b: b) == {0, 1}


def checked_compile(path, monkeypatch, budget: int | None = None) -> list:
    """Compile ``path`` with every ``implied`` call checked against ``pairwise``; the calls'
    dependency counts."""
    calls = []
    original = runtime_order._Walker.implied

    def checked(self, deps, lookups, state):
        sources, through, implied = original(self, deps, lookups, state)
        joins = [s is not None and self.out.is_join(dep) for s, dep in zip(sources, deps)]
        strength = [0 if s is None else 2 if j and not state.chained >> s & 1 else 1 for s, j in zip(sources, joins)]
        closed = lambda bits: self.closed(bits, state)  # noqa: E731
        assert implied == pairwise(sources, joins, strength, through, lookups, self.width, closed)
        calls.append((len(deps), len(implied)))
        return sources, through, implied

    with monkeypatch.context() as patch:
        patch.setattr(runtime_order._Walker, "implied", checked)
        if budget is not None:
            patch.setattr(runtime_order, "BUDGET", budget)
        run_pipeline(load_program(path))
    return calls


def test_implied_is_the_pairwise_definition_on_a_task_with_many_edges(tmp_path, monkeypatch):
    path = tmp_path / "swaps.py"
    path.write_text(swaps(16))
    calls = checked_compile(path, monkeypatch)
    assert max(n for n, _ in calls) >= 15 and sum(k for _, k in calls) > 16  # (many implied)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.stem)
def test_implied_is_the_pairwise_definition_on_an_example(path, monkeypatch):
    checked_compile(path, monkeypatch)


@pytest.mark.parametrize("index", range(12))
def test_implied_is_the_pairwise_definition_on_a_generated_program(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    assert checked_compile(path, monkeypatch)


def insertions(tmp_path, monkeypatch, k: int, per_edge: int) -> int:
    """The dependency insertions in the C++ of ``swaps(k)`` with a fixed budget too small for it."""
    from nanopass.api import generate_orchestration

    path = tmp_path / f"swaps{k}.py"
    path.write_text(swaps(k))
    with monkeypatch.context() as patch:
        patch.setattr(runtime_order, "BUDGET", 1000)
        patch.setattr(runtime_order, "PER_EDGE", per_edge)
        code = generate_orchestration(load_program(path)).code
    return code.count("_deps_count++] = ")


def test_a_program_of_many_edges_has_a_budget_in_proportion_to_them(tmp_path, monkeypatch):
    # (each block's writer may write the rows any earlier reader read: k(k-1)/2 edges from the
    # hazard passes, of which the runtime's order and each other imply all but one per block)
    assert runtime_order.budget(10) == runtime_order.BUDGET
    assert runtime_order.budget(10**5) == runtime_order.PER_EDGE * 10**5
    fixed = insertions(tmp_path, monkeypatch, 12, 0)
    assert fixed == 12 * 11 // 2
    assert insertions(tmp_path, monkeypatch, 12, runtime_order.PER_EDGE) == 11
