"""The metadata a runtime build needs (reference-behaviour.md 14.1, reference-surface.md section 4)
and programs with several orchestration functions (reference-surface.md section 7): on the
library's result, in ``nanopass run --metadata FILE``, in ``--dump-all``."""

from __future__ import annotations

import json

from conftest import EXAMPLES, REPO, compile_check, load_program, run_cli

import nanopass

BASIC = (EXAMPLES / "basic.py").read_text()


def test_the_result_carries_the_references_metadata_under_its_names(example):
    result = nanopass.generate_orchestration(example("runtime_outputs"))
    assert result.func_name_to_id == {"produce": 0, "combine": 1} == result.kernel_ids
    assert result.func_name_to_core_type == {"produce": "VECTOR", "combine": "VECTOR"}
    # the first dispatch's directions: produce's output is allocated by the runtime (OUT); the
    # NoDep lut counts as INOUT, as the reference lists it
    assert result.func_name_to_signature == {"produce": ["IN", "OUT"], "combine": ["IN", "INOUT", "INOUT"]}
    assert result.orchestration_signature == ["IN", "IN", "OUT"] and result.expected_arg_count == 3
    assert result.metadata() == {
        "file": "orchestration/orch_outputs.cpp",
        "func_name_to_id": {"produce": 0, "combine": 1},
        "func_name_to_core_type": {"produce": "VECTOR", "combine": "VECTOR"},
        "func_name_to_signature": {"produce": ["IN", "OUT"], "combine": ["IN", "INOUT", "INOUT"]},
        "orchestration_signature": ["IN", "IN", "OUT"],
        "expected_arg_count": 3,
    }
    assert result.core_types == {"combine": "AIV", "produce": "AIV"}  # the earlier name, kept


def test_group_members_share_the_group_tasks_signature_and_cores_are_vector_or_cube(example):
    result = nanopass.generate_orchestration(example("group_mixed"))
    assert result.func_name_to_id == {"qk_matmul": 0, "softmax": 1, "pv_matmul": 2, "rescale": 3}
    assert result.func_name_to_core_type == {"qk_matmul": "CUBE", "softmax": "VECTOR", "pv_matmul": "CUBE", "rescale": "VECTOR"}
    assert result.func_name_to_signature["qk_matmul"] == result.func_name_to_signature["softmax"] == ["IN", "IN", "OUT", "OUT"]
    assert "attention_block" not in result.func_name_to_id  # a Group launches its members' ids


def test_a_signature_is_the_first_dispatchs_directions(example):
    # kernel_axpy's acc is InOut; loop_scalar's kernel_copy writes y first in each branch (OUT)
    result = nanopass.generate_orchestration(example("loop_scalar"))
    assert result.func_name_to_signature == {"kernel_axpy": ["IN", "INOUT"], "kernel_copy": ["IN", "OUT"]}
    assert result.orchestration_signature == ["IN", "INOUT", "OUT"] and result.expected_arg_count == 5


def two_functions(tmp_path, first: str = "zeta", second: str = "alpha"):
    """basic.py with its orchestration function twice, as ``first`` then ``second`` (source order)."""
    at = BASIC.index("    @pl.function(type=pl.FunctionType.Orchestration)")
    other = BASIC[at:].replace("def orch_basic", f"def {second}").replace("d = self.kernel_add(c, b, d)", "d = self.kernel_add(b, c, d)")
    path = tmp_path / "two.py"
    path.write_text(BASIC.replace("def orch_basic", f"def {first}") + "\n" + other)
    return path


def test_the_library_compiles_every_orchestration_function(tmp_path):
    result = nanopass.generate_orchestration(load_program(two_functions(tmp_path)), abi="l2")
    assert result.func_name == "alpha"  # the first by name, as the reference (zeta comes first in the file)
    assert sorted(result.functions) == ["alpha", "zeta"] and result.functions["alpha"] is result
    assert sorted(result.files) == ["orchestration/alpha.cpp", "orchestration/zeta.cpp"]
    assert "params_t1.add_input(ext_b);\n        params_t1.add_input(c);" in result.files["orchestration/alpha.cpp"]
    assert "params_t1.add_input(c);\n        params_t1.add_input(ext_b);" in result.files["orchestration/zeta.cpp"]
    for name, code in result.files.items():
        compile_check(code, tmp_path, name.replace("orchestration/", ""))
    only = nanopass.generate_orchestration(load_program(two_functions(tmp_path)), "zeta")
    assert only.func_name == "zeta" and list(only.functions) == ["zeta"] and list(only.files) == ["orchestration/zeta.cpp"]


def test_run_writes_a_file_and_lists_the_metadata_of_each_function(tmp_path):
    path = two_functions(tmp_path)
    out, meta = tmp_path / "out", tmp_path / "meta.json"
    result = run_cli("run", str(path), "--abi", "l2", "-o", str(out), "--metadata", str(meta))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"wrote {out}/orchestration/alpha.cpp", f"wrote {out}/orchestration/zeta.cpp", f"wrote {meta}",
    ]
    library = nanopass.generate_orchestration(load_program(path), abi="l2")
    for name in ("alpha", "zeta"):
        assert (out / "orchestration" / f"{name}.cpp").read_text() == library.files[f"orchestration/{name}.cpp"]
    document = json.loads(meta.read_text())
    assert document == {
        "program": "Basic",
        "abi": "l2",
        "functions": {
            name: {
                "file": f"orchestration/{name}.cpp",
                "func_name_to_id": {"kernel_add": 0},
                "func_name_to_core_type": {"kernel_add": "VECTOR"},
                "func_name_to_signature": {"kernel_add": ["IN", "IN", "OUT"]},
                "orchestration_signature": ["IN", "IN", "OUT"],
                "expected_arg_count": 3,
            }
            for name in ("alpha", "zeta")
        },
    }
    picked = run_cli("run", str(path), "--func", "zeta", "--metadata", str(meta), "-q")
    assert picked.returncode == 0 and picked.stdout.startswith("// Orchestration Function: zeta\n") and list(json.loads(meta.read_text())["functions"]) == ["zeta"]


def test_without_o_stdout_gets_the_first_function_by_name_and_a_note_names_the_others(tmp_path):
    path = two_functions(tmp_path)
    result = run_cli("run", str(path))
    assert result.returncode == 0
    assert result.stdout == nanopass.generate_orchestration(load_program(path), "alpha").code
    assert "printed alpha, the first by name (also compiled: zeta;" in result.stderr
    assert run_cli("run", str(path), "-q").stderr == ""
    # a mistake in any of them stops the run, located in it
    broken = path.read_text().replace("d = self.kernel_add(b, c, d)", "d = self.kernel_add(b, c)")
    path.write_text(broken)
    assert run_cli("run", str(path), "--func", "zeta", "-q").returncode == 0  # zeta alone is fine
    failed = run_cli("run", str(path))
    line = broken.splitlines().index("        d = self.kernel_add(b, c)") + 1
    assert failed.returncode == 1 and failed.stderr.startswith(f"{path}:{line}:")


def test_dump_all_writes_the_metadata_too(tmp_path):
    dump = tmp_path / "dump"
    assert run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(dump), "-q").returncode == 0
    document = json.loads((dump / "metadata.json").read_text())
    assert document["functions"]["orch_basic"]["func_name_to_signature"] == {"kernel_add": ["IN", "IN", "OUT"]}
    assert "metadata.json" in (dump / ".nanopass-dump").read_text().split()


def test_a_surface_tree_is_its_one_function():
    from nanopass.api import orchestration_functions

    program = load_program(REPO / "examples" / "basic.py")
    tree = program.surface()
    assert orchestration_functions(tree) == ["orch_basic"] == orchestration_functions(program)
    result = nanopass.generate_orchestration(tree)
    assert list(result.functions) == ["orch_basic"] and result.func_name_to_id == {"kernel_add": 0}


def test_dump_all_of_several_functions_says_which_it_dumped_and_how_to_pick_another(tmp_path):
    path = two_functions(tmp_path)
    dump = tmp_path / "dump"
    result = run_cli("run", str(path), "--dump-all", str(dump))
    assert result.returncode == 0, result.stderr
    said = "--dump-all shows 'alpha', the first by name of the 2 orchestration functions (also: zeta)"
    assert said in result.stderr and "--func NAME" in result.stderr
    page = (dump / "index.html").read_text()
    assert "alpha" in page and "zeta" in page and "--func NAME" in page
    picked = run_cli("run", str(path), "--dump-all", str(tmp_path / "zeta"), "--func", "zeta")
    assert picked.returncode == 0 and "--func NAME" not in picked.stderr
    assert "nanopass report: Basic.zeta" in (tmp_path / "zeta" / "index.html").read_text()
