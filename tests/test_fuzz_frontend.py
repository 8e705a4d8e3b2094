"""Front-end fuzzing (issue 11): mutated and random programs compile or fail with a located user error.

The property (``nanopass.tools.fuzz_frontend.Checker``): a program either compiles to C++ that
g++ accepts against the stand-in header, read the same with and without running the file, or
raises a ``UserError`` whose position lies inside the file; never an internal error, another
exception or a timeout. The fuzz tool runs the same check on longer budgets.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import REPO, fuzz_budget

from nanopass.tools.fuzz_frontend import COMPILED, USER_ERROR, Checker, minimise, template
from nanopass.tools.fuzz_mutations import (
    AST_MUTATIONS,
    RandomChooser,
    break_indentation,
    mutate,
    mutated_programs,
    seed_sources,
)

FUZZ = settings(max_examples=fuzz_budget(120), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def checker(tmp_path_factory):
    return Checker(tmp_path_factory.mktemp("fuzz"), seconds=60)


def explain(outcome, done) -> str:
    return f"{outcome.kind}: {outcome.message}\nmutations: {done}\n{outcome.detail}"


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # (a mutation may make odd Python, e.g. a subscripted lambda)
@FUZZ
@given(mutated_programs())
def test_mutated_programs_compile_or_fail_with_a_located_user_error(checker, case):
    _name, done, source = case
    outcome = checker.check(source)
    assert not outcome.is_bug, explain(outcome, done)
    assert outcome.kind in (COMPILED, USER_ERROR)


def test_random_generator_programs_hold_the_property(checker):
    from program_gen import control_flow_programs
    from test_manual_scopes import manual_programs

    from nanopass.tools.fuzz_frontend import _draw_once

    for index in range(12):
        strategy = control_flow_programs() if index % 2 else manual_programs()
        outcome = checker.check(_draw_once(strategy, index))
        assert not outcome.is_bug, explain(outcome, f"random program {index}")


# -- the checker and the mutations can fail ----------------------------------------------------------

BASIC = (REPO / "examples" / "basic.py").read_text()


def test_the_checker_accepts_a_good_program_and_a_located_error(checker):
    assert checker.check(BASIC).kind == COMPILED
    outcome = checker.check(BASIC.replace("c = self.kernel_add(a, b, c)", "c = self.nokernel(a, b, c)"))
    assert outcome.kind == USER_ERROR
    line = BASIC.splitlines().index("        c = self.kernel_add(a, b, c)") + 1
    assert outcome.message.startswith(f"{line}:13: error: function 'nokernel' is not defined in program 'Basic'")


@pytest.mark.parametrize("patch, kind, message", [
    ("nanopass.passes.encode_scalars.EncodeScalars.run", "internal-error", "internal error: in pass 'encode_scalars': KeyError"),
    ("nanopass.passes.frontend.context.FunctionContext.block", "crash", "KeyError: 'forced'"),
    ("nanopass.printer.cpp.print_cpp", "internal-error", "internal error: in pass 'print_cpp': KeyError"),
])
def test_the_checker_reports_compiler_bugs(checker, monkeypatch, patch, kind, message):
    module, owner, attribute = _split(patch)

    def boom(*_args, **_kwargs):
        raise KeyError("forced")

    monkeypatch.setattr(owner, attribute, boom)
    outcome = checker.check(BASIC)
    assert outcome.is_bug and outcome.kind == kind and outcome.message.startswith(message), outcome


def test_the_checker_reports_an_unlocated_error_a_timeout_and_bad_cpp(checker, monkeypatch):
    import time

    import nanopass
    from nanopass.passes.frontend.context import FunctionContext

    monkeypatch.setattr(FunctionContext, "block", lambda *_a: (_ for _ in ()).throw(nanopass.UserError("where?")))
    assert checker.check(BASIC).kind == "bad-location"
    monkeypatch.setattr(FunctionContext, "block", lambda *_a: time.sleep(5))
    quick = Checker(checker.workdir, seconds=0.5)
    assert quick.check(BASIC).kind == "timeout"
    monkeypatch.undo()
    import nanopass.printer.cpp as cpp

    real = cpp.print_cpp
    monkeypatch.setattr(cpp, "print_cpp", lambda *a: real(*a).replace("rt_submit_aiv_task", "rt_submit_nothing"))
    bad = checker.check(BASIC)
    assert bad.kind == "g++-rejected" and "rt_submit_nothing" in bad.detail


def _split(path: str):
    import importlib

    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            owner = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:-1]:
            owner = getattr(owner, name)
        return parts[:cut], owner, parts[-1]
    raise ValueError(path)


def test_every_mutation_changes_some_program():
    import random

    sources = seed_sources()
    assert len(sources) >= 30
    for kind, mutation in AST_MUTATIONS.items():
        changed = 0
        for seed in range(20):
            rng = random.Random(seed)
            import ast

            name, text = sources[seed % len(sources)]
            tree = ast.parse(text)
            try:
                mutation(tree, RandomChooser(rng))
            except Exception as error:  # noqa: BLE001 - NotApplicable is fine, nothing else is
                assert type(error).__name__ == "NotApplicable", (kind, name, error)
                continue
            changed += ast.unparse(tree) != ast.unparse(ast.parse(text))
        assert changed >= 10, kind
    text, what = break_indentation(BASIC, RandomChooser(random.Random(3)))
    assert text != BASIC and what


def test_mutate_is_repeatable():
    import random

    text = seed_sources()[0][1]
    first = mutate(text, RandomChooser(random.Random(7)), 3)
    assert mutate(text, RandomChooser(random.Random(7)), 3) == first


def test_minimise_keeps_the_property_and_shrinks():
    text = "".join(f"line {i}\n" for i in range(40))
    small = minimise(text, lambda t: "line 17\n" in t and "line 3\n" in t)
    assert small == "line 3\nline 17\n"


def test_error_templates_blank_particulars():
    assert template("3:4: error: undefined variable 'zz'") == template("9:0: error: undefined variable 'q'")
    assert template("3:4: error: kernel 'k' expects 3 argument(s), got 2") == "error: kernel '_' expects N argument(s), got N"


def test_refresh_rewrites_a_changed_expectation_and_flags_a_broken_file(tmp_path, capsys):
    from nanopass.tools.fuzz_frontend import main

    corpus = REPO / "tests" / "corpus"
    kept = sorted(corpus.glob("undefined_variable_*.py"))[0]
    (tmp_path / kept.name).write_text(kept.read_text())
    stale = sorted(corpus.glob("while_loops_*.py"))[0]
    lines = stale.read_text().splitlines(keepends=True)
    (tmp_path / stale.name).write_text(lines[0] + "# expect: 1:0: error: an old message\n" + "".join(lines[2:]))
    assert main(["--refresh", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{stale.name}: # expect: 1:0: error: an old message -> # expect: ") and kept.name not in out
    assert (tmp_path / stale.name).read_text() == stale.read_text() and (tmp_path / kept.name).read_text() == kept.read_text()
    (tmp_path / "no_header.py").write_text("x = 1\n")
    assert main(["--refresh", str(tmp_path)]) == 1
    assert "no_header.py: not a corpus file" in capsys.readouterr().out


def test_save_keeps_a_compiling_mutant_whole(checker, tmp_path):
    from nanopass.tools.fuzz_frontend import Outcome, Report, save

    report = Report(compiled={"drop": [("basic: drop: drop 'x'", BASIC, Outcome(COMPILED))]})
    assert save(report, tmp_path, checker) == 1
    [saved] = tmp_path.glob("compiles_drop_*.py")
    assert saved.read_text() == "# fuzz: basic: drop: drop 'x'\n# expect: compiles\n" + BASIC


def test_a_program_that_compiles_is_run_and_an_unordered_pair_in_auto_scopes_is_a_bug(tmp_path, monkeypatch):
    # war_straight's writer of x must wait for its reader (the runtime orders no write after a read):
    # with the pass that adds that edge made to do nothing, the run finds the pair unordered
    from nanopass.passes.order_write_after_read import OrderWriteAfterRead

    text = (REPO / "tests" / "golden" / "war_straight.py").read_text()
    assert Checker(tmp_path, seconds=60, runs=1).check(text).kind == COMPILED
    assert Checker(tmp_path, seconds=60, runs=0).check(text).kind == COMPILED
    monkeypatch.setattr(OrderWriteAfterRead, "run", lambda self, program: program)
    outcome = Checker(tmp_path, seconds=60, runs=1).check(text)
    assert outcome.kind == "hazard" and outcome.is_bug, outcome
    assert outcome.message.startswith("WAR between two tasks in AUTO scopes (n=")
    assert Checker(tmp_path, seconds=60, runs=0).check(text).kind == COMPILED  # (compiling alone cannot tell)


def test_a_run_whose_traces_differ_is_a_bug_and_one_the_program_makes_fail_is_not(tmp_path, monkeypatch):
    from nanopass.errors import UserError
    from nanopass.tools import check

    text = (REPO / "tests" / "golden" / "war_straight.py").read_text()

    def differ(*_args, **_kwargs):
        raise check.TraceMismatch("the emission program's trace differs from the reference trace: task 1")

    monkeypatch.setattr(check, "check_stages", differ)
    outcome = Checker(tmp_path, seconds=60, runs=1).check(text)
    assert outcome.kind == "trace-mismatch" and outcome.is_bug, outcome

    def faults(*_args, **_kwargs):
        raise UserError("index 5 is outside an array of 4")

    monkeypatch.setattr(check, "check_stages", faults)
    assert Checker(tmp_path, seconds=60, runs=1).check(text).kind == COMPILED


# -- what the value check passes over ---------------------------------------------------------------

PING_PONG = (REPO / "tests" / "golden" / "ping_pong.py").read_text()
# ping_pong with its second buffer named ``out``: the Out parameter is rebound to a create, swapped
# with another, and returned; the compile warns that 'out' is not a parameter's buffer (the caller
# never sees it), and the program as written reads that tensor as the parameter at its end
OUT_REBOUND = re.sub(r"\bnxt\b", "out", PING_PONG)


def _with_mismatches(monkeypatch, extra):
    """``check.check_stages`` with the mismatches ``extra(result)`` gives added to its result's."""
    from nanopass.tools import check

    real = check.check_stages

    def checked(*args, **kwargs):
        result = real(*args, **kwargs)
        result.mismatches = [*result.mismatches, *extra(result)]
        return result

    monkeypatch.setattr(check, "check_stages", checked)


def _final_read_mismatch(name: str):
    from nanopass.tools.values import Mismatch, Read

    read = Read(("final", name), "the end of the program", f"output parameter {name}", ((0, 0),), (("entry", 1, 0),))
    return Mismatch(read, (0, 0), ("task", 3, 1, (0, 0)), ("entry", 1, 0))


def test_the_end_read_of_an_output_parameter_returned_rebound_is_passed_over(tmp_path):
    assert "out = pl.create_tensor" in OUT_REBOUND
    outcome = Checker(tmp_path, seconds=60, runs=2).check(OUT_REBOUND)
    # (before: a value-mismatch, the end of the program reads element [0, 0] of output parameter out)
    assert outcome.kind == COMPILED, outcome
    import nanopass
    from nanopass.tools.fuzz_frontend import unseen_output_reads

    stages = nanopass.generate_orchestration(_load(tmp_path, OUT_REBOUND)).stages
    assert any("returns 'out', which is not a parameter's buffer" in w.message for s in stages for w in s.warnings)
    assert unseen_output_reads(stages) == {("final", "out")}


def test_only_the_warned_end_read_is_passed_over(tmp_path, monkeypatch):
    from nanopass.tools.values import Mismatch, Read

    def task_read(_result):
        read = Read(("task", 2, 0), "task 2 (step) slot 0", "cur", ((0, 0),), (("task", 1, 1, (0, 0)),))
        return [Mismatch(read, (0, 0), ("task", 1, 1, (0, 0)), ("task", 0, 1, (0, 0)))]

    _with_mismatches(monkeypatch, task_read)  # another read of the warned program
    outcome = Checker(tmp_path, seconds=60, runs=1).check(OUT_REBOUND)
    assert outcome.kind == "value-mismatch" and outcome.message.startswith("task 2 (step) slot 0 reads"), outcome
    monkeypatch.undo()
    _with_mismatches(monkeypatch, lambda _result: [_final_read_mismatch("out")])  # no warning: ping_pong as it is
    outcome = Checker(tmp_path, seconds=60, runs=1).check(PING_PONG)
    assert outcome.kind == "value-mismatch" and outcome.message.startswith("the end of the program reads"), outcome


def test_a_warned_return_of_no_output_parameters_name_passes_over_nothing(tmp_path):
    import nanopass
    from nanopass.tools.fuzz_frontend import unseen_output_reads

    # basic's d returned under another name, made by a create: warned, but no parameter is 'e'
    text = BASIC.replace("        d = self.kernel_add(c, b, d)\n        return d\n",
                         "        e = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
                         "        e = self.kernel_add(c, b, e)\n        return e\n")
    assert text != BASIC
    stages = nanopass.generate_orchestration(_load(tmp_path, text)).stages
    assert any("returns 'e', which is not a parameter's buffer" in w.message for s in stages for w in s.warnings)
    assert unseen_output_reads(stages) == frozenset()


def _load(tmp_path, text: str):
    from conftest import load_program

    path = tmp_path / "prog_loaded.py"
    path.write_text(text)
    return load_program(path)
