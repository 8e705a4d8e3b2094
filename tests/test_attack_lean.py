"""tools/attack/lean.py, the outside check of issue 24's lean-edges claim: its figures on small
hand-written recorder logs, each computed by hand from shared/spec/runtime-api.md section 11 (the
comment above each case says how), and proof that it can fail: an insertion added by hand to a
recorded graph is reported redundant, one removed leaves a needed pair unordered."""

from __future__ import annotations

import shutil

import pytest

from nanopass.tools.attack import lean
from nanopass.tools.attack import rtmodel as R
from nanopass.tools.attack.lean_run import REPO, file_log, if_chain_source

INVALID = R.INVALID
X, Y = 0x1000, 0x2000          # two entry tensors' buffers


def tensor(addr, off=0, n=4, owner=INVALID, manual_dep=False):
    return {"addr": addr, "size": 4 * n, "owner": owner, "off": off, "version": 0, "ndims": 1,
            "dtype": 0, "manual_dep": manual_dep, "shapes": [n], "strides": [1]}


class Log:
    """A recorder log written by hand: one outer AUTO scope, then what the case adds."""

    def __init__(self):
        self.events = [{"ev": "arg", "slot": 0, "t": tensor(X)}, {"ev": "arg", "slot": 1, "t": tensor(Y)},
                       {"ev": "scope_begin", "scope": 0, "parent": -1, "mode": R.AUTO}]
        self.scopes = [(0, R.AUTO)]
        self.next_id = 100

    def _task(self, kind, slots, deps):
        self.next_id += 1
        ev = {"ev": kind, "id": self.next_id, "scope": self.scopes[-1][0], "mode": self.scopes[-1][1],
              "tensors": [{"tag": tag, "t": t} for tag, t in slots], "scalars": [], "deps": list(deps)}
        if kind == "submit":
            ev["kernels"] = [0, -1, -1]
        self.events.append(ev)
        return self.next_id

    def submit(self, *slots, deps=()):
        return self._task("submit", slots, deps)

    def dummy(self, *slots, deps=()):
        return self._task("dummy", slots, deps)

    def host(self, kind, t, idx=0):
        self.events.append({"ev": kind, "scope": self.scopes[-1][0], "mode": self.scopes[-1][1], "t": t,
                            "idx": [idx]})

    def manual(self):
        uid = len(self.scopes) + 10
        self.events.append({"ev": "scope_begin", "scope": uid, "parent": self.scopes[-1][0], "mode": R.MANUAL})
        self.scopes.append((uid, R.MANUAL))

    def end_scope(self):
        self.events.append({"ev": "scope_end", "scope": self.scopes.pop()[0]})

    def done(self):
        while self.scopes:
            self.end_scope()
        return self.events + [{"ev": "end"}]


def redundant_pairs(fig):
    return [(a, b) for a, b, *_ in fig.redundant]


def test_write_after_read_needs_its_insertion():
    # Node 0 reads x (INPUT), node 1 writes it (OUTPUT_EXISTING): readers are never recorded and
    # OUTPUT_EXISTING looks nothing up, so the runtime leaves the pair unordered; one insertion.
    log = Log()
    r = log.submit((R.INPUT, tensor(X)))
    log.submit((R.OUTPUT_EXISTING, tensor(X)), deps=[r])
    fig = lean.analyse(log.done())
    assert (fig.insertions, fig.redundant, fig.minimum, fig.dummies, fig.unordered) == (1, [], 1, 0, [])
    assert fig.needed == 1


def test_tensormap_orders_a_read_after_an_inout_write():
    # Node 0 writes x INOUT (a TensorMap producer), node 1 reads it (INPUT, looked up): the
    # runtime orders the pair, so nothing is needed of the compiler...
    log = Log()
    w = log.submit((R.INOUT, tensor(X)))
    log.submit((R.INPUT, tensor(X)))
    fig = lean.analyse(log.done())
    assert (fig.insertions, fig.minimum, fig.unordered, fig.needed) == (0, 0, [], 1)
    # ... and an insertion of the same order, added by hand, is redundant and implied.
    log = Log()
    w = log.submit((R.INOUT, tensor(X)))
    log.submit((R.INPUT, tensor(X)), deps=[w])
    fig = lean.analyse(log.done())
    assert fig.insertions == 1 and redundant_pairs(fig) == [(0, 1)] and fig.redundant[0][2] is True
    assert fig.minimum == 0


def test_an_insertion_implied_through_another_path():
    # 0 writes x INOUT; 1 reads x (ordered after 0 by the TensorMap); 2 overwrites x
    # (OUTPUT_EXISTING) with deps [1, 0]. Needed: (0,1) RAW, (0,2) WAW, (1,2) WAR. 1 -> 2 must be
    # inserted; 0 -> 2 follows from 0 -> 1 -> 2, so it is redundant, and the minimum is 1.
    log = Log()
    w = log.submit((R.INOUT, tensor(X)))
    r = log.submit((R.INPUT, tensor(X)))
    log.submit((R.OUTPUT_EXISTING, tensor(X)), deps=[r, w])
    fig = lean.analyse(log.done())
    assert fig.needed == 3 and fig.insertions == 2 and fig.minimum == 1
    assert redundant_pairs(fig) == [(0, 2)] and fig.unordered == []


def test_disjoint_rows_need_nothing_and_an_unneeded_insertion_is_redundant_not_implied():
    # Two writers of disjoint halves of x, two readers of y: no conflicting pair. The insertion
    # 2 -> 3 orders two readers, which nothing needs: redundant, but not implied (without it
    # the two are unordered).
    log = Log()
    log.submit((R.OUTPUT_EXISTING, tensor(X, off=0, n=2)))
    log.submit((R.OUTPUT_EXISTING, tensor(X, off=2, n=2)))
    r = log.submit((R.INPUT, tensor(Y)))
    log.submit((R.INPUT, tensor(Y)), deps=[r])
    fig = lean.analyse(log.done())
    assert fig.needed == 0 and fig.minimum == 0
    assert [(a, b, implied) for a, b, implied, *_ in fig.redundant] == [(2, 3, False)]


def test_a_dummy_join_beats_the_minimum_between_program_nodes():
    # Three readers of x, then two writers of its two halves (OUTPUT_EXISTING): six WAR pairs,
    # none ordered by the runtime, none implied by another: the minimum is 6. A dummy that waits
    # for the readers and that both writers wait for does it with 3 + 2 = 5 insertions.
    log = Log()
    rs = [log.submit((R.INPUT, tensor(X))) for _ in range(3)]
    d = log.dummy(deps=rs)
    log.submit((R.OUTPUT_EXISTING, tensor(X, off=0, n=2)), deps=[d])
    log.submit((R.OUTPUT_EXISTING, tensor(X, off=2, n=2)), deps=[d])
    fig = lean.analyse(log.done())
    assert (fig.needed, fig.minimum, fig.insertions, fig.dummies, fig.redundant, fig.unordered) == (6, 6, 5, 1, [], [])


def test_host_write_after_an_input_reader_through_a_fence():
    # Node 0 reads x; the host then writes x[0]. set_tensor_data waits for producers and their
    # consumers, and x has no producer: the runtime leaves the pair unordered. A fence (a dummy
    # taking x INOUT, waiting for node 0) is a TensorMap producer the write waits for: 1
    # insertion, 1 dummy, nothing redundant. Without the fence's insertion the pair is unordered.
    def run(fenced):
        log = Log()
        r = log.submit((R.INPUT, tensor(X)))
        log.dummy((R.INOUT, tensor(X)), deps=[r] if fenced else [])
        log.host("set", tensor(X), 0)
        return lean.analyse(log.done())

    fig = run(True)
    assert (fig.insertions, fig.dummies, fig.minimum, fig.redundant, fig.unordered) == (1, 1, 1, [], [])
    assert run(False).unordered == [(0, 2, False)]


def test_a_host_wait_is_no_program_node():
    # Node 0 writes x in a MANUAL scope (not published: a later get_tensor_data does not wait
    # for it). After the scope a dummy with an OUTPUT waits for node 0 and the host reads that
    # output (a compiled host wait, no access of the program: the get waits for the dummy, its
    # creator), then reads x. The needed pair is (0, 3) only, the runtime alone leaves it
    # unordered: minimum 1, the dummy's one insertion, not redundant.
    log = Log()
    log.manual()
    w = log.submit((R.OUTPUT_EXISTING, tensor(X)))
    log.end_scope()
    log.dummy((R.OUTPUT, tensor(0x9000, n=1)), deps=[w])
    log.events[-1]["tensors"][0]["t"]["owner"] = log.next_id
    log.host("get", tensor(0x9000, n=1, owner=log.next_id))
    log.host("get", tensor(X))
    fig = lean.analyse(log.done())
    assert (fig.needed, fig.unordered, fig.minimum, fig.insertions, fig.redundant) == (1, [], 1, 1, [])
    assert fig.inside == 0


def test_pairs_inside_one_manual_scope_are_the_users():
    # In a MANUAL scope nothing but insertions orders: a writer and a reader of x there, with no
    # deps=, are an unordered needed pair, marked inside (the user's); with the user's dep, one
    # insertion inside the scope.
    def run(dep):
        log = Log()
        log.manual()
        w = log.submit((R.OUTPUT_EXISTING, tensor(X)))
        log.submit((R.INPUT, tensor(X)), deps=[w] if dep else [])
        return lean.analyse(log.done())

    assert run(False).unordered == [(0, 1, True)]
    fig = run(True)
    assert (fig.insertions, fig.inside, fig.minimum, fig.minimum_outside, fig.unordered) == (1, 1, 1, 0, [])


def test_a_pair_across_a_manual_boundary_is_the_compilers():
    # Node 0 writes x in the AUTO scope; node 1 reads x inside a MANUAL scope (no lookup there):
    # the runtime leaves the pair unordered, and it is not inside one manual instance, so it
    # counts in minimum_outside; node 2, after node 1 in the scope, reads y and writes x
    # (OUTPUT_EXISTING) with the user's dep on node 1: (1, 2) is inside, and (0, 2) follows
    # from (0, 1) and (1, 2), so the compiler's part of the minimum is the one edge 0 -> 1.
    log = Log()
    w = log.submit((R.OUTPUT_EXISTING, tensor(X)))
    log.manual()
    r = log.submit((R.INPUT, tensor(X)), deps=[w])
    log.submit((R.INPUT, tensor(Y)), (R.OUTPUT_EXISTING, tensor(X)), deps=[r])
    fig = lean.analyse(log.done())
    assert (fig.needed, fig.insertions, fig.inside, fig.minimum, fig.minimum_outside) == (3, 2, 1, 2, 1)
    assert fig.redundant == [] and fig.unordered == []


def test_no_dep_and_manual_dep_accesses_are_waived():
    # A NO_DEP slot and a manual_dep tensor: the program opted out; no pair is needed.
    log = Log()
    log.submit((R.INPUT, tensor(X)))
    log.submit((R.NO_DEP, tensor(X)))
    log.submit((R.INPUT, tensor(Y, manual_dep=True)))
    log.submit((R.OUTPUT_EXISTING, tensor(Y, manual_dep=True)))
    assert lean.analyse(log.done()).needed == 0


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_recorded_graph_edited_by_hand():
    # The compiled golden war_straight: a reader of x, then a writer of x with the compiler's one
    # insertion. Removing it leaves the write-after-read pair unordered; adding an insertion the
    # reader's own order implies is reported redundant and implied.
    log, why = file_log(REPO / "tests" / "golden" / "war_straight.py")
    assert log is not None, why
    fig = lean.analyse(log)
    assert (fig.insertions, fig.redundant, fig.unordered, fig.minimum) == (1, [], [], 1)
    bare = lean.analyse(lean.without_deps(log))
    assert len(bare.unordered) == 1 and bare.insertions == 0
    subs = [k for k, ev in enumerate(log) if ev["ev"] == "submit"]
    first, second = subs[0], subs[1]
    edited = [dict(ev) for ev in log]
    edited[second]["deps"] = list(edited[second]["deps"]) + list(edited[second]["deps"])   # a duplicate
    fig = lean.analyse(edited)
    assert fig.insertions == 2 and len(fig.redundant) == 2 and all(r[2] for r in fig.redundant)
    assert edited[first]["deps"] == []


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_if_chain_source_compiles_and_runs(tmp_path):
    # docs/semantics.md gap 4's chain, k = 3, reads first (n = 2): the write in the third if
    # must follow both reads, which write tensors of their own (nothing orders them): the
    # minimum is 2, whatever the compiler inserts, and nothing may stay unordered.
    from nanopass.tools.attack.lean_run import if_chain_figures

    assert if_chain_source(3).count("if n > ") == 3
    fig, why = if_chain_figures(3, "independent", 2)
    assert fig is not None, why
    assert fig.minimum == 2 and fig.unordered == [] and fig.insertions >= 2
