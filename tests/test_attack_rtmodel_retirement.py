"""The attack oracle's runtime model (tools/attack/rtmodel.py) lets a producer retire.

runtime-api.md section 11: a task's slot is freed "once the task is COMPLETED, all consumers have
released it and its scope has ended", and a retired producer is skipped. A task may complete at
once, so in the weakest reading it may retire as soon as its scope has ended: a node submitted
after that is no consumer of it, and `set_tensor_data` waits only for a producer's consumers,
and for them only while the producer's scope holds its reference (`fanout_refcount >=
fanout_count-1`: after the scope released it, any one consumer may still run; docs/decisions.md).
Expectations worked out by hand; the old model (every fanin a consumer) fails the "old model"
lines.
"""

from __future__ import annotations

from test_attack import IN, INOUT, T, A, submit

from nanopass.tools.attack import rtmodel


def begin(uid: int) -> dict:
    return {"ev": "scope_begin", "scope": uid, "parent": 0, "mode": rtmodel.AUTO}


def end(uid: int) -> dict:
    return {"ev": "scope_end", "scope": uid}


def host_write() -> dict:
    return {"ev": "set", "scope": 0, "mode": rtmodel.AUTO, "t": T(A), "idx": [0, 0], "value": 0}


def test_a_reader_after_the_producers_scope_ended_is_no_consumer_the_host_write_waits_for():
    # node 0: the producer, in scope 1; node 1: a reader inside scope 1 (a consumer: the scope
    # holds the producer); scope 1 ends; node 2: a reader after (may have skipped the retired
    # producer); node 3: the host write waits for node 0, but after scope 1 released its
    # reference on it, for neither reader (the count is met with node 1 still running).
    log = [begin(1), submit(1, [(INOUT, T(A))], scope=1), submit(2, [(IN, T(A))], scope=1), end(1),
           submit(3, [(IN, T(A))]), host_write()]
    m = rtmodel.build(log)
    assert m.ordered(0, 2)                        # a retired producer is complete: order kept
    assert m.ordered(0, 3)
    assert not m.ordered(1, 3)                    # old model and the retirement rule alone: ordered
    assert not m.ordered(2, 3)                    # old model: ordered


def test_a_host_write_inside_the_producers_scope_waits_for_its_consumers():
    # the same with the host write inside scope 1: the scope's reference is held, so the write
    # waits for node 1, a consumer.
    write = {**host_write(), "scope": 1}
    log = [begin(1), submit(1, [(INOUT, T(A))], scope=1), submit(2, [(IN, T(A))], scope=1), write, end(1)]
    assert rtmodel.build(log).ordered(1, 2)


def test_a_producer_in_the_open_scope_keeps_its_later_readers_as_consumers():
    # the producer is in scope 0 (open to the end); an inner scope 1 comes and goes with a task on
    # another buffer; the reader after it is still the producer's consumer.
    other = 0x3000
    log = [submit(1, [(INOUT, T(A))]), begin(1), submit(2, [(INOUT, T(other))], scope=1), end(1),
           submit(3, [(IN, T(A))]), host_write()]
    assert rtmodel.build(log).ordered(2, 3)


def test_an_explicit_dep_after_the_scope_ended_makes_no_consumer():
    # node 1 names the producer in deps (and reads A untracked, manual_dep): ordered after it,
    # no consumer of it.
    log = [begin(1), submit(1, [(INOUT, T(A))], scope=1), end(1),
           submit(2, [(IN, T(A, manual_dep=True))], deps=[1]), host_write()]
    m = rtmodel.build(log)
    assert m.ordered(0, 1)
    assert not m.ordered(1, 2)                    # old model: ordered


def test_a_host_write_waits_for_no_consumer_of_the_creator():
    # node 0 creates c (an OUTPUT of its own, owner 1); node 1 reads c; the host write of c waits
    # for its creator (node 0), and for the consumers of its TensorMap producers (none: c has no
    # INOUT writer): not for node 1. Whether the creator is a "producer" whose consumers
    # set_tensor_data waits for, the text leaves open; the model takes the reading that orders
    # less (docs/semantics.md), as tools/runtime_model.py does. The old model: ordered.
    c = 0x5000
    write = {**host_write(), "t": T(c, owner=1)}
    log = [submit(1, [(IN, T(A))]), submit(2, [(IN, T(c, owner=1))]), write]
    m = rtmodel.build(log)
    assert m.ordered(0, 2)
    assert not m.ordered(1, 2)
