"""Issue 7 properties on generated programs (nanopass.tools.gen_programs, fuzz_deps).

Every generated program goes through the whole pipeline with each pass's output verified against
its target language (each pass maps valid input to valid output), and every interpretable stage's
trace agrees with the reference trace (or refines the stage before, for the passes that add
dependencies). AUTO programs have no hazard (order_write_after_read orders the write-after-read
pairs; some are compiled with analyze_auto_scopes_for_deps); manual programs whose dependencies
were derived from their true hazards have none, and removing a needed dependency makes the
checker report exactly the pairs an independent oracle finds unordered.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, load_program

from nanopass.tools import fuzz_deps
from nanopass.tools.fuzz_deps import PropertyFailure, Stats, check_auto, check_manual, traces
from nanopass.tools.gen_programs import RandomChooser, flat_deps, generate, programs

PROPERTY = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))


@settings(PROPERTY, max_examples=40)
@given(programs(manual=False))
def test_auto_programs_have_no_hazard(program):
    stats = Stats()
    check_auto(program, stats)
    assert stats.programs == 1


@settings(PROPERTY, max_examples=30)
@given(programs(manual=True), st.integers(0, 2**31))
def test_manual_programs_with_deps_from_hazards_have_none_and_a_removed_edge_is_reported(program, seed):
    stats = Stats()
    check_manual(program, seed, stats)
    assert stats.programs == 1 and stats.hazards_reported >= stats.edges_removed


@pytest.mark.slow
@settings(PROPERTY, max_examples=6)
@given(programs(manual=False), programs(manual=True))
def test_generated_programs_run_the_same_as_compiled_cpp(auto, manual):
    for program in (auto, manual):
        _, _, result = traces(program.render(), program.values(), gxx=True)
        assert result.compiled is not None and len(result.compiled.tasks()) == len(result.reference.tasks())


def test_generated_programs_cover_the_surface():
    generated = [generate(RandomChooser(seed), manual=seed % 2 == 1) for seed in range(80)]
    texts = [program.render() for program in generated]
    joined = "\n".join(texts)
    mixed = [p.render() for p in generated if p.mixed]
    assert mixed and all(t.split("with pl.manual_scope():")[0].rstrip().endswith(")") for t in mixed[:3])
    for construct in ("manual_dep=True", "# options: analyze_auto_scopes_for_deps=True"):
        assert construct in joined, construct
    for construct in ("pl.range(", "pl.parallel(", "if ", "else:", "pl.manual_scope()", "pl.submit(", "deps=[t",
                      "pl.tensor.slice(", "pl.tensor.transpose(", "pl.tensor.reshape(", "pl.tensor.read(",
                      "pl.tensor.write(", "pl.create_tensor(", "init_value=", "self.k_mm(", "init_values=(",
                      "pl.yield_(", "pl.array.create(4, pl.INT64)", "pl.system.task_dummy(", "pl.no_dep(",
                      "auto_scope=False", "with pl.scope():"):
        assert construct in joined, construct


def test_derived_deps_use_every_way_of_writing_a_dependency():
    import random

    kinds = set()
    for seed in range(30):
        deps, _ = fuzz_deps.derive_deps(generate(RandomChooser(seed), manual=True), random.Random(seed))
        kinds |= {d.kind for ds in deps.values() for d in flat_deps(ds)}
    assert kinds == {"tid", "history", "slot", "carry", "barrier"}


def test_the_oracle_catches_a_missing_edge_the_checker_would_miss(monkeypatch):
    # The property compares the checker with the oracle, so a checker that ordered everything
    # would be caught: make the runtime model claim every pair ordered and watch it fail.
    from nanopass.tools import runtime_model

    monkeypatch.setattr(runtime_model.Model, "ordered", lambda self, a, b: True)
    monkeypatch.setattr(runtime_model.Model, "ordered_before", lambda self, b: -1)  # every node
    program = generate(RandomChooser(1), manual=True)  # a mixed program whose scope needs 3 edges
    assert program.mixed
    with pytest.raises(PropertyFailure, match="after removing a needed edge the checker reports"):
        check_manual(program, 1, Stats())


def test_the_fuzzing_tool_saves_a_failing_program_shrunk(tmp_path, monkeypatch):
    def fail_on_loops(program, stats, gxx=False):
        text = program.render()
        if "for " in text:
            raise PropertyFailure("a loop", text, program.values())

    monkeypatch.setattr(fuzz_deps, "check_auto", fail_on_loops)
    monkeypatch.setattr(fuzz_deps, "check_manual", lambda program, seed, stats, gxx=False: None)
    stats = Stats()
    fuzz_deps.run_hypothesis(0, 50, stats, tmp_path, gxx=False)
    [saved] = sorted(tmp_path.glob("failure_*.py"))
    text = saved.read_text()
    assert text.startswith("# a loop\n# check: n=") and text.count("for ") == 1
    body = text.split("-> pl.Tensor[[8, 8], pl.FP32]:\n")[1].splitlines()
    assert len(body) <= 6, "hypothesis shrinks the program to a loop and the parameter uses"
    assert load_program(saved).name == "Generated"


def test_the_fuzzing_tool_runs_for_its_budget_and_reports_counts():
    result = subprocess.run(
        [sys.executable, "-m", "nanopass.tools.fuzz_deps", "--seconds", "4", "--seed", "7", "--examples", "5"],
        capture_output=True, text=True, cwd=REPO, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    line = result.stdout.splitlines()[0]
    assert line.startswith("checked ") and " programs (" in line and line.endswith("0 failures")
    assert int(line.split()[1]) >= 10
