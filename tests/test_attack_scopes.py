"""The adversarial tester's bounded-exhaustive "scopes" grammar (tools/attack/scopes.py): the
enumerator is complete and symmetry-reduced (counted by hand for sizes 1 to 3), the renaming it
reduces by keeps a program's meaning, and every program up to size 2 passes the oracle.
"""

from __future__ import annotations

import itertools
from collections import Counter

from nanopass.tools.attack import record, runner, scopes, semantics
from nanopass.tools.attack import program as P
from nanopass.tools.attack.oracle import sequential_conflicts


def _walk(body):
    for s in body:
        yield s
        for ch in P.children(s):
            yield from _walk(ch)


def test_the_alphabet_is_the_grammar_of_the_brief():
    ops = Counter(a[0] for a in scopes.ATOMS)
    # create_tensor with and without init_value, Out, InOut, In (output unused), host read and
    # write, each of w and v; a task reading T into a runtime-allocated output U names (4 pairs)
    assert ops == {"new": 2, "newi": 2, "wr": 2, "up": 2, "rd": 2, "hr": 2, "hw": 2, "mk": 4}
    assert len(set(scopes.ATOMS)) == len(scopes.ATOMS) == 18
    assert scopes.BLOCKS == ("scope", "manual", "range_n", "range_2", "parallel_2", "swap_n", "if_n")
    assert scopes.SETTINGS == ((0, 0), (1, 0), (2, 0), (3, 0))


def test_size_1_counted_by_hand():
    # 18 atoms; each names w or v, so swapping them moves every atom: 9 classes
    assert scopes.count(1, reduce=False) == 18
    assert scopes.count(1) == 9
    srcs = [P.render(p).source for p in scopes.programs(1)]
    assert len(set(srcs)) == 9
    assert all("v: pl.InOut" in s for s in srcs)             # the second name is a parameter


def test_size_2_counted_by_hand():
    # Shapes of size 2: a block of seven kinds around one atom, or two atoms.
    assert [scopes.n_atoms(s) for s in scopes.ordered_shapes(2)] == [1] * 7 + [2]
    assert scopes.count(2, reduce=False) == 7 * 18 + 18 * 18 == 450
    # Reduced: no atom is its own image, so no program is; every class has two members.
    assert scopes.count(2) == 7 * 9 + 18 * 18 // 2 == 225


def test_size_3_counted_by_hand():
    # three atoms; an atom beside a block around one; a block around two atoms; a block around a
    # block around one atom (7 * 7 pairs, less the manual or scope block inside a manual one)
    unreduced = 18 ** 3 + 2 * 7 * 18 * 18 + 7 * 18 * 18 + (7 * 7 - 2) * 18
    assert scopes.count(3, reduce=False) == unreduced == 13482
    assert scopes.count(3) == unreduced // 2


def _image(fill, perm):
    return tuple(perm[i] for i in fill)


def test_reduction_keeps_exactly_one_program_per_renaming_class():
    for size in (1, 2, 3):
        for shape in scopes.shapes(size):
            kept = set(scopes.fills(shape))
            for fill in scopes.fills(shape, reduce=False):
                images = {fill} | {_image(fill, p) for p in scopes.RENAMINGS}
                assert len(images & kept) == 1, (shape, fill)


def test_renamings_keep_the_meaning():
    """A renamed program runs the same events with the same conflicts (the reduction is sound)."""
    def sig(prog, n, c):
        seq = semantics.run(prog, P.render(prog).lines, n, c)
        return [(e.kind, e.kernel) for e in seq.events], sorted(sequential_conflicts(seq).items())
    for shape in scopes.ordered_shapes(3)[::5]:
        for fill in itertools.islice(scopes.fills(shape, reduce=False), 0, None, 101):
            prog = scopes.build(shape, fill)
            other = scopes.build(shape, _image(fill, scopes.RENAMINGS[0]))
            for n, c in scopes.SETTINGS:
                assert sig(prog, n, c) == sig(other, n, c)


def test_the_blocks_and_the_careful_users_chain():
    kinds = Counter()
    for prog in scopes.programs(3):
        assert prog.settings == scopes.SETTINGS
        has_scope = False
        for s in _walk(prog.body):
            kinds[type(s).__name__] += 1
            has_scope |= isinstance(s, P.Auto)
            if isinstance(s, P.Manual):
                assert s.body[0] == P.TidNone("m")
                assert not any(isinstance(t, (P.Manual, P.Auto)) for t in _walk(s.body))
                for t in _walk(s.body):
                    if isinstance(t, P.Call):
                        assert t.submit and t.tid == "m" and t.deps == ("m",)
            if isinstance(s, P.Loop) and s.carries:
                assert (s.trip, s.carries, s.yields, s.results) == ("n", (("w", "w"), ("v", "v")), ("v", "w"), ("w", "v"))
        assert prog.auto_scope == (not has_scope)       # `with pl.scope()` needs auto_scope=False
    assert {"Call", "Create", "HostRead", "HostWrite", "Loop", "If", "Manual", "Auto", "TidNone"} <= set(kinds)


def _check_one(item):
    name, prog = item
    rep = runner.check(prog)
    return name, rep.invalid, rep.runs, sorted(rep.classes()), runner.describe(rep), rep.source


def test_every_program_up_to_size_2_passes():
    """The CI-sized exhaustive run: all 234 programs of size 1 and 2, for n = 0..3 each."""
    from concurrent.futures import ProcessPoolExecutor

    items = [(f"scopes{k}-{i}", p) for k in (1, 2) for i, p in enumerate(scopes.programs(k))]
    assert len(items) == 9 + 225
    record.recorder_object()
    failing = {}
    with ProcessPoolExecutor(max_workers=2) as pool:
        for name, invalid, runs, classes, text, src in pool.map(_check_one, items, chunksize=8):
            assert invalid is None, f"{name}: {invalid}"
            assert runs == 4 or classes, name
            for cls in classes:
                failing.setdefault(cls, (name, text, src))
    assert not failing, "\n\n".join(f"{c} ({n}):\n{t}\n{s}" for c, (n, t, s) in failing.items())
