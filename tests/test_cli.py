"""The nanopass command: outputs, program choice, dumps, listing passes and languages."""

from __future__ import annotations

from conftest import EXAMPLES, run_cli

from nanopass.passes.pipeline import PASSES


def test_output_directory(tmp_path):
    result = run_cli("run", str(EXAMPLES / "basic.py"), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    written = tmp_path / "out" / "orchestration" / "orch_basic.cpp"
    assert written.read_text() == (EXAMPLES / "basic.expected.cpp").read_text()
    assert result.stdout == ""


def test_program_choice(tmp_path):
    two = tmp_path / "two.py"
    source = (EXAMPLES / "basic.py").read_text()
    two.write_text(source + "\n\n" + source.split("import nanopass.dsl as pl\n", 1)[1].replace("class Basic", "class Other"))
    result = run_cli("run", str(two))
    assert result.returncode == 1 and "--program" in result.stderr
    result = run_cli("run", str(two), "--program", "Other")
    assert result.returncode == 0 and "orch_basic" in result.stdout
    result = run_cli("run", str(two), "--program", "Nope")
    assert result.returncode == 1 and "no program named 'Nope'" in result.stderr


def test_dump_all_writes_every_stage(tmp_path):
    dump = tmp_path / "dump"
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(dump), "-q")
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in dump.iterdir() if not p.name.startswith("."))
    expected = ["00_parse_dsl.surface.txt", "00_parse_dsl.dot"]
    for index, cls in enumerate(PASSES, start=1):
        expected += [f"{index:02d}_{cls.name}.{cls.target.name}.txt", f"{index:02d}_{cls.name}.dot"]
    expected.append(f"{len(PASSES) + 1:02d}_print_cpp.cpp")
    assert names == sorted(expected)
    graph = (dump / "00_parse_dsl.dot").read_text()
    assert "t0: kernel_add" in graph and "t1: kernel_add" in graph and "t0 -> t1" in graph
    assert (dump / "01_convert_to_ssa.ssa.txt").read_text().startswith("(Program Basic")


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
    assert not (dump / "05_materialize_runtime_scopes.scoped.txt").exists()  # our stale file went away
    assert (dump / "00_parse_dsl.dot").exists()
    assert "00_parse_dsl.dot" in manifest


def test_stop_after_prints_that_stage(tmp_path):
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--stop-after", "materialize_runtime_scopes")
    assert result.returncode == 0
    assert "(Scope auto compiler" in result.stdout


def test_passes_lists_the_pipeline():
    result = run_cli("passes")
    assert result.returncode == 0
    for cls in PASSES:
        assert f"{cls.name}: {cls.source.name} -> {cls.target.name}" in result.stdout


def test_language_grammar_and_diff():
    result = run_cli("language", "carried")
    assert result.returncode == 0 and "(Carry rebind:boolean array:integer per_iteration:boolean)" in result.stdout
    result = run_cli("language", "scoped", "--diff", "carried")
    assert "+ Phi ::= (Phi var:Binder plan:Carry)" in result.stdout
    result = run_cli("language", "nosuch")
    assert result.returncode == 1 and "no language 'nosuch'" in result.stderr


def test_abi_flag_changes_only_abi_lines():
    seed = run_cli("run", str(EXAMPLES / "basic.py")).stdout.splitlines()
    l2 = run_cli("run", str(EXAMPLES / "basic.py"), "--abi", "l2").stdout.splitlines()
    assert len(seed) == len(l2)
    changed = [(a, b) for a, b in zip(seed, l2) if a != b]
    assert changed and all(("ChipStorageTaskArgs" in a or "from_tensor_arg" in a or "Arg params" in a) for a, _ in changed)
