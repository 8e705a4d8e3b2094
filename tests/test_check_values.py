"""``nanopass check`` without ``--set``: values chosen from the program, a bounded number of runs."""

from __future__ import annotations

from conftest import EXAMPLES, load_program, run_cli

from nanopass.tools.check_values import MAX_COMBINATIONS, MAX_RUNS, _runs, choose_values

LOOP_SCALAR = (EXAMPLES / "loop_scalar.py").read_text()
BODY = """        for i in pl.range(0, steps):
            acc = self.kernel_axpy(x, acc, alpha)
        if steps > 2:
            y = self.kernel_copy(acc, y)
        else:
            y = self.kernel_copy(x, y)
"""


def variant(tmp_path, body: str):
    assert BODY in LOOP_SCALAR
    path = tmp_path / "variant.py"
    path.write_text(LOOP_SCALAR.replace(BODY, body))
    return path


def test_trip_counts_and_both_sides_of_comparisons(tmp_path):
    body = """        for i in pl.range(2, steps, 3):
            acc = self.kernel_axpy(x, acc, alpha)
        if steps > 10:
            y = self.kernel_copy(acc, y)
        else:
            y = self.kernel_copy(x, y)
        if alpha < 0.25:
            y = self.kernel_copy(acc, y)
"""
    choice = choose_values(load_program(variant(tmp_path, body)).surface(), {})
    # steps: the base 3; range(2, steps, 3) runs 0 times at 0, once at 3 (the base), twice at 6,
    # 5 times from 15; steps > 10 changes between 10 and 11. alpha: the base, 0.25 and half a unit around it.
    assert choice.values == {"alpha": [1.5, -0.25, 0.25, 0.75], "steps": [3, 0, 6, 15, 10, 11]}
    assert not choice.exhaustive and len(choice.runs) == 1 + 3 + 5  # one value changed at a time
    assert choice.runs[0] == {"alpha": 1.5, "steps": 3} and {"alpha": 1.5, "steps": 15} in choice.runs


def test_pinned_values_are_not_chosen():
    choice = choose_values(load_program(EXAMPLES / "loop_scalar.py").surface(), {"steps": "4"})
    assert choice.values == {"alpha": [1.5]} and choice.runs == [{"alpha": 1.5}]


def test_dynamic_dimensions_stay_positive():
    choice = choose_values(load_program(EXAMPLES / "dynamic_dims.py").surface(), {})
    # for r in pl.range(M): no M gives 0 trips (an extent is at least 1); N is used by no loop
    assert choice.values == {"M": [32, 1, 2, 5], "N": [32]} and choice.exhaustive


def test_the_number_of_runs_is_bounded():
    few = _runs({"a": [1, 2], "b": [3, 4], "c": [5, 6, 7, 8]})  # 16 combinations: all of them
    assert few.exhaustive and len(few.runs) == MAX_COMBINATIONS
    many = _runs({"a": [1, 2, 3], "b": [4, 5, 6], "c": [7, 8]})  # 18: one parameter varied at a time
    assert not many.exhaustive and len(many.runs) == 1 + 2 + 2 + 1
    assert many.runs[0] == {"a": 1, "b": 4, "c": 7} and {"a": 1, "b": 6, "c": 7} in many.runs
    huge = _runs({f"p{i}": list(range(8)) for i in range(12)})
    assert len(huge.runs) == MAX_RUNS and huge.cut == 1 + 12 * 7 - MAX_RUNS


def test_check_says_which_values_it_checked():
    result = run_cli("check", str(EXAMPLES / "loop_scalar.py"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "orch_loop: values chosen from the program: alpha in {1.5}; steps in {3, 0, 1, 2, 5} (5 runs, every combination)"
    assert lines[1:-1] == [
        f"orch_loop with alpha=1.5 steps={steps}: {tasks} task{'s' if tasks > 1 else ''}; the reference and emission traces agree"
        for steps, tasks in ((3, 4), (0, 1), (1, 2), (2, 3), (5, 6))
    ]
    assert lines[-1] == "0 hazards in 5 runs"


def test_a_hazard_at_one_chosen_value_fails_the_check(tmp_path):
    # the second task reads acc while the loop's tasks write it: ordered by the runtime (InOut then
    # Input in an AUTO scope); with the write-after-read pass off, the copy into acc after the loop
    # races with the reads of acc that only exist when the loop runs
    body = """        for i in pl.range(0, steps):
            y = self.kernel_copy(acc, y)
        acc = self.kernel_copy(x, acc)
"""
    path = variant(tmp_path, body)
    result = run_cli("check", str(path), "--no-war-ordering")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "orch_loop with alpha=1.5 steps=0: 1 task; the reference and emission traces agree" in result.stdout
    assert "hazard: WAR on acc" in result.stdout
    pinned = run_cli("check", str(path), "--no-war-ordering", "--set", "steps=0", "--set", "alpha=1")
    assert pinned.returncode == 0 and pinned.stdout.endswith("\n0 hazards\n")


def test_a_parameter_keeps_at_most_eight_values_and_stops_being_searched(tmp_path):
    # a chain of 400 comparisons steps > i: the base 3, then the sides of the first ones, 8 in all
    body = "".join(f"        if steps > {i}:\n            y = self.kernel_copy(acc, y)\n" for i in range(400))
    choice = choose_values(load_program(variant(tmp_path, body)).surface(), {})
    assert choice.values["steps"] == [3, 0, 1, 2, 4, 5, 6, 7]
