"""The adversarial tester's offsets grammar (tools/attack/offsets.py): slices and assembles of a
loop-carried [32, 4] tensor at offsets the loop counters compute. Counts, the elements each task
touches, the pairs that conflict and the writes each read observes are computed here by hand
(shared/spec/runtime-api.md section 11, docs/semantics.md); the oracle is shown to fail on the
C++ of a program with one tag changed (a missing TensorMap edge) and with one offset changed."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from nanopass.tools.attack import offsets as O
from nanopass.tools.attack import oracle, record, runner, semantics
from nanopass.tools.attack import program as P

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def _a(op, place, form=None, v=None):
    return O.ATOMS.index((op, (place,) if form is None else (place, (form, v))))


def _tail(prog) -> list:
    return P.render(prog).source.split("-> pl.Tensor[[8, 4], pl.FP32]:\n")[-1].splitlines()


def _seq(prog, n=0):
    return semantics.run(prog, P.render(prog).lines, n, 0)


def _rows(elems) -> tuple:
    """The rows of a [32, 4] tensor a flat element set covers, as (first, last + 1)."""
    rows = sorted({e // 4 for e in elems})
    assert rows == list(range(rows[0], rows[-1] + 1))
    return rows[0], rows[-1] + 1


def _stamps(ev, pos=0) -> set:
    return {st if st[0] == "ev" else st[:1] for st in ev.reads[pos]}


def test_the_counts_by_hand():
    # Atoms: the whole tensor (5 ops); s at 13 offsets (the constant 8, six forms on i, six on k)
    # x 5 ops; ss at 5 (8, i * 8, i * 4, k * 8, k * 4) x 5; as at 13: 5 + 65 + 25 + 13 = 108.
    # Outside a nest k is undefined: 5 + 7 * 5 + 3 * 5 + 7 = 62 atoms; pl.range(3) also drops
    # s(8 - i * 8) x 5 and as(8 - i * 8): 56. In a nest every atom is defined inside (108), and
    # the outer body's only k's (62, as outside a nest). Size 1 per tensor: range(n) 62, range(2)
    # 62, range(3) 56, while 62, nest 108 (nest-pre and -post need two top-level items): 350;
    # x 2 tensors = 700.
    assert (len(O.ATOMS), len(O.FRAMES)) == (108, 14)
    assert O.count(1) == 700
    # Size 2: a guard (3) of one atom: 3 x 700 = 2100; two atoms, per tensor: 62^2 (range(n),
    # range(2), while) x 3 + 56^2 + 108^2 (nest) + 62 x 108 (nest-pre) + 108 x 62 (nest-post)
    # = 11532 + 3136 + 11664 + 13392 = 39724, x 2 = 79448; in all 81548.
    assert O.count(2) == 2100 + 79448 == 81548
    triples = list(O.points(1))
    assert len(set(triples)) == 700
    sources = {O.build(*t).source for t in triples[::7]}
    assert len(sources) == 100


def test_a_nest_renders_the_outer_reader_after_the_inner_writer():
    prog = O.build(O.Frame("t", "nest-post", "n"), (("if_odd", ("atom",)), "atom"),
                   (_a("up", "ss", "{v} * 4", "i"), _a("hr", "s", "8 - {v} * 8", "k")))
    assert _tail(prog) == [
        "        for k, (y,) in pl.range(n, init_values=(t,)):",
        "            for i, (e,) in pl.range(2, init_values=(y,)):",
        "                if i % 2 == 1:",
        "                    s1 = pl.tensor.slice(e, [8, 4], [i * 4, 0])",
        "                    s2 = pl.tensor.slice(s1, [4, 4], [4, 0])",
        "                    s2 = self.upB(s2)",
        "                y = pl.yield_(e)",
        "            s3 = pl.tensor.slice(y, [8, 4], [8 - k * 8, 0])",
        "            h4 = pl.tensor.read(s3, [1, 1])",
        "            pl.tensor.write(sink, [4], h4)",
        "            d = pl.yield_(y)",
        "        f5, k6 = pl.submit(self.rdF, d)",
        "        h7 = pl.tensor.read(d, [9, 1])",
        "        pl.tensor.write(sink, [15], h7)",
        "        return a",
    ]
    # 8 - k * 8 leaves the tensor at k = 2: the program means something for n = 0, 1, 2 only.
    assert prog.settings == ((0, 0), (1, 0), (2, 0))
    # n = 2: k = 0: the updater at i = 1 (rows 4 + 4..8 + 4 = 8..12) (#0), the host read of
    # s3[1, 1] = row 9 (#1, and its sink write #2); k = 1: the updater again (#3), the host read of
    # row 1 (#4, #5); then rdF (#6), the host read of row 9 (#7, #8).
    seq = _seq(prog, 2)
    kinds = [(e.kind, e.kernel) for e in seq.events]
    assert kinds == [("task", "upB"), ("hread", None), ("hwrite", None), ("task", "upB"), ("hread", None),
                     ("hwrite", None), ("task", "rdF"), ("hread", None), ("hwrite", None)]
    assert _rows(seq.events[0].accesses[0].elems) == (8, 12)
    assert seq.events[1].accesses[0].elems == [9 * 4 + 1]
    assert seq.events[4].accesses[0].elems == [1 * 4 + 1]
    assert _stamps(seq.events[1]) == {("ev", 0)}          # row 9: k = 0's updater
    assert _stamps(seq.events[4]) == {("ext",)}           # row 1: no task wrote it
    assert _stamps(seq.events[7]) == {("ev", 3)}          # row 9 after the loop: k = 1's updater
    pairs = oracle.sequential_conflicts(seq)
    assert pairs[(0, 1)] == {"RAW"} and pairs[(1, 3)] == {"WAR"} and (4, 6) not in pairs


def test_half_overlapping_slices_by_hand():
    # up(s(i * 4)) in pl.range(n), n = 3: rows 0..8, 4..12, 8..16; each meets the next one (rows
    # 4..8, 8..12), the first and the third share no row: conflicts (0, 1), (1, 2) only, then
    # rdF (#3) reads all three.
    prog = O.build(O.Frame("t", "range", "n"), ("atom",), (_a("up", "s", "{v} * 4", "i"),))
    seq = _seq(prog, 3)
    assert [_rows(e.accesses[0].elems) for e in seq.events[:3]] == [(0, 8), (4, 12), (8, 16)]
    pairs = oracle.sequential_conflicts(seq)
    assert pairs[(0, 1)] == pairs[(1, 2)] == {"RAW", "WAR", "WAW"}
    assert (0, 2) not in pairs
    assert pairs[(0, 3)] == pairs[(1, 3)] == pairs[(2, 3)] == {"RAW"}
    assert _stamps(seq.events[1]) == {("ev", 0), ("ext",)}   # rows 4..8 from #0, 8..12 initial
    assert _stamps(seq.events[4]) == {("ev", 2)}             # d[9, 1]: the third updater
    mem = {flat: seq.memory[("ext:t", flat)] for flat in range(32 * 4)}
    assert {mem[r * 4] for r in range(0, 4)} == {("ev", 0)}
    assert {mem[r * 4] for r in range(4, 8)} == {("ev", 1)}
    assert {mem[r * 4] for r in range(8, 16)} == {("ev", 2)}
    assert mem[16 * 4] == ("ext", "t", 64)


def test_iterations_zero_and_two_meet_under_i_mod_2():
    # wr(s((i % 2) * 8)) in pl.range(3): rows 0..8, 8..16, 0..8: only #0 and #2 conflict (WAW).
    prog = O.build(O.Frame("u", "range", 3), ("atom",), (_a("wr", "s", "({v} % 2) * 8", "i"),))
    assert prog.settings == ((0, 0),) and prog.extra == ()
    seq = _seq(prog)
    pairs = oracle.sequential_conflicts(seq)
    assert pairs[(0, 2)] == {"WAW"} and (0, 1) not in pairs and (1, 2) not in pairs
    # rdF reads rows 0..8 from #2, 8..16 from #1, the rest the fill of u.
    assert _stamps(seq.events[3]) == {("ev", 2), ("ev", 1), ("fill",)}


def test_an_assemble_at_a_counted_offset_copies_the_source_rows():
    # as((i + 1) * 8) in a while loop, n = 2: the source m (written whole by wrA, #0 and #1) lands
    # in rows 8..16, then 16..24; the host read of d[9, 1] sees #0's write.
    prog = O.build(O.Frame("t", "while", "n"), ("atom",), (_a("as", "as", "({v} + 1) * 8", "i"),))
    assert _tail(prog)[:6] == [
        "        for (i, y) in pl.while_(init_values=(0, t)):",
        "            pl.cond(i < n)",
        "            m1 = pl.create_tensor([8, 4], dtype=pl.FP32)",
        "            m1 = self.wrA(m1)",
        "            y = pl.assemble(y, m1, [(i + 1) * 8, 0])",
        "            n_done, d = pl.yield_(i + 1, y)",
    ]
    seq = _seq(prog, 2)
    assert seq.unorderable == []
    assert _stamps(seq.events[2]) == {("ev", 0), ("ev", 1), ("ext",)}
    assert _stamps(seq.events[3]) == {("ev", 0)}
    assert seq.memory[("ext:t", 17 * 4)] == ("ev", 1) and seq.memory[("ext:t", 7 * 4)][0] == "ext"


def test_out_of_bounds_settings_and_atoms_are_left_out():
    down = _a("rd", "s", "8 - {v} * 8", "i")
    assert not O.valid(O.Frame("t", "range", 3), ("atom",), (down,))
    assert O.valid(O.Frame("t", "range", 2), ("atom",), (down,))
    assert O.build(O.Frame("t", "range", "n"), ("atom",), (down,)).settings == ((0, 0), (1, 0), (2, 0))
    with pytest.raises(O.OutOfBounds):
        _seq(O.build(O.Frame("t", "range", "n"), ("atom",), (down,)), 3)
    # k is the outer counter of a nest: undefined elsewhere, and in the outer body i is.
    outer = _a("up", "s", "{v} * 8", "k")
    assert not O.valid(O.Frame("t", "range", "n"), ("atom",), (outer,))
    assert not O.valid(O.Frame("t", "nest-pre", "n"), ("atom", "atom"), (_a("up", "s", "{v} * 8", "i"), outer))
    assert O.valid(O.Frame("t", "nest-pre", "n"), ("atom", "atom"), (outer, _a("up", "s", "{v} * 8", "i")))


def test_random_programs_are_reproducible_and_valid():
    a, b = O.generate(4935), O.generate(4935)
    assert a.source == b.source and a.settings == b.settings
    for seed in range(20):
        prog = O.generate(seed)
        assert prog.settings and all(_seq(prog, n) for n, _ in prog.settings)


# ---- the oracle against planted faults --------------------------------------------------------

HALF = O.build(O.Frame("t", "range", 2), ("atom",), (_a("up", "s", "{v} * 4", "i"),))


def _runs(prog, code: str, ids: dict) -> list:
    """The oracle's failures on `code` (the C++ of `prog`, perhaps edited) over its settings."""
    wd = Path(tempfile.mkdtemp(prefix="attack49-"))
    try:
        built = record.build(code, wd)
        assert built.binary is not None, built.gxx_error
        fails = []
        for n, c in prog.settings:
            log, err = record.run(built.binary, P.entry_arguments(n, c, extra=prog.extra,
                                                                  extra_shapes=prog.extra_shapes))
            assert not err
            fails += oracle.check_run(_seq(prog, n), log, ids)
        return fails
    finally:
        shutil.rmtree(wd, ignore_errors=True)


def _compiled(prog):
    wd = Path(tempfile.mkdtemp(prefix="attack49-"))
    try:
        (wd / "prog.py").write_text(prog.source)
        comp = record.compile_dsl(wd / "prog.py")
        assert comp.code is not None, comp.error
        return comp
    finally:
        shutil.rmtree(wd, ignore_errors=True)


@needs_gxx
def test_the_oracle_passes_the_compilers_code_and_fails_a_missing_edge_and_a_wrong_offset():
    # The two runs of upA on rows 0..8 and 4..12 share rows 4..8: the second INOUT submit finds
    # the first in the TensorMap (overlapping regions, runtime-api.md 11).
    comp = _compiled(HALF)
    assert _runs(HALF, comp.code, comp.kernel_ids) == []
    # Planted: the slice tagged OUTPUT_EXISTING (`add_output`), which looks nothing up: the
    # second run no longer waits for the first (WAW, and the RAW of the rows it reads).
    assert comp.code.count("params_t0.add_inout(s1);") == 1
    fails = _runs(HALF, comp.code.replace("params_t0.add_inout(s1);", "params_t0.add_output(s1);"),
                  comp.kernel_ids)
    assert any(f.cls.startswith("hazard") and "task upA" in f.detail for f in fails)
    # Planted: the offset i * 8 for i * 4: rows 8..16 in the second run, disjoint from the first;
    # rdF then reads rows 4..8 of the first run, where the program means the second's.
    assert comp.code.count("static_cast<uint32_t>(i * 4)") == 1
    fails = _runs(HALF, comp.code.replace("static_cast<uint32_t>(i * 4)", "static_cast<uint32_t>(i * 8)"),
                  comp.kernel_ids)
    assert any(f.cls.startswith("value") for f in fails)


@needs_gxx
def test_a_nest_with_an_outer_reader_passes_end_to_end():
    prog = O.build(O.Frame("u", "nest-post", "n"), ("atom", "atom"),
                   (_a("wr", "s", "{v} * 4", "i"), _a("rd", "ss", "{v} * 4", "k")))
    rep = runner.check(prog)
    assert rep.runs == 4 and rep.refusal is None and rep.classes() == set(), runner.describe(rep)


def test_a_frame_without_init_values_names_the_tensor_itself():
    prog = O.build(O.Frame("t", "nest-post", "n", carry=False), ("atom", "atom"),
                   (_a("up", "s", "{v} * 4", "i"), _a("as", "as", "{v} * 8", "k")))
    assert _tail(prog)[:7] == [
        "        for k in pl.range(n):",
        "            for i in pl.range(2):",
        "                s1 = pl.tensor.slice(t, [8, 4], [i * 4, 0])",
        "                s1 = self.upA(s1)",
        "            m2 = pl.create_tensor([8, 4], dtype=pl.FP32)",
        "            m2 = self.wrA(m2)",
        "            t = pl.assemble(t, m2, [k * 8, 0])",
    ]
    # n = 2: k = 0: upA on rows 0..8 (#0), 4..12 (#1), wrA (#2) assembled into rows 0..8; k = 1:
    # upA on rows 0..8 (#3), 4..12 (#4), after that copy, and wrA (#5) assembled into rows 8..16.
    # At the end rows 0..4 hold #3's write, 4..8 #4's, 8..16 #5's, 16.. the initial t.
    seq = _seq(prog, 2)
    assert [e.kernel for e in seq.events[:7]] == ["upA", "upA", "wrA", "upA", "upA", "wrA", "rdF"]
    mem = seq.memory
    assert mem[("ext:t", 0)] == ("ev", 3) and mem[("ext:t", 4 * 4)] == ("ev", 4)
    assert mem[("ext:t", 8 * 4)] == ("ev", 5) and mem[("ext:t", 16 * 4)][0] == "ext"


def test_atoms_before_the_loop_and_the_first_iteration():
    # rd(s(8)) before the loop, then wr(s(i * 8)) in pl.range(n), n = 2: the reader of rows 8..16
    # (#0) comes before the second iteration's writer of the same rows (#2): WAR, which no
    # TensorMap entry orders (readers are never recorded); the first iteration's rows 0..8 miss it.
    prog = O.build(O.Frame("t", "range", "n"), ("atom",), (_a("wr", "s", "{v} * 8", "i"),),
                   (_a("rd", "s", "8"),))
    assert _tail(prog)[:4] == [
        "        s1 = pl.tensor.slice(t, [8, 4], [8, 0])",
        "        f2, k3 = pl.submit(self.rdA, s1)",
        "        for i, (y,) in pl.range(n, init_values=(t,)):",
        "            s4 = pl.tensor.slice(y, [8, 4], [i * 8, 0])",
    ]
    pairs = oracle.sequential_conflicts(_seq(prog, 2))
    assert pairs[(0, 2)] == {"WAR"} and (0, 1) not in pairs
    assert all(not O._counters(O.ATOMS[k]) for k in O.CONSTANT_ATOMS) and len(O.CONSTANT_ATOMS) == 5 + 5 + 5 + 1


@needs_gxx
def test_the_oracle_fails_the_compilers_code_without_its_write_after_read_orders():
    # The reader of rows 8..16 before the loop and the writer of rows i * 8.. in the second
    # iteration: the runtime records no reader, so only the compiler orders the pair (WAR);
    # compiled with order_write_after_read=False the oracle finds it unordered at n = 2 and 3.
    prog = O.build(O.Frame("t", "range", "n"), ("atom",), (_a("wr", "s", "{v} * 8", "i"),),
                   (_a("rd", "s", "8"),))
    wd = Path(tempfile.mkdtemp(prefix="attack49-"))
    try:
        (wd / "prog.py").write_text(prog.source)
        comp = record.compile_dsl(wd / "prog.py", order_write_after_read=False)
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    fails = _runs(prog, comp.code, comp.kernel_ids)
    assert {f.cls for f in fails} >= {"hazard WAR task>task AA"}
    assert all("task rdA" in f.detail and "task wrA" in f.detail for f in fails if f.cls.startswith("hazard"))


def test_a_parallel_outer_loop_waives_pairs_of_two_iterations_only():
    # up(s(i * 8)) in pl.range(2) in pl.parallel(n), n = 2: rows 0..8 (#0), 8..16 (#1) in k = 0,
    # the same (#2, #3) in k = 1. #0-#2 and #1-#3 are two iterations' (waived); rdF (#4) reads
    # after the loop: its pairs with #2, #3 stay, and so do those with #0, #1.
    prog = O.build(O.Frame("t", "nest", "n", outer="parallel"), ("atom",), (_a("up", "s", "{v} * 8", "i"),))
    assert _tail(prog)[0] == "        for k, (y,) in pl.parallel(n, init_values=(t,)):"
    pairs = oracle.sequential_conflicts(_seq(prog, 2))
    assert (0, 2) not in pairs and (1, 3) not in pairs and (0, 1) not in pairs
    assert pairs[(2, 4)] == pairs[(3, 4)] == {"RAW"}
    assert O.generate_parallel(4935).source == O.generate_parallel(4935).source
