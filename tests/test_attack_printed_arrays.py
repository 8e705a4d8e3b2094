"""The adversarial tester's printed-arrays grammar (tools/attack/printed_arrays.py): printed IR
whose TaskId arrays are named by version. The TaskId sets each version's slots hold, the stale
reads and the deps each task means are worked out by hand from value semantics (every
`pl.array.update_element` makes a new value; shared/spec/frontend-behaviour.md 3.8 and 6.2), and
the oracle is shown to flag a task that waits for another task than its deps name."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from nanopass.tools.attack import printed_arrays as A

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

S0, S1, W = "s0__ssa_v0", "s1__ssa_v0", "w__ssa_v0"
HEAD = (A.MakeArray("tids__ssa_v0"), A.Rows(S0, 0), A.Rows(S1, 1))


def task(k, kernel, region, deps=()):
    return A.Task(kernel, region, f"_submit_tmp_{k}__ssa_v0", f"o__ssa_v{k}", f"t__ssa_v{k}", tuple(deps))


# In a manual scope: #0 writes s0 and is stored in slot 0 (v1); `e` snapshots v1[0] = {#0}; #1
# writes w and replaces slot 0 (v2 = ({#1}, {})); #2 reads s0 with deps=[e], meaning {#0} (not
# the {#1} the array holds now); #3 updates w with deps=[v2], the whole array: {#1}.
SNAPSHOT = A.Program((A.Manual(HEAD + (
    task(0, "up", S0),
    A.Store("tids__ssa_v1", "tids__ssa_v0", 0, "t__ssa_v0"),
    A.Load("e__ssa_v0", "tids__ssa_v1", 0),
    task(1, "up", W),
    A.Store("tids__ssa_v2", "tids__ssa_v1", 0, "t__ssa_v1"),
    task(2, "rd", S0, ["e__ssa_v0"]),
    task(3, "up", W, ["tids__ssa_v2"]),
)),), spelling="subscript")

# The same with the snapshot taken after the update: `tids__ssa_v1[0]` is read after v2 was made
# from v1 (a stale read: one C++ storage holds v2's slots by then), still meaning {#0}; v2 is
# read after it (#3 deps=[v2]: {#1}), so both versions are live at once.
STALE = A.Program((A.Manual(HEAD + (
    task(0, "up", S0),
    A.Store("tids__ssa_v1", "tids__ssa_v0", 0, "t__ssa_v0"),
    task(1, "up", W),
    A.Store("tids__ssa_v2", "tids__ssa_v1", 0, "t__ssa_v1"),
    A.Load("e__ssa_v0", "tids__ssa_v1", 0),
    task(2, "rd", S0, ["e__ssa_v0"]),
    task(3, "up", W, ["tids__ssa_v2"]),
)),), spelling="subscript")
# Without #3 nothing reads v2: the update is dead, and a compilation that keeps v1 is right.
STALE_DEAD_UPDATE = A.Program((A.Manual(STALE.body[0].body[:-1]),), spelling="subscript")

# A pl.parallel(2) loop carrying the array (init v1 = ({}, {#0}) after #0 wrote w): iteration i
# writes rows 4i.. with deps on its own slot of the carry (iteration 0: {}, iteration 1: {#0})
# and stores itself there; after the loop rv = ({#1}, {#2}): slot 1 no longer names #0. #3 reads
# s1 with deps=[rv] ({#1, #2}); #4 updates w with deps on rv's slot 1 through a deps buffer
# ({#2}) and on t__ssa_v0 ({#0}).
LOOP = A.Program((A.Manual(HEAD + (
    task(0, "up", W),
    A.Store("tids__ssa_v1", "tids__ssa_v0", 1, "t__ssa_v0"),
    A.Loop("parallel", "i", 2, (("tids__iter_v2", "tids__ssa_v1"),), (
        A.Rows("si__ssa_v0", "i"),
        A.Load("e__ssa_v0", "tids__iter_v2", "i"),
        task(1, "up", "si__ssa_v0", ["e__ssa_v0"]),
        A.Store("tids__ssa_v3", "tids__iter_v2", "i", "t__ssa_v1"),
    ), ("tids__ssa_v3",), ("tids__rv_v4",)),
    task(3, "rd", S1, ["tids__rv_v4"]),
    A.DepsBuf(("_submit_deps_buf__ssa_v0", "_submit_deps_buf__ssa_v1"), (("tids__rv_v4", 1),),
              ("_submit_deps_elem__ssa_v0",)),
    task(4, "up", W, ["_submit_deps_buf__ssa_v1", "t__ssa_v0"]),
)),), spelling="subscript", settings=((0, 0),))



def _deps(prog, n=0, c=0):
    seq = prog.sequences()[(n, c)]
    return [sorted(getattr(ev, "user_deps", ())) for ev in seq.events if ev.kind == "task"]


def _line(prog, text):
    return next(i for i, line in enumerate(prog.source.splitlines(), 1) if text in line)


def test_the_deps_each_task_means_by_hand():
    assert _deps(SNAPSHOT) == [[], [], [0], [1]]
    assert SNAPSHOT.stale_reads() == []
    assert _deps(STALE) == [[], [], [0], [1]]
    assert _deps(LOOP) == [[], [], [0], [1, 2], [0, 2]]
    assert LOOP.stale_reads() == []
    assert A.careless(SNAPSHOT) is None and A.careless(LOOP) is None


def test_a_stale_read_is_found_at_its_line_with_the_update_that_made_it_stale():
    read = _line(STALE, "e__ssa_v0: pl.Scalar[pl.TASK_ID] = tids__ssa_v1[0]")
    update = _line(STALE, "tids__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(tids__ssa_v1")
    assert STALE.stale_reads() == [(read, "tids", frozenset({update}))]


def test_careless_deps_in_a_manual_scope_make_the_testers_invalid_program():
    # #2 reads s0 after #0 wrote it, deps=[] : nothing orders them in the manual scope
    body = SNAPSHOT.body[0].body
    careless = A.Program((A.Manual(body[:-2] + (task(2, "rd", S0), body[-1])),), spelling="subscript")
    assert "conflict in one manual scope" in A.careless(careless)


def test_a_refusal_is_right_only_at_a_stale_read_naming_its_array():
    rep = A.Report("")
    rep.stale = [(30, "tids", frozenset({28}))]
    for refusal, right in (("prog.py:30:9: error: 'tids' is read after the update", "name"),
                           ("prog.py:28:9: error: 'tids' is updated while an old version lives", "name"),
                           ("prog.py:31:9: error: 'tids' is read after the update", None),
                           ("prog.py:30:9: error: 'uids' is read after the update", None),
                           ("error: 'tids' is read after the update", None)):
        rep.refusal = refusal
        assert rep.refusal_check() == right, refusal
    rep.stale = []
    rep.refusal = "prog.py:30:9: error: 'tids' is read after the update"
    assert rep.refusal_check() is None and rep.classes() == {"refusal"}


def test_the_grammar_makes_each_construct_it_claims():
    seen = Counter()
    for seed in range(60):
        seen.update(A.constructs(A.generate(seed)))
    claimed = {"manual scope", "loop range 2", "loop range n", "loop parallel 2", "branch phi",
               "phi in a loop body", "update_element", "get_element dep", "deps buffer",
               "deps buffer (get_element nested)", "whole-array dep", "stale read",
               "fork (update of an older version)", "spelling op", "spelling subscript", "task_dummy join",
               "nested loops (phases)"}
    assert claimed <= set(seen), claimed - set(seen)
    assert seen["manual scope"] >= 10 and seen["stale read"] >= 10


def test_generation_is_deterministic():
    assert A.generate(7).source == A.generate(7).source
    assert A.generate(7).source != A.generate(8).source


@needs_gxx
@pytest.mark.parametrize("prog", [SNAPSHOT, LOOP], ids=["snapshot", "loop"])
def test_hand_programs_compile_and_pass(prog):
    rep = prog.check()
    assert rep.invalid is None and rep.refusal is None, (rep.invalid, rep.refusal)
    assert rep.runs == len(prog.settings) and not rep.classes(), rep.failures


@needs_gxx
def test_the_oracle_flags_a_task_waiting_for_another_version_of_the_slot():
    # #2 made to wait for #1 (what slot 0 of v2 holds) instead of #0 (what the snapshot of v1 holds)
    rep = A.Program(SNAPSHOT.body, "subscript", edit=("deps=[e__ssa_v0]", "deps=[t__ssa_v1]")).check()
    assert rep.refusal is None
    assert {"deps missing", "deps extra"} <= rep.classes(), rep.failures
    # and with the dep dropped altogether, the missing wait is named
    rep = A.Program(LOOP.body, "subscript", settings=LOOP.settings,
                    edit=(", deps=[tids__rv_v4]", "")).check()
    assert "deps missing" in rep.classes(), rep.failures


@needs_gxx
def test_the_stale_read_is_refused_by_name():
    rep = STALE.check()
    assert rep.refusal is not None and rep.refusal_check() == "name", rep.refusal
    assert not rep.classes()


@needs_gxx
def test_a_stale_read_of_a_dead_update_may_compile_and_is_then_checked():
    rep = STALE_DEAD_UPDATE.check()
    assert not rep.classes(), (rep.refusal, rep.failures)
    assert rep.refusal is not None or rep.runs == len(STALE_DEAD_UPDATE.settings)


# generated programs that compile (subscript spelling, no stale read), each run for every setting:
# a manual pl.parallel loop, a phi in a manual pl.range body, the phases in AUTO code and manually
SAMPLE = (13, 17, 23, 45)


@needs_gxx
@pytest.mark.parametrize("seed", SAMPLE)
def test_generated_programs(seed):
    prog = A.generate(seed)
    rep = prog.check()
    assert rep.invalid is None and not rep.classes(), (rep.source, rep.failures, rep.refusal)
    assert rep.refusal is None or rep.refusal_check() == "name"
