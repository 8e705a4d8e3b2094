"""The constructs of the existing compiler's DSL that ``shared/spec/reference-surface.md`` lists.

Two sets of golden programs, each read against the spec's "essential lines the existing compiler
emits":

- ``tests/golden/surface_<name>.py`` (views, attrs, dumps, ...): the default ABI's ``.expected.cpp``
  is compared by ``test_golden``, ``.expected.l2.cpp`` here; a run of the hazard checker on it, and
  the construct's misuses, each a located user error.
- ``tests/golden/surface/<name>.py`` (SPMD launches, ``pl.at`` outlining, inline functions):
  compiled and compared byte for byte here with ``<name>.expected.cpp`` (the default ABI) and
  ``<name>.l2.expected.cpp`` (``--abi l2``), each output compiled with g++ against the stand-in
  header, and the program run by the hazard checker (the reference and emission interpreters must
  agree, and no dependency may be missing).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from conftest import REPO, compile_check, load_program, run_cli
from test_golden import warnings_of

import nanopass
from nanopass.errors import UserError
from nanopass.passes.util import iter_stmts
from nanopass.tools.check import check_program
from nanopass.tools.check_values import as_set_text, choose_values

GOLDEN = REPO / "tests" / "golden"
SURFACE = sorted(GOLDEN.glob("surface_*.py"))

# golden program -> (values of its parameters for the checker, tasks the run submits)
RUNS = {
    "surface_views": ({}, 4),
    "surface_attrs": ({}, 4),
    "surface_nested_calls": ({}, 3),
    "surface_const": ({"n": "5"}, 2),
    "surface_tuple_results": ({}, 2),
    "surface_unroll": ({"n": "2"}, 5),
    "surface_dumps": ({}, 4),
    "surface_jit": ({}, 2),
    "surface_slice_clamp": ({"row": "18"}, 2),
    "surface_while": ({"n": "3", "m": "1"}, 5),
    "surface_phi_names": ({"flag": "1"}, 6),
    "surface_jit_inline": ({}, 4),
    "surface_host_access": ({"e": "3"}, 1),
    "surface_loop_tid": ({"n": "3"}, 4),
    "surface_slice_metadata": ({"rows": "5"}, 3),
}


def test_every_surface_golden_has_a_run_here():
    assert sorted(p.stem for p in SURFACE) == sorted(RUNS)


@pytest.mark.parametrize("source", SURFACE, ids=[p.stem for p in SURFACE])
def test_surface_golden_under_l2(source, tmp_path):
    expected = source.with_name(source.stem + ".expected.l2.cpp")
    code = nanopass.generate_orchestration(load_program(source), abi="l2").code
    assert code == expected.read_text()
    compile_check(code, tmp_path, source.stem + ".cpp")


@pytest.mark.parametrize("source", SURFACE, ids=[p.stem for p in SURFACE])
def test_surface_golden_has_no_hazard(source):
    values, tasks = RUNS[source.stem]
    result = check_program(load_program(source), values)
    assert result.fatal is None
    assert not result.failing, result.lines()
    assert not result.mismatches
    assert len(result.emission.tasks()) == tasks


HEADER = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, src: pl.Tensor[[8, 32], pl.FP32], dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def two(self, a: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
            b: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> tuple[pl.Tensor[[8, 32], pl.FP32], pl.Tensor[[8, 32], pl.FP32]]:
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, big: pl.Tensor[[24, 32], pl.FP32], res: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
             n: pl.Scalar[pl.INT32], x: pl.Tensor[[8, 32], pl.FP32]) -> pl.Tensor[[8, 32], pl.FP32]:
'''
BODY_LINE = HEADER.count("\n") + 1  # the line of the body's first statement


def compile_body(tmp_path: Path, body: str, **options):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8))
    return nanopass.generate_orchestration(load_program(path), **options)


def error_of(tmp_path: Path, body: str) -> UserError:
    with pytest.raises(UserError) as info:
        compile_body(tmp_path, body)
    return info.value


# name -> (body, the text the error points at (its first occurrence, on the body's first line), words of the message)
ERRORS = {
    "reshape count": ("r = pl.reshape(big, [8, 8])\nres = self.k(r, res)\nreturn res\n", "[8, 8]",
                      "pl.reshape cannot change the element count (768 to 64)"),
    "transpose axis": ("r = pl.transpose(big, 0, 2)\nreturn res\n", "2)", "axis2 is out of range"),
    "view layout": ("r = pl.tensor.view(big, [32, 24], layout=pl.NZ)\nreturn res\n", "pl.NZ",
                    "lowers only a shape change of an ND tensor"),
    "view without shape": ("r = pl.tensor.view(big, layout=pl.ND)\nreturn res\n", "pl.tensor", "pl.tensor.view needs shape="),
    "slice drop_dims": ("r = pl.slice(big, [1, 32], [0, 0], drop_dims=[0])\nreturn res\n", "[0])",
                        "drop_dims is not supported"),
    "slice outside": ("r = pl.slice(big, [8, 32], [20, 0])\nreturn res\n", "8,",
                      "the slice [20, 28) is outside the dimension of extent 24"),
    "slice outside clamp=False": ("r = pl.slice(big, [8, 32], [20, 0], clamp=False)\nreturn res\n", "8,",
                                  "the slice [20, 28) is outside the dimension of extent 24"),
    "slice rank": ("r = pl.slice(big, [8], [0])\nreturn res\n", "[8]", "pl.slice of a rank-2 tensor needs"),
    "slice pad_value": ("r = pl.slice(big, [8, 32], [0, 0], pad_value=0)\nreturn res\n", "0)",
                        "pl.slice has no keyword argument 'pad_value'"),
    "attrs not a dict": ("res = self.k(x, res, attrs=[1])\nreturn res\n", "[1]", "attrs= must be a dict literal"),
    "attrs unknown key": ("res = self.k(x, res, attrs={'tiling': []})\nreturn res\n", "'tiling'",
                          "unknown call attribute 'tiling'"),
    "arg_directions count": ("res = self.k(x, res, attrs={'arg_directions': [pl.adir.input]})\nreturn res\n",
                             "[pl.adir.input]", "has 1 entries; the call of 'k' passes 2"),
    "arg_directions entry": ("res = self.k(x, res, attrs={'arg_directions': [pl.adir.input, 3]})\nreturn res\n",
                             "3]", "not an argument direction: '3'"),
    "arg_directions scalar": ("res = self.k(x, res, attrs={'arg_directions': [pl.adir.scalar, pl.adir.inout]})\n"
                              "return res\n", "pl.adir.scalar", "parameter 'src' is a tensor"),
    "arg_directions no_dep": ("res = self.k(pl.no_dep(x), res, attrs={'arg_directions': [pl.adir.input, "
                              "pl.adir.inout]})\nreturn res\n", "pl.adir.input", "the argument is pl.no_dep"),
    "manual edges entry": ("res = self.k(x, res, attrs={'compiler_manual_dep_edges': [n]})\nreturn res\n",
                           "n]", "entries must be TaskId variables"),
    "nested call in arithmetic": ("m = n + self.k(x, res)\nreturn res\n", "self.k", "must be assigned to a name"),
    "nested call of two results": ("res = self.k(self.two(x), res)\nreturn res\n", "self.two",
                                   "kernel 'two' returns 2 value(s); a kernel call used as a value must return one"),
    "nested call bad argument": ("return self.k(self.k(n, res), res)\n", "n,", "parameter 'src' of 'k' is a tensor"),
    "const fraction": ("m = pl.const(0.5, pl.INT32)\nreturn res\n", "0.5", "0.5 is not an integer"),
    "const range": ("m = pl.const(300, pl.INT8)\nreturn res\n", "300", "300 does not fit in INT8"),
    "const not a constant": ("m = pl.const(n, pl.INT32)\nreturn res\n", "n,", "'n'"),
    "const dtype": ("m = pl.const(1, pl.TASK_ID)\nreturn res\n", "pl.TASK_ID", "it has no host C++ type"),
    "const arity": ("m = pl.const(1)\nreturn res\n", "pl.const", "pl.const is missing argument 'dtype'"),
    "unroll bound": ("for i in pl.unroll(n):\n    pass\nreturn res\n", "n)", "bounds must be constants, but 'n' is a variable"),
    "unroll carries": ("for i in pl.unroll(2, init_values=(res,)):\n    pass\nreturn res\n", "(res,)",
                       "pl.unroll has no keyword argument 'init_values'"),
    "unroll step": ("for i in pl.unroll(0, 4, 0):\n    pass\nreturn res\n", "0)", "a loop step must be positive"),
    "unroll count": ("for i in pl.unroll(5000):\n    pass\nreturn res\n", "pl.unroll", "copy the body 5000 times"),
    "unroll assign": ("for i in pl.unroll(2): i = 3\nreturn res\n", "i = 3",
                      "cannot assign to 'i' (a loop variable)"),
    "pipeline stage": ("for i in pl.pipeline(4, stage=0):\n    pass\nreturn res\n", "0)",
                       "pl.pipeline's stage= must be a positive int, got 0"),
    "split_aiv": ("for i in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):\n    pass\nreturn res\n", "pl.split_aiv",
                  "pl.split_aiv(n, mode=...) splits a kernel's loop across the two AIV sub-cores of a vector core"),
    "split_aiv value": ("m = pl.split_aiv(2)\nreturn res\n", "pl.split_aiv",
                        "an orchestration function runs on the host CPU, with no sub-cores to split across"),
    "dump_tag scalar": ("pl.dump_tag(n)\nreturn res\n", "n)", "pl.dump_tag takes a tensor variable, got 'n'"),
    "dumps not a list": ("res, t = pl.submit(self.k, x, res, dumps=x)\nreturn res\n", "x)",
                         "pl.submit's dumps= must be a list of tensor variables"),
    "dumps not an argument": ("res, t = pl.submit(self.k, x, res, dumps=[big])\nreturn res\n", "big]",
                              "'big' is not one"),
    "early resolve literal": ("res, t = pl.submit(self.k, x, res, allow_early_resolve=1)\nreturn res\n", "1)",
                              "allow_early_resolve= must be True or False"),
    "dumps on a call": ("res = self.k(x, res, dumps=[x])\nreturn res\n", "[x]",
                        "kernel 'k' does not accept keyword argument 'dumps'"),
    "while_ without init_values": ("for (i,) in pl.while_():\n    pl.cond(i < n)\n    (i2,) = pl.yield_(i + 1)\n"
                                   "return res\n", "pl.while_", "pl.while_ needs init_values=(...)"),
    "while_ as a value": ("w = pl.while_(init_values=(0,))\nreturn res\n", "pl.while_",
                          "pl.while_(...) is a loop's iterator"),
    "cond statement": ("pl.cond(n > 0)\nreturn res\n", "pl.cond",
                       "pl.cond(...) must be the first statement of a pl.while_ loop's body"),
    "cond in an if": ("if pl.cond(n > 0):\n    res = self.k(x, res)\nreturn res\n", "pl.cond",
                      "pl.cond(...) must be the first statement of a pl.while_ loop's body"),
    "slice clamp": ("r = pl.slice(big, [8, 32], [0, 0], clamp=1)\nreturn res\n", "1)", "clamp= must be True or False"),
    "one index of a 2-D tensor": ("v = pl.tensor.read(big, 1)\nres = self.k(x, res)\nreturn res\n", "1)",
                                  "pl.tensor.read of a rank-2 tensor needs 2 indices, got 1"),
    "a float index": ("pl.tensor.write(x, 1.5, 2.0)\nreturn res\n", "1.5",
                      "pl.tensor.write: indices must be a list, like [i, j], or one integer index of a 1-D tensor"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_misuse_is_a_located_user_error(name, tmp_path):
    body, at, words = ERRORS[name]
    error = error_of(tmp_path, body)
    assert words in error.message
    first = textwrap.dedent(body).splitlines()[0]
    assert (error.span.line, error.span.display_col) == (BODY_LINE, 8 + first.index(at) + 1)


def test_slice_metadata_keywords_print_nothing(tmp_path):
    plain = compile_body(tmp_path, "w = pl.slice(big, [8, 32], [8, 0])\nres = self.k(w, res)\nreturn res\n").code
    tagged = compile_body(tmp_path, """\
        w = pl.tensor.slice(big, [8, 32], [8, 0], valid_shape=[n, 32], pad_value=0.0, clamp=False)
        res = self.k(w, res)
        return res
    """).code
    assert tagged == plain


CLAMPED_TAIL = "(w_offsets[0] >= ext_big.shapes[0] ? 0u : std::min<uint32_t>(8, ext_big.shapes[0] - w_offsets[0]))"


def test_slice_clamp_cuts_the_extents_in_the_default_abi(tmp_path):
    # Without clamp= the default ABI prints the extents as written; with it, clamped as --abi l2 does.
    plain = compile_body(tmp_path, "w = pl.slice(big, [8, 32], [8, 0])\nres = self.k(w, res)\nreturn res\n").code
    clamped = compile_body(tmp_path, "w = pl.slice(big, [8, 32], [20, 0], clamp=True)\nres = self.k(w, res)\nreturn res\n").code
    assert "uint32_t w_shapes[2] = {8, 32};" in plain and "std::min" not in plain
    assert f"uint32_t w_shapes[2] = {{{CLAMPED_TAIL}, " in clamped
    compile_check(clamped, tmp_path, "clamped.cpp")


@pytest.mark.parametrize("row, rows", [(0, 8), (14, 6), (19, 1), (20, 0), (31, 0)])
def test_slice_clamp_runs_with_the_window_cut_at_the_source_end(row, rows):
    # Both interpreters (the reference one on the SSA, the emission one on the printed statements)
    # give the kernel the clamped window: rows left after the offset, 0 past the end.
    result = check_program(load_program(GOLDEN / "surface_slice_clamp.py"), {"row": str(row)})
    assert result.fatal is None and not result.failing and not result.mismatches
    for trace in (result.reference, result.emission):
        assert [t.tensors[0].view.shape for t in trace.tasks()] == [(4, 32), (rows, 32)]


def notes(result, kind: str) -> list:
    return [n for stage in result.stages for n in stage.notes if n.kind == kind]


ATTRS_CALL = "w = pl.slice(big, [8, 32], [0, 0])\nres = self.k(w, res{attrs})\nreturn res\n"


def test_a_direction_hint_that_orders_less_than_the_derived_one_is_replaced_with_a_note(tmp_path):
    hinted = compile_body(tmp_path, ATTRS_CALL.format(attrs=", attrs={'arg_directions': [pl.adir.input, pl.adir.input]}"))
    assert "params_t0.add_inout(ext_res);" in hinted.code
    [note] = notes(hinted, "direction-hint")
    assert "attrs asks for Input on argument res, which orders less than the derived OutputExisting" in note.message
    stronger = compile_body(tmp_path, ATTRS_CALL.format(attrs=", attrs={'arg_directions': [pl.adir.inout, pl.adir.inout]}"))
    assert "params_t0.add_inout(w);" in stronger.code
    assert [n.message for n in notes(stronger, "direction-hint")] == [
        "k: argument w is InOut as attrs asks (derived: Input, which orders less)",
        "k: argument res is InOut as attrs asks (derived: OutputExisting, which orders less)",
    ]


def test_compiler_manual_dep_edges_are_compiler_edges(tmp_path):
    result = compile_body(tmp_path, """\
        res, t = pl.submit(self.k, x, res)
        res = self.k(x, res, attrs={"compiler_manual_dep_edges": [t, None]})
        return res
    """)
    # a compiler edge, so drop_implied_dependencies may drop it: here the TensorMap orders the pair (res)
    assert "params_t1_deps[params_t1_deps_count++] = t;" not in result.code
    result = compile_body(tmp_path, """\
        res, t = pl.submit(self.k, x, res)
        res = self.k(x, res, attrs={"compiler_manual_dep_edges": [t, None]})
        return res
    """, lean_edges=False)
    assert "params_t1_deps[params_t1_deps_count++] = t;" in result.code
    body = result.stages["resolve_dep_edges"].tree.orch.body
    [task] = [s for s in iter_stmts(body) if s._production == "Task" and s.deps]
    assert [(edge.user, edge.guarded) for edge in task.deps] == [(False, False)]


def test_a_tuple_annotation_is_checked_against_the_return(tmp_path):
    source = (GOLDEN / "surface_tuple_results.py").read_text()
    path = tmp_path / "prog.py"
    path.write_text(source.replace("        return a, b", "        return a"))
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    assert info.value.message == "'run' declares 2 return value(s) but returns 1"
    assert info.value.span.line == source.splitlines().index("        return a, b") + 1
    path.write_text(source.replace("pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:",
                                   "pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], 3]:", 1))
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    assert info.value.message == "unsupported type annotation '3'"


def test_a_dump_tag_ends_where_its_name_is_bound_to_another_tensor(tmp_path):
    code = compile_body(tmp_path, """\
        w = pl.slice(big, [8, 32], [0, 0])
        pl.dump_tag(w)
        res = self.k(w, res)
        w = pl.slice(big, [8, 32], [8, 0])
        res = self.k(w, res)
        return res
    """).code
    assert code.count(".dump(") == 1 and "params_t0.dump(w);" in code


JIT_PROGRAM = (GOLDEN / "surface_jit.py").read_text()


@pytest.mark.parametrize("no_exec", [False, True], ids=["importing", "no-exec"])
def test_a_jit_parameter_without_a_shape_is_refused_saying_torch_would_supply_it(tmp_path, no_exec):
    from conftest import run_cli

    path = tmp_path / "jit.py"
    path.write_text(JIT_PROGRAM.replace("def main(x: pl.Tensor[[16, 16], pl.FP32],", "def main(x: pl.Tensor,"))
    result = run_cli("run", str(path), *(["--no-exec"] if no_exec else []))
    assert result.returncode == 1
    line = next(n for n, text in enumerate(JIT_PROGRAM.splitlines(), 1) if text.startswith("def main("))
    assert result.stderr.splitlines()[0].endswith(
        f"jit.py:{line}:10: error: parameter 'x' of 'main' has no shape and dtype: the existing DSL takes them from "
        "the torch tensor of the first call, and nanopass compiles without running the program (or torch)"
    )


@pytest.mark.parametrize("no_exec", [False, True], ids=["importing", "no-exec"])
def test_a_jit_refusal_counts_its_column_in_characters(tmp_path, no_exec):
    from conftest import run_cli

    path = tmp_path / "jit.py"
    path.write_text(JIT_PROGRAM.replace("def main(x: pl.Tensor[[16, 16], pl.FP32],", "def main(é: pl.Tensor[[16, 16], pl.FP32], z: pl.Tensor,\n         x: pl.Tensor[[16, 16], pl.FP32],"))
    result = run_cli("run", str(path), *(["--no-exec"] if no_exec else []))
    assert result.returncode == 1
    line = next(n for n, text in enumerate(JIT_PROGRAM.splitlines(), 1) if text.startswith("def main("))
    column = len("def main(é: pl.Tensor[[16, 16], pl.FP32], ") + 1  # characters, not UTF-8 bytes
    assert f"jit.py:{line}:{column}: error: parameter 'z' of 'main' has no shape" in result.stderr.splitlines()[0]


@pytest.mark.parametrize("form, why", [
    ("host", "a host function runs on the CPU beside the runtime, and nanopass compiles orchestration functions "
             "only"),
    ("extern('k')", "nanopass would need that library's kernel signature (parameter directions, core type), which "
                    "the stub does not state"),
    ("cached", "it is not a form nanopass reads"),
])
def test_jit_forms_other_than_the_entry_kernels_and_inline_functions_are_refused(tmp_path, form, why):
    path = tmp_path / "jit.py"
    path.write_text(JIT_PROGRAM.replace("@pl.jit.incore(level=1)", f"@pl.jit.{form}"))
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    assert info.value.message.startswith(f"@pl.jit.{form.split('(')[0]} is not supported: ")
    assert why in info.value.message
    assert info.value.span.line == next(n for n, text in enumerate(JIT_PROGRAM.splitlines(), 1)
                                        if text.startswith("@pl.jit.incore"))


def test_a_jit_inline_function_is_read_the_same_without_running_the_file():
    from conftest import run_cli

    source = GOLDEN / "surface_jit_inline.py"
    done = run_cli("run", str(source), "--no-exec", "--abi", "l2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (GOLDEN / "surface_jit_inline.expected.l2.cpp").read_text()
    result = nanopass.generate_orchestration(load_program(source))
    assert result.func_name_to_id == {"twice": 0}  # the inline function has no kernel and no id


# The SPMD, outlining and inline-function goldens (tests/golden/surface/)

SURFACE_DIR = GOLDEN / "surface"
DIR_PROGRAMS = sorted(SURFACE_DIR.glob("*.py"))
ABIS = {"seed": ".expected.cpp", "l2": ".l2.expected.cpp"}


def expected_file(source: Path, abi: str) -> Path:
    return source.with_name(source.stem + ABIS[abi])


@pytest.mark.parametrize("abi", sorted(ABIS))
@pytest.mark.parametrize("source", DIR_PROGRAMS, ids=[p.stem for p in DIR_PROGRAMS])
def test_surface_golden(source, abi, tmp_path):
    expected = expected_file(source, abi)
    if not expected.exists():
        pytest.fail(f"{expected.name} is missing")
    result = nanopass.generate_orchestration(load_program(source), abi=abi)
    assert result.code == expected.read_text()
    compile_check(result.code, tmp_path, f"{source.stem}.{abi}.cpp")
    assert warnings_of(result) == []


@pytest.mark.parametrize("source", DIR_PROGRAMS, ids=[p.stem for p in DIR_PROGRAMS])
def test_surface_program_has_no_hazard(source):
    program = load_program(source)
    for func in sorted(nanopass.generate_orchestration(program).functions):  # each orchestration function
        runs = choose_values(program.surface(func), {}).runs
        assert runs
        for values in runs:
            result = check_program(program, as_set_text(values), func_name=func)
            assert result.emission.tasks, "the run submitted no task"
            assert not result.failing and result.fatal is None, "\n".join(result.lines())


def test_there_are_surface_goldens():
    assert len(DIR_PROGRAMS) >= 2


# Several orchestration functions (reference-surface.md section 7): the result's code is the first
# by name; each other function's C++ is <name>.<func>.expected.cpp / <name>.<func>.l2.expected.cpp.

@pytest.mark.parametrize("abi", sorted(ABIS))
@pytest.mark.parametrize("source", DIR_PROGRAMS, ids=[p.stem for p in DIR_PROGRAMS])
def test_every_other_orchestration_function_has_its_golden(source, abi, tmp_path):
    result = nanopass.generate_orchestration(load_program(source), abi=abi)
    others = sorted(set(result.functions) - {result.func_name})
    middles = [p.name[len(source.stem) + 1:-len(".expected.cpp")] for p in SURFACE_DIR.glob(f"{source.stem}.*.expected.cpp")]
    of_abi = [m.removesuffix(".l2") for m in middles if m != "l2" and m.endswith(".l2") == (abi == "l2")]
    assert sorted(set(of_abi) - {"Ascend950"}) == others
    for func in others:
        code = result.functions[func].code
        assert code == (SURFACE_DIR / f"{source.stem}.{func}{ABIS[abi]}").read_text()
        compile_check(code, tmp_path, f"{source.stem}.{func}.{abi}.cpp")


def test_several_orchestration_functions_each_number_their_kernels():
    result = nanopass.generate_orchestration(load_program(SURFACE_DIR / "several_orch.py"))
    assert result.func_name == "alpha" and sorted(result.functions) == ["alpha", "zeta"]  # zeta is written first
    assert result.functions["alpha"].func_name_to_id == {"add": 0, "scale": 1}
    assert result.functions["zeta"].func_name_to_id == {"scale": 0, "add": 1}


def test_outlined_and_spmd_kernels_have_the_metadata_the_spec_states():
    # reference-surface.md section 3 (AtDemo) and section 4 (the section-1 program)
    at = nanopass.generate_orchestration(load_program(SURFACE_DIR / "at_demo.py"), abi="l2").metadata()
    assert at["func_name_to_id"] == {"sum_stage": 0, "mul_stage": 1}
    assert at["func_name_to_signature"] == {"sum_stage": ["IN", "IN", "OUT"], "mul_stage": ["IN", "IN", "INOUT"]}
    assert at["orchestration_signature"] == ["IN", "IN", "OUT"]
    grid = nanopass.generate_orchestration(load_program(SURFACE_DIR / "spmd_submit.py"), abi="l2").metadata()
    assert grid["func_name_to_id"] == {"rowblk": 0}
    assert grid["func_name_to_signature"] == {"rowblk": ["IN", "OUT"]}
    assert grid["orchestration_signature"] == ["IN", "OUT", "OUT"]


def test_the_kernels_of_a_named_block_read_more_than_once_are_in_the_metadata(tmp_path):
    # inline_named_block.py: one kernel per shape of the block's copies, ids in first-dispatch order
    meta = tmp_path / "meta.json"
    done = run_cli("run", str(SURFACE_DIR / "inline_named_block.py"), "--abi", "l2", "--metadata", str(meta), "-q")
    assert done.returncode == 0, done.stderr
    [function] = json.loads(meta.read_text())["functions"].values()
    assert function["func_name_to_id"] == {"scale_into": 0, "scale_into_1": 1, "copy_rows": 2}
    assert function["func_name_to_signature"] == {"scale_into": ["IN", "INOUT"], "scale_into_1": ["IN", "INOUT"],
                                                  "copy_rows": ["IN", "INOUT"]}
    assert function["func_name_to_core_type"] == dict.fromkeys(("scale_into", "scale_into_1", "copy_rows"), "VECTOR")
    assert function["orchestration_signature"] == ["IN", "INOUT", "INOUT"] and function["expected_arg_count"] == 4


# --backend Ascend950 (reference-surface.md section 1): an SPMD task's block count is
# launch_spec.set_core_num(N); everything else, the sync-start line included, is unchanged.

BACKEND_GOLDENS = sorted(SURFACE_DIR.glob("*.Ascend950*.expected.cpp"))


@pytest.mark.parametrize("expected", BACKEND_GOLDENS, ids=[p.name for p in BACKEND_GOLDENS])
def test_ascend950_golden(expected, tmp_path):
    source = SURFACE_DIR / (expected.name.split(".")[0] + ".py")
    abi = "l2" if ".l2." in expected.name else "seed"
    code = nanopass.generate_orchestration(load_program(source), abi=abi, backend="Ascend950").code
    assert code == expected.read_text()
    assert "set_block_num" not in code and "launch_spec.set_core_num(" in code
    default = expected_file(source, abi).read_text()
    assert code == default.replace("launch_spec.set_block_num(", "launch_spec.set_core_num(")
    compile_check(code, tmp_path, expected.name.replace(".expected", ""))


def test_there_are_ascend950_goldens_in_both_abis():
    assert {".l2." in p.name for p in BACKEND_GOLDENS} == {True, False}


def test_nanopass_run_takes_the_backend(tmp_path):
    from conftest import run_cli

    source = SURFACE_DIR / "spmd_submit.py"
    done = run_cli("run", str(source), "--abi", "l2", "--backend", "Ascend950")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (SURFACE_DIR / "spmd_submit.Ascend950.l2.expected.cpp").read_text()
    default = run_cli("run", str(source), "--abi", "l2")
    assert default.stdout == (SURFACE_DIR / "spmd_submit.l2.expected.cpp").read_text()
    bad = run_cli("run", str(source), "--backend", "Ascend999")
    assert bad.returncode == 2 and "invalid choice: 'Ascend999'" in bad.stderr


def test_an_unknown_backend_is_refused_by_the_library():
    with pytest.raises(ValueError, match="unknown backend 'Ascend999': one of Ascend910B, Ascend950"):
        nanopass.generate_orchestration(load_program(SURFACE_DIR / "spmd_submit.py"), backend="Ascend999")


def test_the_backend_changes_no_task_and_no_dependency():
    # the backend is the printer's: every stage is the default's, and the checker finds no hazard
    program = load_program(SURFACE_DIR / "spmd_submit.py")
    default = nanopass.generate_orchestration(program).stages
    other = nanopass.generate_orchestration(program, backend="Ascend950").stages
    assert default.names() == other.names()
    assert all(default[name].tree == other[name].tree for name in default.names())
    result = check_program(program, {"w": "2"})
    assert result.fatal is None and not result.failing and not result.mismatches


def test_predicate_is_refused_because_the_runtime_api_has_no_predicate():
    # runtime-api.md defines no predicate type (the reference's L0TaskPredicate, set_predicate and
    # PredicateOp are not in it), so neither does the stand-in header: there is nothing to emit.
    header = (REPO / "tools" / "pto_orchestration_api.h").read_text()
    assert not any(name in header for name in ("Predicate", "predicate"))
    from nanopass.passes.frontend.ops.submits import PREDICATE_REFUSED
    assert "runtime API the C++ is written for (runtime-api.md) has no predicate type" in PREDICATE_REFUSED
    readme = (REPO / "README.md").read_text()
    [row] = [line for line in readme.splitlines() if line.startswith("| `predicate` |")]
    assert "has no predicate type" in row


GM_PIPE_NAMED = '''\
import nanopass.dsl as pl


@pl.program
class GmPipeNamed:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[64], pl.FP32], ws: pl.InOut[pl.Tensor[[64], pl.FP32]],
          out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        gm_pipe_buffer_0 = pl.create_tensor([64], dtype=pl.FP32)
        out = self.k(a, gm_pipe_buffer_0, out)
        return out
'''


@pytest.mark.parametrize("abi", sorted(ABIS))
def test_a_tensor_named_like_a_gm_pipe_buffer_keeps_the_shape_written(tmp_path, abi):
    # reference-behaviour.md 7.1's GM pipe workspace sizing is for a buffer the reference's own
    # passes inject for a kernel with cross-core pipes; nanopass injects none and reads no kernel
    # code, so a create the program writes is sized as written, whatever its name (README).
    path = tmp_path / "gm_pipe_named.py"
    path.write_text(GM_PIPE_NAMED)
    code = nanopass.generate_orchestration(load_program(path), abi=abi).code
    assert "        uint32_t gm_pipe_buffer_0_ci_shapes[1] = {64};\n" in code
    assert "static_cast<uint32_t>" not in code
    compile_check(code, tmp_path)


@pytest.mark.parametrize("abi", sorted(ABIS))
def test_an_explicitly_opaque_function_with_blocks_is_the_orchestration_function(abi, tmp_path):
    # reference-surface.md section 3: "@pl.function with no type= is FunctionType.Opaque"; written
    # out, it is the same program as the spec's AtDemo.
    text = (SURFACE_DIR / "at_demo.py").read_text()
    assert text.count("    @pl.function\n    def main") == 1
    path = tmp_path / "at_demo_opaque.py"
    path.write_text(text.replace("    @pl.function\n    def main", "    @pl.function(type=pl.FunctionType.Opaque)\n    def main"))
    assert nanopass.generate_orchestration(load_program(path), abi=abi).code == expected_file(SURFACE_DIR / "at_demo.py", abi).read_text()


def test_a_jit_opaque_function_is_read_but_not_dispatched(tmp_path):
    # @pl.jit.opaque reads the function as an Opaque method; the reference's code generator refuses
    # an Opaque callee (reference-behaviour.md 10.1), and so does nanopass, with a located error.
    path = tmp_path / "jit.py"
    path.write_text(JIT_PROGRAM.replace("@pl.jit.incore(level=1)", "@pl.jit.opaque"))
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    line = next(n for n, text in enumerate(JIT_PROGRAM.splitlines(), 1) if text.strip() == "tmp = twice(x, tmp)")
    assert (info.value.span.line, info.value.span.display_col) == (line, 11)
    assert info.value.message.startswith("'twice' is an Opaque function (no type=, type=pl.FunctionType.Opaque or "
                                         "@pl.jit.opaque): it cannot be dispatched as a task")
