"""The adversarial tester's printed-IR grammar (tools/attack/printed.py): programs rendered in the
existing compiler's printed form, as written and after its pipeline, compiled by
`nanopass.compile_text` and checked by value against the tester's semantics; and proof that the
check can fail (a printed program changed, or the oracle's values changed, is caught)."""

from dataclasses import replace

import pytest

from nanopass.tools.attack import printed, scopes
from nanopass.tools.attack import program as P

K = P.Kernel("k0", (("in", "A"), ("inout", "A")))

# a loop carrying two tensors and swapping them, a manual scope with a TaskId chain, an if with a
# result in one branch and a host write in the other, a host read of the joined value, an alias
FIXED = P.Program(
    (K,),
    (
        P.Call("k0", ("x", "a"), ("a",)),
        P.Loop("range", "i", "n", (P.Call("k0", ("x", "p"), ("p",)),),
               carries=(("p", "a"), ("q", "b")), yields=("q", "p"), results=("r1", "r2")),
        P.Manual((P.TidNone("m"),
                  P.Call("k0", ("r1", "a"), ("a",), submit=True, tid="m", deps=("m",)),
                  P.Call("k0", ("x", "r2"), ("r2",), submit=True, tid="m", deps=("m",)))),
        P.If(("c", ">", 0), (P.Call("k0", ("x", "b"), ("b",)),), (P.HostWrite("b", (0, 0), 2.0),)),
        P.HostRead("v", "b", (1, 1), 0),
        P.Alias("o", "r2"),
        P.Loop("parallel", "j", 2, (P.Call("k0", ("o", "b"), ("b",)),)),
    ),
)


@pytest.mark.parametrize("style", printed.STYLES)
def test_fixed_program_in_each_style(style):
    rep = printed.Program(FIXED, style).check()
    assert rep.runs == 6 and rep.tasks > 0
    assert rep.invalid is None and not rep.classes(), (rep.source, rep.failures, rep.refusal)
    assert "pl.yield_(" in rep.source and "pl.system.task_invalid()" in rep.source
    if style == "pipeline":
        assert "r1__rv_v0, r2__rv_v0 = pl.yield_(" in rep.source and "__phi_v" in rep.source
        assert "pl.MemRef(" in rep.source and "auto_scope=False" in rep.source
    else:
        assert "__ssa_v" not in rep.source and "_submit_tmp[1]" in rep.source


def test_wrong_hints_are_not_followed():
    rep = printed.Program(FIXED, "pipeline", lie=7).check()
    assert "pl.adir." in rep.source and not rep.classes(), (rep.source, rep.failures, rep.refusal)


@pytest.mark.parametrize("edit", ["oracle", "other-input", "swap-yield"])
@pytest.mark.parametrize("style", printed.STYLES)
def test_the_tester_can_fail(style, edit):
    """A changed printed program (another input, swapped loop results), or a changed value on the
    oracle's side, is a value failure."""
    rep = printed.Program(FIXED, style, edit=edit).check()
    assert rep.source != printed.Program(FIXED, style).source or edit == "oracle"
    assert any(c.startswith(("value", "trace")) for c in rep.classes()), (edit, rep.failures, rep.refusal)


SAMPLE_SEEDS = (3, 6, 14, 17)


@pytest.mark.parametrize("seed", SAMPLE_SEEDS)
def test_random_sample(seed):
    pp = printed.generate(seed, 8)
    rep = pp.check()
    assert rep.invalid is None and rep.runs == 6
    assert not rep.classes(), (rep.source, rep.failures, rep.refusal)


def test_exhaustive_sample_both_styles():
    """The first programs of the scopes grammar at size 2 (a block around an atom), each style."""
    progs = [p for p, _ in zip(printed.programs(2), range(6))]
    assert {p.style for p in progs} == set(printed.STYLES)
    assert printed.count(2) == 2 * scopes.count(2)
    for pp in progs:
        rep = pp.check()
        assert rep.invalid is None and not rep.classes(), (rep.source, rep.failures, rep.refusal)
