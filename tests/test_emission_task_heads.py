"""The emission language's ``check_task_heads``: a task head pairs a direction with each tensor
and an encoding with each scalar (the printer reads them by index)."""

import pytest

from conftest import CORPUS, compiled_stages
from nanopass.errors import VerifyError
from nanopass.languages import emission
from nanopass.languages.terms import DType, ScopeMode


def _heads(body):
    for node in body:
        if node._production == "TaskArgs":
            yield node
        for field in ("body", "then", "orelse"):
            if hasattr(node, field):
                yield from _heads(getattr(node, field))


def _nested(node):
    """``node`` inside a scope, a loop and the else branch of an if: the check must find it there."""
    E = emission.LANGUAGE
    inner = E.IfBlock(E.Var("c"), (), (node,))
    return E.ScopeBlock(ScopeMode.manual, (E.ForBlock("i", E.Int(0, DType.INT64), E.Int(1, DType.INT64), E.Int(1, DType.INT64), (inner,)),))


@pytest.mark.parametrize("path", CORPUS[:12], ids=lambda p: p.stem)
def test_every_compiled_head_passes(path):
    unit = compiled_stages(path)[-1].tree
    heads = list(_heads(unit.body))
    assert heads, "the program has a task"
    emission.check_task_heads(unit)


@pytest.mark.parametrize("cut", ["dirs", "tensors", "scalars", "encodings"])
def test_an_unpaired_head_is_refused_wherever_it_is(cut):
    unit = compiled_stages(next(p for p in CORPUS if p.stem == "loop_scalar"))[-1].tree
    head = next(h for h in _heads(unit.body) if h.tensors and h.scalars)
    fields = {f: getattr(head, f) for f in ("blank", "comment", "name", "dirs", "tensors", "scalars", "encodings")}
    fields[cut] = fields[cut][:-1]
    bad = type(head)(**fields)
    for body in ((bad,), (_nested(bad),)):
        broken = type(unit)(unit.func, unit.arg_count, unit.externals, unit.scalars, unit.dyn_defs, body)
        with pytest.raises(VerifyError, match="task head"):
            emission.check_task_heads(broken)


def test_a_guarded_dummy_without_a_push_is_refused_wherever_it_is():
    """Its guard reads the count its dependency array declares: with no push the printer would
    write a guard of an undeclared count."""
    unit = compiled_stages(next(p for p in CORPUS if p.stem == "loop_scalar"))[-1].tree
    E = emission.LANGUAGE
    bad = E.GuardedDummy("params_barrier", 1, (), None, None)
    for body in ((bad,), (_nested(bad),)):
        broken = type(unit)(unit.func, unit.arg_count, unit.externals, unit.scalars, unit.dyn_defs, body)
        with pytest.raises(VerifyError, match="guarded dummy params_barrier"):
            emission.check_task_heads(broken)
    good = E.GuardedDummy("params_barrier", 1, (E.PushDep("t", None, True),), None, None)
    emission.check_task_heads(type(unit)(unit.func, unit.arg_count, unit.externals, unit.scalars, unit.dyn_defs, (good,)))
