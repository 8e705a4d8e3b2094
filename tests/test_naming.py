"""NameTable hands out the names a fresh search from suffix 0 would (issue 9: the search resumes)."""

from nanopass.passes.naming import GENERATED, RESERVED, USER_PREFIX, NameTable


def naive_reserve(taken: set, base: str, generated: bool = False, derived: tuple = ()) -> str:
    if not generated and (GENERATED.match(base) or ((base in taken or base in RESERVED) and GENERATED.match(base + "_1"))):
        base = USER_PREFIX + base

    def fits(name):
        return (
            name not in taken
            and name not in RESERVED
            and (generated or not GENERATED.match(name))
            and all(name + d not in taken and name + d not in RESERVED for d in derived)
        )

    k, candidate = 0, base
    while not fits(candidate):
        k += 1
        candidate = f"{base}_{k}"
    taken.add(candidate)
    taken.update(candidate + d for d in derived)
    return candidate


def test_reserve_matches_a_search_from_the_start():
    requests = [
        ("slot", False, ()),
        ("slot", False, ()),
        ("x", False, ("_ci",)),
        ("x", False, ()),
        ("x", False, ("_ci",)),
        ("slot", True, ()),
        ("params_t0", True, ()),
        ("int", False, ()),
        ("x_ci", False, ()),
        ("ext_a", False, ()),
        ("params_t0", False, ()),
        ("indices_x", False, ("_ci",)),
        ("x", False, ("_ci",)),
    ] + [("slot", False, ())] * 5 + [("acc_last", False, ())] * 5
    requests += [("y", False, ("_ci",)), ("y", False, ())]  # y_ci is taken: the first gets y_1, the second y
    table, taken = NameTable(["x_2", "slot_3", "y_ci"]), {"x_2", "slot_3", "y_ci"}
    for base, generated, derived in requests:
        got = table.reserve(base, generated=generated, derived=derived)
        assert got == naive_reserve(taken, base, generated, derived), (base, generated, derived)
    table.claim("acc_last_5")
    taken.add("acc_last_5")
    assert table.reserve("acc_last") == naive_reserve(taken, "acc_last")



def test_take_hands_out_what_reserve_would_when_that_is_the_name_itself():
    """take(name, derived) claims name and its derived names exactly when reserve(name, derived)
    would return name unchanged, and otherwise claims nothing (remap_output_aliases tries take
    first and falls back to reserve)."""
    requests = [
        ("slot", ()),
        ("slot", ()),  # taken by the first
        ("x", ("_ci", "_ci_shapes")),
        ("x", ()),  # taken with its derived names
        ("y", ("_ci",)),  # y_ci is taken
        ("y", ()),
        ("int", ()),  # a C++ keyword
        ("ext_a", ()),  # shaped like a generated name: reserve prefixes it
        ("x_ci", ()),  # derived from x, so taken
        ("slot_1", ()),
        ("slot", ()),  # slot and slot_1 taken: reserve searches on
    ]
    taking, reserving = NameTable(["y_ci"]), NameTable(["y_ci"])
    for name, derived in requests:
        before = set(taking.taken)
        expected = reserving.reserve(name, derived=derived)
        took = taking.take(name, derived)
        assert took == (expected == name), (name, derived)
        if took:
            assert taking.taken == before | {name, *(name + d for d in derived)}
        else:
            assert taking.taken == before
            taking.reserve(name, derived=derived)  # as the pass does: the tables stay alike
        assert taking.taken == reserving.taken, (name, derived)


SINGLE_DEFINITIONS = '''\
import nanopass.dsl as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], s: pl.Scalar[pl.INT64], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        new = pl.create_tensor([16, 16], dtype=pl.FP32)
        for j in pl.range(2):
            y = self.k(new, j, y)
        for i in pl.range(2):
            y = self.k(x, i, y)
        for i in pl.range(3):
            y = self.k(x, i, y)
        return y
'''


def test_a_name_defined_once_keeps_it_in_ssa_and_cpp(tmp_path):
    from conftest import compile_check, load_program

    import nanopass
    from nanopass.language import walk

    path = tmp_path / "once.py"
    path.write_text(SINGLE_DEFINITIONS)
    result = nanopass.generate_orchestration(load_program(path))
    ssa = next(s.tree for s in result.stages if s.name == "convert_to_ssa")
    binders = [n.name for n in walk(ssa.orch) if n._production == "Binder"]
    assert "j" in binders and "new" in binders  # defined once: unversioned
    assert {"i__idx_v0", "i__idx_v1"} <= set(binders) and "i" not in binders  # twice: versions
    # a parameter assigned again: versions, from 1 (the parameter is version 0); a loop's results
    # are numbered before its body, as the reference numbers them
    assert {"y__iter_v1", "y__rv_v2", "y__ssa_v3"} <= set(binders) and "y" not in binders
    # C++: a name the C++ cannot take (a keyword) gets the first free suffix of its IR name
    assert "const Tensor& new_1 = " in result.code and "for (int64_t j = 0;" in result.code
    assert "for (int64_t i = 0;" in result.code and "for (int64_t i__idx_v1 = 0;" in result.code
    compile_check(result.code, tmp_path)


def test_remap_writes_the_identifiers_into_the_map_and_keeps_every_node_it_does_not_change(tmp_path):
    """remap_output_aliases names by a map on the function, not by a rename of the tree: every
    version of y (carried through every loop) has the identifier ext_y and x has ext_x, a name that
    is its own identifier (n, the loop variables) is not in the map, and the nodes the named
    language shares with hoisted (parameters, slots, the whole body) are the input's; the C++
    spells the identifiers."""
    from conftest import bench_file, compiled_stages

    from nanopass.api import result_from_stages
    from nanopass.languages.statements import iter_stmts

    stages = compiled_stages(bench_file(tmp_path, "nested", 8))
    before = stages["hoist_scope_escapes"].tree.orch
    after = stages["remap_output_aliases"].tree.orch
    cpp = dict(zip(after.renamed, after.identifiers))
    assert len(after.renamed) == len(cpp)  # (one entry per name)
    assert not after.scalars_renamed  # (no data scalar has another identifier: the loop variables keep theirs)
    assert cpp["x"] == "ext_x" and cpp["y"] == "ext_y" and "n" not in cpp
    versions = {n for n in cpp if n.startswith("y__")}
    assert len(versions) > 20 and {cpp[n] for n in versions} == {"ext_y"}
    assert all(var != ident for var, ident in cpp.items())
    assert after.params is before.params and after.slots is before.slots
    assert after.body is before.body  # (every statement the input's)
    assert any(s._production == "Task" for s in iter_stmts(after.body))
    code = result_from_stages(stages).code
    assert "ext_y" in code and "y__" not in code


def test_take_first_hands_out_what_take_and_reserve_do_in_turn():
    """take_first(preferred, fallback, derived) gives the name, and leaves the table, that the
    steps remap_output_aliases took one by one give: take(preferred); reserve(preferred) when it
    is free but shaped like a generated name; take(fallback); reserve(fallback)."""
    requests = [
        ("acc", "acc__ssa_v0", ()),
        ("acc", "acc__ssa_v1", ()),  # acc taken: the SSA name
        ("acc", "acc__ssa_v1", ()),  # both taken: reserve's suffix
        ("x", "x__ssa_v0", ("_ci", "_ci_shapes")),
        ("y", "y__ssa_v0", ("_ci",)),  # y_ci is taken: the SSA name
        ("ext_a", "ext_a__ssa_v0", ()),  # shaped like a generated name: user_ext_a
        ("ext_a", "ext_a__ssa_v1", ()),  # ext_a still free, user_ext_a taken: user_ext_a_1
        ("int", "int__ssa_v0", ()),  # a C++ keyword
        (None, "_", ()),  # no user name: the fallback as is
        (None, "_", ()),
        ("params_t0", "ext_b", ()),  # both shaped like generated names
        ("z", "z__ssa_v0", ("_shapes", "_offsets")),
        ("z_shapes", "z_shapes__ssa_v0", ()),  # derived from z, so taken
    ]
    fast, steps = NameTable(["y_ci"]), NameTable(["y_ci"])
    for preferred, fallback, derived in requests:
        if preferred is not None and steps.take(preferred, derived):
            expected = preferred
        elif preferred is not None and steps.free(preferred) and steps.derived_free(preferred, derived):
            expected = steps.reserve(preferred, derived=derived)
        elif steps.take(fallback, derived):
            expected = fallback
        else:
            expected = steps.reserve(fallback, derived=derived)
        assert fast.take_first(preferred, fallback, derived) == expected, (preferred, fallback, derived)
        assert fast.taken == steps.taken, (preferred, fallback, derived)
        assert fast.next_suffix == steps.next_suffix, (preferred, fallback, derived)


def test_scalars_renamed_says_whether_a_data_scalar_has_another_identifier(tmp_path):
    """remap_output_aliases sets ``scalars_renamed`` exactly when a data scalar (a ScalarType
    other than TASK_ID) is in the map, on every example, golden program and bench shape."""
    from conftest import EXAMPLES_AND_GOLDEN, pass_runs, sample_paths

    from nanopass.languages.terms import DType
    from nanopass.passes.types import type_env

    seen = {True: 0, False: 0}
    for path in [*EXAMPLES_AND_GOLDEN, *sample_paths(tmp_path, ("straight", "nested", "mixed", "scopes", "branches"), 12)]:
        ((given, named),) = pass_runs(path, "remap_output_aliases", refusals=False)
        types = type_env(given.orch)
        func = named.orch
        renamed = False
        for var in func.renamed:
            ty = types.get(var)  # (None: a cell, a TaskId storage)
            renamed |= ty is not None and ty._production == "ScalarType" and ty.dtype is not DType.TASK_ID
        assert func.scalars_renamed == renamed, path.name
        seen[renamed] += 1
    assert seen[True] and seen[False]
