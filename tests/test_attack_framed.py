"""The framed enumeration the attack grammars share (tools/attack/grammar.py's Framed, numbered,
Builder, random_items): its order and counts on a toy grammar by hand, and every grammar's first
programs, counts and random draws as they were before the grammars shared it.

The digests pin the enumeration order of main 54c3b20 (each grammar's own `_all` / `programs`,
before Framed): they were computed from that tree's programs (sha256 of the sources joined by
"\\n#---\\n", 16 hex digits), so a long run's `--skip K` resumes at the same program and a seed
draws the same random program as before.
"""

from __future__ import annotations

import hashlib
import itertools
import random

import pytest

from nanopass.tools.attack import cli, exhaustive, grammar
from nanopass.tools.attack import program as P

FIRST = 12          # programs of each of sizes 1, 2, 3
PINNED = {          # name: ([digest of the first FIRST programs of sizes 1, 2, 3], (index at size 2, its digest))
    "offsets": (["c21f61b1f9544480", "d29dfb16e8e6b092", "d86585bb1e8bb0a8"], (1000, "60496717c851d21f")),
    "guards": (["0fc7c01bf2eee6b7", "f9e2b5d8cd64c85a", "de2d8a2e3b6e123a"], (1000, "0a8ae0ec76add2b2")),
    "iterations": (["b3c6e4ee7ae04886", "392ec91033af43d6", "8cc8421a54f7c7df"], (2700, "926e543ce9348353")),
    "carries": (["ed12ae2cad0400ec", "d33846729e9c01d1", "02aa747a688ab936"], (1000, "5b77c80c7cd0c690")),
    "loops2": (["677710d68fede4e0", "50fdb831a54b93ce", "479f7e806b585d30"], (1000, "859623d6fed6f9df")),
    "retire": (["36a40be373ee5486", "974f3310a77bc59e", "a596ca82a8bd0ef4"], (48, "88512ad50c72c27a")),
    "rows": (["8dc0905c975bb4c5", "e14a9c107ab52c27", "e549147cd5b2d9a7"], (113, "ee96884af307db12")),
    "scopes": (["87e5a878c1a06b60", "ecf19d9e307d2bc0", "97026f4ee8bf2eaf"], (112, "65693693c2846279")),
    "directions": (["12e587a56b2bc858", "ce78c7e2c4d08e3a", "2ee74de6b5529e5e"], (57, "72a259c499b9a13a")),
    # rebinds: main 1fb02f2's (its own _Builder and enumeration, before it moved onto Framed)
    "rebinds": (["7fe011b06975fa22", "e2699f8c3fc611ef", "b423e18c3e330500"], (1000, "1f274ec1df58f5c0")),
}
RANDOM = {          # name: digest of generate(seed, 4 for even seeds, else None) for seeds 0..9
    "offsets": "36f44c6183a760a3",
    "offsets-parallel": "2842de4d58b4ce0a",
    "iterations": "9f0e36a592850750",
    "guards": "ca19345481d31966",
    "carries": "65de633230ec84e4",
    "loops2": "5f67c8fc70200999",
    "loops2-const": "c17376c409217faf",
    "rebinds": "8d18fd9b56e4c8a0",          # main 1fb02f2's
}


def digest(progs) -> str:
    text = "\n#---\n".join(p.source if hasattr(p, "check") else P.render(p).source for p in progs)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_first_programs_and_a_skip_into_size_2_are_main_54c3b20s(name):
    g = cli.GRAMMARS[name]
    firsts, (index, deep) = PINNED[name]
    assert [digest(itertools.islice(g.programs(size), FIRST)) for size in (1, 2, 3)] == firsts
    # --skip across sizes: the size-1 programs and `index` of size 2 left out, none of them built
    size, i, prog = next(grammar.numbered(g, (1, 2), g.count(1) + index))
    assert (size, i, digest([prog])) == (2, index, deep)


def test_the_two_tensor_grammar_is_main_54c3b20s():
    assert [digest(itertools.islice(exhaustive.programs(size), FIRST)) for size in (1, 2, 3)] == [
        "0dc2d9c33b2d8042", "b02dee8d5c89a5a5", "2418f51509d20b37"]
    assert digest(itertools.islice(exhaustive.programs(2), 126, 127)) == "d217d7ef6110f69c"


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_a_seed_draws_the_random_program_of_main_54c3b20(name):
    gen = cli.GRAMMARS[name].generate
    assert digest(gen(seed, None if seed % 2 else 4) for seed in range(10)) == RANDOM[name]


def test_the_counts_by_hand():
    g = cli.GRAMMARS
    # guards: 36 atoms, 34 EX_FRAMES, 7 guards; size 3: 7 x 7 shapes of one atom, 3 x 7 of two
    # (g(a, a), g(a) a, a g(a)), one of three
    assert [g["guards"].count(k) for k in (1, 2, 3)] == [36 * 34, (7 * 36 + 36 ** 2) * 34,
                                                         (49 * 36 + 21 * 36 ** 2 + 36 ** 3) * 34] \
        == [1224, 52632, 2571624]
    # iterations: 21 atoms, 20 frames, 5 guards
    assert [g["iterations"].count(k) for k in (1, 2, 3)] == [21 * 20, (5 * 21 + 21 ** 2) * 20,
                                                             (25 * 21 + 15 * 21 ** 2 + 21 ** 3) * 20] \
        == [420, 10920, 328020]
    # carries: classes of m atoms per frame (Burnside): two carries, 10 atoms, the swap renaming
    # fixes none: 10^m / 2; three carries, 18 atoms: keep (S3; a transposition fixes the 4
    # single-carry atoms of its fixed carry, a 3-cycle none) (18^m + 3 * 4^m) / 6, swap
    # (18^m + 4^m) / 2, rotate 18^m / 3; 12 two-carry frames, 6 of each three-carry yield
    def atoms(m):
        return 12 * 10 ** m // 2 + 6 * ((18 ** m + 3 * 4 ** m) // 6 + (18 ** m + 4 ** m) // 2 + 18 ** m // 3)
    assert [atoms(1), atoms(2), atoms(3)] == [192, 2640, 41376]
    # size 2: 3 guards of one atom, or two atoms; size 3: 9 shapes of one atom, 9 of two, 1 of three
    assert [g["carries"].count(k) for k in (1, 2, 3)] == [192, 3 * 192 + 2640, 9 * 192 + 9 * 2640 + 41376] \
        == [192, 3216, 66864]
    # retire (tests/test_attack_retire.py): 8 atoms; offsets (tests/test_attack_offsets.py): size 1
    assert [g["retire"].count(k) for k in (1, 2, 3)] == [8, 96, 1408]
    assert g["offsets"].count(1) == 700
    # the two-tensor grammar: 14 atoms, 4 blocks, no manual scope in a manual scope: size 3 has
    # 4 x 4 - 1 = 15 shapes of one atom, 3 x 4 of two, one of three
    assert [exhaustive.count(k) for k in (1, 2, 3)] == [14, 4 * 14 + 14 ** 2, 15 * 14 + 12 * 14 ** 2 + 14 ** 3] \
        == [14, 252, 5306]


def _toy(**kw) -> grammar.Framed:
    """Blocks `g`, two atoms, frames A and B; a program is its point."""
    return grammar.Framed(("g",), lambda frame, shape, fill: (frame, shape, fill), 2, ("A", "B"), **kw)


def test_frames_innermost_or_fills_innermost_in_shape_order():
    atom, guarded = ("atom",), (("g", ("atom",)),)
    assert list(_toy().programs(1)) == [("A", atom, (0,)), ("B", atom, (0,)), ("A", atom, (1,)), ("B", atom, (1,))]
    assert list(_toy(frames_inside=False).programs(1)) == [
        ("A", atom, (0,)), ("A", atom, (1,)), ("B", atom, (0,)), ("B", atom, (1,))]
    # size 2: the guard of one atom (fewer atoms) first, then two atoms
    assert [p[1] for p in _toy().programs(2)] == [guarded] * 4 + [("atom", "atom")] * 8
    assert _toy().count(2) == 2 * 2 + 4 * 2 == 12
    assert _toy().count(2, patterns=["atom,atom"]) == 8 and _toy().count(2, max_atoms=1) == 4
    # valid: a filter on points (counted by enumerating them); symmetries: one fill per class
    odd = _toy(valid=lambda frame, shape, fill: frame == "A" or sum(fill) == 1)
    assert odd.count(2) == len(list(odd.programs(2))) == 2 + 1 + 4 + 2
    swap = _toy(symmetries=((1, 0),))
    assert [p[2] for p in swap.programs(2) if p[0] == "A"] == [(0,), (0, 0), (0, 1)]
    # alphabets: the atoms allowed at each position (here only atom 1 inside a g), counted unbuilt
    inner = _toy(alphabets=lambda shape: [(1,) if item != "atom" else (0, 1) for item in shape])
    assert [p[2] for p in inner.programs(2) if p[0] == "A"] == [(1,), (0, 0), (0, 1), (1, 0), (1, 1)]
    assert inner.count(2) == len(list(inner.programs(2))) == 10


def test_numbered_skips_across_sizes_without_building():
    built = []
    toy = grammar.Framed(("g",), lambda frame, shape, fill: built.append(fill) or fill, 2, ("A",))
    toy.ENUMERATION = toy
    got = list(grammar.numbered(toy, (1, 2), skip=3))
    # size 1: (0,), (1,); size 2: g((0,)), g((1,)), then the 4 pairs: skip 3 leaves g((1,)) and the pairs
    assert [(size, i) for size, i, _ in got] == [(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)]
    assert built == [(1,), (0, 0), (0, 1), (1, 0), (1, 1)]


def test_random_items_wrap_runs_of_adjacent_items():
    for seed in range(50):
        shape = grammar.random_items(random.Random(seed), 4, 2, ("g", "h"), orelse=0.5)
        blocks = list(_blocks(shape))
        assert grammar.n_atoms(_then(shape)) == 4 and len(blocks) == 2      # else atoms besides
        assert all(item[0] in ("g", "h") and item[2:] in ((), (("atom",),)) for item in blocks)
        plain = grammar.random_items(random.Random(seed), 4, 2, ("g",))
        assert grammar.n_atoms(plain) == 4 and all(len(item) == 2 for item in _blocks(plain))


def _blocks(shape):
    for item in shape:
        if item != "atom":
            yield item
            for part in item[1:]:
                yield from _blocks(part)


def _then(shape) -> tuple:
    return tuple(item if item == "atom" else (item[0], _then(item[1])) for item in shape)
