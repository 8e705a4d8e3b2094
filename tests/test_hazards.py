"""The hazard checker on compiled programs: it finds missing edges, names both tasks, and can fail."""

from __future__ import annotations

import textwrap

from conftest import load_program

from nanopass.tools.check import check_program
from nanopass.tools.hazards import task_numbers

HEADER = '''
import nanopass.dsl as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k_in(self, a: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
'''


def check(tmp_path, body: str, values=None, options=None):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), "    "))
    return check_program(load_program(path), values or {}, options=options)


def pairs(result, hazards):
    """(kind, first task number, second task number) of each hazard."""
    numbers = task_numbers(result.emission)
    return [(h.kind, numbers[h.first], numbers[h.second]) for h in hazards]


def test_a_missing_manual_edge_is_reported_with_both_tasks_the_tensor_and_lines(tmp_path):
    result = check(tmp_path, """
        def orch(self, a: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
            c: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
            with pl.manual_scope():
                c, t1 = pl.submit(self.k, a, c)
                y, t2 = pl.submit(self.k, c, y)
            return y
    """)
    [line] = [l for l in result.lines() if l.startswith("hazard:")]
    assert line == (
        "hazard: RAW on c: task 0 (k) at line 23 touches [0:16, 0:16], task 1 (k) at line 24 touches "
        "[0:16, 0:16], and the runtime does not order them"
    )


def test_the_same_program_with_the_edge_has_no_hazard(tmp_path):
    result = check(tmp_path, """
        def orch(self, a: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
            c: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
            with pl.manual_scope():
                c, t1 = pl.submit(self.k, a, c)
                y, t2 = pl.submit(self.k, c, y, deps=[t1])
            return y
    """)
    assert result.hazards == [] and len(result.reference.tasks()) == 2


WAR_BODY = """
    def orch(self, x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], z: pl.Tensor[[16, 16], pl.FP32],
             y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.k(x, y)
        x = self.k_in(z, x)
        return y
"""


def test_issue10_write_after_read_is_a_hazard_without_the_war_pass(tmp_path):
    # The runtime records no readers: without order_write_after_read task 1 may overwrite x while
    # task 0 still reads it, and the checker says so.
    result = check(tmp_path, WAR_BODY, options={"order_war": False})
    assert pairs(result, result.failing) == [("WAR", 0, 1)]
    assert result.emission.tasks()[1].deps == ()


def test_issue10_the_war_pass_orders_the_pair(tmp_path):
    result = check(tmp_path, WAR_BODY)
    assert result.hazards == []
    first, second = result.emission.tasks()
    assert second.deps == (first.id,)


def test_pl_parallel_iterations_are_waived_but_a_later_reader_is_not(tmp_path):
    result = check(tmp_path, """
        def orch(self, a: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
            c: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
            with pl.manual_scope():
                for i in pl.parallel(3):
                    c, t = pl.submit(self.k, a, c)
                y, t2 = pl.submit(self.k, c, y)
            return y
    """)
    waived = [h for h in result.hazards if h.waived]
    assert pairs(result, waived) == [("WAW", 0, 1), ("WAW", 0, 2), ("WAW", 1, 2)]
    assert pairs(result, result.failing) == [("RAW", 0, 3), ("RAW", 1, 3), ("RAW", 2, 3)]


def test_a_no_dep_argument_is_waived(tmp_path):
    result = check(tmp_path, """
        def orch(self, a: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
            c: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
            with pl.manual_scope():
                c, t1 = pl.submit(self.k, a, c)
                y, t2 = pl.submit(self.k, pl.no_dep(c), y)
            return y
    """)
    assert result.failing == [] and [h.waived for h in result.hazards] == ["a pl.no_dep argument"]


def test_a_buffer_a_loop_body_yields_outlives_the_body(tmp_path):
    result = check(tmp_path, """
        def orch(self, a: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
                 n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
            last = a
            for i in pl.range(n):
                t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.k(last, t)
                last = t
            y = self.k(last, y)
            return y
    """, {"n": "2"})
    # the loop body yields t, so materialize_runtime_scopes gives it no scope of its own: t belongs
    # to the function's scope (it was freed when the iteration's scope ended, issue 21's tester)
    warnings = [l for l in result.lines() if l.startswith("warning:")]
    assert warnings == [] and result.failing == []
