"""``nanopass check``: exit codes, messages, the per-stage hazard report."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, REPO, run_cli

from nanopass.passes.pipeline import PASSES

WAR = REPO / "tests" / "semantics" / "hazards" / "war_in_auto.py"


def test_a_program_without_hazards_exits_0():
    result = run_cli("check", str(EXAMPLES / "basic.py"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "orch_basic: 2 tasks; the reference and emission traces agree\n0 hazards\n"


def test_a_hazard_exits_1_and_names_both_tasks():
    # issue 10's program with the write-after-read pass off
    result = run_cli("check", str(WAR), "--no-war-ordering")
    assert result.returncode == 1, result.stderr
    assert "hazard: WAR on x (entry tensor 0): task 0 (k) at line 36" in result.stdout
    assert "task 1 (k2) at line 37" in result.stdout and result.stdout.endswith("1 hazard\n")


def test_the_war_pass_is_on_by_default():
    result = run_cli("check", str(WAR))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.endswith("\n0 hazards\n")


def test_set_pins_values_and_the_others_are_chosen():
    pinned = run_cli("check", str(EXAMPLES / "loop_scalar.py"), "--set", "steps=2", "--set", "alpha=0.5")
    assert pinned.returncode == 0 and pinned.stdout.startswith("orch_loop: 3 tasks;")
    assert pinned.stdout.endswith("\n0 hazards\n")
    partly = run_cli("check", str(EXAMPLES / "loop_scalar.py"), "--set", "steps=2")
    assert partly.returncode == 0, partly.stderr
    assert partly.stdout.splitlines() == [
        "orch_loop: values chosen from the program: alpha in {1.5} (1 run, every combination)",
        "orch_loop with alpha=1.5 steps=2: 3 tasks; the reference and emission traces agree",
        "0 hazards",
    ]


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--set", "steps"], 2, "--set takes NAME=VALUE"),
        (["--set", "steps=two", "--set", "alpha=1"], 2, "--set steps=two: not a INT64 value"),
        (["--set", "beta=1", "--set", "steps=1", "--set", "alpha=1"], 2, "--set beta: not a scalar parameter"),
        (["--set", "step=1"], 2, "help: did you mean 'steps'?"),
    ],
)
def test_bad_values_are_reported(args, code, message):
    result = run_cli("check", str(EXAMPLES / "loop_scalar.py"), *args)
    assert result.returncode == code and message in result.stderr


def test_waived_pairs_are_counted_and_listed_with_verbose():
    quiet = run_cli("check", str(EXAMPLES / "manual_phases.py"))
    assert quiet.returncode == 0 and "18 unordered pair(s) waived" in quiet.stdout
    verbose = run_cli("check", str(EXAMPLES / "manual_phases.py"), "-v")
    assert verbose.stdout.count("(waived: different iterations of one pl.parallel loop)") == 18


def test_dump_all_writes_a_hazard_report_per_stage(tmp_path):
    result = run_cli("check", str(WAR), "--dump-all", str(tmp_path))
    assert result.returncode == 0
    report = (tmp_path / "hazards.txt").read_text()
    stages = [line for line in report.splitlines() if line[:2].isdigit()]
    # the program as written races; order_write_after_read adds the edge; lowering keeps it
    number = {cls.name: f"{index:02d}" for index, cls in enumerate(PASSES, start=1)}
    assert stages[0] == f"{number['derive_call_directions']}_derive_call_directions (directed): 2 tasks, 1 hazards; the program as written"
    ordered = stages.index(
        f"{number['order_write_after_read']}_order_write_after_read (directed): 2 tasks, 0 hazards; refines the previous stage"
    )
    assert stages[-1] == f"{number['lower_to_emission']}_lower_to_emission (emission): 2 tasks, 0 hazards; agrees with the reference"
    assert report.count("hazard: WAR on x") == ordered  # every directed stage before it


@pytest.mark.slow
def test_gxx_runs_the_compiled_program_too():
    result = run_cli("check", str(EXAMPLES / "loop_scalar.py"), "--set", "steps=4", "--set", "alpha=2", "--gxx")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("orch_loop: 5 tasks; the reference, emission and compiled C++ traces agree")


def test_a_fatal_runtime_error_exits_1(tmp_path):
    program = tmp_path / "oob.py"
    program.write_text(OUT_OF_BOUNDS)
    result = run_cli("check", str(program), "--set", "M=8")
    assert result.returncode == 1
    assert result.stdout.splitlines()[1] == "fatal: the runtime stops the program: submit: a tensor view lies outside its buffer"
    assert run_cli("check", str(program), "--set", "M=16").returncode == 0


OUT_OF_BOUNDS = """
import nanopass.dsl as pl

M = pl.dynamic("M")

@pl.program
class Oob:
    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, big: pl.Tensor[[M, 8], pl.FP32], y: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        s = pl.tensor.slice(big, [8, 8], [8, 0])
        y = self.k_copy(s, y)
        return y
"""


def test_trace_writes_the_emission_trace_as_json(tmp_path):
    from nanopass.tools.trace import Trace

    path = tmp_path / "basic.json"
    assert run_cli("check", str(EXAMPLES / "basic.py"), "--trace", str(path)).returncode == 0
    trace = Trace.from_json(path.read_text())
    assert [t.kernel for t in trace.tasks()] == ["kernel_add", "kernel_add"]
    assert trace.buffers["in2"].label == "d"
