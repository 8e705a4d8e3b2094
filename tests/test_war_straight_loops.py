"""``hazards.STRAIGHT_LOOPS``: ``find_hazards`` takes an outermost ``pl.parallel`` loop that runs
more than once and whose body is straight by a path of its own (``straight_loop``), which must
give what the general walk gives: the same sites, chained sites and pairs (writes tracked and
not), and the same output of order_write_after_read, on small programs of the shapes it takes
(several tasks in the body, InOut / Out / In of one tensor, ``deps=``, slices, manual scopes and
AUTO ones, a body that makes a fact from before the loop change: the path gives the loop back),
on the bench's scopes shape, and on the corpus. Each comparison can fail: the path is counted
taken (and given back where it must be).
"""

from __future__ import annotations

import pytest

from conftest import CORPUS, bench_file
from test_hazard_shortcuts import walk_result, war_inputs, war_output

from nanopass.passes import hazards

HEAD = '''import nanopass.dsl as pl


@pl.program
class Straight:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, src: pl.Tensor[[64, 16], pl.FP32], dst: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[64, 16], pl.FP32], k: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def put(self, k: pl.Scalar[pl.INT64], y: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def rows(self, src: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[64, 16], pl.FP32], y: pl.InOut[pl.Tensor[[64, 16], pl.FP32]], z: pl.InOut[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
'''

# (orchestration bodies, indented by 8; each holds outermost pl.parallel loops with straight bodies)
BODIES = {
    "manual_inout_chain": '''
        with pl.manual_scope():
            prev = None
            for b in pl.parallel(4):
                y, prev = pl.submit(self.acc, x, b, y, deps=[prev])
        with pl.manual_scope():
            prev = None
            for b in pl.parallel(4):
                y, prev = pl.submit(self.acc, x, b, y, deps=[prev])
        return y
''',
    "manual_in_out_inout_one_tensor": '''
        with pl.manual_scope():
            prev = None
            for b in pl.parallel(3):
                z, t1 = pl.submit(self.rd, y, z, deps=[prev])
                y, t2 = pl.submit(self.acc, z, b, y, deps=[t1])
                y, prev = pl.submit(self.put, b, y, deps=[t2])
        y = self.acc(z, 0, y)
        return y
''',
    "auto_several_tasks": '''
        for b in pl.parallel(4):
            z = self.rd(y, z)
            y = self.acc(z, b, y)
            z = self.acc(x, b, z)
        y = self.acc(z, 1, y)
        return y
''',
    "auto_writes_after_reads": '''
        z = self.rd(x, z)
        for b in pl.parallel(2):
            y = self.acc(z, b, y)
            z = self.put(b, z)
        for b in pl.parallel(5):
            z = self.rd(y, z)
            y = self.put(b, y)
        return y
''',
    "slices": '''
        with pl.manual_scope():
            prev = None
            for b in pl.parallel(4):
                top = pl.tensor.slice(y, [16, 16], [0, 0])
                low = pl.tensor.slice(y, [16, 16], [16, 0])
                low, t1 = pl.submit(self.rows, top, low, deps=[prev])
                top, prev = pl.submit(self.rows, low, top, deps=[t1])
        y = self.acc(x, 0, y)
        return y
''',
    "deps_from_before_the_loop": '''
        with pl.manual_scope():
            z, first = pl.submit(self.rd, x, z)
            prev = first
            for b in pl.parallel(3):
                held = first
                y, prev = pl.submit(self.acc, x, b, y, deps=[held])
                y, other = pl.submit(self.rd, x, y, deps=[prev])
        z = self.acc(y, 1, z)
        return y
''',
    "carry_passed_through": '''
        with pl.manual_scope():
            y, first = pl.submit(self.acc, x, 0, y)
            prev = first
            for b in pl.parallel(3):
                z, other = pl.submit(self.rd, y, z, deps=[prev])
        y = self.acc(z, 1, y)
        return y
''',
    "one_and_unknown_trips": '''
        for b in pl.parallel(1):
            y = self.acc(z, b, y)
        z = self.put(0, z)
        with pl.manual_scope():
            prev = None
            for b in pl.parallel(4):
                z, prev = pl.submit(self.acc, y, b, z, deps=[prev])
        return y
''',
}


def programs(tmp_path, name: str) -> list:
    (path := tmp_path / f"{name}.py").write_text(HEAD + BODIES[name])
    return war_inputs(path)


def compared(program, monkeypatch) -> tuple[int, int, int]:
    """Checks that the walk and the pass give the same both ways; how often the straight path
    was asked for a loop, and how often each way undid a pass (the path gives a loop back by an
    undo of its own)."""
    asked, undos = [], []
    original, undo = hazards.replays_follow, hazards.LiveAccesses.undo
    # (``straight_loop`` asks ``replays_follow`` once per loop it may take, before the walk)
    monkeypatch.setattr(hazards, "replays_follow", lambda body: (asked.append(body), original(body))[1])
    monkeypatch.setattr(hazards.LiveAccesses, "undo", lambda self, mark: (undos.append(mark), undo(self, mark))[1])
    lean = (walk_result(program), war_output(program))
    lean_asked, lean_undos = len(asked), len(undos)
    monkeypatch.setattr(hazards, "STRAIGHT_LOOPS", False)
    plain = (walk_result(program), war_output(program))
    monkeypatch.setattr(hazards, "STRAIGHT_LOOPS", True)
    assert lean == plain
    return lean_asked, lean_undos, len(undos) - lean_undos


@pytest.mark.parametrize("name", sorted(BODIES))
def test_the_straight_path_gives_what_the_general_walk_gives(name, tmp_path, monkeypatch):
    (program,) = programs(tmp_path, name)
    asked, _, _ = compared(program, monkeypatch)
    assert asked  # (the path was asked: an outermost pl.parallel loop of more than one run)


def test_the_straight_path_gives_back_a_loop_whose_body_changes_a_fact_from_before(tmp_path, monkeypatch):
    # (``held = first`` in the body makes ``held`` cover the write of z ``first`` covers: a fact
    # from before the loop changes, and the general walk does not keep the first pass's end)
    (program,) = programs(tmp_path, "deps_from_before_the_loop")
    _, lean_undos, plain_undos = compared(program, monkeypatch)
    assert lean_undos > plain_undos  # (the path undid its pass, for the general walk)


def test_the_scopes_shape_takes_the_straight_path(tmp_path, monkeypatch):
    program = war_inputs(bench_file(tmp_path, "scopes", 16))[0]  # (4 scopes, a pl.parallel(4) loop in each)
    asked, lean_undos, plain_undos = compared(program, monkeypatch)
    assert asked == 4 * 3 and lean_undos == plain_undos == 0  # (three walks: walk_result's two, the pass's)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_straight_path_changes_nothing_on_the_corpus(path, monkeypatch):
    for program in war_inputs(path):
        compared(program, monkeypatch)
