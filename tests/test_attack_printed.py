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


@pytest.mark.parametrize("style, edit", [("pipeline", "oracle"), ("written", "other-input"),
                                         ("pipeline", "other-input"), ("written", "swap-yield"),
                                         ("pipeline", "swap-yield")])
def test_the_tester_can_fail(style, edit):
    """A changed printed program (another input, swapped loop results), or a changed value on the
    oracle's side, is a value failure."""
    rep = printed.Program(FIXED, style, edit=edit).check()
    assert rep.source != printed.Program(FIXED, style).source or edit == "oracle"
    assert any(c.startswith(("value", "trace")) for c in rep.classes()), (edit, rep.failures, rep.refusal)


def test_the_cpp_is_compared_with_the_dsl_forms(tmp_path):
    """A written program compiles to the DSL form's C++ (README: both forms compile to the C++ of
    the program they were printed from); a difference is a failure."""
    from nanopass.tools.attack import runner
    rendered = printed.render(FIXED, "written")
    assert not rendered.rewritten and printed.render(FIXED, "written", arith=1).rewritten
    code = printed.compile_text(rendered.source, tmp_path / "p.py").code
    rep = runner.Report(rendered.source)
    printed.same_code_as_the_dsl_form(rep, P.render(FIXED).source, code, tmp_path)
    assert not rep.failures
    printed.same_code_as_the_dsl_form(rep, P.render(FIXED).source, code.replace("k0", "k9", 1), tmp_path)
    assert [f.cls for _, f in rep.failures] == ["C++ differs from the DSL form's"]


SAMPLE_SEEDS = (4, 15)   # a pl.const in an if (written), a trip by host arithmetic (pipeline, wrong hints)


@pytest.mark.parametrize("seed", SAMPLE_SEEDS)
def test_random_sample(seed):
    pp = printed.generate(seed, 8)
    rep = pp.check()
    assert rep.invalid is None and rep.runs == 6
    assert not rep.classes(), (rep.source, rep.failures, rep.refusal)


def test_exhaustive_sample_both_styles():
    """The first programs of the scopes grammar at size 2 (a block around an atom), each style."""
    progs = [p for p, _ in zip(printed.programs(2), range(2))]
    assert {p.style for p in progs} == set(printed.STYLES)
    assert printed.count(2) == 2 * scopes.count(2)
    for pp in progs:
        rep = pp.check()
        assert rep.invalid is None and not rep.classes(), (rep.source, rep.failures, rep.refusal)


# ---- the scalars grammar printed (tools/attack/printed_scalars.py) -------------------------------

from nanopass.tools.attack import printed_scalars  # noqa: E402
from nanopass.tools.attack import scalars as SC  # noqa: E402


# (scalars.generate depends on the hash seed: a fixed program instead) host arithmetic on INT32,
# INT64 and FP32 scalars, an implicit scalar carry, an if joining a scalar, an explicit carry, a
# host write and read, a dim, a slice of a computed shape, scalars passed to kernels
def V(name):
    return ("var", name)


def L(value):
    return ("lit", value)


def B(op, a, b):
    return ("bin", op, a, b)


SCALARS_FIXED = SC.Program(
    (("n", "INT32"), ("s", "INT64"), ("g", "FP32")),
    (("k0", ("INT32", "FP32")), ("k1", ("INT64",))),
    (SC.Let("h", B("*", V("g"), L(0.5))),
     SC.Let("k", B("-", V("s"), L(1))),
     SC.Loop("i", (L(0), V("n"), L(1)), (SC.Let("k", B("+", V("k"), V("i"))), SC.Call("k0", "y", (V("n"), V("h"))))),
     SC.If(("cmp", ">", V("k"), L(2)), (SC.HWrite("ri", L(1), V("k")),), (SC.Let("k", L(7)),)),
     SC.HRead("r", "ri", L(1)),
     SC.Loop("j", (L(0), L(2), L(1)), (SC.Call("k1", "y", (B("+", V("a"), V("r")),)),),
             carries=(("a", V("k")),), yields=(B("*", V("a"), L(2)),), results=("a2",)),
     SC.Dim("d", "y", 1),
     SC.Slice("v", "y", (L(1), V("d")), (L(0), L(0))),
     SC.Call("k1", "v", (V("a2"),)),
     SC.HWrite("rf", L(2), V("h"))),
    ((("M", 2), ("N", 3), ("n", 2), ("s", 3), ("g", 1.5)), (("M", 3), ("N", 2), ("n", 0), ("s", -1), ("g", -2.0))))


@pytest.mark.parametrize("style", printed.STYLES)
def test_scalars_fixed_program_printed(style):
    pp = printed_scalars.Program(SCALARS_FIXED, style=style, return_param=True)
    rep = pp.check()
    assert ("__ssa_v" in rep.source) == (style == "pipeline") and ("k__phi_v" in rep.source) == (style == "pipeline")
    assert "level=pl.Level.CHIP" in rep.source and ": pl.Scalar[pl." in rep.source
    assert rep.invalid is None and rep.runs == 2 and rep.tasks == 8
    assert not rep.classes(), (rep.source, rep.failures, rep.refusal)


def _bump_first_scalar(expected):
    out, done = [], False
    for e in expected:
        if not done and e.kind == "task" and e.scalars:
            (dt, v), *rest = e.scalars
            e = replace(e, scalars=[(dt, v + 1 if not isinstance(v, bool) else not v)] + rest)
            done = True
        out.append(e)
    assert done
    return out


@pytest.mark.parametrize("style", printed.STYLES)
def test_scalars_printed_tester_can_fail(style):
    rep = printed_scalars.Program(SCALARS_FIXED, style=style, return_param=True).check(edit=_bump_first_scalar)
    assert any(c.startswith("value") for c in rep.classes()), rep.failures


def test_scalars_printed_annotation_of_a_computed_shape():
    """A tensor of a shape computed on the host is annotated with that shape, as python_print
    annotates every assignment (refused until session 23: found 60), unless asked not to."""
    prog = SC.Program((("s", "INT64"),), (("k0", ("INT64",)),),
                      (SC.Dim("d", "y", 1), SC.Slice("v", "y", (("lit", 1), ("var", "d")), (("lit", 0), ("lit", 0))),
                       SC.Call("k0", "v", (("var", "s"),))),
                      ((("M", 2), ("N", 3), ("s", 1)),))
    typed = printed_scalars.Program(prog)
    assert "v: pl.Tensor[[1, d], pl.FP32] = pl.tensor.slice(" in typed.source
    rep = typed.check()
    assert rep.runs == 1 and not rep.classes(), (rep.failures, rep.refusal)
    plain = printed_scalars.Program(prog, computed_types=False)
    assert "v = pl.tensor.slice(y, [1, d], [0, 0])" in plain.source


def test_the_grammars_are_in_the_cli():
    from nanopass.tools.attack import cli
    assert cli.GRAMMARS["printed"] is printed and cli.GRAMMARS["printed-scalars"] is printed_scalars
    assert "--grammar printed" in cli.__doc__ and "--grammar printed-scalars" in cli.__doc__
    assert printed_scalars.count(2) == 2 * SC.count(2)
