"""A compiler edge the user's own dependencies imply (issue 24; ``runtime_order``'s
``_Walker.held_after`` and ``_Walker.Dummy``): a user dependency on a whole TaskId array orders
the task after the run each slot holds, and one on the TaskId of the user's ``task_dummy`` after
what the dummy's entries order; ``drop_implied_dependencies`` then drops the compiler's edge
they imply. So does a host element access in a manual scope (``_Walker.wait``), which waits for
the tensor's producers as one outside does. Figures (tools/measure_edges.py) computed by hand,
orders checked by the hazard checker."""

from __future__ import annotations

import pytest

from dsl_header import program
from test_lean_edges import OFF, TILE, chain_program, checked_clean, insertions


def owners_program(waits: str, loop: bool = False) -> str:
    """In a manual scope ``t0`` writes ``a`` and ``t1`` writes ``b`` (their TaskIds in the array
    ``ids``), then ``u`` reads both after ``waits`` (the lines that end in ``y, u = ...``, given
    the user's dependencies ``W``); an AUTO writer ``F`` of ``a`` follows the scope. The
    compiler orders ``F`` after ``t0`` (a write in a manual scope is in no TensorMap) and after
    ``u`` (write after read): the first is implied by the second where ``W`` orders ``u`` after
    ``t0``. With ``loop`` the scope's statements run ``n`` times, ``t0`` and ``t1`` after the
    previous ``u`` (``prev``, the user's)."""
    body = f"""            a, t0 = pl.submit(self.fill, x, a, deps=[prev])
            ids[0] = t0
            b, t1 = pl.submit(self.fill, x, b, deps=[prev])
            ids[1] = t1
{waits}"""
    if loop:
        body = "            for i in pl.range(n):\n" + "\n".join("    " + line for line in body.splitlines())
        body += "\n                prev = u"
    body = "            prev = None\n" + body
    return program(
        [f"fill(x: {TILE}, out: pl.InOut[{TILE}])", f"use(a: {TILE}, b: {TILE}, y: pl.InOut[{TILE}])"],
        f"x: {TILE}, a: pl.InOut[{TILE}], b: pl.InOut[{TILE}], y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
        f"""
        with pl.manual_scope():
            ids = pl.array.create(2, pl.TASK_ID)
{body}
        a = self.fill(x, a)
        return y
""",
        returns=TILE, name="Owners",
    )


WHOLE_ARRAY = "            y, u = pl.submit(self.use, a, b, y, deps=[ids])"
DUMMY_OF_NAMES = """            bar = pl.system.task_dummy(deps=[t0, t1])
            y, u = pl.submit(self.use, a, b, y, deps=[bar])"""
DUMMY_OF_ARRAY = """            bar = pl.system.task_dummy(deps=[ids])
            y, u = pl.submit(self.use, a, b, y, deps=[bar])"""


def figures(text: str, options=None, n: int = 1) -> tuple:
    f = insertions(text, n, options)
    return f.insertions, f.redundant, f.minimum, f.dummies


@pytest.mark.parametrize("waits, user", [(WHOLE_ARRAY, 2), (DUMMY_OF_NAMES, 3), (DUMMY_OF_ARRAY, 3)],
                         ids=["whole-array", "dummy-of-names", "dummy-of-array"])
def test_an_edge_implied_through_the_users_dependencies_goes(waits, user):
    """By hand: t0, t1, u, F. The user's entries: the two slots of ``ids`` (``deps=[ids]``), or
    the dummy's two and ``u``'s one (a dummy joining 2 tasks before 1: 3 entries for 2 pairs).
    The compiler's: F after t0 and after u; t0 -> F is implied by t0 -> u -> F (redundant 1).
    The minimum: t0 -> u, t1 -> u, u -> F = 3. With the rule the implied entry goes."""
    text = owners_program(waits)
    dummies = 1 if "task_dummy" in waits else 0
    assert figures(text, OFF) == (user + 2, 1, 3, dummies)
    assert figures(text) == (user + 1, 0, 3, dummies)
    checked_clean(text, trips=(0, 1))


@pytest.mark.parametrize("waits, user", [(WHOLE_ARRAY, 2), (DUMMY_OF_NAMES, 3)], ids=["whole-array", "dummy-of-names"])
def test_in_a_loop_the_slots_and_the_dummy_hold_the_latest_runs(waits, user):
    """The same statements in a loop of ``n`` iterations: ``ids``'s slots and the dummy hold the
    latest runs of t0 and t1 when ``u`` runs, and after the loop. By hand, n = k >= 1: the
    user's entries, t0_i and t1_i on u_{i-1} (2(k - 1)) and ``user`` per iteration (and ``k``
    dummies); the compiler's, F on the latest runs of t0 and u, of which t0 -> F is implied by
    t0 -> u -> F (redundant 1); the minimum u_{i-1} -> t0_i, t1_i, t0_i -> u_i, t1_i -> u_i and
    u -> F: 4k - 1. n = 0: nothing."""
    text = owners_program(waits, loop=True)
    dummies = 1 if "task_dummy" in waits else 0
    user_entries = lambda k: 2 * (k - 1) + user * k
    assert [figures(text, OFF, n) for n in range(4)] == [(0, 0, 0, 0)] + [
        (user_entries(k) + 2, 1, 4 * k - 1, dummies * k) for k in (1, 2, 3)]
    assert [figures(text, None, n) for n in range(4)] == [(0, 0, 0, 0)] + [
        (user_entries(k) + 1, 0, 4 * k - 1, dummies * k) for k in (1, 2, 3)]
    checked_clean(text, trips=(0, 1, 2, 3))


def copied_program(loop: bool) -> str:
    """In a manual scope ``t0`` writes ``a``, ``t1`` writes ``b`` after ``t0`` (the user's), and
    ``u`` reads ``a`` after ``t1`` through a copy ``last`` of its TaskId (with ``loop``, the last
    of ``n`` runs of ``t1``, a loop's carry); an AUTO writer ``F`` of ``a`` follows. The compiler
    orders ``F`` after ``t0`` and after ``u``; no compiler edge names ``t1``."""
    if loop:
        t1 = """            last = None
            for i in pl.range(n):
                b, t1 = pl.submit(self.fill, x, b, deps=[t0, last])
                last = t1"""
    else:
        t1 = """            b, t1 = pl.submit(self.fill, x, b, deps=[t0])
            last = t1"""
    return program(
        [f"fill(x: {TILE}, out: pl.InOut[{TILE}])", f"use(a: {TILE}, b: {TILE}, y: pl.InOut[{TILE}])"],
        f"x: {TILE}, a: pl.InOut[{TILE}], b: pl.InOut[{TILE}], y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
        f"""
        with pl.manual_scope():
            a, t0 = pl.submit(self.fill, x, a, deps=[])
{t1}
            y, u = pl.submit(self.use, a, b, y, deps=[last])
        a = self.fill(x, a)
        return y
""",
        returns=TILE, name="Copied",
    )


def test_a_task_whose_taskid_only_a_copy_holds_is_followed():
    """By hand: t0, t1, u, F. The user's entries: t1 on t0, u on ``last`` (t1); the compiler's,
    F on t0 and on u: t0 -> F is implied by t0 -> t1 -> u -> F (redundant 1); the minimum t0 ->
    t1, t1 -> u, u -> F = 3. ``t1`` is relevant only as the task whose TaskId the copy holds."""
    text = copied_program(loop=False)
    assert figures(text, OFF) == (4, 1, 3, 0)
    assert figures(text) == (3, 0, 3, 0)
    checked_clean(text, trips=(1,))


def test_a_copy_carried_by_a_loop_holds_the_last_run():
    """With ``t1`` run ``n`` times (each after t0 and the previous run, the user's), n = k >= 1:
    the user's entries 1 + 2(k - 1) + 1 (t1's first run on t0, each later one on t0 and the
    previous run, u on the last), of which the k - 1 on t0 after the first are implied; the
    compiler's, F on t0 (implied through u) and on u; the minimum t0 -> t1_0, t1_i -> t1_{i+1},
    t1_{k-1} -> u, u -> F: k + 2. n = 0: u waits for nothing, F on t0 and u, both needed (the
    program then races u with t0: the checker runs the trips from 1)."""
    text = copied_program(loop=True)
    assert [figures(text, OFF, n) for n in range(4)] == [(2, 0, 2, 0)] + [
        (2 * k + 2, k, k + 2, 0) for k in (1, 2, 3)]
    assert [figures(text, None, n) for n in range(4)] == [(2, 0, 2, 0)] + [
        (2 * k + 1, k - 1, k + 2, 0) for k in (1, 2, 3)]
    checked_clean(text, trips=(1, 2, 3))


PARALLEL_CARRY = program(
    [f"fill(x: {TILE}, out: pl.InOut[{TILE}])", f"use(a: {TILE}, b: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: {TILE}, a: pl.InOut[{TILE}], y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        with pl.manual_scope():
            a, t0 = pl.submit(self.fill, x, a, deps=[])
            prev = None
            for i, (c,) in pl.parallel(2, init_values=(prev,)):
                d = pl.system.task_dummy(deps=[t0])
                if i < 2:
                    y, u = pl.submit(self.use, x, x, y, deps=[c])
                e = pl.yield_(d)
        a = self.use(x, y, a)
        return a
""",
    returns=TILE, name="Parallel",
)


def test_a_parallel_loops_taskid_carry_is_its_init_in_every_iteration():
    """Each iteration of the ``pl.parallel`` loop sees the carry's init (no task): ``u`` waits
    for nothing, though the previous iteration yields the dummy ``d``, which waits for t0. The
    writer F of ``a`` after the scope reads ``y`` (after every run of u) and writes ``a`` (after
    t0): its edge on t0 is needed, not implied through u's second run. The hazard checker fails
    where F loses it (drop_implied_dependencies' output does not order t0 before F). The ``if``
    on the loop's variable has the analysis walk the loop iteration by iteration."""
    checked_clean(PARALLEL_CARRY, trips=(1,))


def host_write_in_a_manual_scope() -> str:
    """An AUTO ``step`` R reads ``y`` and writes ``t`` (its TensorMap producer); a manual scope
    then writes an element of ``t`` on the host and submits ``acc`` W, which writes ``y``: a
    write in a manual scope looks nothing up, so the compiler orders W after R's read by an edge
    (write after read). The host write waited for R (``set_tensor_data`` waits for the TensorMap
    producers in either scope mode, runtime-api.md section 11) and blocked the orchestration
    thread until then."""
    return chain_program("""        t = self.step(y, t)
        with pl.manual_scope():
            pl.tensor.write(t, [0, 1], 1.5)
            y, w = pl.submit(self.acc, x, y, deps=[])""")


def test_a_host_access_in_a_manual_scope_orders_the_tasks_after_it():
    """By hand: R, the host write (waits for R), W. The compiler's edge R -> W is implied by the
    host write (redundant 1, minimum 0); with the rule it goes."""
    text = host_write_in_a_manual_scope()
    assert figures(text, OFF) == (1, 1, 0, 0)
    assert figures(text) == (0, 0, 0, 0)
    checked_clean(text, trips=(1,))


PARALLEL_RESULT = program(
    [f"fill(x: {TILE}, out: pl.InOut[{TILE}])", f"use(a: {TILE}, b: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: {TILE}, a: pl.InOut[{TILE}], y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    f"""
        with pl.manual_scope():
            a, t0 = pl.submit(self.fill, x, a, deps=[])
            prev = None
            for i, (c,) in pl.parallel(2, init_values=(prev,)):
                z: {TILE} = pl.create_tensor([16, 16], dtype=pl.FP32)
                z, u = pl.submit(self.use, x, x, z, deps=[t0])
                e = pl.yield_(u)
            y, w = pl.submit(self.use, x, x, y, deps=[e])
        a = self.use(x, y, a)
        return a
""",
    returns=TILE, name="ParallelResult",
)


def test_a_parallel_loops_taskid_result_holds_the_last_iterations_yield():
    """The result ``e`` of the ``pl.parallel`` loop's TaskId carry stands for every iteration's
    ``u``; ``w`` waits for them. By hand: t0, u0, u1, w, F. The user's entries: u0 and u1 on t0,
    w on e's two (4); the compiler's, F (reads ``y``, writes ``a``) on w and on t0, which t0 ->
    u1 -> w -> F implies (redundant 1); the minimum t0 -> u0, t0 -> u1, u0 -> w, u1 -> w, w -> F:
    5. With the rule the implied entry goes."""
    assert figures(PARALLEL_RESULT, OFF) == (6, 1, 5, 0)
    assert figures(PARALLEL_RESULT) == (5, 0, 5, 0)
    checked_clean(PARALLEL_RESULT, trips=(1,))
