"""Guards that test two conditions at once (issue 24, seeds 41165, 50046 of measure_generated):
a compiler edge implied only where two conditions hold together (an inner loop's counter at a
value and a loop before it that made a trip) waits on a guard's cell set to no task where both
hold (``drop_implied_dependencies.conjunctions``: one ``if`` with ``&&``). Neither condition
alone implies it, so the guard on one condition that the pass tested before finds none and the
edge stays on every run. Figures (tools/measure_edges.py) by hand, and the hazard checker on
each trip count."""

from __future__ import annotations

from test_lean_edges import TILE, checked_clean, insertions
from test_lean_loop_joins import HEADER

# In each of two outer iterations: a loop of n trips writes y (acc), a swap loop of two trips
# writes y (k = 0) then z (k = 1), and add reads both after them.
PROGRAM = HEADER + f"""    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
        for i in pl.range(2):
            for j in pl.range(n):
                y = self.acc(x, y)
            for k, (p, q) in pl.range(2, init_values=(y, z)):
                p = self.acc(x, p)
                o1, o2 = pl.yield_(q, p)
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.add(o1, o2, t)
        return y
"""


def test_a_guard_tests_an_inner_counter_and_a_loop_that_made_a_trip():
    """At i = 0 add has not run: no edge inserts anything. At i = 1 the first acc of the j loop
    (n >= 1) waits for add (write after read; its later runs look up y, written by the run
    before): 1. The swap loop's acc at k = 0 writes y and looks it up: where the j loop made a
    trip it finds the j loop's last acc, after add; where it made none, its own run of i = 0,
    before add: it needs the edge. At k = 1 it writes z, whose last writer is its own run of
    i = 0: it needs the edge. With the edge on both runs (neither k == 0 nor n > 0 alone
    implies it): 2 insertions for n = 0, 3 with 1 redundant for n >= 1. With the guard
    (k == 0 && n > 0): 2 insertions for every n, none redundant, minimum 2."""
    got = {n: insertions(PROGRAM, n) for n in range(4)}
    assert {n: (m.insertions, m.redundant, m.minimum, m.dummies) for n, m in got.items()} == {
        0: (2, 0, 2, 0), 1: (2, 0, 2, 0), 2: (2, 0, 2, 0), 3: (2, 0, 2, 0)}
    checked_clean(PROGRAM, (0, 1, 2, 3))


def test_the_guard_is_one_if_with_both_tests(tmp_path):
    """The emitted C++ sets the guard's cell in one ``if`` whose condition is the conjunction,
    in the swap loop before its acc: no test of either condition alone."""
    from nanopass.api import generate_orchestration
    from conftest import load_program

    path = tmp_path / "p.py"
    path.write_text(PROGRAM)
    cpp = generate_orchestration(load_program(path)).code
    guard = cpp.index("if (k == 0 && n > 0) {")
    assert cpp.index("for (int64_t k = 0;") < guard < cpp.index("// Task 1: acc")
    assert cpp.count("if (k == 0") == 1 and "if (n > 0)" not in cpp


# As PROGRAM, with the loop of n trips replaced by an ``if n > 1`` (a condition on the
# parameters: every iteration takes the same branch) around the writer of y.
ON_A_PARAMETER = PROGRAM.replace("""            for j in pl.range(n):
                y = self.acc(x, y)
""", """            if n > 1:
                y = self.acc(x, y)
""")


def test_a_guard_tests_an_inner_counter_and_a_condition_on_the_parameters(tmp_path):
    """As above, the acc of the branch in place of the j loop: at i = 1 it waits for add where
    n > 1 (1), and the swap loop's acc at k = 0 finds it there (implied), finds its own run of
    i = 0 where n <= 1 (needed); at k = 1 it needs the edge. With the edge on both runs: 2
    insertions for n <= 1, 3 with 1 redundant for n > 1. With the guard (k == 0 && n > 1): 2
    for every n, none redundant, minimum 2; one ``if`` with both tests."""
    from nanopass.api import generate_orchestration
    from conftest import load_program

    got = {n: insertions(ON_A_PARAMETER, n) for n in range(4)}
    assert {n: (m.insertions, m.redundant, m.minimum, m.dummies) for n, m in got.items()} == {
        0: (2, 0, 2, 0), 1: (2, 0, 2, 0), 2: (2, 0, 2, 0), 3: (2, 0, 2, 0)}
    checked_clean(ON_A_PARAMETER, (0, 1, 2, 3))
    path = tmp_path / "p.py"
    path.write_text(ON_A_PARAMETER)
    cpp = generate_orchestration(load_program(path)).code
    assert cpp.count("if (k == 0 && n > 1) {") == 1


# In each of n outer iterations a loop of three trips writes z (k = 0) then y (k = 1, 2: its
# carry holds y from the second iteration on), add reads both, and acc writes y after add in
# the first outer iteration only (``if i == 0``: the outer loop's second iteration is walked
# apart from the third on, so the walk of it knows i is 1).
SECOND_ITERATION = HEADER + f"""    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
        for i in pl.range(n):
            for k, (p,) in pl.range(3, init_values=(z,)):
                p = self.acc(x, p)
                (o,) = pl.yield_(y)
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.add(y, z, t)
            if i == 0:
                y = self.acc(x, y)
        return y
"""


def test_a_guard_tests_an_outer_counter_known_in_the_second_iteration(tmp_path):
    """At i = 0 add has not run; the acc of the branch waits for it (1). At i >= 1 the loop's
    acc at k = 0 writes z, last written by its own run before add: it needs the edge. At k = 1
    it writes y: at i = 1 the last writer is the acc of the branch (after add), at i >= 2 its
    own run at k = 2 of the iteration before, before add: needed there. At k = 2 its run at k = 1,
    after add. 0, 1, 2, 4 insertions for n = 0..3, none redundant. With the edge on every run
    at i >= 1 (the second iteration, walked apart, was read as any i >= 1): 4 and 7 for n = 2,
    3, 2 and 3 redundant. The guard: (i == 1 && k == 1) || k == 2."""
    from nanopass.api import generate_orchestration
    from conftest import load_program

    got = {n: insertions(SECOND_ITERATION, n) for n in range(4)}
    assert {n: (m.insertions, m.redundant, m.minimum, m.dummies) for n, m in got.items()} == {
        0: (0, 0, 0, 0), 1: (1, 0, 1, 0), 2: (2, 0, 2, 0), 3: (4, 0, 4, 0)}
    checked_clean(SECOND_ITERATION, (0, 1, 2, 3))
    path = tmp_path / "p.py"
    path.write_text(SECOND_ITERATION)
    cpp = generate_orchestration(load_program(path)).code
    assert cpp.count("if ((i == 1 && k == 1) || k == 2) {") == 1
