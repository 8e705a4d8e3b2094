"""The nanopass command: outputs, program choice, dumps, listing passes and languages."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import EXAMPLES, PROGRAMS, REPO, load_program, run_cli

from nanopass.passes.pipeline import PASSES


def test_output_directory(tmp_path):
    result = run_cli("run", str(EXAMPLES / "basic.py"), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    written = tmp_path / "out" / "orchestration" / "orch_basic.cpp"
    assert written.read_text() == (EXAMPLES / "basic.expected.cpp").read_text()
    assert result.stdout == ""


def test_quiet_silences_the_notes_not_the_product(tmp_path):
    """``-q`` without ``-o``: the C++ (or with --stop-after the stage's IR) still goes to stdout,
    nothing to stderr; with ``-o`` nothing is printed at all."""
    quiet = run_cli("run", str(EXAMPLES / "basic.py"), "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert quiet.stdout == (EXAMPLES / "basic.expected.cpp").read_text()
    stage = run_cli("run", str(EXAMPLES / "basic.py"), "-q", "--stop-after", "materialize_runtime_scopes")
    assert stage.returncode == 0 and stage.stderr == "" and "(Scope mode: auto origin: compiler" in stage.stdout
    written = run_cli("run", str(EXAMPLES / "basic.py"), "-q", "-o", str(tmp_path / "out"))
    assert written.returncode == 0 and written.stdout == "" and written.stderr == ""
    assert (tmp_path / "out" / "orchestration" / "orch_basic.cpp").exists()


def test_program_choice(tmp_path):
    two = tmp_path / "two.py"
    source = (EXAMPLES / "basic.py").read_text()
    two.write_text(source + "\n\n" + source.split("import nanopass.dsl as pl\n", 1)[1].replace("class Basic", "class Other"))
    result = run_cli("run", str(two))
    assert result.returncode == 1 and "--program" in result.stderr
    result = run_cli("run", str(two), "--program", "Other")
    assert result.returncode == 0 and "orch_basic" in result.stdout
    result = run_cli("run", str(two), "--program", "Nope")  # a usage error
    assert result.returncode == 2 and "no program named 'Nope' (programs: Basic, Other)" in result.stderr


def test_dump_all_writes_every_stage(tmp_path):
    dump = tmp_path / "dump"
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(dump), "-q")
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in dump.iterdir() if not p.name.startswith("."))
    # graphs and pictures: one per distinct graph (tests/test_report.py), the first stage's at least
    pictures = [n for n in names if n.endswith((".svg", ".svg.js", ".dot"))]
    expected = ["00_parse_dsl.surface.txt", "00_parse_dsl.dot", "00_parse_dsl.stage.js"]
    for index, cls in enumerate(PASSES, start=1):
        stem = f"{index:02d}_{cls.name}"
        expected += [f"{stem}.{cls.target.name}.txt", f"{stem}.stage.js"]
    expected += [f"{len(PASSES) + 1:02d}_print_cpp.cpp", "index.html", "metadata.json"]
    assert "00_parse_dsl.dot" in pictures
    assert sum(n.endswith(".instances.dot") for n in pictures) >= 1  # the stages the interpreter runs
    assert sorted(set(names) - set(pictures)) == sorted(set(expected) - set(pictures))
    assert all(n.split("_", 1)[0] in {e.split("_", 1)[0] for e in expected} for n in pictures)
    graph = (dump / "00_parse_dsl.dot").read_text()
    assert "t0: kernel_add" in graph and "t1: kernel_add" in graph and "t0 -> t1" in graph
    text = (dump / "01_convert_to_ssa.ssa.txt").read_text()
    assert text.startswith("(Program name: Basic") and "kernels: [(Kernel name: kernel_add" in text  # labelled
    unlabelled = tmp_path / "unlabelled"
    assert run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(unlabelled), "--unlabelled", "-q").returncode == 0
    assert (unlabelled / "01_convert_to_ssa.ssa.txt").read_text().startswith("(Program Basic")


def test_dump_rerun_replaces_only_its_own_files(tmp_path):
    dump = tmp_path / "dump"
    dump.mkdir()
    (dump / "notes.md").write_text("mine")
    (dump / "99_stale_pass.ssa.txt").write_text("not written by nanopass")
    assert run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(dump), "-q").returncode == 0
    manifest = (dump / ".nanopass-dump").read_text().split()
    (dump / "00_parse_dsl.dot").unlink()
    assert run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(dump), "-q", "--stop-after", "convert_to_ssa").returncode == 0
    assert (dump / "notes.md").read_text() == "mine"
    assert (dump / "99_stale_pass.ssa.txt").exists()
    scopes = [p.name for p in PASSES].index("materialize_runtime_scopes") + 1
    assert "materialize_runtime_scopes" in " ".join(manifest)
    assert not (dump / f"{scopes:02d}_materialize_runtime_scopes.scoped.txt").exists()  # our stale file went away
    assert (dump / "00_parse_dsl.dot").exists()
    assert "00_parse_dsl.dot" in manifest


def test_stop_after_prints_that_stage(tmp_path):
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--stop-after", "materialize_runtime_scopes")
    assert result.returncode == 0
    assert "(Scope mode: auto origin: compiler" in result.stdout  # labelled by default
    positional = run_cli("run", str(EXAMPLES / "basic.py"), "--stop-after", "materialize_runtime_scopes", "--unlabelled")
    assert positional.returncode == 0 and "(Scope auto compiler" in positional.stdout


def test_passes_lists_the_pipeline():
    result = run_cli("passes")
    assert result.returncode == 0
    for cls in PASSES:
        assert f"{cls.name}: {cls.source.name} -> {cls.target.name}" in result.stdout


def test_language_grammar_and_diff():
    result = run_cli("language", "carried")
    assert result.returncode == 0 and "(Carry rebind:boolean array:integer per_iteration:boolean body:integer)" in result.stdout
    result = run_cli("language", "scoped", "--diff", "carried")
    assert "+ Phi ::= (Phi var:Binder plan:Carry)" in result.stdout
    result = run_cli("language", "nosuch")  # a usage error
    assert result.returncode == 2 and "no language named 'nosuch' (languages: surface, ssa," in result.stderr


def test_abi_flag_prints_what_the_reference_prints_for_basic():
    # D17: under --abi l2 the basic example is exactly the existing compiler's output
    reference = REPO / "tests" / "reference" / "basic.cpp"
    l2 = run_cli("run", str(EXAMPLES / "basic.py"), "--abi", "l2")
    assert l2.returncode == 0 and l2.stdout == reference.read_text()
    seed = run_cli("run", str(EXAMPLES / "basic.py"))
    assert seed.stdout == (EXAMPLES / "basic.expected.cpp").read_text()


# -- issue 8: the tool people use ------------------------------------------------------------------

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.py"))
ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*(?:3[0-9]|9[0-7])[0-9;]*m")


def run_patched(patch: str, *args: str) -> subprocess.CompletedProcess:
    """The CLI in a subprocess after ``patch`` (Python code) has run: a way to force a bug."""
    code = f"import sys\n{patch}\nfrom nanopass.cli import main\nsys.exit(main({list(args)!r}))\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)


def test_explain_shows_a_pass_side_by_side_on_every_example():
    for path in EXAMPLE_FILES:
        result = run_cli("explain", "convert_to_ssa", str(path), "--width", "200")
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0] == "convert_to_ssa: surface -> ssa"
        assert "Give every definition its own name" in result.stdout  # the contract
        header = next(line for line in lines if line.startswith("input: "))
        assert "input: 00_parse_dsl (surface)" in header and "output: 01_convert_to_ssa (ssa)" in header
        assert any(line.startswith("- ") for line in lines) and any(re.search(r"\s\+ \S", line) for line in lines)


def test_explain_folds_unchanged_lines_and_says_when_nothing_changed():
    result = run_cli("explain", "check_manual_deps_on_submit_only", str(EXAMPLES / "basic.py"), "--context", "1")
    assert result.returncode == 0, result.stderr
    assert "The pass returned its input unchanged." in result.stdout
    assert "unchanged lines" in result.stdout and "+ " not in result.stdout


def test_explain_errors_have_their_exit_codes():
    result = run_cli("explain", "no_such_pass", str(EXAMPLES / "basic.py"))
    assert result.returncode == 2 and "no pass named 'no_such_pass'" in result.stderr
    result = run_cli("explain", "convert_to_ssa", "missing.py")
    assert result.returncode == 1 and "missing.py: no such file" in result.stderr
    assert "Traceback" not in result.stderr


def test_time_passes_quiet_and_every_subcommand_on_the_examples(tmp_path):
    for path in EXAMPLE_FILES:
        result = run_cli("run", str(path), "--time-passes", "-q", "-o", str(tmp_path / path.stem))
        assert result.returncode == 0, result.stderr
        assert result.stdout == ""
        assert "pass times" in result.stderr and "lower_to_emission" in result.stderr and "total" in result.stderr
        assert list((tmp_path / path.stem / "orchestration").glob("*.cpp"))
    assert run_cli("passes").returncode == 0
    assert run_cli("language", "emission").returncode == 0


def test_help_documents_the_exit_codes():
    for args in (["--help"], ["run", "--help"], ["explain", "--help"]):
        result = run_cli(*args)
        assert result.returncode == 0
        for line in ("0  success", "1  an error in the program", "2  a usage error", "3  an internal compiler error"):
            assert line in result.stdout, (args, line)


def test_run_help_documents_verify_all():
    """``--verify-all`` (``recheck_preserved``; its effect: tests/test_preserved_invariants.py)."""
    result = run_cli("run", "--help")
    assert result.returncode == 0 and "--verify-all" in result.stdout and "preserves" in result.stdout
    both = run_cli("run", str(EXAMPLES / "basic.py"), "--verify-all", "--no-verify")
    assert both.returncode == 2 and "not allowed with" in both.stderr


def test_usage_errors_exit_2_without_traceback():
    for args in (["run", str(EXAMPLES / "basic.py"), "--bogus"], ["run"], ["frobnicate"],
                 ["run", str(EXAMPLES / "basic.py"), "--stop-after", "no_such_pass"]):
        result = run_cli(*args)
        assert result.returncode == 2, args
        assert "Traceback" not in result.stderr and "usage:" in result.stderr


def test_a_dump_directory_that_is_a_file_is_a_user_error(tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "cannot use" in result.stderr and "--dump-all directory" in result.stderr


FORCE_BUG = """
from nanopass.passes.encode_scalars import EncodeScalars
def boom(self, tree):
    raise KeyError("forced")
EncodeScalars.run = boom
"""


def test_an_internal_error_is_one_line_pointing_to_dump_all(tmp_path):
    result = run_patched(FORCE_BUG, "run", str(EXAMPLES / "basic.py"))
    assert result.returncode == 3, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("internal error: in pass 'encode_scalars': KeyError: 'forced'")
    assert "rerun with --dump-all DIR" in lines[0]


def test_an_internal_error_with_dump_all_points_to_the_report(tmp_path):
    out = tmp_path / "dump"
    result = run_patched(FORCE_BUG, "run", str(EXAMPLES / "basic.py"), "--dump-all", str(out))
    assert result.returncode == 3 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"the stages reached are in {out}/index.html" in result.stderr
    page = (out / "index.html").read_text()
    assert "The run stopped with an error" in page and "encode_scalars" in page
    reached = [p.name for p in PASSES].index("encode_scalars") + 1  # parse_dsl and the passes before
    assert page.count('<section class="stage"') == reached


def test_a_bug_in_the_printer_names_it():
    patch = "import nanopass.printer.cpp as cpp\ndef boom(*a, **k):\n    raise ValueError('printer bug')\ncpp.print_cpp = boom"
    result = run_patched(patch, "run", str(EXAMPLES / "basic.py"))
    assert result.returncode == 3 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        "internal error: in pass 'print_cpp': ValueError: printer bug "
        "(a compiler bug; rerun with --dump-all DIR to see every stage reached)"
    ]


def test_any_other_escaping_exception_is_an_internal_error_too(tmp_path):
    patch = "import nanopass.report as report\ndef boom(*a, **k):\n    raise OSError('disk on fire')\nreport.render_report = boom\nimport nanopass.dumps as dumps\ndumps.render_report = boom"
    result = run_patched(patch, "run", str(EXAMPLES / "basic.py"), "--dump-all", str(tmp_path / "d"), "-q")
    assert result.returncode == 3 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[0].startswith("internal error: OSError: disk on fire (a compiler bug")


def test_colours_only_on_terminals_and_never_with_no_color(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import nanopass.dsl as pl\nx = 1 +\n")
    plain = run_cli("run", str(bad))
    assert plain.returncode == 1 and not ANSI_COLOUR.search(plain.stderr) and "\x1b[" not in plain.stderr
    forced = run_cli("run", str(bad), env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert ANSI_COLOUR.search(forced.stderr), "FORCE_COLOR makes a terminal: colours expected"
    no_color = run_cli("run", str(bad), env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert no_color.returncode == 1 and not ANSI_COLOUR.search(no_color.stderr)
    assert "^" in no_color.stderr  # the caret is still there


def big_program(tmp_path, statements: int):
    source = (EXAMPLES / "basic.py").read_text()
    call = "        c = self.kernel_add(a, b, c)\n"
    marker = "        c = self.kernel_add(a, b, c)\n"
    path = tmp_path / "big.py"
    path.write_text(source.replace(marker, call * statements, 1))
    return path


def test_a_large_program_on_a_terminal_shows_progress(tmp_path):
    from nanopass.progress import PROGRESS_THRESHOLD, statement_count

    path = big_program(tmp_path, PROGRESS_THRESHOLD + 10)
    assert statement_count(load_program(path).surface()) > PROGRESS_THRESHOLD
    shown = run_cli("run", str(path), "-o", str(tmp_path / "out"), env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert shown.returncode == 0, shown.stderr
    steps = f"/{len(PASSES)}"
    assert "lower_to_emission" in shown.stderr and steps in shown.stderr  # the bar: pass name, steps done
    early = ("--stop-after", "convert_to_ssa")
    quiet = run_cli("run", str(path), "-q", *early, env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout.startswith("(Program")  # the IR, no bar
    piped = run_cli("run", str(path), *early)
    assert piped.returncode == 0 and piped.stderr == ""


def test_a_small_program_on_a_terminal_shows_no_progress(tmp_path):
    result = run_cli("run", str(EXAMPLES / "basic.py"), "-o", str(tmp_path), env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert result.returncode == 0 and f"/{len(PASSES)}" not in result.stderr


def test_dump_all_on_every_program_writes_a_report(tmp_path):
    for path in EXAMPLE_FILES + sorted(PROGRAMS.glob("*.py")):
        out = tmp_path / path.stem
        result = run_cli("run", str(path), "--dump-all", str(out), "-q")
        assert result.returncode == 0, result.stderr
        page = (out / "index.html").read_text()
        assert page.count('<section class="stage"') == len(PASSES) + 1
        assert all(name in (out / ".nanopass-dump").read_text() for name in ("index.html", "00_parse_dsl.dot"))
