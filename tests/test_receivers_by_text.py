"""``check_call_receivers`` proves from a function's text, when it can, that every call
``x.op(...)`` calls on ``self`` or on the DSL module (``receivers_proved_by_text``), and walks the
function's tree only when the text does not prove it. The proof must never accept what the walk
refuses: checked on every function of the repository's programs and the bench shapes, on texts
built to mislead it, and on random programs (a surface tree, or the same error, with the
shortcut forced off); on the bench shapes it holds, so the walk is skipped (counted)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, fuzz_budget, load_program
from program_gen import control_flow_programs

from nanopass import dsl
from nanopass.errors import UserError
from nanopass.passes.frontend import names, source

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROGRAMS = EXAMPLES_AND_GOLDEN
CLOSURE = {"pl": dsl, "dsl": dsl, "np": ast, "os": ast}


def params_of(fdef) -> set[str]:
    return {a.arg for a in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs}


def walk_accepts(fdef, closure) -> bool:
    """The walk's answer (by ``ast.walk``): no call's receiver is a parameter, a stored name or
    anything but the DSL module, ``self`` apart."""
    local = params_of(fdef) | {n.id for n in ast.walk(fdef) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for node in ast.walk(fdef):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            head = node.func.value
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name) and head.id != "self" and (head.id in local or closure.get(head.id) is not dsl):
                return False
    return True


def proved(text: str, closure=CLOSURE) -> tuple[bool, bool]:
    """(the text's proof, the walk's answer) for the function ``f`` of a class in ``text``."""
    cls = next(n for n in ast.parse(text).body if isinstance(n, ast.ClassDef))
    src = source.ProgramSource(cls.name, "<p>", text, cls, closure)
    fdef = next(f for f in cls.body if isinstance(f, ast.FunctionDef))
    return names.receivers_proved_by_text(src, fdef, params_of(fdef), dsl), walk_accepts(fdef, closure)


def test_the_proof_never_accepts_what_the_walk_refuses_in_the_repository():
    from test_front_end_reading import _functions_with_sources

    held = 0
    for plain, fdef in _functions_with_sources():
        src = source.ProgramSource(plain.name, plain.filename, plain.text, plain.classdef, CLOSURE)
        if names.receivers_proved_by_text(src, fdef, params_of(fdef), dsl):
            held += 1
            assert walk_accepts(fdef, CLOSURE), (src.filename, fdef.name)
    assert held > 300


BODY = "class P:\n    @pl.function(type=pl.FunctionType.Orchestration)\n    def f(self, a, b):\n{}\n"


@pytest.mark.parametrize("body", [
    "        t = np.add(a)",  # another module
    "        t = (np).add(a)",
    "        t = (np\n             ).add(a)",
    "        t = (np  # a comment\n             .add(a))",
    "        t = np \\\n            .add(a)",
    "        t = a.create_tensor([16], dtype=pl.FP32)",  # a parameter
    "        pl = b\n        t = pl.create_tensor([16], dtype=pl.FP32)",  # the module's name stored
    "        for pl in b:\n            t = pl.create_tensor([16])",
    "        (a, pl) = b\n        t = pl.f()",
    "        t = [pl for pl in b]\n        u = pl.f()",
    "        t = (pl := b).f()",
    "        pl: int = 3\n        t = pl.f()",
    "        pl += 1\n        t = pl.f()",
    "        with pl.scope() as pl:\n            t = pl.f()",
    "        t = f(a).create_tensor([16])",  # a call's result
    "        t = a[0].create_tensor([16])",
    "        t = 'x'.join(b)",
    "        t = self.k(a, q.r.s(b))",  # inside an argument, through a chain
    "        t = f'{np.add(a)}'",
    "        t = os.path.join(a)",
    "        t = pl.f()  # see np.add",  # the proof gives up; the walk accepts
    "        t = pl.f(0.5, 1., .5, ...)",
    "        t = pl.tensor.read(a, [0])\n        u = pl.system.task_dummy(deps=[t])",  # both accept
])
def test_the_proof_never_accepts_what_the_walk_refuses(body):
    text_says, walk_says = proved(BODY.format(body))
    assert not text_says or walk_says, body


@pytest.mark.parametrize("body", [
    "        t = pl.create_tensor([16, 16], dtype=pl.FP32)\n        t = self.k(a, t)",
    "        t = pl.tensor.read(a, [0])\n        u = pl.system.task_dummy(deps=[t])",
    "        t = dsl.create_tensor([16, 0.5 + 1.], dtype=pl.FP32)  # simple, apply",
])
def test_the_proof_holds_on_usual_bodies(body):
    assert proved(BODY.format(body)) == (True, True)


def surface_or_error(path: Path, shortcut: bool):
    with pytest.MonkeyPatch.context() as patch:
        if not shortcut:
            patch.setattr(names, "receivers_proved_by_text", lambda *args: False)
        try:
            return load_program(path).surface()
        except UserError as error:
            return str(error), error.span


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_shortcut_changes_no_program(path: Path):
    assert surface_or_error(path, True) == surface_or_error(path, False)


@PROPERTY
@given(control_flow_programs())
def test_the_shortcut_changes_no_random_program(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    assert surface_or_error(path, True) == surface_or_error(path, False)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_bench_shapes_are_proved_without_a_walk(tmp_path, monkeypatch, shape):
    walks = []
    walk = names._stores_and_receivers
    monkeypatch.setattr(names, "_stores_and_receivers", lambda *args: walks.append(1) or walk(*args))
    path = bench_file(tmp_path, shape, 16)
    fast = load_program(path).surface()
    assert walks == []
    assert fast == surface_or_error(path, False)
