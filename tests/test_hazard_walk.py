"""find_hazards keeps its live accesses in place with an undo trail and a region index; the
formulation that copied the whole state at every branch and loop pass is kept here as the
reference (the dataflow problem of ``passes/hazards.py`` written out: the state a set of facts,
joined by union, each transfer a function of the whole state), and both must find the same
sites, pairs and chained sites on the examples, the goldens and random programs (AUTO, manual
and mixed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings

from conftest import EXAMPLES_AND_GOLDEN, bench_file, compiled_stages, fuzz_budget, load_program

from nanopass.api import run_pipeline
from nanopass.languages.terms import ArgDir, ScopeMode
from nanopass.passes.hazards import (
    Access,
    Hazards,
    Site,
    carried_allocations,
    covers,
    find_hazards,
    prework,
    task_accesses,
    is_parallel,
    iteration_stores,
    trip_count,
    overlaps,
    storage_map,
    untracked_roots,
)
from nanopass.passes.holders import dep_names, held_by, is_task_id_value
from nanopass.passes.aliases import buffer_roots
from nanopass.passes.host_accesses import host_accesses
from nanopass.passes.kernels import kernel_table
from nanopass.passes.order_write_after_read import needs_edge
from nanopass.passes.util import last_yield, var_reads
from nanopass.errors import UserError
from nanopass.pipeline import PipelineError
from nanopass.tools.gen_programs import programs
from nanopass.tools.properties import has_no_correct_compilation

PROPERTY = settings(max_examples=fuzz_budget(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reference_find_hazards(
    func,
    kernels: dict[str, Any],
    untracked_roots: set[str],
    *,
    track_writes: bool = True,
    keep=None,
    store: dict[str, frozenset] | None = None,
) -> Hazards:
    """find_hazards as first written: the state (root -> frozensets of live reads and writes)
    copied for each branch and each pass over a loop body, joined whole, retagged whole."""
    if store is None:
        store = storage_map(func, kernels)
    result = Hazards()
    site_of: dict[int, int] = {}
    # Reads of a root nobody writes can never be part of a hazard and are not tracked (read-only
    # inputs would otherwise pile up one entry per task).
    scan = prework(func, store, untracked_roots)
    written, made_in, host_reads = scan.written, scan.made_in, scan.host_reads
    renewed = carried_allocations(func, kernels)
    used = var_reads(func.body) if host_reads else {}
    scope_at: dict[int, Site] = {}

    current = [store]  # the store of the iteration analysed (a loop analysed iteration by iteration)
    product, kept = [1], []  # the product of the trip counts of the loops around analysed so; their stores

    def accesses(task, site: int, scope: int | None, parallel: frozenset, loops) -> tuple[list[Access], set[Access]]:
        found = task_accesses(  # (chained or not by every run's places: ``store``'s)
            task, site, scope, parallel, store, written, kernels, untracked_roots, result.chained, loops, made_in,
            renewed,
        )
        if current[-1] is store:
            return found
        return task_accesses(
            task, site, scope, parallel, current[-1], written, kernels, untracked_roots, set(), loops, made_in,
            renewed,
        )

    def assign(state: dict, assignments, accumulate: bool = False) -> dict:
        """TaskId values ``(name, sources)`` assigned at once (each now covers what all its sources
        cover), or with ``accumulate`` added to (each also covers them)."""
        targets = frozenset(name for name, _ in assignments)

        def change(e):
            kept = e.covers if accumulate else e.covers - targets
            gained = {name for name, sources in assignments if e.covers & frozenset(sources)}
            covers = kept | gained
            return e.covered(covers) if covers != e.covers else None

        return restate(state, change)

    def restate(state: dict, change) -> dict:
        """Every fact ``e`` of the state replaced by ``change(e)`` (None: kept as it is)."""
        out = {}
        for root, (reads, writes) in state.items():
            out[root] = tuple(frozenset(change(e) or e for e in facts) for facts in (reads, writes))
        return out

    # The state maps a root to (reads, writes): the accesses still live at this point (not yet
    # covered by a later write).
    def step(state: dict, site: int, task, found: tuple[list[Access], set[Access]]) -> None:
        task_accesses, certain = found
        waits = dep_names(task)
        for a in task_accesses:
            entry = state.get(a.root)
            if entry is None or a.dir is ArgDir.Output:  # a fresh buffer follows no earlier access
                continue
            reads, writes = entry
            for e in (writes if not a.write else (*reads, *writes)):
                if e.earlier_iteration and a.parallel and e.earlier_iteration & a.parallel:
                    continue  # two iterations of one pl.parallel loop: independent by the user's word
                if e.covers & waits:
                    continue  # ordered by the task's own dependencies
                if overlaps(e.region, a.region) and (keep is None or keep(e, a)):
                    result.pairs.add((e, a))
        state.update(restate(state, lambda e: e.older() if e.site == site and not e.stale else None))
        if task.tid is not None:
            state.update(assign(state, [(task.tid.name, waits)]))
        for a in task_accesses:
            reads, writes = state.get(a.root, (frozenset(), frozenset()))
            if a.write:
                if a in certain:  # a write that may not happen to this root supersedes nothing

                    def superseded(e):
                        independent = e.earlier_iteration and a.parallel and e.earlier_iteration & a.parallel
                        return covers(a.region, e.region) and not independent

                    reads = frozenset(e for e in reads if not superseded(e))
                    writes = frozenset(e for e in writes if not superseded(e))
                if track_writes:
                    writes = writes | {a}
            else:
                reads = reads | {a}
            state[a.root] = (reads, writes)

    def host_step(state: dict, found) -> None:
        """A host access pairs with the facts it conflicts with and waits for them: it kills those
        it shares an element with on every run, when it is certain (one place on every run: not a
        carry that may be another root, nor a buffer a loop carry may hold from an earlier run)."""
        done = set()
        for a in found:
            reads, writes = state.get(a.root, (frozenset(), frozenset()))
            for e in (writes if not a.write else (*reads, *writes)):
                if e.earlier_iteration and a.parallel and e.earlier_iteration & a.parallel:
                    continue
                if overlaps(e.region, a.region):
                    if keep is None or keep(e, a):
                        result.pairs.add((e, a))
                    if a.certain and covers(e.region, a.region):
                        done.add(e)
        for root, (reads, writes) in list(state.items()):
            state[root] = (reads - done, writes - done)

    def join(a: dict, b: dict) -> dict:
        out = dict(a)
        for root, (reads, writes) in b.items():
            old = out.get(root)
            out[root] = (reads, writes) if old is None else (old[0] | reads, old[1] | writes)
        return out

    def retag(state: dict, loop: int, entering: bool) -> dict:
        """Mark accesses of ``loop``'s body as from an earlier iteration (or forget that, on exit)."""

        def fix(entries):
            out = set()
            for e in entries:
                if entering and loop in e.parallel:
                    e = e.retagged(e.earlier_iteration | {loop})
                elif not entering and loop in e.earlier_iteration:
                    e = e.retagged(e.earlier_iteration - {loop})
                out.add(e)
            return frozenset(out)

        return {root: (fix(reads), fix(writes)) for root, (reads, writes) in state.items()}

    heads: dict[int, dict] = {}  # loop -> the last head state reached (seeds the next fixpoint)

    def block(stmts, state, path, loops, scope, position, parallel=frozenset(), auto=None) -> dict:
        """Analyse ``stmts`` from ``state`` (which it may update in place); returns the state after."""
        for i, stmt in enumerate(stmts):
            pos = position + (i,)
            kind = stmt._production
            if kind == "Task":
                key = id(stmt)
                if key not in site_of:
                    site_of[key] = len(result.sites)
                    result.sites.append(Site(len(result.sites), stmt, path, loops, scope, pos, auto))
                step(state, site_of[key], stmt, accesses(stmt, site_of[key], scope, parallel, loops))
            elif (kind == "Let" and stmt.value._production == "ReadTensor" and stmt.var.name in used) or (
                kind == "WriteTensor"
            ):
                key = id(stmt)
                if key not in site_of:
                    site_of[key] = len(result.sites)
                    fence = scope_at[scope] if scope is not None else None
                    result.sites.append(Site(len(result.sites), stmt, path, loops, scope, pos, auto, True, fence))
                host_step(state, host_accesses(stmt, site_of[key], scope, parallel, current[-1], written, renewed,
                                                buffer_roots(func, kernels)))
            elif kind == "Let":
                if is_task_id_value(stmt.var):
                    state = assign(state, [(stmt.var.name, held_by(stmt.value))])
                elif stmt.value._production == "CreateTensor" and stmt.var.name not in renewed:
                    state.pop(stmt.var.name, None)  # a new buffer: no access of the earlier one meets it
            elif kind == "Dummy":
                state = assign(state, [(stmt.var.name, dep_names(stmt))])
            elif kind in ("For", "While"):  # (a While: a sequential loop that may not run)
                inner_path, inner_loops = path + (id(stmt),), loops + (id(stmt),)
                par = is_parallel(stmt)
                inner_parallel = parallel | {id(stmt)} if par else parallel
                tids = [(it, r) for it, r in zip(stmt.iters, stmt.results) if is_task_id_value(it.var)]
                yld = last_yield(stmt.body)
                yielded = {
                    it.var.name: names_of(yld.values[k] if yld else None)
                    for k, (it, _) in enumerate(zip(stmt.iters, stmt.results))
                }
                per_iteration, opaque = par and scope is not None, par and scope is None
                if per_iteration:  # a new result array
                    state = assign(state, [(r.name, ()) for _, r in tids])
                state = assign(state, [(it.var.name, () if opaque else names_of(it.init)) for it, _ in tids])
                if trip_count(stmt) == 1:  # one iteration: the body once, no back edge
                    state = block(stmt.body, dict(state), inner_path, inner_loops, scope, pos, inner_parallel, auto)
                    if per_iteration:
                        state = assign(state, [(r.name, yielded[it.var.name]) for it, r in tids], accumulate=True)
                    else:
                        state = assign(state, [(it.var.name, () if opaque else yielded[it.var.name]) for it, _ in tids])
                        state = assign(state, [(r.name, () if opaque else (it.var.name,)) for it, r in tids])
                    continue
                unrolled = iteration_stores(stmt, current[-1], kernels, product[-1])
                if unrolled is not None:  # carries that differ by iteration: each iteration in turn
                    kept.append(unrolled)  # (their ids name them)
                    product.append(product[-1] * len(unrolled))
                    for iteration in unrolled:
                        current.append(iteration)
                        state = block(stmt.body, dict(state), inner_path, inner_loops, scope, pos, inner_parallel, auto)
                        current.pop()
                        state = assign(state, [(it.var.name, yielded[it.var.name]) for it, _ in tids])
                    product.pop()
                    state = assign(state, [(r.name, (it.var.name,)) for it, r in tids])
                    continue
                # An earlier head of this loop (from an earlier pass over an enclosing loop) is
                # below the true fixpoint: starting there keeps nested loops from re-iterating.
                head = join(state, heads[id(stmt), id(current[-1])]) if (id(stmt), id(current[-1])) in heads else dict(state)
                while True:
                    end = block(stmt.body, dict(head), inner_path, inner_loops, scope, pos, inner_parallel, auto)
                    if per_iteration:  # the result holds every iteration's value
                        end = assign(end, [(r.name, yielded[it.var.name]) for it, r in tids], accumulate=True)
                    else:  # the carry holds the value yielded
                        end = assign(end, [(it.var.name, () if opaque else yielded[it.var.name]) for it, _ in tids])
                    if par:
                        end = retag(end, id(stmt), True)
                    new_head = join(head, end)
                    if new_head == head:
                        break
                    head = new_head
                heads[id(stmt), id(current[-1])] = head
                # after a loop that certainly runs: the state some last iteration ends in (``end``,
                # from the fixpoint head); after one that may not run, that or the state before it
                after = end if (trip_count(stmt) or 0) > 0 else head
                state = retag(after, id(stmt), False) if par else dict(after)
                if not per_iteration:  # the result holds the carry's last value
                    state = assign(state, [(r.name, () if opaque else (it.var.name,)) for it, r in tids])
            elif kind == "If":
                ends = []
                for k, branch in enumerate((stmt.then, stmt.orelse)):
                    end = block(branch, dict(state), path + (id(stmt), k), loops, scope, pos + (k,), parallel, auto)
                    yld = last_yield(branch)
                    end = assign(end, [
                        (r.name, names_of(yld.values[j] if yld else None))
                        for j, r in enumerate(stmt.results) if is_task_id_value(r)
                    ])
                    ends.append(end)
                state = join(*ends)
            elif kind in ("Scope", "CompilerScope"):
                opens = stmt.mode is ScopeMode.manual and scope is None
                if opens and id(stmt) not in scope_at:
                    scope_at[id(stmt)] = Site(-1, stmt, path, loops, None, pos, auto)
                inner_scope = id(stmt) if opens else scope
                inner_auto = id(stmt) if stmt.mode is ScopeMode.auto else auto
                state = block(stmt.body, state, path + (id(stmt),), loops, inner_scope, pos, parallel, inner_auto)
                if opens:  # leaving it: its instance's facts are of an ended instance
                    state = restate(state, lambda e: e.ended() if e.scope == id(stmt) and not e.closed else None)
        return state

    block(func.body, {}, (), (), None, ())
    return result


def names_of(value) -> tuple:
    return (value.name,) if value is not None and value._production == "Var" else ()


# -- checks ----------------------------------------------------------------------------------------

CONFIGURATIONS = [  # (track_writes, keep): how the passes call it
    (True, None),  # derive_auto_scope_dependencies
    (False, needs_edge),  # order_write_after_read, no manual scope
    (True, needs_edge),  # order_write_after_read, with one
]


def summary(hazards: Hazards):
    sites = [
        (s.index, id(s.task), s.path, s.loops, s.scope, s.position, s.auto_scope, s.host,
         s.fence and (id(s.fence.task), s.fence.path, s.fence.position))
        for s in hazards.sites
    ]
    return sites, hazards.pairs, hazards.chained


def check_directed_stages(stages) -> int:
    """Compare on every directed stage; returns how many pairs the comparisons covered."""
    covered = 0
    for stage in stages:
        if stage.language.name != "directed":
            continue
        func = stage.tree.orch
        kernels = kernel_table(stage.tree)
        untracked = untracked_roots(func)
        for track_writes, keep in CONFIGURATIONS:
            new = find_hazards(func, kernels, untracked, track_writes=track_writes, keep=keep)
            old = reference_find_hazards(func, kernels, untracked, track_writes=track_writes, keep=keep)
            assert summary(new) == summary(old)
            covered += len(old.pairs)
    return covered


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
def test_examples_and_goldens(path: Path):
    check_directed_stages(compiled_stages(path))


def test_the_comparison_meets_pairs():
    """The programs above are not all pair-free (else the comparison would prove little)."""
    assert sum(check_directed_stages(compiled_stages(p)) for p in EXAMPLES_AND_GOLDEN) > 20


def check_generated(tmp_path_factory, program) -> None:
    path = tmp_path_factory.mktemp("p") / "generated.py"
    path.write_text(program.render())
    try:
        stages = run_pipeline(load_program(path))
    except (PipelineError, UserError) as error:  # (an assemble placement a use would see: not a program to check)
        assume(not has_no_correct_compilation(error))
        raise
    check_directed_stages(stages)


@PROPERTY
@given(programs(manual=False))
def test_random_auto_programs(tmp_path_factory, program):
    check_generated(tmp_path_factory, program)


@PROPERTY
@given(programs(manual=True))
def test_random_manual_programs(tmp_path_factory, program):
    check_generated(tmp_path_factory, program)


def test_a_parallel_loop_settles_without_a_confirming_pass(tmp_path, monkeypatch):
    """The benchmark's scopes shape (manual scopes in a row, each a ``pl.parallel`` loop of one
    submit chained by its TaskId): the first pass over each body adds its run's fact to the head,
    which the next run would make stale and cover otherwise; that second pass follows the gained
    fact alone (no task meets, kills or gens), and adds facts (the first run's, now stale) that
    no transfer of the body changes, so the walk ends there instead of making a third pass that
    would add nothing; the pairs are the reference's all the same. Each loop certainly runs and
    its first pass adds only facts of the body: the live state stays where that pass ends
    (``keeps_first_pass``), nothing is undone. The body has no branch and no loop: the pass that
    follows the gained fact replays the transfers the first pass logged (``replays_follow``), no
    state of its own is made, no statement walked again."""
    from nanopass.passes import hazards
    from nanopass.passes.live_accesses import LiveAccesses
    stages = run_pipeline(load_program(bench_file(tmp_path, "scopes", 12)), stop_after="insert_parallel_carry_joins")  # 3 scopes
    program = stages[-1].tree
    func, kernels, untracked = program.orch, kernel_table(program), untracked_roots(program.orch)
    passes, following, undone, replays = [], [], [], []
    keeps, undo, init = hazards.keeps_first_pass, LiveAccesses.undo, LiveAccesses.__init__
    replay = hazards.replays_follow
    monkeypatch.setattr(hazards, "keeps_first_pass", lambda *args: (passes.append(keeps(*args)), passes[-1])[1])
    monkeypatch.setattr(hazards, "replays_follow", lambda body: (replays.append(replay(body)), replays[-1])[1])
    monkeypatch.setattr(LiveAccesses, "undo", lambda self, mark: (undone.append(mark), undo(self, mark))[1])
    monkeypatch.setattr(
        LiveAccesses, "__init__", lambda self, filed=None: (following.append(filed is not None), init(self, filed))[1]
    )
    new = find_hazards(func, kernels, untracked, keep=needs_edge)
    assert passes == [True, True, True]  # (one pass per body from the whole head, its end kept)
    assert undone == []
    assert replays == [True, True, True]  # (one pass per body following the gained facts alone, replayed)
    assert following.count(True) == 0
    monkeypatch.setattr(hazards, "replays_follow", lambda body: False)
    walked = find_hazards(func, kernels, untracked, keep=needs_edge)
    assert following.count(True) == 3  # (walked instead: a state of its own per body)
    assert summary(walked) == summary(new)
    assert summary(new) == summary(reference_find_hazards(func, kernels, untracked, keep=needs_edge))
    assert new.pairs  # (each scope waits for the one before)
