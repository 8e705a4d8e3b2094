"""``derive_call_directions.may_hold``: which buffers a loop carry or an if result may hold is
the reachability of its edges (``reachable``), the least fixpoint the pass computed before by
iterating the edges until nothing grew: a pass over every edge per link of the longest chain,
so a chain of k ifs that swap two buffers cost k passes of k edges (3.6 s at k = 400; 0.1 s
now). Compared with that fixpoint on random graphs, cycles and self-loops included, and on the
chain through the pass."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_place_by_branch import swaps

from conftest import fuzz_budget, load_program
from nanopass.api import run_pipeline
from nanopass.passes import derive_call_directions as directions
from nanopass.passes.derive_call_directions import reachable


def fixpoint(edges: dict[str, dict]) -> dict[str, set[str]]:
    """The fixpoint as the pass iterated it before."""
    may: dict[str, set[str]] = {}
    changed = True
    while changed:
        changed = False
        for root, storages in edges.items():
            for storage in storages:
                held = may.setdefault(root, set())
                before = len(held)
                held.add(storage)
                held.update(may.get(storage, ()))
                changed |= len(held) != before
    return may


NODES = st.sampled_from("abcdefgh")


@settings(max_examples=fuzz_budget(400), deadline=None)
@given(st.lists(st.tuples(NODES, NODES), max_size=24))
def test_reachable_is_the_fixpoint_of_the_edges(pairs):
    edges: dict[str, dict] = {}
    for a, b in pairs:
        edges.setdefault(a, {})[b] = None
    assert reachable(edges) == fixpoint(edges)


def test_a_cycle_reaches_itself_and_a_chain_only_what_follows():
    edges = {"a": {"b": None}, "b": {"c": None, "a": None}, "c": {"d": None}, "e": {"e": None}}
    assert reachable(edges) == {"a": {"a", "b", "c", "d"}, "b": {"a", "b", "c", "d"}, "c": {"d"}, "e": {"e"}}


def test_the_pass_holds_what_the_fixpoint_holds_on_a_chain_of_swaps(tmp_path, monkeypatch):
    seen = []

    def checked(edges):
        out = reachable(edges)
        assert out == fixpoint(edges)
        seen.append(sum(map(len, out.values())))
        return out

    monkeypatch.setattr(directions, "reachable", checked)
    path = tmp_path / "swaps.py"
    path.write_text(swaps(12))
    run_pipeline(load_program(path), stop_after="derive_call_directions")
    assert seen and seen[0] > 12 * 2  # (each if result may hold the ones before it)
