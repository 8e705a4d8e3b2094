"""``runtime_order.known_to_give_up``: three lean passes whose every change needs
``runtime_order`` (``clear_cells_after_waiters``, ``merge_cells_into_chains``,
``clear_edges_where_implied``) return a program the analysis gives up on before they look for
what they would change, where an earlier pass's ask kept the analysis's prelude.

Fails without the shortcut: the scopes shape at N = 1000 (250 manual scopes, beyond the
analysis's budget) has each of the three passes walk for its waiters (the spies below are called).
"""

from __future__ import annotations

import pytest

from nanopass.api import needed_by_result, result_from_stages, run_pipeline
from nanopass.languages.statements import reusing_walks
from nanopass.loader import load_programs
from nanopass.passes import clear_cells_after_waiters, clear_edges_where_implied, merge_cells_into_chains
from nanopass.passes import runtime_order as ro
from nanopass.tools.bench import source_of

# (module, the function it calls first when looking for what it would change)
LOOKS = [(clear_cells_after_waiters, "cell_readers"), (merge_cells_into_chains, "_waited"),
         (clear_edges_where_implied, "compiler_edge")]


def compile_cpp(path) -> str:
    (program,) = load_programs(str(path))
    return result_from_stages(run_pipeline(program, keep_tree=needed_by_result)).code


def looks_spied(monkeypatch) -> list:
    calls = []
    for module, name in LOOKS:
        real = getattr(module, name)

        def spy(*args, real=real, name=name):
            calls.append(name)
            return real(*args)

        monkeypatch.setattr(module, name, spy)
    return calls


def test_the_scopes_shape_is_returned_before_the_look(tmp_path, monkeypatch):
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 1000))
    calls = looks_spied(monkeypatch)
    cpp = compile_cpp(path)
    assert calls == []
    monkeypatch.setattr(ro, "known_to_give_up", lambda program: False)
    for module, _ in LOOKS:
        monkeypatch.setattr(module, "known_to_give_up", ro.known_to_give_up)
        # (the body's census, asked after, would stop merge_cells_into_chains too: no task here
        # waits through two compiler edges; forced to "there is one", each pass looks)
        monkeypatch.setattr(module, "body_has", lambda body, fact: True)
    assert compile_cpp(path) == cpp  # (the same C++ from the passes' own ways to the same answer)
    assert sorted(set(calls)) == sorted(name for _, name in LOOKS)  # (off: each looks)


@pytest.mark.parametrize("size", [16, 1000])
def test_known_only_where_kept(tmp_path, size):
    """False while no prelude is kept for the program (nothing computed); once kept, what
    ``gives_up`` says (False on a small scopes program, True on a large one)."""
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", size))
    (program,) = load_programs(str(path))
    stages = run_pipeline(program, stop_after="drop_chained_join_barriers")
    tree = stages[-1].tree
    with reusing_walks():
        assert not ro.known_to_give_up(tree)
        given_up = ro.gives_up(tree)
        assert ro.known_to_give_up(tree) is given_up
    assert given_up is (size == 1000)
    assert not ro.known_to_give_up(tree)  # (outside a compile nothing is kept)
