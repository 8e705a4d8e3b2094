"""Issue 23: the command line keeps its promises (exit codes, flags, colours, suggestions)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from conftest import EXAMPLES, REPO, run_cli

from nanopass.passes.pipeline import PASSES

BASIC = EXAMPLES / "basic.py"


def closed_pipe_status(*args: str) -> subprocess.CompletedProcess:
    """The CLI writing into a pipe whose reader closed it at once (``| head`` that has read enough)."""
    command = f"{sys.executable} -m nanopass {' '.join(args)} | (exec 0<&-; sleep 3)"
    return subprocess.run(["bash", "-c", command + "; echo ${PIPESTATUS[0]}"], capture_output=True, text=True,
                          cwd=REPO, timeout=120)


@pytest.mark.parametrize("args", [["passes"], ["explain", "convert_to_ssa", str(EXAMPLES / "manual_phases.py")],
                                  ["language", "emission"]])
def test_every_command_exits_141_on_a_closed_pipe(args):
    result = closed_pipe_status(*args)
    assert result.stdout == "141\n", result.stderr
    assert result.stderr == ""


@pytest.mark.parametrize("args, message", [
    (["language", "nosuch"], "no language named 'nosuch'"),
    (["language", "ssa", "--diff", "directd"], "--diff: no language named 'directd' (did you mean 'directed'?)"),
    (["run", str(BASIC), "--program", "Basc"], "no program named 'Basc' (did you mean 'Basic'?)"),
    (["run", str(BASIC), "--func", "orch_basc"], "help: did you mean 'orch_basic'?"),
    (["run", str(BASIC), "--stop-after", "conver_to_ssa"], "no pass named 'conver_to_ssa' (did you mean 'convert_to_ssa'?)"),
    (["explain", "resolve_dep_edge", str(BASIC)], "did you mean 'resolve_dep_edges'?"),
    (["run", str(BASIC), "--print-after", "print_cpp"], "--print-after: 'print_cpp' cannot be used here"),
    (["run", str(BASIC), "--print-before", "parse_dsl"], "--print-before: 'parse_dsl' cannot be used here"),
    (["run", str(BASIC), "--skip", "bind_task_id"], "--skip: no pass named 'bind_task_id' (did you mean 'bind_task_ids'?)"),
    (["run", str(BASIC), "--json"], "--json is used with --time-passes"),
    (["check", str(EXAMPLES / "loop_scalar.py"), "--set", "step=1"], "help: did you mean 'steps'?"),
])
def test_usage_errors_exit_2_and_suggest_the_closest_name(args, message):
    result = run_cli(*args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_version():
    import nanopass

    result = run_cli("--version")
    assert (result.returncode, result.stdout) == (0, f"nanopass {nanopass.__version__}\n")


def test_no_color_means_no_escape_codes_at_all(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import nanopass.dsl as pl\nx = 1 +\n")
    styled = run_cli("run", str(bad), env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[1m" in styled.stderr  # bold on a terminal
    plain = run_cli("run", str(bad), env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert plain.returncode == 1 and "\x1b[" not in plain.stderr and "^" in plain.stderr


# -- --stop-after, -o, --set ------------------------------------------------------------------------


def test_stop_after_with_output_writes_the_stage_as_dump_all_names_it(tmp_path):
    result = run_cli("run", str(BASIC), "--stop-after", "convert_to_ssa", "-o", str(tmp_path))
    assert result.returncode == 0 and result.stdout == ""
    written = tmp_path / "01_convert_to_ssa.ssa.txt"
    assert result.stderr == f"wrote {written}\n"
    printed = run_cli("run", str(BASIC), "--stop-after", "convert_to_ssa").stdout
    assert written.read_text() == printed and printed.startswith("(Program name: Basic")


def test_stop_after_takes_the_stage_names_the_report_shows():
    front = run_cli("run", str(BASIC), "--stop-after", "parse_dsl")
    assert front.returncode == 0 and front.stdout.startswith("(Program name: Basic")
    assert "(Task" in front.stdout and "Input" not in front.stdout  # the surface language: no directions yet
    printer = run_cli("run", str(BASIC), "--stop-after", "print_cpp")
    assert printer.returncode == 0 and printer.stdout == (EXAMPLES / "basic.expected.cpp").read_text()


def test_dump_all_refuses_a_wrong_set_as_check_does(tmp_path):
    for values, message in ((["--set", "stepz=2"], "--set stepz: not a scalar parameter or dynamic dimension"),
                            (["--set", "steps=two"], "--set steps=two: not a INT64 value")):
        result = run_cli("run", str(EXAMPLES / "loop_scalar.py"), "--dump-all", str(tmp_path / "d"), *values)
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert not (tmp_path / "d" / "index.html").exists()


# -- --print-after, --print-before, --passes, --skip ----------------------------------------------------


def test_print_after_and_before_print_the_ir_on_stdout_before_the_cpp():
    result = run_cli("run", str(BASIC), "--print-after", "convert_to_ssa", "--print-before", "lower_to_emission",
                     "--print-after", "parse_dsl")
    assert result.returncode == 0, result.stderr
    heads = [line for line in result.stdout.splitlines() if line.startswith(";;")]
    assert heads == [";; after parse_dsl (language surface)", ";; after convert_to_ssa (language ssa)",
                     ";; before lower_to_emission (language encoded)"]
    ssa = run_cli("run", str(BASIC), "--stop-after", "convert_to_ssa").stdout
    assert ";; after convert_to_ssa (language ssa)\n" + ssa in result.stdout
    assert result.stdout.endswith((EXAMPLES / "basic.expected.cpp").read_text())


def test_skip_runs_the_pipeline_without_a_pass(tmp_path):
    war = REPO / "tests" / "semantics" / "hazards" / "war_in_auto.py"
    full = run_cli("run", str(war)).stdout
    skipped = run_cli("run", str(war), "--skip", "order_write_after_read")
    assert skipped.returncode == 0, skipped.stderr
    assert skipped.stdout == run_cli("run", str(war), "--no-war-ordering").stdout != full
    times = run_cli("run", str(war), "--skip", "order_write_after_read", "--time-passes", "-q").stderr
    assert "order_write_after_read" not in times and f"{len(PASSES) - 1} │ lower_to_emission" in times


def test_an_assemble_left_unfused_is_an_internal_error_of_the_emission_not_an_alias():
    """fuse_create_assemble_to_slice leaves no assemble; with it skipped, lowering names itself and
    the assemble instead of emitting the copy as a second name of the target."""
    result = run_cli("run", str(EXAMPLES / "tensor_ops.py"), "--skip", "fuse_create_assemble_to_slice")
    assert result.returncode == 3 and "Traceback" not in result.stderr
    assert "internal error: in pass 'lower_to_emission': an assemble reached emission" in result.stderr
    assert "(AssembleTensor" in result.stderr


def test_passes_that_do_not_connect_are_refused_clearly():
    result = run_cli("run", str(BASIC), "--skip", "derive_call_directions")
    assert result.returncode == 2 and "usage:" in result.stderr
    assert ("the chosen passes do not connect: 'check_manual_deps_on_submit_only' reads language 'directed', "
            "but 'decide_view_tracking' produces 'ssa'") in result.stderr
    assert "help: 'derive_call_directions' is the pass that produces 'directed'" in result.stderr
    first = run_cli("run", str(BASIC), "--passes", "derive_call_directions")
    assert first.returncode == 2 and "but the front end (parse_dsl) produces 'surface'" in first.stderr
    twice = run_cli("run", str(BASIC), "--passes", "convert_to_ssa,convert_to_ssa")
    assert twice.returncode == 2 and "'convert_to_ssa' is given twice" in twice.stderr


def test_passes_runs_a_chosen_prefix_and_prints_its_last_stage():
    result = run_cli("run", str(BASIC), "--passes", "convert_to_ssa,normalize_return_order", "--passes",
                     "fuse_create_assemble_to_slice,decide_view_tracking,derive_call_directions")
    assert result.returncode == 0, result.stderr
    expected = run_cli("run", str(BASIC), "--stop-after", "derive_call_directions", "--skip",
                       "check_manual_deps_on_submit_only").stdout
    assert result.stdout == expected and "(Arg value: (Var a) dir: Input)" in result.stdout


# -- --json ----------------------------------------------------------------------------------------------


def test_time_passes_times_the_front_end_and_the_printer_too(tmp_path):
    table = run_cli("run", str(BASIC), "--time-passes", "-q")
    for row in ("load", "0 │ parse_dsl", f"{len(PASSES) + 1} │ print_cpp", "total"):
        assert row in table.stderr, row
    result = run_cli("run", str(BASIC), "--time-passes", "--json")
    assert result.returncode == 0 and result.stdout == (EXAMPLES / "basic.expected.cpp").read_text()
    document = json.loads(result.stderr.splitlines()[-1])
    names = [phase["name"] for phase in document["phases"]]
    assert names == ["load", "parse_dsl", *(p.name for p in PASSES), "print_cpp"]
    assert [phase["index"] for phase in document["phases"]][1:] == list(range(len(PASSES) + 2))
    assert all(phase["ms"] >= 0 for phase in document["phases"])
    assert document["total_ms"] == pytest.approx(sum(phase["ms"] for phase in document["phases"]), abs=0.01)
    # after the notes and 'wrote' lines: the JSON is stderr's last line whatever else is printed
    phases = REPO / "tests" / "programs" / "graph_features.py"
    noted = run_cli("run", str(phases), "--time-passes", "--json", "-o", str(tmp_path))
    *before, last = noted.stderr.splitlines()
    assert any(line.startswith("note: ") for line in before) and before[-1].startswith("wrote ")
    assert [p["name"] for p in json.loads(last)["phases"]][-1] == "print_cpp"


def test_check_json():
    war = REPO / "tests" / "semantics" / "hazards" / "war_in_auto.py"
    result = run_cli("check", str(war), "--no-war-ordering", "--json")
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert document["func"] and document["hazards"] == 1 and document["exit"] == 1 and document["chosen"] is None
    (run,) = document["runs"]
    assert run["tasks"] == 2 and run["agree"] == ["reference", "emission"] and run["fatal"] is None
    assert run["hazards"][0].startswith("WAR on x (entry tensor 0): task 0 (k) at line 36")
    chosen = json.loads(run_cli("check", str(EXAMPLES / "loop_scalar.py"), "--json").stdout)
    assert chosen["chosen"] == {"alpha": [1.5], "steps": [3, 0, 1, 2, 5]} and chosen["exhaustive"] is True
    assert [r["values"] for r in chosen["runs"]][:2] == [{"alpha": "1.5", "steps": "3"}, {"alpha": "1.5", "steps": "0"}]
    assert [r["tasks"] for r in chosen["runs"]] == [4, 1, 2, 3, 6] and chosen["exit"] == 0


def test_the_readme_documents_every_command_and_flag():
    from nanopass.cli import build_parser

    readme = (REPO / "README.md").read_text()
    using = readme[readme.index("## Using it"):readme.index("## A tour with")]
    parser = build_parser()
    assert "nanopass --version" in using
    for name, command in parser.commands.items():
        assert f"nanopass {name}" in using, name
        for action in command._actions:
            flags = [f for f in action.option_strings if f not in ("-h", "--help")]
            if flags:  # one of its spellings, as a whole word
                assert any(re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", readme) for f in flags), (name, flags)
