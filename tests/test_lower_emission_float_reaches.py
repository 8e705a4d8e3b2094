"""lower_to_emission's ``float_reaches`` (by node class) says what ``reaches_float`` says on every
scalar expression it may meet: each example's and golden program's expressions, generated
programs', and made ones of every kind, with and without float names."""

from __future__ import annotations

import random

import pytest

from conftest import EXAMPLES, REPO, load_program

from nanopass.api import run_pipeline
from nanopass.language import walk
from nanopass.languages import ENCODED as L
from nanopass.languages.terms import BinOp, CmpOp, DType, UnOp
from nanopass.passes.lower_to_emission import float_reaches
from nanopass.passes.types import reaches_float

PROGRAMS = sorted([*EXAMPLES.glob("*.py"), *(REPO / "tests" / "golden").glob("*.py")])
SCALAR = (L.Var, L.Int, L.Float, L.Bool, L.Bin, L.Cmp, L.Un)


def expressions(tree):
    """Every scalar expression under ``tree`` (subexpressions too)."""
    return [node for node in walk(tree) if type(node) in SCALAR]


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_on_every_expression_of_the_examples_and_golden_programs(path):
    stages = run_pipeline(load_program(path), stop_after="encode_scalars")
    func = stages[-1].tree.orch
    names = sorted({n.name for n in walk(func.body) if type(n) is L.Var})
    for floats in (frozenset(func.float_scalars), frozenset(), frozenset(names)):
        for expr in expressions(func.body):
            assert float_reaches(expr, floats) == reaches_float(expr, floats), expr


def made(rng: random.Random, depth: int):
    """A random scalar expression of the encoded language."""
    leaves = [
        lambda: L.Var(rng.choice("abcf")),
        lambda: L.Int(rng.randint(-3, 9), rng.choice([DType.INT64, DType.INDEX, DType.INT32, DType.FP32])),
        lambda: L.Float(rng.choice([0.5, -1.0, 2.0]), rng.choice([DType.FP32, DType.FP16])),
        lambda: L.Bool(rng.random() < 0.5),
    ]
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(leaves)()
    kind = rng.randrange(3)
    if kind == 0:
        return L.Bin(rng.choice(list(BinOp)), made(rng, depth - 1), made(rng, depth - 1))
    if kind == 1:
        return L.Cmp(rng.choice(list(CmpOp)), made(rng, depth - 1), made(rng, depth - 1))
    return L.Un(rng.choice(list(UnOp)), made(rng, depth - 1))


def test_on_made_expressions_of_every_kind():
    rng = random.Random(373)
    seen = set()
    for _ in range(3000):
        expr = made(rng, 4)
        for floats in (frozenset(), frozenset("f"), frozenset("abcf")):
            expected = reaches_float(expr, floats)
            seen.add(expected)
            assert float_reaches(expr, floats) == expected, expr
    assert seen == {True, False}
