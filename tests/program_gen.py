"""Hypothesis strategies for random, valid DSL programs (source text) of the control-flow surface.

Programs are valid by construction: every local is defined at the top of the orchestration
function and only re-assigned inside loops and branches, so every name is visible wherever it is
used. Statements: kernel calls writing a tensor in place (InOut) or into an output (Out),
tensor and scalar re-assignments (which make rebind carries and phis), ``pl.range`` and
``pl.parallel`` loops (1 to 3 bounds), ``if``/``else`` on scalar comparisons, and AUTO scopes
when the function has ``auto_scope=False``.
"""

from __future__ import annotations

from hypothesis import strategies as st

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.AIV)
    def kio(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def kout(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIC)
    def ks(self, x: pl.Tensor[[16, 16], pl.FP32], s: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration{auto})
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''

TENSORS_WRITABLE = ["b", "t0", "t1", "t2"]
TENSORS = ["a"] + TENSORS_WRITABLE
SCALARS = ["s0", "s1"]


def _scalar_expr(loop_vars: list[str]):
    leaves = st.sampled_from(["n", "s0", "s1", "1", "2", "4"] + loop_vars)
    return st.one_of(
        leaves,
        st.tuples(leaves, st.sampled_from(["+", "-", "*", "//", "%"]), st.sampled_from(["1", "2", "3"])).map(
            lambda t: f"{t[0]} {t[1]} {t[2]}"
        ),
    )


@st.composite
def _statement(draw, depth: int, loop_vars: list[str], manual_ok: bool, hand_scopes: bool, counter: list[int]):
    kinds = ["kio", "kout", "ks", "tensor_copy", "scalar"]
    if depth > 0:
        kinds += ["for", "if"] + (["scope"] if hand_scopes else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "kio":
        dst = draw(st.sampled_from(TENSORS_WRITABLE))
        return [f"{dst} = self.kio({draw(st.sampled_from(TENSORS))}, {dst})"]
    if kind == "kout":
        dst = draw(st.sampled_from(TENSORS_WRITABLE))
        return [f"{dst} = self.kout({draw(st.sampled_from(TENSORS))}, {dst})"]
    if kind == "ks":
        dst = draw(st.sampled_from(TENSORS_WRITABLE))
        return [f"{dst} = self.ks({draw(st.sampled_from(TENSORS))}, {draw(_scalar_expr(loop_vars))}, {dst})"]
    if kind == "tensor_copy":
        dst, src = draw(st.lists(st.sampled_from(["t0", "t1", "t2"]), min_size=2, max_size=2, unique=True))
        return [f"{dst} = {src}"]
    if kind == "scalar":
        return [f"{draw(st.sampled_from(SCALARS))} = {draw(_scalar_expr(loop_vars))}"]
    if kind == "for":
        counter[0] += 1
        var = f"i{counter[0]}"
        loop = draw(st.sampled_from(["range", "parallel"]))
        bounds = draw(
            st.sampled_from(["3", "n", "1, 4", "0, n, 2", "s0, 5"]).filter(lambda b: loop == "range" or "s0" not in b)
        )
        body = draw(_block(depth - 1, loop_vars + [var], manual_ok, hand_scopes, counter))
        return [f"for {var} in pl.{loop}({bounds}):"] + ["    " + line for line in body]
    if kind == "if":
        cond = f"{draw(_scalar_expr(loop_vars))} {draw(st.sampled_from(['<', '>=', '==', '!=']))} {draw(st.sampled_from(['0', '2', 'n']))}"
        then = draw(_block(depth - 1, loop_vars, manual_ok, hand_scopes, counter))
        lines = [f"if {cond}:"] + ["    " + line for line in then]
        if draw(st.booleans()):
            orelse = draw(_block(depth - 1, loop_vars, manual_ok, hand_scopes, counter))
            lines += ["else:"] + ["    " + line for line in orelse]
        return lines
    body = draw(_block(depth - 1, loop_vars, manual_ok, hand_scopes, counter))
    return ["with pl.scope():"] + ["    " + line for line in body]


@st.composite
def _block(draw, depth: int, loop_vars: list[str], manual_ok: bool, hand_scopes: bool, counter: list[int]):
    statements = draw(
        st.lists(_statement(depth, loop_vars, manual_ok, hand_scopes, counter), min_size=1, max_size=3)
    )
    return [line for stmt in statements for line in stmt]


@st.composite
def control_flow_programs(draw, max_depth: int = 3):
    """Source text of a random valid program (one orchestration function named ``orch``)."""
    hand_scopes = draw(st.booleans())
    counter = [0]
    body = [
        "t0 = pl.create_tensor([16, 16], dtype=pl.FP32)",
        "t1 = pl.create_tensor([16, 16], dtype=pl.FP32)",
        "t2 = pl.create_tensor([16, 16], dtype=pl.FP32)",
        "s0 = n + 1",
        "s1 = 2",
    ]
    body += draw(_block(max_depth, [], True, hand_scopes, counter))
    body += ["c = self.kout(t0, c)", "return c"]
    header = HEADER.replace("{auto}", ", auto_scope=False" if hand_scopes else "")
    return header + "".join(" " * 8 + line + "\n" for line in body)
