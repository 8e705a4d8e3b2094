"""The passes that drop or merge the compiler's dependency insertions (issue 24):
drop_chained_join_barriers, drop_runtime_ordered_edges, merge_cells_into_chains. Their figures
come from tools/measure_edges.py; every removal is checked by the hazard checker on generated
programs (nothing the program before the passes orders is left unordered, values agree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nanopass.tools.measure_edges import measure_file, measure_stages, options_of

ROOT = Path(__file__).resolve().parent.parent
OFF = {"lean_edges": False}
TILE = "pl.Tensor[[16, 16], pl.FP32]"


def if_chain(k: int, chained_readers: bool) -> str:
    """docs/semantics.md gap 4: ``k`` ifs, each writing ``y`` in one branch and reading it in the
    other (the reads come first for small ``n``, so the writes after them wait for them). With
    ``chained_readers`` each read is an InOut writer of one tensor ``t`` (the runtime orders the
    reads among themselves), else each read writes a tensor of its own."""
    lines = []
    for i in range(k):
        lines += [f"        if n <= {i}:", "            y = self.acc(x, y)", "        else:"]
        if chained_readers:
            lines.append("            t = self.step(y, t)")
        else:
            lines += [f"            s{i} = pl.create_tensor([16, 16], dtype=pl.FP32)", f"            s{i} = self.step(y, s{i})"]
    body = "\n".join(lines)
    return f"""import nanopass.dsl as pl


@pl.program
class Chain:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, x: {TILE}, y: pl.InOut[{TILE}]) -> {TILE}:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def step(self, y: {TILE}, t: pl.InOut[{TILE}]) -> {TILE}:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {TILE}, y: pl.InOut[{TILE}], t: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
{body}
        return y
"""


def most_insertions(path: Path, k: int, options=None) -> int:
    return max(measure_file(str(path), {"n": str(n)}, options=options)[0].insertions for n in range(k + 1))


@pytest.mark.parametrize("chained", [True, False], ids=["chained-readers", "own-outputs"])
def test_the_if_chain_of_gap_4_costs_insertions_linear_in_k(tmp_path, chained):
    before, after = {}, {}
    for k in range(2, 7):
        path = tmp_path / f"chain{k}.py"
        path.write_text(if_chain(k, chained))
        before[k] = most_insertions(path, k, OFF)
        after[k] = most_insertions(path, k)
    # one edge per earlier read: floor(k / 2) reads before ceil(k / 2) writes at worst
    assert before == {k: (k // 2) * ((k + 1) // 2) for k in range(2, 7)}
    if chained:
        assert after == {k: k - 1 for k in range(2, 7)}  # one edge per write: the latest read
    else:
        assert all(after[k] <= min(before[k], 2 * k) for k in after), after


def test_ping_pong_and_derive_fallback_lose_the_edges_the_runtime_makes():
    for name in ("ping_pong", "derive_fallback"):
        path = str(ROOT / "tests/golden" / f"{name}.py")
        before, _ = measure_file(path, options=OFF)
        after, _ = measure_file(path)
        assert before.insertions == before.redundant > 0
        assert (after.insertions, after.redundant, after.minimum) == (0, 0, 0)


def test_war_loop_then_writer_waits_for_the_last_read_without_a_barrier_per_run():
    path = str(ROOT / "tests/golden/war_loop_then_writer.py")
    for n in (1, 3, 5):
        before, _ = measure_file(path, {"n": str(n)}, options=OFF)
        after, _ = measure_file(path, {"n": str(n)})
        # the hazard analysis alone already stores the last read's TaskId (issue 21's join cells)
        assert before.dummies == 0 and before.insertions >= 1
        assert (after.dummies, after.insertions, after.redundant, after.minimum) == (0, 1, 0, 1)


def test_an_edge_from_a_manual_scope_writer_stays():
    """A write in a manual scope is not in the TensorMap: the edge that orders a later AUTO
    reader's run after it is the only order there is."""
    text = f"""import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def write(self, x: {TILE}, y: pl.InOut[{TILE}]) -> {TILE}:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}]) -> {TILE}:
        with pl.manual_scope():
            y = self.write(x, y)
        z = self.write(y, z)
        return z
"""
    from nanopass.tools.properties import compile_text

    stages, _ = compile_text(text)
    lean, _ = compile_text(text, OFF)
    assert _entries(stages) == _entries(lean) >= 1


def test_a_cell_a_host_fence_waits_on_keeps_its_declaration():
    """The parallel loop's readers of ``y`` are joined in a cell that the conditional writer's
    edge (implied, so dropped) and the host fence before the manual scope's write of ``y``'s
    alias ``w`` read. Dropping the cell with the edge left the fence naming an undeclared cell
    (an internal error; found by fuzz_deps --tally --seed 5, reduced)."""
    text = f"""import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, y: {TILE}, t: pl.Out[{TILE}]) -> {TILE}:
        return t

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, x: {TILE}, y: pl.InOut[{TILE}]) -> {TILE}:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, y: pl.InOut[{TILE}], z: pl.Out[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
        for i, (p, q) in pl.range(n, init_values=(y, z)):
            a, w = pl.yield_(q, p)
        for j in pl.parallel(1, 2):
            t: {TILE} = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(y, t)
            if j > 1:
                y = self.acc(t, y)
        with pl.manual_scope():
            pl.tensor.write(w, [3, 6], 9.5)
        return y
"""
    from nanopass.languages.statements import iter_stmts
    from nanopass.tools.properties import compile_text

    stages, _ = compile_text(text)
    assert stages[-1].language.name == "emission", stages[-1].language.name
    tree = next(s.tree for s in reversed(stages) if s.tree is not None and s.language.name == "directed")
    stmts = list(iter_stmts(tree.orch.body))
    declared = {s.cell for s in stmts if s._production == "CellDecl"}
    fence_cells = {d.cell for s in stmts if s._production == "HostFence" for d in s.deps if d._production == "CellDep"}
    assert fence_cells and fence_cells <= declared


def test_cells_a_host_fence_waits_on_are_not_merged_into_a_chain():
    """The reader's and the conditional writer's latest-run cells are waited for together by the
    reader (merge_cells_into_chains makes them one chain cell) and by the host fence before the
    write of ``y`` after the loop. The merge rewrote the tasks' edges but not the fence's, which
    then named two undeclared cells (an internal error in remap_output_aliases; found by fuzz_deps
    --tally --seed 100, seed 1162, reduced)."""
    text = f"""import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, y: {TILE}, t: pl.InOut[{TILE}]) -> {TILE}:
        return t

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, x: {TILE}, y: pl.InOut[{TILE}]) -> {TILE}:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
        for i in pl.range(n):
            with pl.manual_scope():
                t, a = pl.submit(self.copy, y, z, deps=[])
                if i > 0:
                    y, b = pl.submit(self.acc, x, y, deps=[])
        pl.tensor.write(y, [3, 6], 1.0)
        return y
"""
    from nanopass.languages.statements import iter_stmts
    from nanopass.tools.properties import compile_text

    stages, _ = compile_text(text)
    assert stages[-1].language.name == "emission", stages[-1].language.name
    tree = next(s.tree for s in reversed(stages) if s.tree is not None and s.language.name == "directed")
    stmts = list(iter_stmts(tree.orch.body))
    declared = {s.cell for s in stmts if s._production == "CellDecl"}
    fence_cells = {d.cell for s in stmts if s._production == "HostFence" for d in s.deps if d._production == "CellDep"}
    assert len(fence_cells) == 2 and fence_cells <= declared


def _entries(stages) -> int:
    from nanopass.languages.statements import iter_stmts

    tree = next(s.tree for s in reversed(stages) if s.tree is not None and s.language.name == "directed")
    return sum(len(s.deps) for s in iter_stmts(tree.orch.body) if s._production in ("Task", "Dummy"))


SAMPLE = 24  # generated programs checked with the passes on (a few seconds each)


def test_generated_programs_keep_every_order_and_value_with_the_passes():
    """The hazard checker on a sample of generated programs: each pass's output must refine the
    stage before it (every explicit dependency still ordered, no conflicting pair left
    unordered), the emission agrees with the reference, the values with the program as written;
    and the passes make fewer insertions in all (a merged chain may cost more on one run than
    the edges it replaces: it is chosen by the program text's count)."""
    from nanopass.api import surface_of
    from nanopass.tools.check import program_inputs
    from nanopass.tools.fuzz_deps import manual_failures
    from nanopass.tools.gen_programs import RandomChooser, generate
    from nanopass.tools.properties import Findings, check_text, compile_text

    findings = Findings()
    before_total = after_total = 0
    for seed in range(SAMPLE):
        program = generate(RandomChooser(seed), manual=seed % 4 == 3, max_statements=9)
        refused = findings.refused_by_design
        if program.manual:
            deps, failures = manual_failures(program, seed, findings)
            text = program.render(deps)
        else:
            text = program.render()
            failures = check_text(text, program.value_sets(), findings, options=options_of(text))
        assert not failures, failures[0].message
        if findings.refused_by_design > refused:  # a correct refusal (no correct compilation exists)
            continue
        lean, dsl = compile_text(text, options_of(text))
        full, _ = compile_text(text, {**options_of(text), **OFF})
        for values in program.value_sets():
            inputs = program_inputs(surface_of(dsl), values)
            after, before = measure_stages(lean, inputs), measure_stages(full, inputs)
            before_total += before.insertions
            after_total += after.insertions
    assert findings.programs == SAMPLE and findings.refused_by_design <= SAMPLE // 3
    assert 0 < after_total < before_total


def test_the_generated_totals_command_prints_both_sums(capsys):
    from nanopass.tools.measure_generated import main

    assert main(["--seeds", "6", "--before"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("5 AUTO programs") and len(out) == 3
    after, before = (int(line.split("insertions ")[1].split()[0]) for line in out[1:])
    assert 0 < after < before
