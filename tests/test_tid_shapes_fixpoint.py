"""TidShapes (classify_iter_arg_carry's TaskId shapes) walks a loop's body again only while the
shapes of the loop's TaskId carries change: in a nest of sequential loops carrying one TaskId the
innermost body is walked once, not once more per enclosing loop (depth + 1 walks before: a body's
first walk sets all its names, which the old test, "no shape set changed", took for a change)."""

from __future__ import annotations

from conftest import load_program

from nanopass.api import run_pipeline
from nanopass.passes import classify_iter_arg_carry
from nanopass.passes.classify_iter_arg_carry import TidShapes

DEPTH = 6


def deep_nest(depth: int) -> str:
    lines = [
        "import nanopass.dsl as pl",
        "",
        "",
        "@pl.program",
        "class Deep:",
        "    @pl.function(type=pl.FunctionType.AIV)",
        "    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], k: pl.Scalar[pl.INT64],"
        " y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:",
        "        return y",
        "",
        "    @pl.function(type=pl.FunctionType.Orchestration)",
        "    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],"
        " n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:",
        "        prev = None",
    ]
    for level in range(depth):
        lines.append("    " * (level + 2) + f"for i{level} in pl.range(n):")
    lines.append("    " * (depth + 2) + "y, prev = pl.submit(self.acc, x, i0, y, deps=[prev])")
    lines.append("        return y")
    return "\n".join(lines) + "\n"


def test_the_innermost_body_of_a_nest_carrying_a_task_id_is_walked_once(tmp_path, monkeypatch):
    path = tmp_path / "deep.py"
    path.write_text(deep_nest(DEPTH))
    walked: list = []
    block = TidShapes.block

    def counted(self, stmts):
        walked.append(stmts)
        return block(self, stmts)

    monkeypatch.setattr(classify_iter_arg_carry.TidShapes, "block", counted)
    stages = run_pipeline(load_program(path))
    task_bodies = [body for body in walked if any(s._production == "Task" for s in body)]
    assert len(task_bodies) == 1  # (DEPTH + 1 = 7 before)
    loops = _loops(stages["classify_iter_arg_carry"].tree.orch.body)
    plans = [it.plan for stmt in loops for it in stmt.iters if it.var.name.startswith("prev")]
    assert len(plans) == DEPTH and all(plan.rebind and plan.array == 0 for plan in plans)  # (one id each)


def _loops(body):
    from nanopass.languages.statements import Walk

    return [stmt for stmt in Walk(body).compound if stmt._production == "For"]
