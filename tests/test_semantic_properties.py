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

import functools
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import REPO, load_program

from nanopass.errors import UserError
from nanopass.tools import fuzz_deps, pending
from nanopass.tools.fuzz_deps import PropertyFailure, Stats, check_auto, check_manual, traces
from nanopass.tools.gen_programs import N_MAX, RandomChooser, flat_deps, generate, programs
from nanopass.tools.properties import has_no_correct_compilation

PROPERTY = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))

# The surface before issue 21's shapes: the seeded tests of the tool's own mechanics below were
# written against its programs (the issue-21 shapes have tests of their own, SHAPES).
BASE = pending.FEATURES - pending.PENDING


@settings(PROPERTY, max_examples=40)
@given(programs(manual=False))
def test_auto_programs_have_no_hazard_and_read_what_they_read_as_written(program):
    stats = Stats()
    check_auto(program, stats)
    refused = stats.findings.refused_by_design  # (an assemble placement a use would see)
    assert stats.programs == 1 and stats.findings.runs == (0 if refused else N_MAX + 1)


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
        try:
            _, _, result = traces(program.render(), program.values(), gxx=True)
        except UserError as error:  # (an assemble placement a use would see: not a program to run)
            assume(not has_no_correct_compilation(error))
            raise
        assert result.compiled is not None and len(result.compiled.tasks()) == len(result.reference.tasks())


def test_generated_programs_cover_the_surface():
    generated = [generate(RandomChooser(seed), manual=seed % 2 == 1, features=BASE) for seed in range(80)]
    texts = [program.render() for program in generated]
    joined = "\n".join(texts)
    mixed = [p.render() for p in generated if p.mixed]
    before = [t.split(") -> pl.Tensor[[8, 8], pl.FP32]:\n    ")[0].split("    ) -> pl.Tensor[[8, 8], pl.FP32]:\n")[-1]
              .split("with pl.manual_scope():")[0] for t in mixed[:3]]
    assert mixed and all(any(line.rstrip().endswith(")") for line in b.splitlines()) for b in before)  # AUTO code
    for construct in ("manual_dep=True", "# options: analyze_auto_scopes_for_deps=True"):
        assert construct in joined, construct
    for construct in ("pl.range(", "pl.parallel(", "if ", "else:", "pl.manual_scope()", "pl.submit(", "deps=[t",
                      "pl.tensor.slice(", "pl.tensor.transpose(", "pl.tensor.reshape(", "pl.tensor.read(",
                      "pl.tensor.write(", "pl.create_tensor(", "init_value=", "self.k_mm(", "init_values=(",
                      "pl.yield_(", "pl.array.create(4, pl.INT64)", "pl.system.task_dummy(", "pl.no_dep(",
                      "auto_scope=False", "with pl.scope():"):
        assert construct in joined, construct


# Each issue-21 feature (tools/gen_shapes.py) and a line only a program with it has.
SHAPES = {
    "host_reads": (False, r"= self\.k_fscale\(.*, h\d+\)"),
    "host_reads_after_scope": (True, lambda text: any("self.k_fscale(" in line for line in after_manual_scope(text))),
    "host_reads_derived": (False, r"# options: analyze(.*\n)+.*= self\.k_fscale\("),
    "assemble_in_manual": (True, lambda text: any("pl.assemble(" in line for line in in_manual_scope(text))),
    "host_writes": (False, r"pl\.tensor\.write\((?!flags)"),
    "host_in_manual": (True, lambda text: any(re.search(r"pl\.tensor\.(read|write)\(", line) for line in in_manual_scope(text))),
    "manual_in_loop": (True, r"for w\d+ in pl\.range\((n|2)\):\n +with pl\.manual_scope\(\):"),
    "manual_in_branch": (True, r"if n[^\n]*:\n +(for w\d+[^\n]*\n +)?with pl\.manual_scope\(\):"),
    "manual_n_loops": (True, lambda text: any(re.search(r"in pl\.range\(n[,)]", line) for line in in_manual_scope(text))),
    "cond_write": (False, r"if i\d+ (>|==) \d:\n +\w+ = self\.k_acc\("),
    "init_swap": (False, r"(o\d+), (o\d+) = pl\.yield_\((q\d+), (p\d+)\)"),
    "slice_loop": (False, r"= self\.k_two\(x0, s\d+, t\d+\)"),
    "slice_loop_before_scope": (True, r"= self\.k_two\((.*\n)*.*with pl\.manual_scope"),
    "assemble": (False, r"= pl\.assemble\("),
    "assemble_around": (False, r"a\d+ = self\.k_add\(s\d+, x0, a\d+\)"),
    "carry_chain": (True, r"for i\d+ in pl\.parallel\(\d\):\n.*deps=\[ch\d+, "),
    "phases": (True, r"in pl\.parallel\(\d, init_values=\(prev\d+,\)\):\n +for k\d+, \(d\d+,\) in pl\.range"),
    "while_loops": (False, r"for \(i\d+,\) in pl\.while_\(init_values=\(\d,\)\):\n +pl\.cond\(i\d+ < (n|\d)\)"),
}


def in_manual_scope(text: str) -> list[str]:
    """The lines of a program inside its manual scope."""
    lines, inside, depth = text.splitlines(), [], None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if depth is not None and line.strip() and indent <= depth:
            depth = None
        if depth is not None:
            inside.append(line)
        if line.strip() == "with pl.manual_scope():":
            depth = indent
    return inside


def after_manual_scope(text: str) -> list[str]:
    """The lines of a program after its manual scope."""
    inside = set(in_manual_scope(text))
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "with pl.manual_scope():")
    return [line for line in lines[start + 1:] if line not in inside]


# Features whose constructs read alike: the one is off only with the others.
FAMILIES = {"host_reads": {"host_reads", "host_reads_after_scope", "host_reads_derived"}}


def shows(pattern, text: str) -> bool:
    return pattern(text) if callable(pattern) else bool(re.search(pattern, text, re.M))


@functools.lru_cache(maxsize=None)
def every_shape(manual: bool) -> tuple[str, ...]:
    return tuple(generate(RandomChooser(seed), manual, features=pending.FEATURES).render() for seed in range(60))


@pytest.mark.parametrize("feature", sorted(SHAPES))
def test_each_issue21_shape_is_generated_with_its_feature_and_only_then(feature):
    manual, pattern = SHAPES[feature]
    assert any(shows(pattern, text) for text in every_shape(manual)), feature
    others = pending.FEATURES - FAMILIES.get(feature, {feature})
    without = [generate(RandomChooser(seed), manual, features=others).render() for seed in range(20)]
    assert not any(shows(pattern, text) for text in without), feature


def test_every_generated_program_runs_for_every_value_of_n():
    program = generate(RandomChooser(3))
    sets = program.value_sets()
    assert sets[0] == program.values() and sorted(int(v["n"]) for v in sets) == list(range(N_MAX + 1))


def test_a_value_mismatch_or_a_refusal_fails_the_auto_property(monkeypatch):
    from nanopass.errors import UserError
    from nanopass.tools import check, properties

    program = generate(RandomChooser(2))
    monkeypatch.setattr(check, "compare_values", lambda *args: ["a changed read"])
    with pytest.raises(PropertyFailure, match=r"mismatch \(issue 21, class 5\): value mismatch: a changed read"):
        check_auto(program, Stats())
    monkeypatch.undo()

    def refuse(text, options=None, recheck_preserved=False):
        raise UserError("refused")

    monkeypatch.setattr(properties, "compile_text", refuse)
    with pytest.raises(PropertyFailure, match=r"refusal \(issue 21, class 7\)"):
        check_auto(program, Stats())


def test_the_tally_counts_every_failing_run_by_kind_and_class(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "nanopass.tools.fuzz_deps", "--tally", "--seconds", "4", "--seed", "5",
         "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=REPO, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    first, second = result.stdout.splitlines()[:2]
    assert first.startswith("checked ") and first.endswith("; 0 failing programs")
    assert second == "failing runs: 0 hazard, 0 mismatch, 0 fatal, 0 differs, 0 refusal, 0 crash, 0 gxx, 0 oracle"


def test_derived_deps_use_every_way_of_writing_a_dependency():
    import random

    kinds = set()
    for seed in range(30):
        deps, _ = fuzz_deps.derive_deps(generate(RandomChooser(seed), manual=True, features=BASE), random.Random(seed))
        kinds |= {d.kind for ds in deps.values() for d in flat_deps(ds)}
    assert kinds == {"tid", "history", "slot", "carry", "barrier"}


def test_the_oracle_catches_a_missing_edge_the_checker_would_miss(monkeypatch):
    # The property compares the checker with the oracle, so a checker that ordered everything
    # would be caught: make the runtime model claim every pair ordered and watch it fail.
    from nanopass.tools import runtime_model

    monkeypatch.setattr(runtime_model.Model, "ordered", lambda self, a, b: True)
    monkeypatch.setattr(runtime_model.Model, "ordered_before", lambda self, b: -1)  # every node
    monkeypatch.setattr(runtime_model.Model, "reach_of", lambda self, b: (b, 0))  # every node before b
    program = generate(RandomChooser(1), manual=True, features=BASE)  # a mixed program whose scope needs 3 edges
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


def test_dependencies_are_derived_per_instance_of_a_manual_scope_in_a_loop():
    # a site's loops, history arrays and carries start at the manual scope, not at the loop
    # around it; the user orders the pairs inside one instance of the scope (a TaskId does not
    # outlive it), pairs between instances are the compiler's (issue 21, class 2)
    from nanopass.tools.properties import Findings

    program = next(
        p for p in (generate(RandomChooser(seed), manual=True, features={"manual_in_loop"}) for seed in range(200))
        if p.wrapped and p.sites and not p.mixed
    )
    assert re.search(r"for w\d+ in pl\.range\((n|2)\):\n +with pl\.manual_scope\(\):", program.render())
    deps, failures = fuzz_deps.manual_failures(program, 0, Findings())
    assert deps is not None
    assert all(f.kind == "hazard" and f.defect == "2" for f in failures), [f.message for f in failures]
