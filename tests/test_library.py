"""Using the compiler as a library: build the first language's nodes directly, run the pipeline."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, load_program

import nanopass
from nanopass.languages import SURFACE as S
from nanopass.languages.terms import DType, FuncKind, ParamDir
from nanopass.text import parse, unparse


def t16():
    return S.TensorType([S.Int(16, DType.INDEX), S.Int(16, DType.INDEX)], DType.FP32)


def basic_by_hand():
    kernel = S.Kernel(
        "kernel_add",
        FuncKind.AIV,
        [S.Param("a", t16(), ParamDir.In), S.Param("b", t16(), ParamDir.In), S.Param("output", t16(), ParamDir.Out)],
        [t16()],
        [S.KReturn([S.Var("output")])],
        False,
    )
    body = [
        S.Let(S.Binder("c", t16()), S.CreateTensor(list(t16().shape), DType.FP32, False, None)),
        S.Task([S.Binder("c", t16())], None, "kernel_add", [S.Arg(S.Var(n), False, None) for n in "abc"], [], False, [],
               None),
        S.Task([S.Binder("d", t16())], None, "kernel_add", [S.Arg(S.Var(n), False, None) for n in "cbd"], [], False, [],
               None),
        S.Return([S.Var("d")]),
    ]
    params = [S.Param("a", t16(), ParamDir.In), S.Param("b", t16(), ParamDir.In), S.Param("d", t16(), ParamDir.Out)]
    func = S.Function("orch_basic", params, [t16()], True, [], body)
    return S.Program("Basic", [kernel], func)


def test_hand_built_surface_program_compiles_like_the_dsl():
    result = nanopass.generate_orchestration(basic_by_hand())
    assert result.code == (EXAMPLES / "basic.expected.cpp").read_text()


def test_surface_text_form_is_an_input_too():
    text = unparse(basic_by_hand())
    result = nanopass.generate_orchestration(parse(S, text))
    assert result.kernel_ids == {"kernel_add": 0}


def test_generate_orchestration_rejects_other_inputs():
    with pytest.raises(TypeError):
        nanopass.generate_orchestration(42)


def test_user_errors_surface_as_the_error_family(tmp_path):
    path = tmp_path / "p.py"
    path.write_text((EXAMPLES / "basic.py").read_text().replace("self.kernel_add(a, b, c)", "self.kernel_add(a, b)"))
    from conftest import load_program

    with pytest.raises(nanopass.UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    assert info.value.span.file == str(path) and info.value.span.line > 0


def test_a_compile_keeps_no_tree_alive_after_it_returns(example):
    from nanopass.languages import statements

    result = nanopass.generate_orchestration(example("basic"))
    assert result.code
    assert statements._reuse.last_walk is statements._NO_WALK  # the walk reused while compiling is gone
    body = result.stages[-2].tree.orch.body
    assert list(statements.iter_stmts(body)) and statements._reuse.last_walk is statements._NO_WALK


def test_keep_stages_false_releases_the_trees_the_result_does_not_read(example):
    import gc
    import sys

    from nanopass.languages import EMISSION, ENCODED

    kept = nanopass.generate_orchestration(example("manual_phases"))
    lean = nanopass.generate_orchestration(example("manual_phases"), keep_stages=False)
    assert lean.code == kept.code and lean.kernel_ids == kept.kernel_ids
    assert [s.name for s in lean.stages] == [s.name for s in kept.stages]
    with_trees = [s.language for s in lean.stages if s.tree is not None]
    assert with_trees == [ENCODED, EMISSION]
    assert all(s.tree is not None for s in kept.stages)
    # released for good: the only trees alive are the kept ones and the front end's (which the
    # program object keeps); a released stage's tree stays alive only if a pass handed it on as is
    program = example("manual_phases")
    seen: list = []  # every stage's tree, as the observer saw it
    stages = nanopass.run_pipeline(
        program, observer=lambda stage: seen.append(stage.tree), keep_tree=nanopass.api.needed_by_result
    )
    gc.collect()
    kept = [program.surface()] + [s.tree for s in stages if s.tree is not None]
    held_elsewhere = []
    for tree in {id(t): t for t in seen}.values():
        # references: `seen`'s, the loop variable's, getrefcount's argument's, the dict's
        if sys.getrefcount(tree) - 3 - sum(t is tree for t in seen) > 0:
            held_elsewhere.append(tree)
    assert held_elsewhere and all(any(tree is k for k in kept) for tree in held_elsewhere)
    assert len(held_elsewhere) < len(stages) // 2


def test_the_collector_stays_paused_from_the_front_end_to_the_printer(example, monkeypatch):
    """Resumed between the front end, the passes and the printer, the cyclic collector would
    walk every live node at its first collection (tens of percent of a large compile)."""
    import gc

    import nanopass.printer.cpp as cpp
    from nanopass.passes.frontend import parse_dsl

    seen = []
    real_print, real_parse = cpp.print_cpp, parse_dsl.parse_program

    def print_cpp(*args, **kwargs):
        seen.append(("printer", gc.isenabled()))
        return real_print(*args, **kwargs)

    def parse_program(*args, **kwargs):
        seen.append(("front end", gc.isenabled()))
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(cpp, "print_cpp", print_cpp)
    monkeypatch.setattr(parse_dsl, "parse_program", parse_program)
    assert gc.isenabled()
    result = nanopass.generate_orchestration(example("basic"))
    assert result.code == (EXAMPLES / "basic.expected.cpp").read_text()
    assert seen == [("front end", False), ("printer", False)]
    assert gc.isenabled()  # and resumed afterwards


def test_no_object_of_the_compile_waits_for_the_collector(tmp_path):
    """The collector stays paused for the whole compile, so an object in a reference cycle lives
    until the compile ends, with all it holds: the front end's parser must not be one (it holds
    the file's AST, the largest structure of a compile: at N = 16,000 nested, the peak memory is
    398 MiB with it alive, 288 MiB without), nor a pass object holding anything (its dispatch
    table holds its bound methods; its fields hold trees the pipeline has released; a closure of
    its run may still refer to it)."""
    import ast
    import gc

    from nanopass.collector import collector_paused
    from nanopass.rewrite import Pass
    from conftest import bench_file

    path = bench_file(tmp_path, "nested", 8)
    gc.collect()
    syntax_trees_before = sum(isinstance(o, ast.AST) for o in gc.get_objects())
    with collector_paused():
        program = load_program(path)
        assert sum(isinstance(o, ast.AST) for o in gc.get_objects()) > syntax_trees_before + 100  # (the file's)
        stages = nanopass.run_pipeline(program, keep_tree=nanopass.api.needed_by_result)
        syntax_trees = sum(isinstance(o, ast.AST) for o in gc.get_objects()) - syntax_trees_before
        passes = [type(o).__name__ for o in gc.get_objects() if isinstance(o, Pass) and vars(o)]
    assert stages[-1].tree is not None
    assert syntax_trees == 0
    assert passes == []


def test_every_stage_of_every_example_pickles_into_a_process_that_imported_only_the_framework(tmp_path):
    """A larger compiler may ship trees between processes: each stage's tree, pickled here, is
    unpickled by a fresh interpreter that imported only ``nanopass.language`` (the pipeline's
    languages are defined on demand) and comes back equal, printed the same."""
    import pickle
    import subprocess
    import sys

    from nanopass.api import run_pipeline

    trees = {}
    for path in sorted(EXAMPLES.glob("*.py")):
        for stage in run_pipeline(load_program(path)):
            trees[f"{path.stem}/{stage.name}"] = (stage.tree, unparse(stage.tree))
    data = tmp_path / "trees.pickle"
    data.write_bytes(pickle.dumps({key: tree for key, (tree, _) in trees.items()}))
    code = (
        "import pickle, sys\n"
        "import nanopass.language\n"
        "from nanopass.text import unparse\n"
        f"trees = pickle.loads(open({str(data)!r}, 'rb').read())\n"
        "print(len(trees))\n"
        "sys.stdout.write(''.join(f'{key}\\n{unparse(tree)}\\n' for key, tree in trees.items()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    count, rest = done.stdout.split("\n", 1)
    assert int(count) == len(trees) > 10 * 20
    assert rest == "".join(f"{key}\n{text}\n" for key, (_, text) in trees.items())
