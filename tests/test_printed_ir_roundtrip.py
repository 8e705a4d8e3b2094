"""The printed form beyond the samples: the project's own ``surface`` and ``ssa`` trees of random
programs, printed as the existing compiler prints its IR (``nanopass.tools.printed_text``), read
back by ``nanopass.printed_ir`` to the same trees. The programs are those of the control-flow
generator (carries, phis, hand-placed scopes) and of the semantic one (``pl.submit`` with
``deps=``, several results, ``pl.no_dep``, manual scopes, views, host reads and writes, arrays)."""

from __future__ import annotations

import re

from conftest import REPO, fuzz_budget, load_program
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from program_gen import control_flow_programs

from nanopass.passes.convert_printed_ssa import ConvertPrintedSsa
from nanopass.passes.convert_to_ssa import ConvertToSsa
from nanopass.printed_ir import compile_text, load_printed_text
from nanopass.rewrite import PassContext
from nanopass.text import unparse
from nanopass.tools.gen_programs import programs
from nanopass.tools.printed_text import print_printed

PROPERTY = settings(max_examples=fuzz_budget(60), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SOURCES = st.one_of(
    control_flow_programs(),
    programs(manual=False).map(lambda p: p.render()),
    programs(manual=True).map(lambda p: p.render()),
)

# The one thing the printed form cannot say: it annotates every assignment, and an integer literal
# takes the annotation's dtype (x: pl.Scalar[pl.INT64] = 1), where the DSL's re-assignment
# x = 1 of an INT64 variable keeps the literal INDEX. C++ converts either the same way.
_LITERAL_LET = re.compile(r"\(Let \(Binder (\S+) \(ScalarType (\w+)\)\) \(Int (-?\d+) \w+\)\)")


def same_up_to_literal_dtypes(tree) -> str:
    return _LITERAL_LET.sub(r"(Let (Binder \1 (ScalarType \2)) (Int \3 \2))", unparse(tree))


def read_surface(text: str, filename: str):
    [program] = load_printed_text(text, filename)
    return program.surface()


@PROPERTY
@given(SOURCES)
def test_a_printed_surface_tree_reads_back_to_the_same_tree(source):
    tree = read_surface(source, "generated.py")
    printed = print_printed(tree)
    assert "level=pl.Level" in printed and "pl.MemRef(" in printed
    assert same_up_to_literal_dtypes(read_surface(printed, "printed.py")) == same_up_to_literal_dtypes(tree)


@PROPERTY
@given(SOURCES)
def test_a_printed_ssa_tree_reads_back_to_the_same_tree(source):
    ssa = ConvertToSsa(PassContext()).run(read_surface(source, "generated.py"))
    printed = print_printed(ssa)  # an array store into the next version: pl.array.update_element
    ctx = PassContext()
    again = ConvertPrintedSsa(ctx).run(read_surface(printed, "printed.py"))
    assert ctx.notes == []  # taken as it is, not derived again
    assert same_up_to_literal_dtypes(again) == same_up_to_literal_dtypes(ssa)


def test_a_printed_ssa_program_compiles_to_the_cpp_of_its_source(example):
    """manual_phases: a pl.submit with deps=, its TaskId carried through nested loops as an
    array, printed after convert_to_ssa and compiled again."""
    import nanopass

    program = example("manual_phases")
    original = nanopass.generate_orchestration(program)
    printed = print_printed(original.stages["convert_to_ssa"].tree)
    assert "pl.Tuple[" in printed and "pl.yield_(" in printed and "pl.system.task_invalid()" in printed
    assert compile_text(printed).code == original.code


VIEWS = """\
import nanopass.dsl as pl


@pl.program
class Views:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(src, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], dst)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        shared = pl.create_tensor([32, 16], dtype=pl.FP32, manual_dep=True)
        top = pl.tensor.slice(shared, [16, 16], [0, 0])
        top = self.fill(a, top)
        out = self.fill(top, out)
        return out
"""


def test_ssa_array_stores_and_untracked_views_print_and_compile_to_the_same_cpp(tmp_path):
    """An ssa array store binds the array's next version (printed as pl.array.update_element), and
    a view of a manual_dep buffer is untracked after decide_view_tracking (the flag is derived again
    from the program read back): both print, and compile to the C++ of the source."""
    import nanopass
    from nanopass.api import run_pipeline
    from nanopass.language import walk

    arrays = load_program(REPO / "tests" / "semantics" / "manual_arrays.py")
    original = nanopass.generate_orchestration(arrays)
    printed = print_printed(original.stages["convert_to_ssa"].tree)
    assert "pl.array.update_element(" in printed
    assert compile_text(printed).code == original.code
    source = tmp_path / "views.py"
    source.write_text(VIEWS)
    views = load_program(source)
    stages = run_pipeline(views, stop_after="decide_view_tracking")
    assert any(n._production == "SliceTensor" and n.manual_dep for n in walk(stages[-1].tree))  # untracked
    assert compile_text(print_printed(stages[-1].tree)).code == nanopass.generate_orchestration(views).code


def test_a_placed_slice_is_printed_and_read_back_placed():
    """fuse_create_assemble_to_slice marks the slice that places an assemble's source in its
    target ``placed`` (order_write_after_read orders the pairs the placement makes in a manual
    scope): a stage after it, printed and read back, still has the mark and compiles to the same
    C++, the placement's edge included."""
    import nanopass

    program = load_program(REPO / "tests" / "found" / "class5_assemble_source_placed_over_rows_a_manual_task_reads.py")
    original = nanopass.generate_orchestration(program)
    fused = original.stages["fuse_create_assemble_to_slice"].tree
    printed = print_printed(fused)
    assert "pl.tensor.slice(a, [4, 4], [0, 0], placed=True)" in printed
    again = ConvertPrintedSsa(PassContext()).run(read_surface(printed, "printed.py"))
    assert same_up_to_literal_dtypes(again) == same_up_to_literal_dtypes(fused)
    assert compile_text(printed).code == original.code


def test_placed_is_no_keyword_of_a_program_as_written(tmp_path):
    import pytest

    import nanopass

    source = (REPO / "tests" / "found" / "class5_assemble_source_placed_over_rows_a_manual_task_reads.py").read_text()
    path = tmp_path / "placed.py"
    path.write_text(source.replace("s = pl.tensor.slice(a, [4, 4], [0, 0])", "s = pl.tensor.slice(a, [4, 4], [0, 0], placed=True)"))
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(load_program(path))
    assert "has no keyword argument 'placed' in a program" in caught.value.message and caught.value.span.line == 25
