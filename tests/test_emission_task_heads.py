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


def _unchecked(cls, **fields):
    """A ``cls`` node with ``fields``, built around every constructor (and so its node rules):
    the tree a faulty builder would hand the walk."""
    node = cls._builder()
    for name in cls._fields:
        setattr(node, name, fields[name])
    node.span = None
    node.__class__ = cls
    return node


def _refused_by_every_constructor(cls, fields: dict, match: str) -> None:
    values = [fields[f] for f in cls._fields]
    for build in (lambda: cls(**fields), lambda: cls.make(*values), lambda: cls.make_trusted(*values)):
        with pytest.raises(VerifyError, match=match):
            build()


@pytest.mark.parametrize("cut", ["dirs", "tensors", "scalars", "encodings"])
def test_an_unpaired_head_is_refused_wherever_it_is(cut):
    unit = compiled_stages(next(p for p in CORPUS if p.stem == "loop_scalar"))[-1].tree
    head = next(h for h in _heads(unit.body) if h.tensors and h.scalars)
    fields = {f: getattr(head, f) for f in ("blank", "comment", "name", "dirs", "tensors", "scalars", "encodings")}
    fields[cut] = fields[cut][:-1]
    _refused_by_every_constructor(type(head), fields, "task head")  # (its node rule: ``node_rules``)
    with pytest.raises(VerifyError, match="task head"):
        head.replace(**{cut: fields[cut]})
    bad = _unchecked(type(head), **fields)
    for body in ((bad,), (_nested(bad),)):
        broken = type(unit)(unit.func, unit.arg_count, unit.externals, unit.scalars, unit.dyn_defs, body)
        with pytest.raises(VerifyError, match="task head"):
            emission.check_task_heads(broken)


def test_a_guarded_dummy_without_a_push_is_refused_wherever_it_is():
    """Its guard reads the count its dependency array declares: with no push the printer would
    write a guard of an undeclared count."""
    unit = compiled_stages(next(p for p in CORPUS if p.stem == "loop_scalar"))[-1].tree
    E = emission.LANGUAGE
    fields = dict(args="params_barrier", size=1, pushes=(), outs=None, tid=None)
    _refused_by_every_constructor(E.GuardedDummy, fields, "guarded dummy params_barrier")
    bad = _unchecked(E.GuardedDummy, **fields)
    for body in ((bad,), (_nested(bad),)):
        broken = type(unit)(unit.func, unit.arg_count, unit.externals, unit.scalars, unit.dyn_defs, body)
        with pytest.raises(VerifyError, match="guarded dummy params_barrier"):
            emission.check_task_heads(broken)
    good = E.GuardedDummy("params_barrier", 1, (E.PushDep("t", None, True),), None, None)
    emission.check_task_heads(type(unit)(unit.func, unit.arg_count, unit.externals, unit.scalars, unit.dyn_defs, (good,)))


def test_the_constructors_prove_the_heads_so_the_pipeline_walks_no_tree_for_them():
    """``check_task_heads`` holds of each node on its own: the three classes run its node rules
    when built, so the language proves it and ``verify`` does not call it."""
    E = emission.LANGUAGE
    assert E.proves(emission.check_task_heads)
    for production in ("TaskArgs", "Submit", "GuardedDummy"):
        assert emission.check_task_heads.node_rules[production] in E.nodes[production]._rules
    unit = compiled_stages(next(p for p in CORPUS if p.stem == "loop_scalar"))[-1].tree
    bad = _unchecked(E.GuardedDummy, args="params_barrier", size=1, pushes=(), outs=None, tid=None)
    broken = type(unit)(unit.func, unit.arg_count, unit.externals, unit.scalars, unit.dyn_defs, (bad,))
    E.verify(broken)  # (a tree built around the constructors: only the walk would see it)
