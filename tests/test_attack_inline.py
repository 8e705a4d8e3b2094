"""The adversarial tester runs an Inline function as reference-surface.md section 5 says: the
parameters are substituted by the arguments, so a parameter the body rebinds rebinds the caller's
variable even when the call's results do not assign it (tools/attack/found/23; found.py's entry 23,
which tests/test_attack.py runs against nanopass)."""

from __future__ import annotations

import random

from nanopass.tools.attack import semantics, surface_generate
from nanopass.tools.attack import program as P
from nanopass.tools.attack import surface as S

KA = P.Kernel("k0", (("in", "A"), ("inout", "A")))     # reads p0, updates p1

# inl0(q0, q1): `o = q0; q0 = q1; q1 = o; return q0`
SWAP = S.InlineFn("inl0", (("q0", "A", "inout"), ("q1", "A", "inout")), (P.Swap("q0", "q1", "o"),),
                  ("q0",), ("A",))


def swap_then_write(result: str, *after: P.Call) -> P.Program:
    """`result = self.inl0(b, a, ...)`, then `a = self.k0(x, a)` and `after`."""
    body = (S.InlineCall("inl0", ("b", "a"), (result,)), P.Call("k0", ("x", "a"), ("a",))) + after
    return P.Program((KA,), body, surface=True, functions=(SWAP,))


def written_buffers(prog: P.Program) -> list:
    seq = semantics.run(prog, P.render(prog).lines, 1, 0)
    return [e.accesses[1].buf for e in seq.events]


def test_a_rebound_parameter_rebinds_the_callers_variable():
    # q1 (the caller's a) takes b's tensor and q0 (b) a's: the task after the call writes the tensor
    # passed as b (Python's reading leaves a on its own tensor)
    assert written_buffers(swap_then_write("b")) == ["ext:b"]


def test_a_rebound_parameter_rebinds_the_callers_variable_whatever_receives_the_result():
    # the result goes to a new name g: a names b's tensor all the same, and g a's
    assert written_buffers(swap_then_write("g", P.Call("k0", ("x", "g"), ("g",)))) == ["ext:b", "ext:a"]


def test_a_parameter_the_body_leaves_alone_keeps_the_callers_tensor():
    keep = S.InlineFn("inl0", (("q0", "A", "inout"), ("q1", "A", "inout")), (P.Call("k0", ("q1", "q0"), ("q0",)),),
                      ("q0",), ("A",))
    prog = P.Program((KA,), (S.InlineCall("inl0", ("b", "a"), ("g",)), P.Call("k0", ("x", "a"), ("a",)),
                             P.Call("k0", ("x", "g"), ("g",))), surface=True, functions=(keep,))
    assert written_buffers(prog) == ["ext:b", "ext:a", "ext:b"]


def test_the_generator_reshapes_no_parameter_passed_a_strided_view():
    # an Inline function's body sees its arguments: a parameter passed a transposed view is strided
    # there too (s130000137 of `--surface --seed 13` reshaped one, which the tester's semantics refuses)
    def reshaped(body):
        for s in body:
            if isinstance(s, S.Reshape):
                yield s.src
            for ch in P.children(s):
                yield from reshaped(ch)
    strided = frozenset({"a", "b", "w"})
    calls = 0
    for seed in range(300):
        gen = surface_generate.SurfaceGen(random.Random(seed), 6)
        ctx = surface_generate.SCtx(names={"x": "A", "a": "A", "b": "A", "w": "B"}, readonly={"x"}, strided=strided)
        out = gen.inline_call(ctx)
        if out:
            calls += 1
            (fn,), (call,) = gen.functions, out
            passed_strided = {q for (q, _, _), arg in zip(fn.params, call.args) if arg in strided}
            assert not passed_strided & set(reshaped(fn.body)), P.render(P.Program(
                tuple(gen.kernels.values()), tuple(out), surface=True, functions=(fn,))).source
    assert calls > 50
