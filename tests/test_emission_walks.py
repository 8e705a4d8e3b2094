"""lower_to_emission's one walk of the names the C++ reads and the names the statements bind, and
the name table's one-step reservation of a generated name: the faster forms give what the plain
ones give."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, GOLDEN, bench_file, cpp_of, load_program, pass_input, run_both_ways, sample_paths

from nanopass.languages import ENCODED
from nanopass.languages.statements import defined_binders, iter_stmts
from nanopass.passes.kernels import output_params
from nanopass.passes.lower_to_emission import READ_FIELDS, LowerToEmission
from nanopass.passes.naming import NameTable
from nanopass.rewrite import PassContext

PROGRAMS = EXAMPLES_AND_GOLDEN
SHAPES = ["straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles"]


def plain_used_names(body, none_seeds, cpp) -> set[str]:
    """The names ``survey`` reads, as its contract says them, through READ_FIELDS alone: every Var under a read
    field of a statement but a Return or a let that names one storage again, and no None seed read as a
    carry's init; as C++ identifiers (``cpp``, the function's map)."""
    used: set[str] = set()

    def read(node) -> None:
        if node._production == "Var":
            used.add(cpp.get(node.name, node.name))
            return
        if node._production == "IterArg" and node.init._production == "Var" and cpp.get(node.init.name, node.init.name) in none_seeds:
            return
        for name, many in READ_FIELDS[type(node)]:
            value = getattr(node, name)
            for item in value if many else () if value is None else (value,):
                read(item)

    for stmt in iter_stmts(body):
        if stmt._production == "Let" and stmt.value._production == "Var" and cpp.get(stmt.value.name, stmt.value.name) == cpp.get(stmt.var.name, stmt.var.name):
            continue  # (its two names are one identifier: it emits nothing)
        if stmt._production != "Return":
            read(stmt)
    return used


def encoded_programs():
    """(name, encoded program: lower_to_emission's input) of every example and golden program."""
    for path in PROGRAMS:
        yield path.stem, pass_input(path, "lower_to_emission")


def bench_programs(tmp_path: Path):
    """(shape, encoded program) of each bench shape (N = 40)."""
    for path in sample_paths(tmp_path, SHAPES, 40):
        yield path.stem, pass_input(path, "lower_to_emission")


def programs_and_shapes(tmp_path: Path) -> list[Path]:
    """Every example and golden program, and a file of each bench shape (N = 40) in ``tmp_path``."""
    return [*PROGRAMS, *sample_paths(tmp_path, SHAPES, 40)]


def test_survey_reads_what_every_read_field_holds_and_binds_what_the_statements_define(tmp_path):
    seen = cells = renamed = 0
    for name, program in [*encoded_programs(), *bench_programs(tmp_path)]:
        lowering = LowerToEmission(PassContext(options={}))
        func = program.orch
        lowering.prepare(program)
        cpp = lowering.cpp
        used, bound = lowering.survey(func.body)
        assert used == plain_used_names(func.body, lowering.none_seeds, cpp), name
        declared = [s.cell for s in iter_stmts(func.body) if s._production == "CellDecl"]
        expected = [b.name for s in iter_stmts(func.body) for b in defined_binders(s)] + declared
        assert sorted(bound) == sorted(cpp.get(n, n) for n in expected), name
        seen += 1
        cells += bool(declared)
        renamed += bool(cpp)
    assert seen > len(SHAPES) and cells and renamed  # (cells are declared in some; most have a map)


def asked_names(program, body) -> set[str]:
    """The names lower_to_emission asks ``used`` about: the parameters, and the lets, dummies,
    TaskIds and runtime-allocated outputs (those whose parameter the call omits) the statements
    define."""
    asked = {s.param for s in program.orch.slots}
    kernels = {k.name: k for k in program.kernels}
    for stmt in iter_stmts(body):
        if stmt._production in ("Let", "Dummy"):
            asked.add(stmt.var.name)
        elif stmt._production == "Task":
            params = output_params(kernels[stmt.kernel])
            asked.update(o.name for o, p in zip(stmt.outs, params) if p is not None and p >= len(stmt.args))
            if stmt.tid is not None:
                asked.add(stmt.tid.name)
    return asked


def test_survey_told_the_parameters_reads_every_name_the_lowering_asks_about(tmp_path):
    """With ``asked``, survey may leave operations unread, but never a read of a name the
    lowering asks about; on the nested shape (loop variables read in scalar arguments only) it
    leaves them unread."""
    skipped = []
    for name, program in [*encoded_programs(), *bench_programs(tmp_path)]:
        func = program.orch
        lowering = LowerToEmission(PassContext(options={}))
        lowering.prepare(program)
        full, bound = lowering.survey(func.body)
        assert lowering.operations_unread == 0, name
        used, bound_asked = lowering.survey(func.body, {s.param for s in func.slots})
        asked = {lowering.cn(n) for n in asked_names(program, func.body)}
        assert used <= full and used & asked == full & asked, name
        assert bound_asked == bound, name
        if lowering.operations_unread:
            skipped.append(name)
    assert "nested" in skipped


def test_the_cpp_is_the_same_when_survey_reads_every_operation(tmp_path):
    """The shortcut forced off (survey reads every name), the C++ of every example, golden program
    and bench shape is the same."""
    paths = programs_and_shapes(tmp_path)
    survey = LowerToEmission.survey
    shortcut, forced_off = run_both_ways(cpp_of, paths, [(LowerToEmission, "survey", lambda self, body, asked=None: survey(self, body))])
    for path, fast, full in zip(paths, shortcut, forced_off):
        assert full == fast, path.name


@pytest.mark.parametrize(
    "production, fields",
    [
        ("Task", (("args", True), ("deps", True), ("launch", False))),
        ("Arg", (("value", False),)),
        ("For", (("start", False), ("stop", False), ("step", False), ("iters", True))),
        ("Yield", (("values", True),)),
        ("IterArg", (("init", False),)),
        ("Bin", (("a", False), ("b", False))),
        ("DepEdge", (("tid", False), ("index", False))),
        ("Int", ()),
    ],
)
def test_the_nodes_survey_takes_apart_inline_read_no_other_field(production, fields):
    """survey reads these fields of these classes without READ_FIELDS: a field the grammar
    adds to one of them must be added there too."""
    assert READ_FIELDS[ENCODED.nodes[production]] == fields


def test_reserve_generated_hands_out_what_reserve_does():
    asked = ["params_t0", "params_t0", "slot", "slot", "slot", "int", "x", "task_0_outs", "x_1", "x"]
    fast, plain = NameTable(["x", "slot_1"]), NameTable(["x", "slot_1"])
    got = [fast.reserve_generated(base) for base in asked]
    assert got == [plain.reserve(base, generated=True) for base in asked]
    assert got == ["params_t0", "params_t0_1", "slot", "slot_2", "slot_3", "int_1", "x_1", "task_0_outs", "x_1_1", "x_2"]
    assert fast.taken == plain.taken


def test_carry_arrays_are_found_only_when_a_declare_asks(tmp_path, monkeypatch):
    """lower_to_emission looks for TaskId array carries (a walk of the body) only when it lowers a
    Declare, the one statement that asks; made at once for every program instead, the C++ is the
    same."""
    import nanopass
    from nanopass.passes import lower_to_emission
    from nanopass.passes.util import carry_arrays

    calls = []
    monkeypatch.setattr(lower_to_emission, "carry_arrays", lambda func: calls.append(func) or carry_arrays(func))
    nested = bench_file(tmp_path, "nested", 40)  # no Declare
    nanopass.generate_orchestration(load_program(nested))
    assert calls == []
    declaring = GOLDEN / "array_carry_across_scope.py"  # a TaskId array declared ahead
    lazy = nanopass.generate_orchestration(load_program(declaring)).code
    assert len(calls) == 1 and "PTO2TaskId" in lazy

    paths = [nested, *PROGRAMS]

    def eager(self, name):
        return carry_arrays(self.func).get(name)

    lazily, eagerly = run_both_ways(cpp_of, paths, [(LowerToEmission, "carry_array_size", eager)])
    for path, lazy, eager_code in zip(paths, lazily, eagerly):
        assert eager_code == lazy, path.name


def test_scalar_expressions_pass_on_as_they_are_while_no_data_scalar_is_renamed(tmp_path, monkeypatch):
    """While the map renames no data scalar (``scalar_names`` empty), lower_to_emission hands a
    task's scalar arguments and the shapes, offsets and fill values of creates and views to the
    emission as they are; with that shortcut forced off (each of them spelled through the map),
    the C++ of every example, golden program and bench shape is the same, and the shortcut is
    taken on most of them."""
    paths = programs_and_shapes(tmp_path)
    taken = []
    take_names = LowerToEmission.take_names

    def counting(self, func):
        take_names(self, func)
        taken.append(not self.scalars_renamed)

    def forced_off(self, func):
        take_names(self, func)
        self.scalars_renamed = True

    monkeypatch.setattr(LowerToEmission, "take_names", counting)
    shortcut, full = run_both_ways(cpp_of, paths, [(LowerToEmission, "take_names", forced_off)])
    assert sum(taken) > len(paths) // 2 and not all(taken), taken
    for path, fast, forced in zip(paths, shortcut, full):
        assert forced == fast, path.name
