"""The runtime model lets a producer retire (runtime-api.md section 11), in the weakest reading.

The spec: a task's slot "is freed once the task is COMPLETED, all consumers have released it and
its scope has ended", and "a producer that has already retired ... is skipped silently". Nothing
keeps a task from completing at once, so a producer may retire as soon as its scope has ended: a
node submitted after that may have skipped it and is then no consumer of it, and
`set_tensor_data` "also waits for each producer's consumers" only. A skipped producer is
complete, so the order producer -> later node stays. Each expectation below is worked out by hand
from those sentences; the model before this rule counted every later reader as a consumer and
fails the tests marked "old model: ...".

And `set_tensor_data` waits until `fanout_refcount >= fanout_count-1`: the one reference it does
not wait for is the producer's scope's. Once that scope has ended and released it, the count is
met with any one consumer still running (docs/decisions.md, "set_tensor_data after the producer's
scope"): a host write after the producer's scope waits for none of its consumers in particular.
"""

from __future__ import annotations

from nanopass.tools.hazards import failing, find_hazards
from nanopass.tools.runtime_model import model

from test_runtime_model import Builder, edges


def test_a_reader_after_the_producers_scope_ended_is_not_waited_for_by_a_host_write():
    # x is an entry tensor; P writes it in an inner scope, the scope ends, R reads x, the host
    # writes x[0, 0]. P may have retired before R: R skipped it, is no consumer of P, and the
    # write waits at most for P (or nothing, P retired) -> R and W race (WAR).
    # old model: R counted as P's consumer, so ordered(R, W) and no hazard.
    b = Builder("x")
    b.scope("auto")
    producer = b.task(("x", "INOUT"))
    b.end()
    reader = b.task(("x", "INPUT"))
    write = b.host("x", write=True)
    runtime = model(b.trace)
    assert not runtime.ordered(reader, write)
    assert runtime.ordered(producer, write)
    [hazard] = failing(find_hazards(b.trace, runtime))
    assert (hazard.kind, hazard.first, hazard.second) == ("WAR", reader, write)


def test_a_retired_producer_still_comes_before_the_reader_that_skipped_it():
    # the reader either waits for P (P alive) or finds it retired, hence COMPLETED: the edge and
    # the order stay; only the consumer relation goes.
    b = Builder("x")
    b.scope("auto")
    producer = b.task(("x", "INOUT"))
    b.end()
    reader = b.task(("x", "INPUT"))
    assert (producer, reader, "tensormap") in edges(b)
    assert model(b.trace).ordered(producer, reader)


def test_a_reader_inside_the_producers_scope_is_waited_for_by_a_write_inside_it():
    # R reads inside P's scope and the host writes there too: P cannot have retired (its scope
    # holds it), R is its consumer, and with the scope's reference still held the count
    # fanout_count-1 is met only when R has released P: the write waits for R.
    b = Builder("x")
    b.scope("auto")
    b.task(("x", "INOUT"))
    inside = b.task(("x", "INPUT"))
    write = b.host("x", write=True)
    b.end()
    assert model(b.trace).ordered(inside, write)
    assert failing(find_hazards(b.trace)) == []


def test_a_write_after_the_producers_scope_ended_waits_for_none_of_its_consumers():
    # R1 reads inside P's scope (a consumer: P cannot have retired), R2 after it ended (no
    # consumer). The write comes after the scope ended, whose reference on P is released: one
    # consumer may still run when fanout_refcount reaches fanout_count-1 (P's only consumer R1
    # here), so nothing orders R1 before W either: two WARs.
    b = Builder("x")
    b.scope("auto")
    b.task(("x", "INOUT"))
    inside = b.task(("x", "INPUT"))
    b.end()
    after = b.task(("x", "INPUT"))
    write = b.host("x", write=True)
    runtime = model(b.trace)
    assert not runtime.ordered(inside, write)  # old model and the retirement rule alone: ordered
    assert not runtime.ordered(after, write)  # old model: ordered
    assert {(h.kind, h.first, h.second) for h in failing(find_hazards(b.trace, runtime))} == {
        ("WAR", inside, write),
        ("WAR", after, write),
    }


def test_an_inner_scope_ending_does_not_retire_the_producers_of_the_outer_scope():
    # P is submitted in the outer scope (still open); an inner scope opens and ends with another
    # task in it; R reads after: P's scope has not ended, P is alive, R is its consumer, W waits.
    b = Builder("x", "y")
    b.task(("x", "INOUT"))
    b.scope("auto")
    b.task(("y", "INOUT"))
    b.end()
    reader = b.task(("x", "INPUT"))
    write = b.host("x", write=True)
    assert model(b.trace).ordered(reader, write)
    assert failing(find_hazards(b.trace)) == []


def test_the_scope_that_counts_is_the_innermost_one_the_producer_was_submitted_in():
    # P in a scope nested two deep; the inner one ends, R reads inside the still open outer one.
    # The outer scope holds no reference on P ("a scope holds one reference on each task
    # submitted in it"), so P may have retired: R is no consumer.
    b = Builder("x")
    b.scope("auto")
    b.scope("auto")
    b.task(("x", "INOUT"))
    b.end()
    reader = b.task(("x", "INPUT"))
    write = b.host("x", write=True)
    b.end()
    assert not model(b.trace).ordered(reader, write)  # old model: ordered


def test_a_producer_per_iteration_each_in_its_scope():
    # a loop of two iterations, each an AUTO scope whose task rewrites x (INOUT) and whose second
    # task reads it; after the loop a third reader, then the host write. The second iteration's
    # writer P2 is the only entry (INOUT covers P1's); its in-scope reader R2 is its consumer,
    # the reader after the loop is not. R1 read P1's value and was submitted before P2, which
    # looked P1 up (INOUT), but R1 is no producer: P2 does not wait for R1 (no WAR tracking,
    # in the old model too) and W waits only for P2, whose scope has ended (so for none of its
    # consumers) -> R1 races P2 and W, R2 and the reader after the loop race W.
    b = Builder("x")
    readers, writers = [], []
    for _ in range(2):
        b.scope("auto")
        writers.append(b.task(("x", "INOUT")))
        readers.append(b.task(("x", "INPUT")))
        b.end()
    after = b.task(("x", "INPUT"))
    write = b.host("x", write=True)
    runtime = model(b.trace)
    assert not runtime.ordered(readers[1], write)  # old model and the retirement rule alone: ordered
    assert not runtime.ordered(after, write)  # old model: ordered
    assert {(h.kind, h.first, h.second) for h in failing(find_hazards(b.trace, runtime))} == {
        ("WAR", readers[0], writers[1]),
        ("WAR", readers[0], write),
        ("WAR", readers[1], write),
        ("WAR", after, write),
    }


def test_an_explicit_dependency_on_a_retired_task_makes_no_consumer_either():
    # step 1: "a producer that has already retired ... is skipped silently": a task naming P in
    # its deps after P's scope ended, reading x as NO_DEP (no lookup), is ordered after P but no
    # consumer of it.
    b = Builder("x")
    b.scope("auto")
    producer = b.task(("x", "INOUT"))
    b.end()
    reader = b.task(("x", "NO_DEP"), deps=(producer,))
    write = b.host("x", write=True)
    runtime = model(b.trace)
    assert runtime.ordered(producer, reader)
    assert not runtime.ordered(reader, write)  # old model: ordered


def test_a_writer_after_the_scope_ended_is_a_producer_of_its_own():
    # INOUT after P's scope ended: it may skip P (P is complete), but it enters the TensorMap
    # itself, so the host write waits for it, and so for P too.
    b = Builder("x")
    b.scope("auto")
    producer = b.task(("x", "INOUT"))
    b.end()
    writer = b.task(("x", "INOUT"))
    write = b.host("x", write=True)
    runtime = model(b.trace)
    assert runtime.ordered(writer, write) and runtime.ordered(producer, write)
    assert failing(find_hazards(b.trace, runtime)) == []
