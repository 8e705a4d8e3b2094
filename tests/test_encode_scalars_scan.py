"""encode_scalars asks first, by node class, whether its input binds a float scalar at all
(``types.binds_a_float_scalar``, in ``float_scalar_names``): it must answer as a plain reading
of every parameter and Binder (``reference``, over ``test_named_binders``' reference walk) on
every example and golden program, the bench shapes and random programs (manual scopes too), and
the pass's output with the question forced to "yes" (the ordered walk of ``float_scalar_names``
always taken) must be the same tree; programs with float scalars are among them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import corpus_tests, pass_inputs, random_file, run_both_ways, running

from nanopass.languages import DIMMED
from nanopass.languages.terms import ArgDir, DType, LoopKind, ParamDir, ScopeMode, ScopeOrigin
from nanopass.passes import types
from nanopass.passes.encode_scalars import EncodeScalars
from test_named_binders import reference as reference_binders

ALWAYS = [(types, "binds_a_float_scalar", lambda func: True)]
run = running(EncodeScalars)
FOUND = []  # (whether each program checked binds a float scalar)


def reference(func) -> bool:
    """Whether a parameter or a Binder of ``func``'s body has a float scalar type."""
    binders = [*func.params, *reference_binders(func.body, False)]
    return any(b.type._production == "ScalarType" and b.type.dtype.is_float for b in binders)


def check(path: Path) -> int:
    runs = 0
    for given in pass_inputs(path, "encode_scalars"):
        func = given.orch
        answer = types.binds_a_float_scalar(func)
        assert answer == reference(func), path.name
        FOUND.append(answer)
        fast, full = run_both_ways(run, given, ALWAYS)
        assert fast == full, path.name
        runs += 1
    return runs


test_programs, test_shapes = corpus_tests(check)


def test_random_programs_with_and_without_floats(tmp_path):
    FOUND.clear()
    checked = [check(random_file(tmp_path, seed, manual=seed % 2 == 1)) for seed in range(60)]
    assert sum(checked) and True in FOUND and False in FOUND


PLACES = ["param", "let", "declare", "dummy", "loop var", "carry", "loop result", "task out", "task id", "if result", "none"]


@pytest.mark.parametrize("where", PLACES)
def test_each_binding_place_is_seen(where):
    """A float scalar bound in each place a Binder can be, inside a scope, a loop and an if (made
    statements of the dimmed language; the function stands in by its params and body, all the
    scan reads)."""
    L = DIMMED

    def binder(name, place):
        return L.Binder(name, L.ScalarType(DType.FP32 if place == where else DType.INT64))

    plan = L.Carry(True, 0, False, 0)
    one = L.Int(1, DType.INDEX)
    task = L.Task([binder("o", "task out")], binder("t", "task id"), "k", [L.Arg(L.Var("a"), ArgDir.Scalar)], [], False,
                  [], None)
    branch = L.If(L.Bool(True), [L.Yield([L.Var("a")])], [L.Yield([L.Var("a")])], [L.Phi(binder("p", "if result"), plan)])
    loop = L.For(binder("i", "loop var"), one, one, one, LoopKind.seq, [L.IterArg(binder("c", "carry"), L.Var("a"), plan)],
                 [task, branch, L.Yield([L.Var("c")])], [binder("r", "loop result")])
    body = [
        L.Let(binder("a", "let"), L.Int(1, DType.INT64)),
        L.Declare(binder("d", "declare")),
        L.Dummy(binder("m", "dummy"), []),
        L.Scope(ScopeMode.auto, ScopeOrigin.user, [loop]),
    ]
    func = SimpleNamespace(params=[L.Param("n", binder("n", "param").type, ParamDir.In)], body=body)
    assert types.binds_a_float_scalar(func) is (where != "none")
    assert reference(func) is (where != "none")
