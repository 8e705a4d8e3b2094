"""drop_implied_dependencies asks ``runtime_order`` once a round (issue 24, compile time at real
sizes): one analysis tracking every task in a loop with an edge the pass may drop answers
which edges are implied, which loops' later iterations imply one (``first_iteration_loops``) and
whose runs are chained (``runs_chained``); before, each of the last two made an analysis of its
own (0.25 s each on a 1,125-line program of the surface generator, whose compile went 3.8 ->
2.4 s). Where that analysis gives up (its budget counts the tracked tasks), the pass asks as it
did: the relevant tasks alone first, the others when needed."""

from __future__ import annotations

import pytest

from test_lean_conjunction_guards import PROGRAM as CONJUNCTION
from test_lean_edges import checked_clean
from test_lean_later_iterations import RANGE_OF_ROWS
from test_lean_second_iteration_guards import PROGRAM as SECOND_ITERATION


def analyses_of_the_pass(text: str, monkeypatch) -> tuple[int, object, object]:
    """(the analyses drop_implied_dependencies made, its output, the pipeline's stage tree of
    it), the pass run alone on the stage before it."""
    import nanopass.passes.runtime_order as runtime_order_module
    from nanopass.passes.pipeline import PASSES
    from nanopass.rewrite import PassContext
    from nanopass.tools.properties import compile_text

    stages, _ = compile_text(text, {})
    names = [p.name for p in PASSES]
    at = names.index("drop_implied_dependencies")
    made = []
    analyse = runtime_order_module._runtime_order
    monkeypatch.setattr(runtime_order_module, "_runtime_order",
                        lambda program, track: made.append(len(track)) or analyse(program, track))
    ctx = PassContext(options={})
    ctx.current_pass = names[at]
    out = PASSES[at](ctx).run(stages[names[at - 1]].tree)
    return len(made), out, stages[names[at]].tree


@pytest.mark.parametrize("text", [CONJUNCTION, SECOND_ITERATION, RANGE_OF_ROWS],
                         ids=["conjunction", "second_iteration", "range_of_rows"])
def test_the_pass_makes_one_analysis(text, monkeypatch):
    """Each of these made two or three before (the relevant tasks, then the tasks of
    ``first_iteration_loops`` and ``runs_chained``); now one, and the pass still drops edges
    (its output is not its input) and the program stays free of hazards."""
    count, out, _ = analyses_of_the_pass(text, monkeypatch)
    assert count == 1
    assert out is not None
    checked_clean(text, trips=(0, 1, 2))


def test_the_shared_analysis_tracks_the_waiters(monkeypatch):
    """The one analysis tracks the tasks in loops with a derived or cell edge: on the conjunction
    program, every acc and add with such an edge (not none, as the first analysis of the three
    did)."""
    import nanopass.passes.runtime_order as runtime_order_module
    from nanopass.tools.properties import compile_text

    tracked = []
    analyse = runtime_order_module._runtime_order

    def spy(program, track):
        import traceback
        if any("drop_implied_dependencies" in frame.filename for frame in traceback.extract_stack()):
            tracked.append(len(track))
        return analyse(program, track)

    monkeypatch.setattr(runtime_order_module, "_runtime_order", spy)
    compile_text(CONJUNCTION, {})
    assert len(tracked) == 1 and tracked[0] > 0


def spied_analyses(monkeypatch) -> list:
    """The passes (their files) that make a ``runtime_order`` analysis from now on, in order."""
    import traceback

    import nanopass.passes.runtime_order as runtime_order_module

    made = []
    analyse = runtime_order_module._runtime_order

    def spy(program, track):
        stack = traceback.extract_stack()
        made.append(next((f.filename.rsplit("/", 1)[-1] for f in reversed(stack) if "/passes/" in f.filename
                          and "runtime_order" not in f.filename), None))
        return analyse(program, track)

    monkeypatch.setattr(runtime_order_module, "_runtime_order", spy)
    return made


def test_the_analysis_the_pass_before_made_of_the_same_program_is_taken(tmp_path, monkeypatch):
    """Where drop_chained_join_barriers asked the analysis of the relevant tasks alone and
    changed nothing (the bench's scopes shape), drop_implied_dependencies takes that analysis
    (kept while compiling) and makes none of its own: a walk tracking more tasks is asked only
    when no analysis of the program is at hand (callgrind, N = 2000: 0.5 M instructions in the
    pass with it, 15.7 M with a walk of its own)."""
    from conftest import bench_file
    from nanopass.api import run_pipeline
    from nanopass.loader import load_programs

    made = spied_analyses(monkeypatch)
    run_pipeline(load_programs(str(bench_file(tmp_path, "scopes", 16)))[0])
    assert "drop_chained_join_barriers.py" in made
    assert "drop_implied_dependencies.py" not in made


def test_nothing_is_looked_for_where_the_analysis_gives_up(tmp_path, monkeypatch):
    """On the bench's reuses shape at N = 1000 the analysis gives up whatever it tracks (the
    relevant tasks alone exceed its budget, ``gives_up``: its prelude tells): the pass returns
    without asking it or finding where each task stands (``places``: 15 M instructions at N =
    2000 when it was found first)."""
    from conftest import bench_file
    from nanopass.api import run_pipeline
    from nanopass.loader import load_programs
    from nanopass.passes import drop_implied_dependencies as pass_module

    made = spied_analyses(monkeypatch)
    looked = []
    find = pass_module.places
    monkeypatch.setattr(pass_module, "places", lambda *args: looked.append(1) or find(*args))
    stages = run_pipeline(load_programs(str(bench_file(tmp_path, "reuses", 1000)))[0])
    assert "drop_implied_dependencies.py" not in made
    assert stages["drop_implied_dependencies"].tree is stages["drop_chained_join_barriers"].tree
    assert looked == []
