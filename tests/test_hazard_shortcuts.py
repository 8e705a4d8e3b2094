"""The hazard walk's prework, its facts and its live state give what the plain definitions give.

``carried_allocations`` follows no allocation in a function that makes none or has no loop carry
(compared with its plain definition); ``shared_in_loops``
finds the copies in loops in manual scopes in one walk of the function, not one walk of each
scope and of each loop in it; ``Access`` keeps its hash; ``LiveAccesses.replace`` swaps a fact
in place of another of the same access. The shortcut is counted on the benchmark's ``scopes``
shape (no allocation there) and compared with the full analysis on every example, golden and
found program and on random control-flow programs; so are ``keeps_first_pass`` (a
``pl.parallel`` loop that certainly runs leaves the live state where its first pass ends, nothing
undone) and ``replays_follow`` (a pass following gained facts over a body without branches or
loops replays the first pass's transfers); the others are compared with their plain definitions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import CORPUS, FOUND, bench_file, counting, fuzz_budget, nested_after_manual_file, pass_inputs, running
from program_gen import control_flow_programs
from test_loop_allocations_before_scopes import SHARED, program as shared_program
from test_runtime_order_state import attack_programs

from nanopass.languages.statements import defined_binders, iter_stmts
from nanopass.languages.terms import ArgDir, ScopeMode
from nanopass.passes import hazards
from nanopass.passes import order_write_after_read as order_war
from nanopass.passes.kernels import kernel_table

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
WAR = "order_write_after_read"


def war_inputs(path: Path) -> list:
    """The programs ``order_write_after_read`` is given for each program in ``path`` that compiles
    that far."""
    return pass_inputs(path, WAR)


def scopes_input(tmp_path, size: int = 16):
    return war_inputs(bench_file(tmp_path, "scopes", size))[0]


def walk_result(program) -> tuple:
    """What ``find_hazards`` gives on ``program``'s function: the sites, the chained sites and the
    pairs, writes tracked and not."""
    func, kernels = program.orch, kernel_table(program)
    out = []
    for track_writes in (True, False):
        found = hazards.find_hazards(func, kernels, hazards.untracked_roots(func), track_writes=track_writes)
        out.append((len(found.sites), found.chained, found.pairs))
    return tuple(out)


def war_output(program):
    return running(order_war.OrderWriteAfterRead)(program)


def test_a_function_without_allocations_follows_none(tmp_path, monkeypatch):
    program = scopes_input(tmp_path)
    held = counting(monkeypatch, hazards, "held_allocations")
    war_output(program)
    assert held == []
    assert hazards.carried_allocations(program.orch, kernel_table(program)) == frozenset()


def test_a_function_without_loop_carries_follows_no_allocation(tmp_path, monkeypatch):
    (program,) = war_inputs(bench_file(tmp_path, "reuses", 16))  # (creates, no loop)
    held = counting(monkeypatch, hazards, "held_allocations")
    war_output(program)
    assert held == []
    assert hazards.carried_allocations(program.orch, kernel_table(program)) == frozenset()
    check_same_with_allocations_followed(program)


def carried_by_definition(func, kernels) -> frozenset:
    """``carried_allocations`` as its docstring defines it, with no shortcut: what each carry of
    each loop may hold, made in that loop."""
    held = hazards.held_allocations(func, kernels)
    out: set[str] = set()
    for stmt in iter_stmts(func.body):
        if stmt._production in ("For", "While"):
            for it in stmt.iters:
                out |= held.get(it.var.name, frozenset()) & hazards.made_in(stmt.body)
    return frozenset(out)


def check_same_with_allocations_followed(program) -> None:
    fast = (walk_result(program), war_output(program))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hazards, "carried_allocations", carried_by_definition)
        full = (walk_result(program), war_output(program))
    assert fast == full
    func, kernels = program.orch, kernel_table(program)
    assert hazards.carried_allocations(func, kernels) == carried_by_definition(func, kernels)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_following_allocations_changes_nothing(path):
    for program in war_inputs(path):
        check_same_with_allocations_followed(program)


@PROPERTY
@given(control_flow_programs())
def test_following_allocations_changes_nothing_on_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    for program in war_inputs(path):
        check_same_with_allocations_followed(program)


# the walk's shortcuts, each forced off: the first pass over a pl.parallel loop's body undone,
# a pass following gained facts walked instead of replayed, a sequential loop's carries followed
# iteration by iteration though they keep their places; and the prework's: the walks for copies
# in loops and for placed sources made though the prework found none (its ``copies``, ``places``)
FORCED_OFF = {
    "keeps_first_pass": lambda *args: False,
    "replays_follow": lambda body: False,
    "carries_keep_their_places": lambda carries, store: False,
    "copies": True,
    "places": True,
}
PARALLEL_LOOP_SHORTCUTS = ("keeps_first_pass", "replays_follow")
PREWORK_SHORTCUTS = ("copies", "places")


def prework_claiming(flag: str):
    """``hazards.prework``, its ``Prework`` claiming ``flag`` (``copies`` or ``places``) whatever
    the function holds."""
    def claiming(*args, **kwargs):
        scan = hazards.prework(*args, **kwargs)
        setattr(scan, flag, True)
        return scan
    return claiming


def check_same_with_walk_shortcut_off(program, shortcut: str) -> None:
    """The walk and the pass output with ``shortcut`` (``FORCED_OFF``) forced off equal those
    with it on."""
    fast = (walk_result(program), war_output(program))
    with pytest.MonkeyPatch.context() as patch:
        if shortcut in PREWORK_SHORTCUTS:
            patch.setattr(order_war, "prework", prework_claiming(shortcut))
        else:
            patch.setattr(hazards, shortcut, FORCED_OFF[shortcut])
        full = (walk_result(program), war_output(program))
    assert fast == full


@pytest.mark.parametrize("shortcut", sorted(FORCED_OFF))
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_walk_shortcuts_change_nothing(path, shortcut):
    for program in war_inputs(path):
        check_same_with_walk_shortcut_off(program, shortcut)


@PROPERTY
@given(control_flow_programs(), st.sampled_from(sorted(FORCED_OFF)))
def test_the_walk_shortcuts_change_nothing_on_random_programs(tmp_path_factory, source, shortcut):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    for program in war_inputs(path):
        check_same_with_walk_shortcut_off(program, shortcut)


@pytest.mark.parametrize("shortcut", PREWORK_SHORTCUTS)
@pytest.mark.parametrize("index", range(12))
def test_the_prework_shortcuts_change_nothing_on_the_testers_programs(index, shortcut, tmp_path):
    # (programs of the adversarial tester's generator, written apart from the analysis)
    (path := tmp_path / "generated.py").write_text(attack_programs()[index])
    for program in war_inputs(path):
        check_same_with_walk_shortcut_off(program, shortcut)


def test_the_walk_shortcuts_are_taken_on_the_scopes_shape(tmp_path, monkeypatch):
    program = scopes_input(tmp_path)  # 4 scopes, a pl.parallel loop in each
    taken = {name: [] for name in PARALLEL_LOOP_SHORTCUTS}
    for name, calls in taken.items():
        original = getattr(hazards, name)
        monkeypatch.setattr(hazards, name, lambda *args, f=original, calls=calls: (calls.append(f(*args)), calls[-1])[1])
    walk_result(program)
    assert taken == {name: [True] * 8 for name in PARALLEL_LOOP_SHORTCUTS}  # (each loop's, writes tracked and not)
    for name in PARALLEL_LOOP_SHORTCUTS:
        check_same_with_walk_shortcut_off(program, name)


def test_a_function_without_copies_or_placed_sources_walks_for_none(tmp_path, monkeypatch):
    # scopes: manual scopes, no copy and no placed source; a loop allocation placed before its
    # block leaves a copy in the loop (``SHARED``); fuse_create_assemble_to_slice places the
    # sources of assembles in their targets (the found programs of class 5)
    def flags(program) -> tuple[bool, bool]:
        func = program.orch
        scan = hazards.prework(func, hazards.storage_map(func, kernel_table(program)))
        return scan.copies, scan.places

    program = scopes_input(tmp_path)
    walked = {name: counting(monkeypatch, order_war, name) for name in ("shared_in_loops", "placed_in_manual_scopes")}
    war_output(program)
    assert walked == {"shared_in_loops": [], "placed_in_manual_scopes": []}
    assert flags(program) == (False, False)
    name, case = next(iter(SHARED.items()))
    (path := tmp_path / f"{name}.py").write_text(shared_program(*case))
    assert all(flags(program)[0] for program in war_inputs(path))
    found = FOUND / "class5_assemble_source_placed_over_rows_a_manual_task_reads.py"
    assert all(flags(program)[1] for program in war_inputs(found))


def shared_by_scope(func) -> frozenset:
    """``shared_in_loops`` as its docstring defines it: each manual scope and each loop in it in
    turn, a walk of each."""
    out: set[str] = set()
    for scope in iter_stmts(func.body):
        if scope._production not in ("Scope", "CompilerScope") or scope.mode is not ScopeMode.manual:
            continue
        inside = {b.name for s in iter_stmts(scope.body) for b in defined_binders(s)}
        for loop in iter_stmts(scope.body):
            if loop._production in ("For", "While"):
                out.update(
                    s.value.name for s in iter_stmts(loop.body)
                    if s._production == "Let" and s.value._production == "Var" and s.value.name not in inside
                )
    lets = {s.var.name: s.value for s in iter_stmts(func.body) if s._production == "Let"}
    roots = set()
    for name in out:
        while name in lets and lets[name]._production == "Var":
            name = lets[name].name
        if name in lets and lets[name]._production == "CreateTensor":
            roots.add(name)
    return frozenset(roots)


def test_one_walk_finds_the_buffers_shared_in_loops(tmp_path):
    paths = list(CORPUS)
    for name, case in SHARED.items():  # (loop allocations placed before their blocks)
        paths.append(path := tmp_path / f"{name}.py")
        path.write_text(shared_program(*case))
    found = 0
    for path in paths:
        for program in war_inputs(path):
            shared = hazards.shared_in_loops(program.orch)
            assert shared == shared_by_scope(program.orch), path.stem
            found += bool(shared)
    assert found >= 3  # (some programs have such buffers: not only empty sets are compared)


@PROPERTY
@given(control_flow_programs())
def test_one_walk_finds_the_buffers_shared_in_loops_of_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    for program in war_inputs(path):
        assert hazards.shared_in_loops(program.orch) == shared_by_scope(program.orch)


def test_a_fact_hashes_as_its_key_and_equal_facts_hash_alike():
    fact = hazards.Access(3, True, "y", hazards.FULL, ArgDir.InOut, None, covers=frozenset({"t"}))
    same = hazards.Access(3, True, "y", hazards.FULL, ArgDir.InOut, None, covers=frozenset({"t"}))
    assert fact == same and hash(fact) == hash(same) == hash(fact._key) and len({fact, same}) == 1
    for changed in (fact.older(), fact.ended(), fact.covered(frozenset()), fact.retagged(frozenset({1}))):
        assert changed != fact and hash(changed) == hash(changed._key)
        assert changed.older().ended() == changed.ended().older()
        assert hash(changed.older().ended()) == hash(changed.ended().older())


def live_state(live) -> tuple:
    """What a ``LiveAccesses`` answers: the live accesses of each root and kind, of each filed
    site, and of each covering name."""
    indexes = {key: set(index.all()) for key, index in live.indexes.items() if index}
    sites = {site: set(live.of_site(site)) for site in live.filed if live.of_site(site)}
    names = {name for access in indexes_all(live) for name in access.covers}
    return indexes, sites, {name: set(live.covered_by(name)) for name in names}


def indexes_all(live) -> list:
    return [access for index in live.indexes.values() for access in index.all()]


@PROPERTY
@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "replace", "mark", "undo"]),
                          st.integers(0, 1), st.integers(0, 2), st.booleans(), st.booleans(),
                          st.sampled_from([frozenset(), frozenset({"t"}), frozenset({"t", "u"})])),
                max_size=40))
def test_replacing_a_fact_is_removing_it_and_adding_the_other(ops):
    # replace keeps the region's group and the site's and names' sets filed, unlike a remove
    # and an add: both make the same states, and undo the same way
    from nanopass.passes.live_accesses import LiveAccesses

    def fact(site, region, stale, closed, covers):
        box = hazards.Box((region * 4,), (region * 4 + 4,)) if region else hazards.FULL
        return hazards.Access(site, True, "y", box, ArgDir.InOut, 7, stale=stale, closed=closed, covers=covers)

    fast, plain = LiveAccesses(), LiveAccesses()
    for live in (fast, plain):
        live.file_site(0)
    marks: list[int] = []
    for op, site, region, stale, closed, covers in ops:
        a = fact(site, region, stale, closed, covers)
        if op == "add":
            assert fast.add(a) == plain.add(a)
        elif op == "remove":
            assert fast.remove(a) == plain.remove(a)
        elif op == "replace":  # (another run, instance or covering of the same access)
            b = fact(site, region, not stale, closed or stale, covers - {"t"})
            fast.replace(a, b)
            if plain.remove(a):
                plain.add(b)
        elif op == "mark":
            assert fast.mark() == plain.mark()
            marks.append(fast.mark())
        elif marks:
            mark = marks.pop()
            fast.undo(mark)
            plain.undo(mark)
        assert live_state(fast) == live_state(plain)
        assert fast.delta(0) == plain.delta(0)
    fast.undo(0)
    assert live_state(fast) == ({}, {}, {})


def test_replacing_a_fact_by_one_already_live_only_removes_it():
    from nanopass.passes.live_accesses import LiveAccesses

    live = LiveAccesses()
    live.file_site(0)
    fresh = hazards.Access(0, True, "y", hazards.FULL, ArgDir.InOut, 7, covers=frozenset({"t"}))
    live.add(fresh)
    live.add(fresh.older())
    mark = live.mark()
    live.replace(fresh, fresh.older())
    assert live_state(live) == ({("y", True): {fresh.older()}}, {0: {fresh.older()}}, {"t": {fresh.older()}})
    assert live.delta(mark) == ([], [fresh])
    live.undo(mark)
    assert live_state(live)[0] == {("y", True): {fresh, fresh.older()}}


def test_the_whole_buffer_and_an_unknown_part_overlap_every_live_region():
    from nanopass.passes.live_accesses import RegionIndex

    index = RegionIndex()
    regions = [hazards.FULL, hazards.FULL_VIEW, hazards.UNKNOWN, hazards.Box((0, 0), (4, 4)),
               hazards.Box((4, 0), (8, 4)), hazards.Box((0,), (2,))]
    facts = [hazards.Access(k, True, "y", region, ArgDir.InOut, None) for k, region in enumerate(regions)]
    for fact in facts:
        index.add(fact)
    for region in (hazards.FULL, hazards.FULL_VIEW, hazards.UNKNOWN):
        assert sorted(a.site for a in index.overlapping(region)) == [
            f.site for f in facts if hazards.overlaps(f.region, region)] == list(range(len(facts)))


# -- the writes of tasks in AUTO scopes followed only where a later access may pair with them past
# the runtime (``hazards.roots_met_past_runtime``)

def nested_after_manual_scope(tmp_path, size: int):
    """The ``nested`` shape with one task in a manual scope before its loops, each of whose
    blocks may not run (``n`` iterations): every block's first task may follow the manual one."""
    return war_inputs(nested_after_manual_file(tmp_path, size))[0]


def war_walk_and_output(program) -> tuple:
    """What ``order_write_after_read`` finds (its walk's sites, chained sites and pairs) and gives."""
    found = []
    original = order_war.find_hazards
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(order_war, "find_hazards", lambda *a, **k: (found.append(original(*a, **k)), found[-1])[1])
        output = war_output(program)
    return [(len(h.sites), h.chained, h.pairs) for h in found], output


def check_same_with_every_auto_write_followed(program) -> None:
    fast = war_walk_and_output(program)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(order_war, "roots_met_past_runtime", lambda func, store: None)
        full = war_walk_and_output(program)
    assert fast == full


def test_auto_writes_after_the_last_manual_task_are_not_followed(tmp_path, monkeypatch):
    small, large = nested_after_manual_scope(tmp_path, 32), nested_after_manual_scope(tmp_path, 128)
    met = []
    for program in (small, large):
        calls = counting(monkeypatch, order_war, "needs_edge")
        war_output(program)
        met.append(len(calls))
        check_same_with_every_auto_write_followed(program)
    # (8 and 32 blocks after the manual task: the live writes no longer grow with the blocks seen,
    # so the pairs met grow with the blocks, not with their square)
    assert met[1] <= 4 * met[0] + 64


def sequential_loops_iteration_stores(program) -> list:
    """``iteration_stores`` of every sequential loop of ``program``'s function, from ``storage_map``'s store."""
    func, kernels = program.orch, kernel_table(program)
    store = hazards.storage_map(func, kernels)
    return [
        hazards.iteration_stores(stmt, store, kernels)
        for stmt in iter_stmts(func.body)
        if stmt._production in ("For", "While") and not hazards.is_parallel(stmt)
    ]


def check_same_iteration_stores_with_carries_followed(program) -> None:
    fast = sequential_loops_iteration_stores(program)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hazards, "carries_keep_their_places", FORCED_OFF["carries_keep_their_places"])
        full = sequential_loops_iteration_stores(program)
    assert fast == full


# each compares what a shortcut gives with what the same analysis gives with it forced off
SHORTCUT_CHECKS = {
    "auto writes followed where met": check_same_with_every_auto_write_followed,
    "carries that keep their places": check_same_iteration_stores_with_carries_followed,
}


@pytest.mark.parametrize("check", sorted(SHORTCUT_CHECKS))
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_storage_and_auto_write_shortcuts_change_nothing(path, check):
    for program in war_inputs(path):
        SHORTCUT_CHECKS[check](program)


@PROPERTY
@given(control_flow_programs(), st.sampled_from(sorted(SHORTCUT_CHECKS)))
def test_the_storage_and_auto_write_shortcuts_change_nothing_on_random_programs(tmp_path_factory, source, check):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    for program in war_inputs(path):
        SHORTCUT_CHECKS[check](program)


def test_the_nested_shapes_loops_follow_no_carry_iteration_by_iteration(tmp_path, monkeypatch):
    program = nested_after_manual_scope(tmp_path, 32)
    func, kernels = program.orch, kernel_table(program)
    store = hazards.storage_map(func, kernels)
    walks = counting(monkeypatch, hazards, "walk_storage")
    kept = counting(monkeypatch, hazards, "carries_keep_their_places")
    hazards.find_hazards(func, kernels, hazards.untracked_roots(func), store=store)
    assert walks == [] and len(kept) == 8 * 3  # (the a, c and d loops of each of the 8 blocks: y keeps its place)
    check_same_iteration_stores_with_carries_followed(program)


def test_where_auto_writes_are_met_is_found_only_for_a_task_writing_outside_manual_scopes(tmp_path, monkeypatch):
    scopes, nested = scopes_input(tmp_path), nested_after_manual_scope(tmp_path, 32)
    walks = counting(monkeypatch, order_war, "roots_met_past_runtime")
    war_output(scopes)  # (every task in a manual scope)
    assert walks == []
    war_output(nested)
    assert len(walks) == 1


def test_a_function_without_host_accesses_looks_for_no_fence(tmp_path, monkeypatch):
    # scopes: edges between tasks only (a host access would need a fence or a host wait)
    program = scopes_input(tmp_path)
    fenced = counting(monkeypatch, order_war.OrderWriteAfterRead, "fence_operands")
    assert war_output(program) is not program  # (edges were added)
    assert fenced == []
    found = FOUND / "class1_host_read_after_manual_write.py"
    for program in war_inputs(found):
        war_output(program)
    assert fenced  # (a host read: the fences looked for)
