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
