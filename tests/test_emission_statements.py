"""The emission language's one statement walk (``emission.statements``): every statement, nested ones
included, as often as a plain recursive walk over the body table finds them; and the
dependency arrays are one node each (``Deps``, a barrier's in its ``GuardedDummy``)."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES_AND_GOLDEN, compiled_stages
from nanopass.languages import emission
from nanopass.languages.terms import DType, ScopeMode


def _plain(body) -> list:
    out = []
    for node in body:
        out.append(node)
        for field in emission.BODIES.get(node._production, ()):
            out += _plain(getattr(node, field))
    return out


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
def test_the_walk_is_the_plain_one(path):
    unit = compiled_stages(path)[-1].tree
    walked = emission.statements(unit.body)
    assert sorted(map(id, walked)) == sorted(map(id, _plain(unit.body)))
    kinds = {n._production for n in walked}
    assert not kinds & {"PushDep", "PushDepSlots"}  # (entries live in a dependency array only)


def test_the_walk_enters_every_body_field():
    E = emission.LANGUAGE
    one = E.Int(1, DType.INT64)
    leaves = [E.Comment(str(k)) for k in range(6)]
    tree = [
        leaves[0],
        E.ScopeBlock(ScopeMode.auto, (E.Block((leaves[1],)),)),
        E.ForBlock("i", one, one, one, (E.WhileBlock(E.Var("c"), (leaves[2],)),)),
        E.IfBlock(E.Var("c"), (leaves[3],), (leaves[4],)),
        leaves[5],
    ]
    texts = [n.text for n in emission.statements(tree) if n._production == "Comment"]
    assert texts == ["0", "5", "3", "4", "1", "2"]  # (breadth first: a body, then the bodies nested in it in turn)
    with_bodies = {p for p in E.nodes if p != "Unit" and any(f.kind == "EStmt" for f in E.nodes[p]._field_specs)}
    assert set(emission.BODIES) == with_bodies  # (every statement with a body is in the table)
