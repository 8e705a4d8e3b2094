"""``nanopass opt``: passes run on a stage's text, as mlir-opt runs them; per-pass before/after files."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, run_cli

from nanopass.passes.pipeline import PASSES

OPT = Path(__file__).parent / "opt"
CASES = sorted(OPT.glob("*.before.txt"))


def test_there_are_per_pass_cases():
    assert len(CASES) >= 4


@pytest.mark.parametrize("before", CASES, ids=[p.name.removesuffix(".before.txt") for p in CASES])
def test_a_pass_turns_its_before_file_into_its_after_file(before):
    # tests/opt/PASS.CASE.before.txt starts with ';; before PASS (language L)'; the after file is
    # what the pass must print (reviewed against the pass's contract)
    head = before.read_text().splitlines()[0]
    match = re.fullmatch(r";; before (\w+) \(language [\w-]+\)", head)
    assert match and before.name.startswith(match.group(1) + "."), head
    result = run_cli("opt", str(before), "--pass", match.group(1))
    assert result.returncode == 0, result.stderr
    assert result.stdout == before.with_name(before.name.replace(".before.", ".after.")).read_text()


def test_every_pass_from_the_front_ends_text_gives_the_same_cpp(tmp_path):
    dump = tmp_path / "dump"
    assert run_cli("run", str(EXAMPLES / "manual_phases.py"), "--dump-all", str(dump), "-q").returncode == 0
    names = ",".join(p.name for p in PASSES)
    result = run_cli("opt", str(dump / "00_parse_dsl.surface.txt"), "--pass", names, "--pass", "print_cpp")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (EXAMPLES / "manual_phases.expected.cpp").read_text()
    # and from any stage on: the dumped text of the stage after a pass is what opt makes of the one before
    for index in (5, 12, len(PASSES)):
        source = next(dump.glob(f"{index - 1:02d}_*.txt"))
        target = next(dump.glob(f"{index:02d}_*.txt"))
        step = run_cli("opt", str(source), "--pass", PASSES[index - 1].name)
        assert step.returncode == 0 and step.stdout == target.read_text(), target.name


def test_opt_reads_what_stop_after_and_print_after_write(tmp_path):
    run_cli("run", str(EXAMPLES / "basic.py"), "--stop-after", "derive_call_directions", "-o", str(tmp_path), "-q")
    written = next(tmp_path.glob("*_derive_call_directions.directed.txt"))
    # with -o the C++ goes to files: stdout holds only what --print-after asks for
    printed = run_cli("run", str(EXAMPLES / "basic.py"), "--print-after", "derive_call_directions", "-q",
                      "-o", str(tmp_path / "cpp")).stdout
    assert printed == ";; after derive_call_directions (language directed)\n" + written.read_text()
    piped = subprocess.run([sys.executable, "-m", "nanopass", "opt", "-", "--pass", "remove_dead_values"],
                           input=printed, capture_output=True, text=True, cwd=REPO, timeout=120)
    from_file = run_cli("opt", str(written), "--pass", "remove_dead_values")
    assert piped.returncode == 0 and from_file.returncode == 0, piped.stderr + from_file.stderr
    assert piped.stdout == from_file.stdout and "(Arg value: (Var a) dir: Input)" in piped.stdout


def test_opt_errors(tmp_path):
    surface = tmp_path / "00_parse_dsl.surface.txt"
    run_cli("run", str(EXAMPLES / "basic.py"), "--stop-after", "parse_dsl", "-o", str(tmp_path), "-q")
    assert surface.exists()
    unconnected = run_cli("opt", str(surface), "--pass", "derive_call_directions")
    assert unconnected.returncode == 2
    assert "'derive_call_directions' reads language 'ssa', but the input is in 'surface'" in unconnected.stderr
    misspelt = run_cli("opt", str(surface), "--pass", "convert_to_sa")
    assert misspelt.returncode == 2 and "did you mean 'convert_to_ssa'?" in misspelt.stderr
    nameless = tmp_path / "program.txt"
    nameless.write_text(surface.read_text())
    unknown = run_cli("opt", str(nameless), "--pass", "convert_to_ssa")
    assert unknown.returncode == 2 and "cannot tell the text's language" in unknown.stderr
    named = run_cli("opt", str(nameless), "--language", "surface", "--pass", "convert_to_ssa")
    assert named.returncode == 0 and named.stdout.startswith("(Program name: Basic")
    broken = tmp_path / "01_convert_to_ssa.ssa.txt"
    broken.write_text(surface.read_text().replace("(Task", "(Tusk", 1))
    bad = run_cli("opt", str(broken), "--pass", "normalize_return_order")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert re.match(rf"{re.escape(str(broken))}:\d+:\d+: error: 'Tusk' is not a production of Stmt in language ssa",
                    bad.stderr), bad.stderr
    wrong = run_cli("opt", str(broken.with_name("01_x.surface.txt")), "--pass", "convert_to_ssa")
    assert wrong.returncode == 1 and "no such file" in wrong.stderr
    not_emission = run_cli("opt", str(surface), "--pass", "print_cpp")
    assert not_emission.returncode == 2 and "run lower_to_emission before it" in not_emission.stderr
