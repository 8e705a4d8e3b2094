"""The existing compiler's printed IR as input (issue 25): ``nanopass.compile_text`` and
``nanopass run --input printed-ir`` on the samples of ``tests/printed_ir/``, hints checked and
never followed, located errors for what the printed form adds and this compiler does not read."""

from __future__ import annotations

import re

import pytest

import nanopass
from nanopass import UserError
from nanopass.printed_ir import compile_text, load_printed_text, looks_printed

from conftest import EXAMPLES, REPO, compile_check, load_program, run_cli

SAMPLES_DIR = REPO / "tests" / "printed_ir"
SAMPLES = sorted(p.name for p in SAMPLES_DIR.iterdir() if p.is_dir())
FORMS = ("as_written", "after_pipeline")


def sample(name: str, form: str) -> str:
    return (SAMPLES_DIR / name / f"{form}.py").read_text()


def original_code(name: str, abi: str = "seed") -> str:
    return nanopass.generate_orchestration(load_program(EXAMPLES / f"{name}.py"), abi=abi).code


def test_the_samples_are_the_five_programs():
    assert SAMPLES == ["basic", "loop_scalar", "manual_phases", "runtime_outputs", "scalars"]


@pytest.mark.parametrize("name", SAMPLES)
def test_as_written_compiles_to_the_originals_cpp(name, tmp_path):
    result = compile_text(sample(name, "as_written"), filename=f"{name}/as_written.py")
    assert result.code == original_code(name)
    compile_check(result.code, tmp_path)


@pytest.mark.parametrize("name", SAMPLES)
def test_after_pipeline_compiles_to_the_reviewed_cpp(name, tmp_path):
    """In the newer ABI's spelling, to read beside reference.cpp (tests/printed_ir/README.md); the
    stand-in header has the seed ABI's, which g++ checks."""
    text = sample(name, "after_pipeline")
    result = compile_text(text, abi="l2", filename=f"{name}/after_pipeline.py")
    assert result.code == (SAMPLES_DIR / name / "after_pipeline.expected.cpp").read_text()
    compile_check(compile_text(text).code, tmp_path)


def _skeleton(code: str) -> list[str]:
    """The lines that say what runs: submits, argument slots, dependencies, scopes, loops and
    branches, with the SSA suffixes of names stripped and comparisons written one way."""
    keep = re.compile(r"rt_submit|add_(input|output|inout|no_dep|scalar)|set_dependencies|params_t\d+_deps\[|"
                      r"PTO2_SCOPE|\bfor \(|\bif \(|else|alloc_tensors|get_ref|task_id\(\)")
    out = []
    for line in code.splitlines():
        if keep.search(line):
            line = re.sub(r"__[a-z]+_v\d+", "", line.strip())
            out.append(re.sub(r"\(2 < steps\)", "(steps > 2)", re.sub(r"2 <= count", "count >= 2", line)))
    return out


@pytest.mark.parametrize("name", SAMPLES)
def test_after_pipeline_agrees_with_the_original_up_to_ssa_names(name):
    printed = compile_text(sample(name, "after_pipeline"))
    assert _skeleton(printed.code) == _skeleton(original_code(name))
    assert printed.kernel_ids == nanopass.generate_orchestration(load_program(EXAMPLES / f"{name}.py")).kernel_ids


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("form", FORMS)
def test_the_result_is_the_one_of_the_file_api(name, form):
    original = nanopass.generate_orchestration(load_program(EXAMPLES / f"{name}.py"))
    result = compile_text(sample(name, form))
    assert type(result) is type(original)
    assert (result.func_name, result.kernel_ids, result.core_types, result.orchestration_signature,
            result.expected_arg_count) == (original.func_name, original.kernel_ids, original.core_types,
                                           original.orchestration_signature, original.expected_arg_count)
    assert list(result.files) == list(original.files)


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("form", FORMS)
def test_the_samples_hints_agree_with_what_the_passes_derive(name, form):
    result = compile_text(sample(name, form))
    assert [n for s in result.stages for n in s.notes if n.kind == "hint"] == []


def test_after_pipeline_is_taken_into_ssa_as_printed():
    """The printed SSA form keeps its names and carries (convert_printed_ssa): each loop has the
    carries its init_values= name, each if the results its pl.yield_ name."""
    result = compile_text(sample("manual_phases", "after_pipeline"))
    assert result.stages.names()[:2] == ["parse_dsl", "convert_printed_ssa"]
    ssa = result.stages["convert_printed_ssa"].tree
    outer = next(s for s in ssa.orch.body[0].body if s._production == "For")
    assert [it.var.name for it in outer.iters] == ["out__iter_v1", "prev_tid__iter_v1"]
    assert [b.name for b in outer.results] == ["out__rv_v2", "prev_tid__rv_v2"]
    inner = outer.body[0]
    assert [it.var.name for it in inner.iters] == ["out__iter_v3", "prev_tid__iter_v3"]
    assert result.stages["convert_printed_ssa"].notes == []
    branch = next(s for s in compile_text(sample("loop_scalar", "after_pipeline")).stages[1].tree.orch.body
                  if s._production == "If")
    assert [b.name for b in branch.results] == ["y__phi_v3"]
    assert [[v.name for v in body[-1].values] for body in (branch.then, branch.orelse)] == [["y__ssa_v1"], ["y__ssa_v2"]]


def test_as_written_is_converted_to_ssa_with_a_note():
    result = compile_text(sample("basic", "as_written"))
    assert [n.message for n in result.stages["convert_printed_ssa"].notes] == [
        "the program is not in single-assignment form: convert_to_ssa derives it"]


# -- hints are checked, never followed ---------------------------------------------------------------


def _notes(result, kind="hint"):
    return [(n.pass_name, n.message, n.span.line) for s in result.stages for n in s.notes if n.kind == kind]


def test_a_wrong_iter_arg_rebind_hint_is_ignored_with_a_note():
    text = sample("loop_scalar", "after_pipeline")
    wrong = text.replace('"iter_arg_rebind_0": False', '"iter_arg_rebind_0": True')
    assert wrong != text
    result = compile_text(wrong)
    assert result.code == compile_text(text).code
    assert _notes(result) == [(
        "classify_iter_arg_carry",
        "printed iter_arg_rebind_0=True for carry 'acc__iter_v1' disagrees with the derived rebind=False: "
        "the derived plan is followed", 25)]


def test_a_wrong_array_size_hint_is_ignored_with_a_note():
    text = sample("manual_phases", "after_pipeline")
    wrong = text.replace('"iter_arg_rebind_1": True, "iter_arg_array_size_1": 4}):\n                    for branch',
                         '"iter_arg_rebind_1": True, "iter_arg_array_size_1": 2}):\n                    for branch')
    assert wrong != text
    result = compile_text(wrong)
    assert result.code == compile_text(text).code
    [(pass_name, message, line)] = _notes(result)
    assert (pass_name, line) == ("classify_iter_arg_carry", 17)
    assert "iter_arg_array_size_1=2 for carry 'prev_tid__iter_v1'" in message and "array size 4" in message


def test_a_wrong_arg_directions_hint_is_ignored_with_a_note():
    text = sample("runtime_outputs", "after_pipeline")
    wrong = text.replace("[pl.adir.input, pl.adir.no_dep, pl.adir.inout]", "[pl.adir.input, pl.adir.input, pl.adir.inout]")
    assert wrong != text
    result = compile_text(wrong)
    assert result.code == compile_text(text).code
    assert "add_no_dep(ext_lut)" in result.code
    assert _notes(result) == [(
        "derive_call_directions",
        "printed arg_directions of 'combine' [Input, Input, InOut] disagree with the directions derived "
        "[Input, NoDep, InOut]: the derived ones are followed", 19)]


def test_a_swap_of_carried_tensors_is_compiled_as_the_program_says_whatever_the_hints():
    """The miscompile the issue names: rebind hints that say a swapped carry stays in place."""
    text = '''import pypto.language as pl

@pl.program
class Swap:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def k(a: pl.Tensor[[16], pl.FP32], b: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        return b
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orch(self, x__ssa_v0: pl.InOut[pl.Tensor[[16], pl.FP32]], y__ssa_v0: pl.InOut[pl.Tensor[[16], pl.FP32]], n__ssa_v0: pl.Scalar[pl.INT64]) -> pl.Tensor[[16], pl.FP32]:
        for i__idx_v0, (x__iter_v1, y__iter_v1) in pl.range(n__ssa_v0, init_values=(x__ssa_v0, y__ssa_v0), attrs={"iter_arg_rebind_0": %s, "iter_arg_rebind_1": %s}):
            y__ssa_v2: pl.Tensor[[16], pl.FP32] = self.k(x__iter_v1, y__iter_v1)
            x__rv_v2, y__rv_v2 = pl.yield_(y__ssa_v2, x__iter_v1)
        return x__rv_v2
'''
    honest = compile_text(text % ("True", "True"))
    lying = compile_text(text % ("False", "False"))
    assert lying.code == honest.code
    assert _notes(honest) == []
    assert [m for _, m, _ in _notes(lying)] == [
        "printed iter_arg_rebind_0=False for carry 'x__iter_v1' disagrees with the derived rebind=True: "
        "the derived plan is followed",
        "printed iter_arg_rebind_1=False for carry 'y__iter_v1' disagrees with the derived rebind=True: "
        "the derived plan is followed",
    ]


def test_an_attrs_key_nothing_checks_is_noted():
    text = sample("basic", "after_pipeline").replace(
        'attrs={"arg_directions": [pl.adir.input, pl.adir.input, pl.adir.output_existing]})\n            d__',
        'attrs={"arg_directions": [pl.adir.input, pl.adir.input, pl.adir.output_existing], "dump_vars": []})\n            d__')
    result = compile_text(text)
    assert [m for _, m, _ in _notes(result)] == ["attrs key 'dump_vars' is not read (an analysis result nothing checks)"]


# -- the command line ------------------------------------------------------------------------------


def test_nanopass_run_detects_the_printed_form_and_reads_it_without_running_it(tmp_path):
    path = tmp_path / "after.py"
    path.write_text(sample("basic", "after_pipeline").replace("@pl.program", "open('ran', 'w')\n@pl.program", 1))
    detected = run_cli("run", str(path), cwd=tmp_path)
    assert detected.returncode == 0, detected.stderr
    assert not (tmp_path / "ran").exists()
    chosen = run_cli("run", str(path), "--input", "printed-ir", cwd=tmp_path)
    assert chosen.stdout == detected.stdout == compile_text(path.read_text(), filename=str(path)).code


def test_nanopass_run_shows_a_disagreeing_hint_as_a_note(tmp_path):
    path = tmp_path / "loop.py"
    path.write_text(sample("loop_scalar", "after_pipeline").replace('"iter_arg_rebind_0": False', '"iter_arg_rebind_0": True'))
    result = run_cli("run", str(path), "-v", "-q")
    assert result.returncode == 0, result.stderr
    result = run_cli("run", str(path), "-v")
    assert ("note: [classify_iter_arg_carry] printed iter_arg_rebind_0=True for carry 'acc__iter_v1' disagrees "
            "with the derived rebind=False: the derived plan is followed") in result.stderr


@pytest.mark.parametrize("form", FORMS)
def test_input_dsl_imports_a_printed_file_written_against_nanopass_dsl(tmp_path, form):
    """Importing runs the annotations and decorators (pl.Level, pl.MemRef(...), pl.const(...))."""
    path = tmp_path / "written.py"
    path.write_text(sample("scalars", form).replace("import pypto.language as pl", "import nanopass.dsl as pl"))
    result = run_cli("run", str(path), "--input", "dsl")
    assert result.returncode == 0, result.stderr
    assert result.stdout == compile_text(sample("scalars", form)).code


def test_nanopass_check_runs_both_forms_without_hazards(tmp_path):
    for form in FORMS:
        path = tmp_path / f"{form}.py"
        path.write_text(sample("manual_phases", form))
        result = run_cli("check", str(path))
        assert result.returncode == 0, result.stdout + result.stderr
        assert "0 hazards" in result.stdout and "the reference and emission traces agree" in result.stdout


def test_looks_printed_tells_the_forms_apart():
    assert looks_printed(sample("basic", "as_written")) and looks_printed(sample("basic", "after_pipeline"))
    assert not looks_printed((EXAMPLES / "basic.py").read_text())
    assert not looks_printed("this is not python (")


# -- what the printed form adds and this compiler does not read: located errors --------------------


def _error(text: str) -> UserError:
    with pytest.raises(UserError) as caught:
        compile_text(text, filename="p.py")
    return caught.value


BASE = sample("runtime_outputs", "as_written")


@pytest.mark.parametrize("old, new, line, at, message", [
    ("tid: pl.Scalar[pl.TASK_ID] = _submit_tmp[1]\n", "tid: pl.Scalar[pl.TASK_ID] = _submit_tmp[1]\n        t2 = _submit_tmp\n",
     17, "t2", "the tuple '_submit_tmp' is used here after its elements were read"),
    ("fresh: pl.Tensor[[16, 16], pl.FP32] = _submit_tmp[0]", "fresh: pl.Tensor[[16, 16], pl.FP32] = _submit_tmp[2]",
     15, "fresh", "'_submit_tmp' has 2 elements"),
    ('attrs={"arg_direction_overrides": [1]}', 'attrs={"arg_direction_overrides": [7]}',
     18, "[7]", "arg_direction_overrides names argument 7, which the call does not have"),
    ('attrs={"arg_direction_overrides": [1]}', 'attrs={"arg_directions": [pl.adir.sideways]}',
     18, "pl.adir.sideways", "unknown argument direction 'pl.adir.sideways'"),
    ("= self.produce(fresh, out)", "= self.produce(pl.cast(fresh, pl.FP16), out)",
     17, "pl.cast", "pl.cast is read only as a widening to pl.INDEX or pl.INT64"),
])
def test_an_unsupported_printed_construct_is_a_located_error(old, new, line, at, message):
    assert old in BASE
    text = BASE.replace(old, new, 1)
    error = _error(text)
    col = text.splitlines()[line - 1].index(at)
    assert (error.span.file, error.span.line, error.span.col) == ("p.py", line, col)
    assert error.message.startswith(message)


def test_a_created_tensor_of_another_layout_is_a_located_error():
    text = sample("basic", "as_written").replace("layout=pl.TensorLayout.ND", "layout=pl.TensorLayout.NZ")
    error = _error(text)
    assert (error.span.line, error.message) == (15, "a created tensor has the ND layout only")


def test_an_unread_tuple_is_a_located_error():
    text = BASE.replace("        fresh: pl.Tensor[[16, 16], pl.FP32] = _submit_tmp[0]\n        tid: pl.Scalar[pl.TASK_ID] = _submit_tmp[1]\n", "")
    error = _error(text)
    assert (error.span.line, error.message) == (14, "the tuple '_submit_tmp' is not read by index right after it is assigned")


def test_the_text_of_several_programs_needs_a_choice():
    text = sample("basic", "as_written") + "\n" + sample("scalars", "as_written").split("\n", 2)[2]
    assert [p.name for p in load_printed_text(text)] == ["Basic", "Scalars"]
    assert compile_text(text, program="Scalars").func_name == "orch_scalars"
    with pytest.raises(UserError, match="holds several programs"):
        compile_text(text)


def test_nanopass_exports_compile_text():
    assert nanopass.compile_text is compile_text


# -- the interpreters and the hazard checker see the same run ------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
def test_the_interpreters_and_the_hazard_checker_agree_on_both_forms_as_on_the_original(name):
    from nanopass.api import run_pipeline
    from nanopass.printed_ir import printed_passes
    from nanopass.tools.check import check_stages, program_inputs
    from nanopass.tools.check_values import as_set_text, choose_values
    from nanopass.tools.interpret_ssa import launch_table
    from nanopass.tools.trace import compare

    original = load_program(EXAMPLES / f"{name}.py")
    surface = original.surface()
    runs = [as_set_text(run) for run in choose_values(surface, {}).runs][:4]
    stages = {"original": run_pipeline(original)}
    for form in FORMS:
        [program] = load_printed_text(sample(name, form), f"{form}.py")
        stages[form] = run_pipeline(program.surface(), passes=printed_passes())
    launches = launch_table(next(s.tree for s in reversed(stages["original"]) if hasattr(s.tree, "kernels")))
    for values in runs:
        results = {key: check_stages(s, program_inputs(surface, values)) for key, s in stages.items()}
        for form in FORMS:
            assert results[form].fatal is None and results[form].failing == []
            assert results[form].mismatches == []
            assert compare(results["original"].emission, results[form].emission, ("original", form), launches,
                           scopes=True) is None
            assert compare(results["original"].reference, results[form].reference, ("original", form), launches) is None
            assert len(results[form].hazards) == len(results["original"].hazards)


def test_a_printed_class_imported_from_python_compiles_as_compile_text_compiles_its_text(tmp_path):
    """generate_orchestration of a @pl.program class in the printed form (its file imported, as a
    compiler may exec the text against nanopass.dsl): its SSA form kept, its hints checked."""
    from nanopass.loader import load_programs

    text = sample("manual_phases", "after_pipeline").replace('"iter_arg_array_size_1": 4}):\n                    for branch',
                                                             '"iter_arg_array_size_1": 3}):\n                    for branch')
    path = tmp_path / "imported.py"
    path.write_text(text.replace("import pypto.language as pl", "import nanopass.dsl as pl"))
    [program] = load_programs(str(path))
    result = nanopass.generate_orchestration(program)
    assert result.code == compile_text(text).code
    assert "prev_tid__rv_v2[4]" in result.code
    assert result.stages.names()[1] == "convert_printed_ssa"
    assert [m for _, m, _ in _notes(result)] == [
        "printed iter_arg_array_size_1=3 for carry 'prev_tid__iter_v1' disagrees with the derived array size 4: "
        "the derived plan is followed"]


def test_opt_and_explain_know_convert_printed_ssa(tmp_path):
    """convert_printed_ssa is not in the pipeline list but is a pass of the compiler: ``opt`` runs it
    on a surface stage's text, ``explain`` shows it on a printed program (and on a DSL one, where it
    hands the program to convert_to_ssa); a pass that does not run on the program is a usage error."""
    path = SAMPLES_DIR / "loop_scalar" / "after_pipeline.py"
    assert run_cli("run", str(path), "--stop-after", "parse_dsl", "-o", str(tmp_path), "-q").returncode == 0
    opt = run_cli("opt", str(tmp_path / "00_parse_dsl.surface.txt"), "--pass", "convert_printed_ssa")
    assert opt.returncode == 0, opt.stderr
    assert opt.stdout.startswith("(Program") and "acc__iter_v1" in opt.stdout  # the printed names are kept
    shown = run_cli("explain", "convert_printed_ssa", str(path))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("convert_printed_ssa: surface -> ssa")
    on_dsl = run_cli("explain", "convert_printed_ssa", str(EXAMPLES / "basic.py"))
    assert on_dsl.returncode == 0 and on_dsl.stdout.startswith("convert_printed_ssa: surface -> ssa"), on_dsl.stderr
    replaced = run_cli("explain", "convert_to_ssa", str(path))
    assert replaced.returncode == 2 and "Traceback" not in replaced.stderr
    assert "'convert_to_ssa' does not run on this program" in replaced.stderr


def test_stop_after_names_the_ssa_pass_that_runs_on_the_program(tmp_path):
    """A printed program runs convert_printed_ssa in place of convert_to_ssa: --stop-after takes
    the pass that runs, and naming the other is a usage error (it was an internal one)."""
    path = SAMPLES_DIR / "loop_scalar" / "after_pipeline.py"
    stopped = run_cli("run", str(path), "--stop-after", "convert_printed_ssa")
    assert stopped.returncode == 0 and stopped.stdout.startswith("(Program"), stopped.stderr
    for source, name in ((path, "convert_to_ssa"), (EXAMPLES / "basic.py", "convert_printed_ssa")):
        refused = run_cli("run", str(source), "--stop-after", name)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
        assert f"--stop-after: '{name}' does not run on this program" in refused.stderr


# -- pl.while_ in the printed form ----------------------------------------------------------------
# Neither reference-surface.md nor reference-behaviour.md says how the existing compiler prints a
# pl.while_ loop (its orchestration code generator does not lower one: reference-behaviour.md
# sections 7.8 and 14.2). The printed text is read by the DSL's rule for the loop, so the program
# as written compiles as tests/golden/surface_while.py does; another shape is a located error.

WHILE_AS_WRITTEN = '''\
# pypto.program: WhileLoop
import pypto.language as pl

@pl.program
class WhileLoop:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def step(src: pl.Tensor[[8, 32], pl.FP32], dst: pl.InOut[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [8, 32], [8, 32], target_memory=pl.Mem.Vec)
        out: pl.Tensor[[8, 32], pl.FP32] = pl.tile.store(t, [0, 0], dst)
        return out
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def copy(src: pl.Tensor[[8, 32], pl.FP32], dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [8, 32], [8, 32], target_memory=pl.Mem.Vec)
        out: pl.Tensor[[8, 32], pl.FP32] = pl.tile.store(t, [0, 0], dst)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def run(self, x: pl.Tensor[[8, 32], pl.FP32], res: pl.InOut[pl.Tensor[[8, 32], pl.FP32]], out: pl.Out[pl.Tensor[[8, 32], pl.FP32]], n: pl.Scalar[pl.INT64], m: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 32], pl.FP32]:
        tmp: pl.Tensor[[8, 32], pl.FP32] = pl.create_tensor([8, 32], dtype=pl.FP32)
        for (i, r) in pl.while_(init_values=(0, res)):
            pl.cond(i < n)
            r: pl.Tensor[[8, 32], pl.FP32] = self.step(x, r)
            if i == m:
                tmp: pl.Tensor[[8, 32], pl.FP32] = self.copy(r, tmp)
            i2, r2 = pl.yield_(i + 1, r)
        out: pl.Tensor[[8, 32], pl.FP32] = self.copy(tmp, out)
        return out
'''


@pytest.mark.parametrize(("abi", "golden"), [("seed", "surface_while.expected.cpp"), ("l2", "surface_while.expected.l2.cpp")])
def test_a_printed_while_loop_as_written_compiles_as_the_dsl_program(abi, golden, tmp_path):
    assert looks_printed(WHILE_AS_WRITTEN)
    code = compile_text(WHILE_AS_WRITTEN, abi=abi).code
    assert code == (REPO / "tests" / "golden" / golden).read_text()
    compile_check(code, tmp_path)


def test_a_printed_while_loop_of_another_shape_is_a_located_error():
    # e.g. its body wrapped in a scope, as the after-pipeline form wraps a pl.range loop's body
    text = WHILE_AS_WRITTEN.replace(
        "            pl.cond(i < n)\n            r: pl.Tensor[[8, 32], pl.FP32] = self.step(x, r)\n"
        "            if i == m:\n                tmp: pl.Tensor[[8, 32], pl.FP32] = self.copy(r, tmp)\n"
        "            i2, r2 = pl.yield_(i + 1, r)\n",
        "            pl.cond(i < n)\n            with pl.scope():\n"
        "                r: pl.Tensor[[8, 32], pl.FP32] = self.step(x, r)\n"
        "                i2, r2 = pl.yield_(i + 1, r)\n")
    error = _error(text)
    assert (error.span.line, error.span.col) == (21, 12)
    assert error.message == "a pl.while_ loop must end with an assignment from pl.yield_(...)"
