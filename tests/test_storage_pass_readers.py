"""The storage passes' shortcuts change nothing: the readers that count a statement's names
without a walk (``assembled_rows.stmt_reads``, ``value_reads``) count what ``var_reads`` counts,
and ``storage_map``'s loop shortcuts (a loop without tensor carries walked once, a loop none of
whose carries yields a carry taking its yielded values' places) give the map the full
iteration gives, on every example and golden program, the benchmark's shapes and programs of
the adversarial tester's and the dependency fuzzer's generators."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, REPO
from nanopass.api import run_pipeline
from nanopass.loader import load_programs
from nanopass.passes import hazards
from nanopass.passes.assembled_rows import stmt_reads, value_reads
from nanopass.passes.kernels import kernel_table
from nanopass.passes.util import BODY_FIELDS, iter_stmts, var_reads
from nanopass.tools.attack import generate as attack_generate, program as attack_program, rows
from nanopass.tools.bench import source_of
from nanopass.tools.gen_programs import RandomChooser, generate as fuzz_generate

FUSE_INPUT = "place_returned_creates_in_output_params"  # (fuse_create_assemble_to_slice's input)
GOLDEN = REPO / "tests" / "golden"


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


def inputs(tmp_path, name: str, source: str) -> list:
    """The fuse pass's input for each program in ``source`` that compiles that far."""
    (path := tmp_path / f"{name}.py").write_text(source)
    out = []
    for program in load_programs(str(path)):
        try:
            out.append(run_pipeline(program, stop_after=FUSE_INPUT)[-1].tree)
        except Exception:  # noqa: BLE001 - (a program the front end refuses: nothing to compare)
            continue
    return out


@pytest.mark.parametrize("name,source", SOURCES, ids=[n for n, _ in SOURCES])
def test_the_readers_without_a_walk_count_what_var_reads_counts(tmp_path, name, source):
    for program in inputs(tmp_path, name, source):
        for stmt in iter_stmts(program.orch.body):
            if stmt._production in BODY_FIELDS:
                continue
            assert stmt_reads(stmt) == var_reads(stmt), stmt
            if stmt._production == "Let":
                assert value_reads(stmt.value) == var_reads(stmt.value), stmt


@pytest.mark.parametrize("name,source", SOURCES, ids=[n for n, _ in SOURCES])
def test_the_storage_loop_shortcuts_change_no_place(tmp_path, monkeypatch, name, source):
    for program in inputs(tmp_path, name, source):
        kernels = kernel_table(program)
        taken = hazards._storage_map(program.orch, kernels)
        with monkeypatch.context() as patch:
            patch.setattr(hazards, "LOOP_SHORTCUTS", False)
            assert hazards._storage_map(program.orch, kernels) == taken


def test_the_corpus_takes_both_loop_shortcuts(tmp_path):
    # a loop without tensor carries; a loop of constant bounds whose tensor carries yield no carry
    uncarried = carried = 0
    for name, source in SOURCES:
        for program in inputs(tmp_path, name, source):
            for stmt in iter_stmts(program.orch.body):
                if stmt._production not in ("For", "While"):
                    continue
                tensors = [it for it in stmt.iters if it.var.type._production == "TensorType"]
                uncarried += not tensors
                carried += bool(tensors) and (hazards.trip_count(stmt) or 0) > 1
    assert uncarried > 0 and carried > 0, (uncarried, carried)
