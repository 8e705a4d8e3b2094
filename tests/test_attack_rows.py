"""The adversarial tester's bounded-exhaustive "rows" grammar (tools/attack/rows.py): the
enumerator is complete and symmetry-reduced (counted by hand for sizes 1 and 2), the renamings
it reduces by keep a program's meaning, and every program up to size 2 passes the oracle.
"""

from __future__ import annotations

import itertools
from collections import Counter


from nanopass.tools.attack import record, rows, runner, semantics
from nanopass.tools.attack import program as P


def _walk(body):
    for s in body:
        yield s
        for ch in P.children(s):
            yield from _walk(ch)


def test_the_alphabet_is_the_grammar_of_the_brief():
    ops = Counter(op for op, _ in rows.ATOMS)
    # rd / wr / up (In, Out, InOut) on w, v, a0, a4; asm into a0 or a4; host read / write of each
    assert ops == {"rd": 4, "wr": 4, "up": 4, "asm": 2, "hr": 4, "hw": 4}
    assert len(set(rows.ATOMS)) == len(rows.ATOMS) == 22
    assert rows.BLOCKS == ("manual", "range_n", "range_2", "if")


def test_size_1_counted_by_hand():
    # 22 atoms; each is one of a pair that swaps w <-> v or a0 <-> a4: 11 classes
    assert rows.count(1, reduce=False) == 22
    assert rows.count(1) == 11
    srcs = [P.render(p).source for p in rows.programs(1)]
    assert len(set(srcs)) == 11
    assert all("v:" in s for s in srcs)                      # the second small tensor is a parameter


def test_size_2_counted_by_hand():
    # Shapes of size 2: two atoms, or a block of four kinds around one atom.
    assert [rows.n_atoms(s) for s in rows.ordered_shapes(2)] == [1, 1, 1, 1, 2]
    # Unreduced: 22 * 22 + 4 * 22.
    assert rows.count(2, reduce=False) == 22 * 22 + 4 * 22
    # Reduced, two atoms, by Burnside over the four renamings (identity, w<->v, a0<->a4, both):
    # fixed pairs: 484; 12 * 12 (atoms without w or v: 6 tasks on a0/a4, 2 asm, 4 host on a);
    # 10 * 10 (atoms without a0/a4: 6 tasks and 4 host accesses on w/v); 0 (every atom names
    # w, v, a0 or a4). (484 + 144 + 100 + 0) / 4 = 182. A block around one atom: 4 * 11 = 44.
    assert rows.count(2) == 182 + 44 == 226


def _image(fill, perm):
    return tuple(perm[i] for i in fill)


def test_reduction_keeps_exactly_one_program_per_renaming_class():
    for size in (1, 2, 3):
        for shape in rows.shapes(size):
            every = list(rows.fills(shape, reduce=False))
            kept = set(rows.fills(shape))
            # every program has a renaming in the kept set, and no two kept ones are renamings
            for fill in every:
                images = {fill} | {_image(fill, p) for p in rows.RENAMINGS}
                assert len(images & kept) == 1, (shape, fill)


def test_renamings_keep_the_meaning():
    """A renamed program runs the same events with the same conflicts (the reduction is sound)."""
    def sig(prog, n, c):
        seq = semantics.run(prog, P.render(prog).lines, n, c)
        from nanopass.tools.attack.oracle import sequential_conflicts
        return ([(e.kind, e.kernel) for e in seq.events], sorted(sequential_conflicts(seq).items()),
                len(seq.unorderable))
    for shape in rows.ordered_shapes(3)[::3]:
        for fill in itertools.islice(rows.fills(shape, reduce=False), 0, None, 97):
            prog = rows.build(shape, fill)
            for perm in rows.RENAMINGS:
                other = rows.build(shape, _image(fill, perm))
                for n, c in runner.SETTINGS:
                    assert sig(prog, n, c) == sig(other, n, c)


def test_manual_scopes_do_not_nest_and_their_tasks_chain_per_object():
    progs = list(rows.programs(3))
    assert len(progs) == rows.count(3) == 5693
    kinds = Counter()
    for prog in progs:
        for s in _walk(prog.body):
            kinds[type(s).__name__] += 1
            if isinstance(s, P.Manual):
                assert not any(isinstance(t, P.Manual) for t in _walk(s.body))
                for t in _walk(s.body):
                    if isinstance(t, P.Call):
                        assert t.submit
                        # a task waits for the last task on its object; an assemble source's
                        # writer writes a fresh tensor and waits for nothing
                        assert t.tid in t.deps if t.deps else t.tid.startswith("u")
    assert {"Call", "Slice", "Create", "Assemble", "HostRead", "HostWrite", "Loop", "If", "Manual",
            "TidNone"} <= set(kinds)


def _check_one(item):
    name, prog = item
    rep = runner.check(prog)
    return name, rep.invalid, sorted(rep.classes()), runner.describe(rep), rep.source


def test_every_program_up_to_size_2_passes():
    """The CI-sized exhaustive run: all 237 programs of size 1 and 2, six runs each."""
    from concurrent.futures import ProcessPoolExecutor

    items = [(f"rows{k}-{i}", p) for k in (1, 2) for i, p in enumerate(rows.programs(k))]
    assert len(items) == 11 + 226
    record.recorder_object()
    failing = {}
    with ProcessPoolExecutor(max_workers=2) as pool:
        for name, invalid, classes, text, src in pool.map(_check_one, items, chunksize=8):
            assert invalid is None, f"{name}: {invalid}"
            for cls in classes:
                failing.setdefault(cls, (name, text, src))
    assert not failing, "\n\n".join(f"{c} ({n}):\n{t}\n{s}" for c, (n, t, s) in failing.items())


def test_a_host_access_of_rows_a_manual_task_filled_through_an_assemble_waits_for_the_sources_writer():
    """The source lives in the target's rows (the runtime cannot copy), so its writer writes them;
    a host access of those rows after it in one manual scope instance waits for it through a host
    wait (a dummy task on the writer whose element the host reads first), beside the rows too
    (found/32, refused before). The tester's semantics finds each program orderable and the
    compiled program fails no check."""
    A = {a: i for i, a in enumerate(rows.ATOMS)}

    def passes(shape, atoms):
        prog = rows.build(shape, tuple(A[a] for a in atoms))
        unorderable = any(semantics.run(prog, P.render(prog).lines, n, c).unorderable for n, c in runner.SETTINGS)
        rep = runner.check(prog)
        return not unorderable and rep.refusal is None and not rep.classes()
    manual2 = (("manual", ("atom", "atom")),)
    assert passes(manual2, [("asm", "a0"), ("hr", "a0")])
    assert passes(manual2, [("asm", "a4"), ("hw", "a4")])
    assert passes(manual2, [("asm", "a4"), ("hw", "a0")])
    assert passes(manual2, [("hr", "a0"), ("asm", "a0")])
    assert passes(("atom", ("manual", ("atom",))), [("asm", "a0"), ("hr", "a0")])
    loop = (("manual", (("range_2", ("atom", "atom")),)),)
    assert passes(loop, [("hw", "a0"), ("asm", "a0")])       # the second iteration's write
    assert passes(loop, [("hw", "a0"), ("asm", "a4")])
