"""The storage passes' shortcuts change nothing: the readers that count a statement's names
without a walk (``assembled_rows.stmt_reads``, ``value_reads``) count what ``var_reads`` counts,
and ``storage_map``'s loop shortcuts (a loop without tensor carries walked once, a loop none of
whose carries yields a carry taking its yielded values' places) give the map the full
iteration gives, on every example and golden program, the benchmark's shapes and programs of
the adversarial tester's and the dependency fuzzer's generators."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, GOLDEN, pass_inputs, run_both_ways
from nanopass.passes import hazards
from nanopass.passes.assembled_rows import stmt_reads, value_reads
from nanopass.passes.kernels import kernel_table
from nanopass.passes.util import BODY_FIELDS, iter_stmts, var_reads
from nanopass.tools.attack import generate as attack_generate, program as attack_program, rows
from nanopass.tools.bench import source_of
from nanopass.tools.gen_programs import RandomChooser, generate as fuzz_generate

FUSE = "fuse_create_assemble_to_slice"


def sources() -> list[tuple[str, str]]:
    out = [(p.stem, p.read_text()) for p in sorted(EXAMPLES.glob("*.py")) + sorted(GOLDEN.glob("*.py"))]
    out += [(f"{shape}12", source_of(shape, 12)) for shape in ("straight", "nested", "mixed", "assembles", "reuses", "scopes")]
    out += [(f"attack{seed}", attack_program.render(attack_generate.generate(seed, 40)).source) for seed in range(8)]
    out += [(f"fuzz{seed}", fuzz_generate(RandomChooser(seed), seed % 2 == 1, 9).render()) for seed in range(8)]
    made = 0
    for i, prog in enumerate(rows.programs(3)):
        source = attack_program.render(prog).source
        if "assemble" in source and i % 3 == 0:
            out.append((f"rows3-{i}", source))
            made += 1
            if made == 12:
                break
    return out


SOURCES = sources()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Each source in a file of one folder, kept for the module (its compiles kept too)."""
    folder = tmp_path_factory.mktemp("storage_sources")
    for name, source in SOURCES:
        (folder / f"{name}.py").write_text(source)
    return folder


def inputs(written, name: str) -> list:
    """The fuse pass's input for each program in the source ``name`` that compiles that far."""
    return pass_inputs(written / f"{name}.py", FUSE)


@pytest.mark.parametrize("name,source", SOURCES, ids=[n for n, _ in SOURCES])
def test_the_readers_without_a_walk_count_what_var_reads_counts(written, name, source):
    for program in inputs(written, name):
        for stmt in iter_stmts(program.orch.body):
            if stmt._production in BODY_FIELDS:
                continue
            assert stmt_reads(stmt) == var_reads(stmt), stmt
            if stmt._production == "Let":
                assert value_reads(stmt.value) == var_reads(stmt.value), stmt


@pytest.mark.parametrize("name,source", SOURCES, ids=[n for n, _ in SOURCES])
def test_the_storage_loop_shortcuts_change_no_place(written, name, source):
    for program in inputs(written, name):
        taken, full = run_both_ways(lambda p: hazards._storage_map(p.orch, kernel_table(p)), program,
                                    [(hazards, "LOOP_SHORTCUTS", False)])
        assert taken == full


def test_the_corpus_takes_both_loop_shortcuts(written):
    # a loop without tensor carries; a loop of constant bounds whose tensor carries yield no carry
    uncarried = carried = 0
    for name, _ in SOURCES:
        for program in inputs(written, name):
            for stmt in iter_stmts(program.orch.body):
                if stmt._production not in ("For", "While"):
                    continue
                tensors = [it for it in stmt.iters if it.var.type._production == "TensorType"]
                uncarried += not tensors
                carried += bool(tensors) and (hazards.trip_count(stmt) or 0) > 1
    assert uncarried > 0 and carried > 0, (uncarried, carried)
