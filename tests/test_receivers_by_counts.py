"""``receivers_proved_by_text`` counts a function's heads (blank, word, dot) in its text instead of
cutting the text into a string per dot, as it did before. The two proofs give the same answer:
the one by pieces is kept here as the reference, and compared on every function of the
repository's programs and the bench shapes, on texts built to reach each of its refusals, and on
random texts (in a comment and a string, so that any text is a function's)."""

from __future__ import annotations

import ast
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SHAPES, fuzz_budget

from nanopass import dsl
from nanopass.passes.frontend import names, source

PROPERTY = settings(max_examples=fuzz_budget(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLOSURE = {"pl": dsl, "dsl": dsl, "self": dsl, "np": ast, "π": dsl, "0": dsl, 1: dsl}
_BLANKS = {c: " " for c in range(128) if not (chr(c).isalnum() or chr(c) in "_.")}


def by_pieces(src, fdef, params: set[str], dsl) -> bool:
    """The proof as it was written before: the text cut at each dot, a head per piece."""
    first = min([fdef.lineno, *(d.lineno for d in fdef.decorator_list)])
    text = "\n".join(src.lines()[first - 1:fdef.end_lineno])
    if not text.isascii():
        return False
    blanked = text.translate(_BLANKS)
    pieces = (" " + blanked).split(".")
    pieces.pop()
    heads = Counter([piece.rpartition(" ")[2] for piece in pieces if " " in piece])
    words = None
    for name, count in heads.items():
        if name == "self" or name[:1].isdigit():
            continue
        if not name or name in params or src.closure.get(name) is not dsl:
            return False
        if text.count(name) != count:
            if words is None:
                words = blanked.replace(".", " ").split()
            if words.count(name) != count:
                return False
    return True


def params_of(fdef) -> set[str]:
    return {a.arg for a in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs}


def both(src, fdef) -> tuple[bool, bool]:
    return names.receivers_proved_by_text(src, fdef, params_of(fdef), dsl), by_pieces(src, fdef, params_of(fdef), dsl)


def test_both_proofs_agree_on_the_repository_and_the_shapes():
    from test_front_end_reading import _functions_with_sources

    held = 0
    for plain, fdef in _functions_with_sources():
        for closure in (CLOSURE, {"pl": dsl}):
            src = source.ProgramSource(plain.name, plain.filename, plain.text, plain.classdef, closure)
            counted, pieces = both(src, fdef)
            assert counted == pieces, (src.filename, fdef.name)
            held += counted
    assert held > 600


BODY = "class P:\n    @pl.function(type=pl.FunctionType.Orchestration)\n    def f(self, a, b):\n{}\n"


def function_of(text: str, closure=CLOSURE):
    cls = next(n for n in ast.parse(text).body if isinstance(n, ast.ClassDef))
    return source.ProgramSource(cls.name, "<p>", text, cls, closure), cls.body[0]


@pytest.mark.parametrize("body, proved", [
    ("        t = pl.tensor.read(a, [0])\n        u = dsl.system.task_dummy(deps=[t])", True),
    ("        t = pl.f(0.5, 1.e5, 2., x1.y)", False),  # numbers' heads, and one of a name with a digit
    ("        t = pl.f(0.5, 1.e5, 2.)", True),
    ("        t = np.f(0.5)", False),  # another module's
    ("        t = (pl).f(a)", False),  # a dot after a blank: an empty head
    ("        t = a.f()", False),  # a parameter's
    ("        t = pl.f()  # pl", False),  # the name elsewhere than as a head
    ("        t = pl.f()\n        apl = 1", True),  # inside another word only
    ("        pl = b\n        t = pl.f()", False),
    ("        u = pl.pl.f()", False),  # the second pl is no head
    ("        t = self.k(a)\n        u = pl.tensor.read(a, [0])", True),
])
def test_both_proofs_agree_on_texts_built_for_each_refusal(body, proved):
    assert both(*function_of(BODY.format(body))) == (proved, proved)


@PROPERTY
@given(st.text(alphabet="plsefdnx05._ (=)#\"'\\:,[]π", max_size=60), st.sampled_from([CLOSURE, {"pl": dsl}, {}]))
def test_both_proofs_agree_on_random_texts(comment, closure):
    body = f"        t = pl.f(a)  # {comment}\n        u = {comment!r}"
    counted, pieces = both(*function_of(BODY.format(body), closure))
    assert counted == pieces


@pytest.mark.parametrize("shape", SHAPES)
def test_the_bench_shapes_are_proved(shape):
    from nanopass.tools.bench import source_of

    text = source_of(shape, 40)
    cls = next(n for n in ast.parse(text).body if isinstance(n, ast.ClassDef))
    orchestration = [f for f in cls.body if isinstance(f, ast.FunctionDef) and "Orchestration" in ast.unparse(f.decorator_list[0])]
    assert orchestration
    for fdef in orchestration:
        assert both(source.ProgramSource(cls.name, "<shape>", text, cls, {"pl": dsl}), fdef) == (True, True)
