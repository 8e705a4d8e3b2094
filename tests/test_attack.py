"""The adversarial tester (tools/attack): its oracle's own tests, then a CI-sized run.

The oracle is tested on hand-written programs and hand-written C++ whose answer is known, including
C++ that MUST be flagged (a missing dependency, a wrong buffer, a missing task). The CI-sized run
checks a fixed set of generated programs against the current compiler, and the smallest program
of each failure class found (tools/attack/found.py) is run too: every failure class fails them
(issue 21's fix has landed; a refusal fails only a program that has a correct compilation).
"""

from __future__ import annotations

import ast

import pytest

from nanopass.tools.attack import exhaustive, found, generate, oracle, record, rtmodel, runner, semantics, shrink
from nanopass.tools.attack import program as P

CP = P.Kernel("cp", (("in", "A"), ("inout", "A")))
WR = P.Kernel("wr", (("in", "A"), ("out", "A")))
WB = P.Kernel("wb", (("in", "A"), ("out", "B")))


def seq_of(prog: P.Program, n: int = 1, c: int = 0) -> semantics.SeqResult:
    return semantics.run(prog, P.render(prog).lines, n, c)


# ---- sequential semantics ---------------------------------------------------------------------

def test_a_read_observes_the_last_writer_of_each_element():
    prog = P.Program((CP, WB), (
        P.Call("cp", ("x", "a"), ("a",)),
        P.Slice("s", "a", 2),
        P.Call("wb", ("x", "s"), ("s",)),
        P.HostRead("v", "a", (1, 0), 0),
        P.HostRead("v2", "a", (2, 0), 1),
        P.HostRead("v3", "b", (0, 0), 2)))
    seq = seq_of(prog)
    kinds = [e.kind for e in seq.events]
    assert kinds == ["task", "task", "hread", "hwrite", "hread", "hwrite", "hread", "hwrite"]
    assert seq.events[2].reads[0] == [("ev", 0)]           # row 1: the first task
    assert seq.events[4].reads[0] == [("ev", 1)]           # row 2: the slice's writer
    assert seq.events[6].reads[0] == [("ext", "b", 0)]     # never written: the initial value
    assert seq.events[0].reads[1] == [("ext", "a", e) for e in range(32)]


def test_assemble_copies_the_source_at_that_moment():
    prog = P.Program((WB, CP), (
        P.Create("t", "B"),
        P.Call("wb", ("x", "t"), ("t",)),
        P.HostRead("v0", "a", (4, 0), 0),      # before the assemble: a's own value
        P.Assemble("a", "t", 4),
        P.HostRead("v1", "a", (4, 0), 1),      # after: the source's writer
        P.Call("wb", ("x", "t"), ("t",)),      # a later write of the source does not reach a
        P.HostRead("v2", "a", (4, 0), 2)))
    seq = seq_of(prog)
    reads = [e for e in seq.events if e.kind == "hread"]
    assert reads[0].reads[0] == [("ext", "a", 16)]
    assert reads[1].reads[0] == [("ev", 0)]
    assert reads[2].reads[0] == [("ev", 0)]


def test_programs_with_no_correct_compilation_are_named():
    """An assemble whose placement would be visible has no correct compilation: a refusal of it
    is right. A host access after a task of its manual scope instance has one (a host wait: a
    dummy after the task creating an element the host reads first), so it is not named."""
    manual = lambda *body: P.Manual((P.TidNone("m"),) + body)
    call = lambda k, args, res: P.Call(k, args, res, (), True, "m", ("m",))
    host_write = P.Program((CP,), (manual(call("cp", ("a", "b"), ("b",)), P.HostWrite("a", (6, 0), 7.0)),))
    assert seq_of(host_write).unorderable == []         # a host wait orders it
    host_read = P.Program((CP,), (manual(call("cp", ("a", "b"), ("b",)), P.HostRead("v", "a", (6, 0), 0)),))
    assert seq_of(host_read).unorderable == []          # two reads: nothing to order
    after = P.Program((CP,), (manual(call("cp", ("a", "b"), ("b",))), P.HostWrite("a", (6, 0), 7.0)))
    assert seq_of(after).unorderable == []              # after the scope: a fence can order it
    created = P.Program((WB, CP), (P.Create("t", "B"), P.Call("wb", ("x", "t"), ("t",)),
                                   P.HostRead("v", "a", (5, 1), 0), P.Assemble("a", "t", 4)))
    assert "touches the rows" in seq_of(created).unorderable[0]
    elsewhere = P.Program((WB, CP), (P.Create("t", "B"), P.Call("wb", ("x", "t"), ("t",)),
                                     P.HostRead("v", "a", (1, 1), 0), P.Assemble("a", "t", 4)))
    assert seq_of(elsewhere).unorderable == []          # rows 0-3: not where t goes
    fill = P.Program((), (P.Create("t", "B", 0.5), P.Assemble("a", "t", 0)))
    assert "fill" in seq_of(fill).unorderable[0]
    overwritten = P.Program((WB,), (P.Create("t", "B", 0.5), P.Call("wb", ("x", "t"), ("t",)), P.Assemble("a", "t", 0)))
    assert seq_of(overwritten).unorderable == []
    # the host reads what its scope's task made, and the buffer outlives the scope: allocated
    # before the scope it has no creator in it, but a host wait orders the read
    made = lambda *after: P.Program((WR, CP), (manual(call("wr", ("x", None), ("f",)), P.HostRead("v", "f", (1, 1), 0)),) + after)
    assert seq_of(made()).unorderable == []
    assert seq_of(made(P.Call("cp", ("f", "b"), ("b",)))).unorderable == []


def test_loops_branches_and_carries_follow_the_scalars():
    body = (P.Loop("range", "i", "n", (
        P.If(("i", ">", 0), (P.Call("cp", ("a", "b"), ("b",)),)),),
        carries=(("p", "a"), ("q", "b")), yields=("q", "p"), results=("r1", "r2")),
        P.HostRead("v", "r1", (0, 0), 0))
    prog = P.Program((CP,), body)
    assert [e.kind for e in seq_of(prog, n=0).events] == ["hread", "hwrite"]
    assert seq_of(prog, n=0).events[0].reads[0] == [("ext", "a", 0)]
    seq = seq_of(prog, n=1)                    # one swap, no task (i == 0)
    assert seq.events[0].reads[0] == [("ext", "b", 0)]
    assert [e.kind for e in seq_of(prog, n=3).events].count("task") == 2


def test_parallel_iterations_are_independent_and_nothing_else():
    prog = P.Program((CP,), (P.Loop("parallel", "i", 2, (P.Call("cp", ("x", "a"), ("a",)),)),
                             P.Call("cp", ("x", "a"), ("a",))))
    e = seq_of(prog).events
    assert semantics.independent(e[0], e[1])
    assert not semantics.independent(e[0], e[2])
    conflicts = oracle.sequential_conflicts(seq_of(prog))
    assert (0, 1) not in conflicts and conflicts[(0, 2)] >= {"RAW", "WAW"}


# ---- runtime model -------------------------------------------------------------------------------

def T(addr, off=0, shape=(8, 4), strides=(4, 1), owner=rtmodel.INVALID, manual_dep=False):
    return {"addr": addr, "size": 128, "owner": owner, "off": off, "version": 0, "ndims": len(shape),
            "dtype": 0, "manual_dep": manual_dep, "shapes": list(shape), "strides": list(strides)}


def submit(i, tensors, deps=(), mode=0, scope=0):
    return {"ev": "submit", "id": i, "scope": scope, "mode": mode, "kernels": [-1, 0, -1],
            "tensors": [{"tag": tag, "t": t} for tag, t in tensors], "scalars": [], "deps": list(deps)}


A, B = 0x1000, 0x2000
IN, OUT, INOUT, OE = rtmodel.INPUT, rtmodel.OUTPUT, rtmodel.INOUT, rtmodel.OUTPUT_EXISTING


def test_model_auto_scope_tracks_writers_not_readers():
    log = [submit(10, [(INOUT, T(A))]),            # 0 writes A
           submit(11, [(IN, T(A))]),            # 1 reads A: waits for 0
           submit(12, [(INOUT, T(A))]),            # 2 writes A: waits for 0, not for reader 1
           submit(13, [(OE, T(A))]),               # 3 OUTPUT_EXISTING: no lookup at all
           submit(14, [(IN, T(A, off=16, shape=(4, 4)))])]   # 4: rows 4..7 -> finds 2 and 3
    m = rtmodel.build(log)
    assert m.ordered(0, 1) and m.ordered(0, 2)
    assert not m.ordered(1, 2)
    assert not m.ordered(2, 3) and not m.ordered(1, 3)
    assert m.ordered(2, 4) and m.ordered(3, 4)


def test_model_disjoint_views_and_covered_entries():
    top, bottom = T(A, 0, (4, 4)), T(A, 16, (4, 4))
    log = [submit(1, [(INOUT, top)]), submit(2, [(IN, bottom)]), submit(3, [(INOUT, T(A))]),
           submit(4, [(IN, top)])]
    m = rtmodel.build(log)
    assert not m.ordered(0, 1)                    # disjoint rows
    assert m.ordered(0, 2) and m.ordered(2, 3)
    assert m.nodes[3].preds == {2}                # the covered entry of node 0 was removed


def test_model_manual_scope_tracks_nothing_but_explicit_deps():
    log = [submit(1, [(INOUT, T(A))], mode=1), submit(2, [(IN, T(A))], mode=1),
           submit(3, [(IN, T(A))], deps=[1], mode=1), submit(4, [(IN, T(A))])]
    m = rtmodel.build(log)
    assert not m.ordered(0, 1) and m.ordered(0, 2)
    assert not m.ordered(0, 3)                    # manual writes never reach the TensorMap


def test_model_creator_retention_and_host_accesses():
    out = dict(T(B), owner=7, init=None)
    log = [{"ev": "submit", "id": 7, "scope": 0, "mode": 1, "kernels": [-1, 0, -1],
            "tensors": [{"tag": OUT, "t": out}], "scalars": [], "deps": []},
           submit(8, [(IN, T(A))]),                                       # reads A only
           {"ev": "get", "scope": 0, "mode": 0, "t": T(B, owner=7), "idx": [0, 0]},
           {"ev": "set", "scope": 0, "mode": 0, "t": T(A), "idx": [0, 0], "value": 0},
           submit(9, [(INOUT, T(A))]),
           submit(10, [(IN, T(A))]),
           {"ev": "set", "scope": 0, "mode": 0, "t": T(A), "idx": [1, 1], "value": 0}]
    m = rtmodel.build(log)
    assert m.ordered(0, 2)                        # get waits for the creator
    assert not m.ordered(1, 3)                    # set: A has no producer, its reader is untracked
    assert m.ordered(2, 4) and m.ordered(3, 4)    # the orchestration thread blocked on both
    assert m.ordered(4, 6) and m.ordered(5, 6)    # set waits for the producer and its consumers


def test_model_flags_a_buffer_used_after_its_scope():
    log = [{"ev": "scope_begin", "scope": 1, "parent": 0, "mode": 0},
           {"ev": "alloc", "id": 5, "scope": 1, "outs": [dict(T(B), owner=5, init=None)]},
           {"ev": "scope_end", "scope": 1},
           submit(6, [(IN, T(B, owner=5))])]
    assert [k for k, _ in rtmodel.build(log).errors] == ["use_after_scope"]


# ---- the oracle on hand-written C++ --------------------------------------------------------------

HAND = """#include "pto_orchestration_api.h"
extern "C" {
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{7};
}
void aicpu_orchestration_entry(const ChipStorageTaskArgs& orch_args) {
    Tensor ext_x = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_a = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_b = from_tensor_arg(orch_args.tensor(2));
    PTO2_SCOPE() {
        Arg p0;
        p0.add_input(ext_a);
        p0.add_inout(ext_b);
        TaskOutputTensors o0 = rt_submit_aiv_task(0, p0);
        PTO2TaskId t0 = o0.task_id();
        (void)t0;
        Arg p1;
        p1.add_input(ext_x);
        p1.add_inout(TARGET);
        DEPS
        SECOND
    }
}
}
"""
# b = cp(a, b); a = cp(x, a): the second task writes what the first reads (write-after-read).
WAR_PROG = P.Program((CP,), (P.Call("cp", ("a", "b"), ("b",)), P.Call("cp", ("x", "a"), ("a",))))


def run_hand(tmp_path, target="ext_a", deps="", second="rt_submit_aiv_task(0, p1);"):
    code = HAND.replace("TARGET", target).replace("DEPS", deps).replace("SECOND", second)
    built = record.build(code, tmp_path)
    assert built.binary is not None, built.gxx_error
    log, err = record.run(built.binary, P.entry_arguments(1, 0))
    assert not err
    return oracle.check_run(seq_of(WAR_PROG), log, {"cp": 0})


def test_oracle_flags_a_missing_dependency(tmp_path):
    """As a hazard, and as a value: run latest first (the model lets the writer start first), the
    reader observes the later write."""
    fails = run_hand(tmp_path)
    assert [f.cls for f in fails] == ["hazard WAR task>task AA", "value task latest-first"]
    assert "line" in fails[0].detail
    assert "observes the write of task cp (line 13, #1), the program means the initial a[0]" in fails[1].detail


def test_oracle_accepts_the_dependency_written_out(tmp_path):
    deps = "PTO2TaskId d[1] = {t0};\n        p1.set_dependencies(d, 1);"
    assert run_hand(tmp_path, deps=deps) == []


def test_oracle_flags_a_task_that_writes_the_wrong_buffer(tmp_path):
    deps = "PTO2TaskId d[1] = {t0};\n        p1.set_dependencies(d, 1);"
    classes = {f.cls for f in run_hand(tmp_path, target="ext_b", deps=deps)}
    assert "value final" in classes


def test_oracle_flags_a_missing_task(tmp_path):
    classes = {f.cls for f in run_hand(tmp_path, second="")}
    assert classes == {"trace-mismatch"}


def test_gxx_rejection_is_reported(tmp_path):
    built = record.build(HAND.replace("TARGET", "ext_nowhere"), tmp_path)
    assert built.binary is None and "ext_nowhere" in built.gxx_error


# ---- the compiler end to end ---------------------------------------------------------------------

def test_a_located_user_error_is_a_refusal_not_a_crash(tmp_path):
    inner = P.Call("cp", ("a", "b"), ("b",), (), True, "m", ("m",))
    prog = P.Program((CP,), (P.Manual((P.TidNone("m"), P.Manual((inner,)))),))   # nested manual scopes
    rep = runner.check(prog, settings=((1, 0),), workdir=tmp_path)
    assert rep.refusal and rep.refusal.startswith("prog.py:14:") and not rep.failures


def test_issue_21_class_1_is_found():
    """z = k(y, z); host write of y: set_tensor_data does not wait for a reader."""
    prog = P.Program((CP,), (P.Call("cp", ("a", "b"), ("b",)), P.HostWrite("a", (0, 0), 1.0)))
    rep = runner.check(prog, settings=((1, 0),))
    assert rep.runs == 1
    assert rep.classes() == set(), runner.describe(rep)


@pytest.mark.parametrize("name", sorted(found.FOUND))
def test_found_programs(name):
    """The smallest program of each class found: it does not fail."""
    cls, _, prog = found.FOUND[name]
    rep = prog.check() if hasattr(prog, "check") else runner.check(prog)   # (a scalars.Program: its own)
    assert rep.invalid is None
    assert rep.refusal is None or rep.unorderable, rep.refusal  # refused only if nothing is correct
    assert cls and rep.classes() == set(), runner.describe(rep)


# ---- generators and the shrinker -----------------------------------------------------------------

def test_random_programs_are_valid_and_deterministic():
    for seed in range(40):
        prog = generate.generate(seed)
        assert prog == generate.generate(seed)
        src = P.render(prog).source
        ast.parse(src)
        for n, c in runner.SETTINGS:
            seq_of(prog, n, c)           # the tester's semantics runs every setting


def _manual_depths(stmts, depth=0):
    for s in stmts:
        inner = depth + isinstance(s, P.Manual)
        if isinstance(s, P.Manual):
            yield inner
        for body in (getattr(s, "body", None), getattr(s, "then", None), getattr(s, "orelse", None)):
            if body:
                yield from _manual_depths(body, inner)


def test_random_programs_nest_no_manual_scope_in_another():
    """The DSL refuses a manual scope nested in another (frontend-behaviour.md 3.10): the
    generator writes valid programs only, so such a refusal is never counted as the compiler's."""
    depths = [d for seed in range(3000) for d in _manual_depths(generate.generate(seed).body)]
    assert depths and max(depths) == 1


def test_exhaustive_enumeration_is_complete_and_distinct():
    assert exhaustive.count(1) == len(exhaustive.ATOMS) == 14
    progs = list(exhaustive.programs(2))
    assert len(progs) == exhaustive.count(2) == 14 * 14 + 4 * 14
    assert len({P.render(p).source for p in progs}) == len(progs)
    kinds = {type(p.body[0]).__name__ for p in progs}
    assert kinds == {"Call", "Slice", "HostRead", "HostWrite", "Loop", "If", "Manual"}


def test_shrink_keeps_the_property_and_removes_the_rest():
    prog = generate.generate(3, size=12)
    prog = P.Program(prog.kernels, prog.body + (P.Loop("range", "iz", "n", (P.HostWrite("a", (0, 0), 1.0),)),))

    def has_write(p):
        found = []

        def walk(body):
            for s in body:
                found.append(isinstance(s, P.HostWrite) and s.tensor == "a")
                for ch in P.children(s):
                    walk(ch)
        walk(p.body)
        return any(found)
    small = shrink.shrink(prog, has_write, budget_s=30)
    assert small.body == (P.HostWrite("a", (0, 0), 1.0),)


# ---- the CI-sized run ----------------------------------------------------------------------------

def ci_programs():
    """Every 87th program of the exhaustive size 3 (block shapes come first; 61 of 5,306) and 12
    random ones."""
    yield from ((f"ex3-{i}", p) for i, p in enumerate(exhaustive.programs(3)) if i % 87 == 0)
    yield from ((f"r{s}", generate.generate(s, size=2 + s % 9)) for s in range(12))


def _check_one(item):
    name, prog = item
    rep = runner.check(prog)
    return name, rep.invalid, sorted(rep.classes()), runner.describe(rep), rep.source


def test_ci_sized_run():
    from concurrent.futures import ProcessPoolExecutor

    found_classes = {}
    record.recorder_object()
    with ProcessPoolExecutor(max_workers=2) as pool:
        for name, invalid, classes, text, src in pool.map(_check_one, list(ci_programs())):
            assert invalid is None, f"{name}: {invalid}"
            for cls in classes:
                found_classes.setdefault(cls, (name, text, src))
    report = "\n\n".join(f"{c} ({name}):\n{text}\n{src}" for c, (name, text, src) in found_classes.items())
    assert not found_classes, report
