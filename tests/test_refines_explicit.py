"""tools/check.refines: every explicit dependency of the earlier trace, through its dummy barriers
and transitively, must be ordered by the runtime in the later one (hand-built traces; tasks on
buffers of their own, so that only explicit dependencies order them)."""

from __future__ import annotations

from test_runtime_model import Builder

from nanopass.tools.check import refines


def chain(deps_of: dict[str, list[str]], dummies: dict[str, list[str]] | None = None, order=None):
    """Kernel tasks a, b, c (each INOUT on its own buffer) and dummies, submitted in ``order``;
    ``deps_of``/``dummies`` name what each waits for."""
    b = Builder("a", "b", "c")
    index: dict[str, int] = {}
    dummies = dummies or {}
    for name in order or ["a", "b", "c"]:
        if name in dummies:
            index[name] = b.task(deps=[index[d] for d in dummies[name]], kind="dummy")
        else:
            index[name] = b.task((name, "INOUT"), deps=[index[d] for d in deps_of.get(name, [])])
    return b.trace


def test_an_order_kept_edge_for_edge_refines():
    before = chain({"b": ["a"], "c": ["b"]})
    assert refines(before, chain({"b": ["a"], "c": ["b"]})) is None


def test_an_order_kept_transitively_refines():
    before = chain({"b": ["a"], "c": ["a", "b"]})
    assert refines(before, chain({"b": ["a"], "c": ["b"]})) is None


def test_a_dependency_through_a_barrier_must_be_kept():
    before = chain({"b": ["d"]}, {"d": ["a"]}, order=["a", "d", "b", "c"])
    assert refines(before, chain({})) == (
        "after does not order node 0 before node 1, which before orders by an explicit dependency"
    )
    assert refines(before, chain({"b": ["a"]})) is None


def test_a_dropped_link_of_a_chain_is_found():
    before = chain({"b": ["a"], "c": ["b"]})
    assert refines(before, chain({"c": ["a", "b"]})) == (
        "after does not order node 0 before node 1, which before orders by an explicit dependency"
    )
    assert refines(before, chain({"b": ["a"]})) == (
        "after does not order node 1 before node 2, which before orders by an explicit dependency"
    )


def test_a_chain_of_barriers_carries_every_task_before_it():
    # d1 waits for a, d2 for d1 and b, c for d2: c waits for a and b
    before = chain({"c": ["d2"]}, {"d1": ["a"], "d2": ["d1", "b"]}, order=["a", "d1", "b", "d2", "c"])
    assert refines(before, chain({"c": ["b"]})) == (
        "after does not order node 0 before node 2, which before orders by an explicit dependency"
    )
    assert refines(before, chain({"c": ["a", "b"]})) is None
