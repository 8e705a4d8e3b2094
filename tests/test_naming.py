"""NameTable hands out the names a fresh search from suffix 0 would (issue 9: the search resumes)."""

from nanopass.passes.naming import GENERATED, RESERVED, USER_PREFIX, NameTable


def naive_reserve(taken: set, base: str, generated: bool = False, derived: tuple = ()) -> str:
    if not generated and GENERATED.match(base):
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


def test_remap_makes_one_node_per_renamed_spanless_var_and_binder(tmp_path, monkeypatch):
    """remap_output_aliases renames a Var or Binder without a span (a carry's init, a yield, an
    iter_arg, a loop's result) into one node per C++ name; made afresh at each place instead,
    the named tree and the C++ are the same."""
    from conftest import load_program

    from nanopass.api import result_from_stages, run_pipeline
    from nanopass.language import walk
    from nanopass.languages import NAMED
    from nanopass.passes.remap_output_aliases import RemapOutputAliases
    from nanopass.tools.bench import source_of

    path = tmp_path / "nested.py"
    path.write_text(source_of("nested", 8))  # y carried through every loop: ext_y everywhere
    shared = run_pipeline(load_program(path))
    spanless = [n for n in walk(shared["remap_output_aliases"].tree.orch)
                if n._production in ("Var", "Binder") and n.span is None and n.name == "ext_y"]
    assert len(spanless) > 20 and len({id(n) for n in spanless}) == 2  # one Var, one Binder

    monkeypatch.setattr(RemapOutputAliases, "spanless_var", lambda self, name: NAMED.Var.make(name))
    monkeypatch.setattr(RemapOutputAliases, "spanless_binder", lambda self, name, ty: NAMED.Binder.make(name, ty))
    fresh = run_pipeline(load_program(path))
    made = [n for n in walk(fresh["remap_output_aliases"].tree.orch)
            if n._production in ("Var", "Binder") and n.span is None and n.name == "ext_y"]
    assert len({id(n) for n in made}) == len(made) == len(spanless)
    assert fresh["remap_output_aliases"].tree == shared["remap_output_aliases"].tree
    assert result_from_stages(fresh).code == result_from_stages(shared).code


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


def test_remap_keeps_the_function_level_nodes_whose_names_stay(tmp_path, monkeypatch):
    """A TaskId source, a slot, a cell declaration or store whose names remap_output_aliases
    leaves as they are is its input node (the two languages share their classes); rebuilt
    instead, the named tree and the C++ are the same."""
    from conftest import load_program

    from nanopass.api import result_from_stages, run_pipeline
    from nanopass.languages import NAMED
    from nanopass.passes.remap_output_aliases import RemapOutputAliases
    from nanopass.tools.bench import source_of

    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 24))  # TaskId carries (prev__...) that keep their SSA names
    kept = run_pipeline(load_program(path))
    before = kept["hoist_scope_escapes"].tree.orch
    after = kept["remap_output_aliases"].tree.orch
    same_tids = [t for t in after.tids if any(t is u for u in before.tids)]
    renamed = {t.var for t in before.tids} - {t.var for t in after.tids}
    assert renamed and len(same_tids) == len(after.tids) - len(renamed) > 10
    slots_before = {id(s) for s in before.slots}
    assert any(id(s) in slots_before for s in after.slots)  # n: a scalar parameter keeps its name

    def rebuilt(production, fields):
        return lambda self, node: NAMED.nodes[production].make(
            *(self.names[getattr(node, f)] if f in fields else getattr(node, f) for f in node._fields), span=node.span)

    monkeypatch.setattr(RemapOutputAliases, "TidSource", rebuilt("TidSource", ("var", "storage")))
    monkeypatch.setattr(RemapOutputAliases, "TensorSlot", rebuilt("TensorSlot", ("param",)))
    monkeypatch.setattr(RemapOutputAliases, "ScalarSlot", rebuilt("ScalarSlot", ("param",)))
    monkeypatch.setattr(RemapOutputAliases, "CellDecl", rebuilt("CellDecl", ("cell",)))
    fresh = run_pipeline(load_program(path))
    fresh_after = fresh["remap_output_aliases"].tree.orch
    assert not any(t is u for t in fresh_after.tids for u in before.tids)
    assert fresh["remap_output_aliases"].tree == kept["remap_output_aliases"].tree
    assert result_from_stages(fresh).code == result_from_stages(kept).code


def test_remap_passes_shapes_and_offsets_on_unvisited_while_no_scalar_is_renamed(tmp_path, monkeypatch):
    """While no scalar is renamed, remap_output_aliases does not visit the shapes and offsets of
    creates and views (they read scalars only); with that shortcut forced off (every create and
    view rebuilt through its identity clause), the named tree and the C++ of every example, golden
    program and the straight and assembles shapes are the same."""
    from conftest import EXAMPLES, REPO, load_program

    from nanopass.api import result_from_stages, run_pipeline
    from nanopass.passes.remap_output_aliases import RemapOutputAliases
    from nanopass.rewrite import Pass
    from nanopass.tools.bench import source_of

    paths = sorted([*EXAMPLES.glob("*.py"), *(REPO / "tests" / "golden").glob("*.py")])
    for shape in ("straight", "assembles"):
        paths.append(tmp_path / f"{shape}.py")
        paths[-1].write_text(source_of(shape, 40))
    rebuilt: list[str] = []

    def counting_rebuild(self, node):
        if isinstance(self, RemapOutputAliases):
            rebuilt.append(node._production)
        return Pass.rebuild(self, node)

    monkeypatch.setattr(RemapOutputAliases, "rebuild", counting_rebuild)
    shortcut = [run_pipeline(load_program(path)) for path in paths]
    taken = len([p for p in rebuilt if p in ("SliceTensor", "ReshapeTensor", "Create")])
    for production in ("SliceTensor", "ReshapeTensor", "Create"):
        monkeypatch.setattr(RemapOutputAliases, production, lambda self, node: self.rebuild(node))
    rebuilt.clear()
    plain = [run_pipeline(load_program(path)) for path in paths]
    forced = len([p for p in rebuilt if p in ("SliceTensor", "ReshapeTensor", "Create")])
    assert forced - taken >= 80, (taken, forced)  # at least the 40 creates of straight and the 40 views of assembles
    for path, short, full in zip(paths, shortcut, plain):
        assert short["remap_output_aliases"].tree == full["remap_output_aliases"].tree, path.name
        assert result_from_stages(short).code == result_from_stages(full).code, path.name
