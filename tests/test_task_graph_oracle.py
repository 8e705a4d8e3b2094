"""The static task graph against dynamic truth: for every run of a program, every ordering the run
needs (``task_graph_oracle.required_orderings``: the last writer of each element a task looks up,
every task whose TaskId its deps hold) is shown by the stage's static graph as an edge, or a path
through merge (or barrier) nodes, from the earlier instance's submit site to the later one's
(printer/dot.py's contract: "it shows every ordering the program may need, once per site").

The stages checked and the truth of each: ``nanopass.tools.task_graph_oracle.violations``.
"""

from __future__ import annotations

import copy
import random

import pytest

from conftest import EXAMPLES, PROGRAMS, load_program

from nanopass.api import run_pipeline, surface_of
from nanopass.errors import UserError
from nanopass.printer import dot
from nanopass.printer.dot import static_graph
from nanopass.tools.bench import source_of
from nanopass.tools.check import program_inputs, sample_values, trace_of
from nanopass.tools.fuzz_deps import derive_deps
from nanopass.tools.gen_programs import RandomChooser, generate, options_of
from nanopass.tools.properties import compile_text, has_no_correct_compilation
from nanopass.tools.task_graph_oracle import CHECKED_STAGES, missing_orderings, required_orderings, violations
from nanopass.tools.trace import Alloc, Buffer, Copy, HostWrite, Task, TensorArg, Trace, View


def assert_shown(found: list[str]) -> None:
    """Fail with the first violations, one per line, when there are any."""
    assert not found, f"{len(found)} orderings not shown, the first:\n" + "\n".join(found[:12])


def compiled(text: str):
    options = options_of(text)
    stages, program = compile_text(text, options)
    return stages, program, options


# -- the examples, the test programs, the benchmark's shapes --------------------------------------------

SOURCES = sorted(EXAMPLES.glob("*.py")) + sorted(PROGRAMS.glob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_examples_show_every_ordering_their_runs_need(path):
    program = load_program(path)
    stages = run_pipeline(program)
    surface = surface_of(program)
    value_sets = [sample_values(surface, integer=k) for k in (0, 1, 3)]
    assert_shown(violations(stages, program, value_sets))


BENCH_SHAPES = ("straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles", "reuses")


@pytest.mark.parametrize("shape", BENCH_SHAPES)
def test_bench_shapes_show_every_ordering_their_runs_need(shape):
    stages, program, options = compiled(source_of(shape, 12))
    value_sets = [sample_values(surface_of(program), integer=k) for k in (0, 1, 3)]
    assert_shown(violations(stages, program, value_sets, options))


# -- generated programs ---------------------------------------------------------------------------------

AUTO_SEEDS = range(0, 100)
MANUAL_SEEDS = range(0, 40)


def _generated(seed: int, manual: bool):
    """(program, stages, DSL program, options), or None when the compiler refuses the program
    because no compilation of it is correct (``NO_CORRECT_COMPILATION``: nothing runs)."""
    generated = generate(RandomChooser(seed), manual=manual)
    try:
        text = generated.render(derive_deps(generated, random.Random(seed))[0] if manual else None)
        return (generated, *compiled(text))
    except UserError as error:
        assert has_no_correct_compilation(error), error
        return None


@pytest.mark.parametrize("seed", AUTO_SEEDS)
def test_generated_auto_programs_show_every_ordering_their_runs_need(seed):
    made = _generated(seed, manual=False)
    if made is not None:
        generated, stages, program, options = made
        assert_shown(violations(stages, program, generated.value_sets(), options))


@pytest.mark.parametrize("seed", MANUAL_SEEDS)
def test_generated_manual_programs_show_every_ordering_their_runs_need(seed):
    made = _generated(seed, manual=True)
    if made is not None:
        generated, stages, program, options = made
        assert_shown(violations(stages, program, generated.value_sets(), options))


# The attack tester's surface programs (tools/attack/surface_generate.py: inline functions, pl.at,
# pl.cluster and pl.spmd blocks, host accesses, scalars n and c), every stage the front end's
# included (``python -m nanopass.tools.graph_sweep --surface`` sweeps more seeds). Skipped: the
# programs of two orchestration functions, which compile_text refuses to choose between.
def _surface_generated(seed: int):
    from nanopass.tools.attack import surface_generate

    return surface_generate.generate(seed, None)


# seeds 0-99, and those of 100-299 whose surface graphs drew an outlined block's new result as
# its written parameter
SURFACE_GENERATOR_SEEDS = [seed for seed in [*range(0, 100), 126, 136, 145, 186, 223, 250]
                           if all(type(f).__name__ != "SecondOrch" for f in _surface_generated(seed).functions)]


@pytest.mark.parametrize("seed", SURFACE_GENERATOR_SEEDS)
def test_surface_generator_programs_show_every_ordering_their_runs_need(seed):
    from nanopass.tools.attack.program import render

    try:
        stages, program, options = compiled(render(_surface_generated(seed)).source)
    except UserError as error:
        assert has_no_correct_compilation(error) or "pl.assemble" in error.message, error
        return
    value_sets = [{"n": str(n), "c": str(c)} for n in (0, 2, 3) for c in (0, 1)]
    assert_shown(violations(stages, program, value_sets, options))


# -- the violations found, each shrunk to a program of its own --------------------------------------------
#
# Each program below runs tasks whose ordering the static graph of some stage does not show. The
# test names say what the graph must do; each assertion lists the orderings that are missing.


def _program(body: str, params: str = "") -> str:
    """A program of the kernels ``k_copy`` (a In, out Out) and ``k_acc`` (a In, acc InOut) whose
    function takes ``x`` (In), ``y`` (Out), ``big`` (InOut 32x8), ``n`` and ``params``."""
    tile = "pl.Tensor[[8, 8], pl.FP32]"
    return (
        "import nanopass.dsl as pl\n\n\n@pl.program\nclass Shrunk:\n"
        "    @pl.function(type=pl.FunctionType.AIV)\n"
        f"    def k_copy(self, a: {tile}, out: pl.Out[{tile}]) -> {tile}:\n"
        "        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])\n"
        f"        o: {tile} = pl.store(t, [0, 0], out)\n"
        "        return o\n\n"
        "    @pl.function(type=pl.FunctionType.AIV)\n"
        f"    def k_acc(self, a: {tile}, acc: pl.InOut[{tile}]) -> {tile}:\n"
        "        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])\n"
        f"        o: {tile} = pl.store(t, [0, 0], acc)\n"
        "        return o\n\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        f"    def orch(self, x: {tile}, y: pl.Out[{tile}], big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]], "
        f"n: pl.Scalar[pl.INT64]{params}) -> {tile}:\n"
        + "".join(f"        {line}\n" for line in body.strip("\n").splitlines())
    )


def _shrunk_violations(body: str, params: str = "") -> list[str]:
    stages, program, options = compiled(_program(body, params))
    return violations(stages, program, [{"n": "0"}, {"n": "2"}], options)


CREATE = "pl.create_tensor([8, 8], dtype=pl.FP32)"


def test_an_if_else_that_rebinds_a_name_keeps_the_else_branchs_writer():
    # with n == 0 the else branch runs: t2 reads b, which t1 wrote (every stage drew only t0 -> t2)
    assert_shown(_shrunk_violations(f"""
a: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
b: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
if n > 1:
    s = self.k_copy(x, a)
else:
    s = self.k_copy(x, b)
y = self.k_copy(s, y)
return y
"""))


def test_an_if_that_rebinds_a_name_keeps_the_writer_from_before_the_if():
    # with n == 0 the if does nothing: t2 reads what t0 wrote (every stage drew only t1 -> t2)
    assert_shown(_shrunk_violations(f"""
s: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
s = self.k_copy(x, s)
if n > 1:
    t: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
    s = self.k_copy(x, t)
y = self.k_copy(s, y)
return y
"""))


def test_a_loop_carry_stands_for_what_the_body_yields_too():
    # q is z on iteration 1 and y from iteration 2 on: t0 writes y there, and t1 rewrites y after
    # the loop (every stage drew only t0 -> t0 on z: a carry stood for its init alone)
    assert_shown(_shrunk_violations("""
for i, (q,) in pl.range(2, init_values=(z,)):
    q = self.k_acc(x, q)
    (q2,) = pl.yield_(y)
y = self.k_acc(x, y)
return y
""", ", z: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]"))


def test_a_carry_holding_the_tensor_the_iteration_before_made_keeps_its_writer():
    # iteration 2 reads as p the tensor iteration 1 created and t1 wrote: t1 -> t0 around the back
    # edge (the graph took the create's name for one buffer, so the next iteration's create of it
    # forgot t1; found by the attack tester's surface programs, seed 140)
    assert_shown(_shrunk_violations(f"""
c: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
c = self.k_copy(x, c)
for i, (p,) in pl.range(2, init_values=(c,)):
    y = self.k_copy(p, y)
    t: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
    t = self.k_copy(x, t)
    (p2,) = pl.yield_(t)
return y
"""))


def test_swapped_loop_carries_order_the_writer_before_the_next_iterations_reader():
    # iteration 2 reads as p what iteration 1 wrote as q: t1 -> t0 around the back edge
    assert_shown(_shrunk_violations(f"""
for i, (p, q) in pl.range(2, init_values=(z, y)):
    c: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
    c = self.k_copy(p, c)
    q = self.k_acc(c, q)
    p2, q2 = pl.yield_(q, p)
return q2
""", ", z: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]"))


def test_a_swapped_carry_written_in_place_is_a_carried_edge_at_the_surface():
    # one task reads p and writes q; the surface graph drew no t0 -> t0 (later stages draw one,
    # on the rewritten buffer)
    assert_shown(_shrunk_violations("""
for i, (p, q) in pl.range(2, init_values=(z, y)):
    q = self.k_copy(p, q)
    p2, q2 = pl.yield_(q, p)
return q2
""", ", z: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]"))


def test_a_write_to_some_rows_keeps_the_writers_of_the_other_rows():
    # t1 writes rows 0..8 of big; t2 reads rows 24..32, which only t0 wrote (every stage drew
    # only t1 -> t2: a partial write was taken as overwriting the whole buffer)
    assert_shown(_shrunk_violations("""
low = pl.tensor.slice(big, [8, 8], [24, 0])
low = self.k_copy(x, low)
high = pl.tensor.slice(big, [8, 8], [0, 0])
high = self.k_copy(x, high)
again = pl.tensor.slice(big, [8, 8], [24, 0])
y = self.k_copy(again, y)
return y
"""))


def test_a_write_to_some_rows_in_a_loop_keeps_the_carried_writer_of_the_other_rows():
    # iteration 2's t1 reads rows 24..32, which iteration 1's t1 wrote; t0 writes rows 0..8 between
    assert_shown(_shrunk_violations("""
for i in pl.range(2):
    high = pl.tensor.slice(big, [8, 8], [0, 0])
    high = self.k_copy(x, high)
    low = pl.tensor.slice(big, [8, 8], [24, 0])
    low = self.k_acc(x, low)
y = self.k_copy(x, y)
return y
"""))


def test_an_assemble_orders_its_sources_writer_before_the_targets_readers_at_the_surface():
    # the program as written copies a into rows 8..16 of big, which t1 reads: t0 -> t1 (the
    # surface graph has no edge; from fuse_create_assemble_to_slice on, a is a view and it has)
    assert_shown(_shrunk_violations(f"""
a: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
a = self.k_copy(x, a)
big = pl.assemble(big, a, [8, 0])
rows = pl.tensor.slice(big, [8, 8], [8, 0])
y = self.k_copy(rows, y)
return y
"""))


def test_an_outlined_blocks_new_result_is_a_buffer_of_its_own_at_the_surface():
    # the block's results are v (a new tensor) and y (assembled into); the surface graph took v
    # for the block's written parameter y, so t2 read y's last writer t1 and not v's, t0 (the
    # attack tester's surface programs, seeds 32, 50, 53, 84, 126, 136, 145, 186, 223 and 250;
    # before the oracle read kernels as materialize_result_buffers declares them, it could not
    # run this program: the block's task has a slot more than its surface kernel's parameters)
    assert_shown(_shrunk_violations("""
with pl.at(level=pl.Level.CORE_GROUP, name_hint="blk"):
    v = pl.add(x, x)
    y = pl.assemble(y, x, [0, 0])
y = self.k_copy(x, y)
y = self.k_acc(v, y)
return y
"""))


def test_a_create_in_a_loop_in_a_with_block_is_a_new_buffer_each_run_at_the_surface():
    # as written, t2 reads the create of the last iteration, which nothing wrote; the oracle ran
    # the program with the create placed before the block (one buffer for every iteration, which
    # t1 wrote) and asked the surface graph for t1 -> t2 (manual generated seed 52); the stages
    # after place_loop_allocations_before_scopes share the buffer and draw t1 -> t2
    stages, program, options = compiled(_program(f"""
s: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
s = self.k_copy(x, s)
with pl.manual_scope():
    for i in pl.range(2):
        s = self.k_acc(x, s)
        s: pl.Tensor[[8, 8], pl.FP32] = {CREATE}
y = self.k_copy(s, y)
return y
"""))
    assert_shown(violations(stages, program, [{"n": "0"}], options))
    after = next(stage for stage in stages if stage.name == "place_loop_allocations_before_scopes")
    assert ("t1", "t2") in {(edge.src, edge.dst) for edge in static_graph(after.tree).edges.values()}


# -- the oracle itself ---------------------------------------------------------------------------------------


def _task(task_id: int, site: str, *slots, deps=()) -> Task:
    return Task(task_id, "kernel", None, tuple(TensorArg(view, tag) for view, tag in slots), (), tuple(deps), "auto",
                kernel="k", site=site)


def _rows(first: int, count: int) -> View:
    return View("buf", first * 4, (count, 4), (4, 1))


def test_the_oracle_orders_each_element_after_its_last_writer_only():
    trace = Trace({"buf": Buffer("buf", (8, 4), "FP32", "entry", 0)})
    trace.events = [
        _task(0, "t0", (_rows(0, 4), "OUTPUT_EXISTING")),  # rows 0..4
        _task(1, "t1", (_rows(4, 4), "INOUT")),  # rows 4..8: no earlier writer there
        _task(2, "t2", (_rows(2, 4), "INPUT")),  # rows 2..6: t0's and t1's
        HostWrite(_rows(0, 4), (0, 0), 0),  # the host writes buf[0, 0]
        _task(3, "t3", (_rows(0, 1), "INPUT"), deps=(1,)),  # row 0: t0's but for buf[0, 0]
        _task(4, "t4", (_rows(0, 1), "NO_DEP"), (_rows(0, 1), "OUTPUT_EXISTING")),  # looks nothing up
        _task(5, "t5", (_rows(0, 1), "INOUT")),
    ]
    found = {(o.src, o.dst, o.kind) for o in required_orderings(trace).values()}
    assert found == {
        ("t0", "t2", "data"), ("t1", "t2", "data"), ("t0", "t3", "data"), ("t1", "t3", "explicit"),
        ("t4", "t5", "data"),
    }


def test_the_oracle_reads_an_undirected_program_by_the_kernels_declarations():
    trace = Trace({"buf": Buffer("buf", (8, 4), "FP32", "entry", 0)})
    trace.events = [_task(0, "t0", (_rows(0, 8), "INOUT")), _task(1, "t1", (_rows(0, 8), "INOUT"))]
    assert {(o.src, o.dst) for o in required_orderings(trace).values()} == {("t0", "t1")}
    assert required_orderings(trace, {"k": ("Out",)}) == {}  # an Out parameter looks nothing up
    trace.events.append(_task(2, "t2", (_rows(0, 8), "NO_DEP")))
    assert {(o.src, o.dst) for o in required_orderings(trace, {"k": ("InOut",)}).values()} == {("t0", "t1")}


def test_the_oracle_follows_a_copy_to_its_targets_readers():
    trace = Trace({"buf": Buffer("buf", (8, 4), "FP32", "entry", 0), "src": Buffer("src", (2, 4), "FP32", "alloc")})
    whole_source = View("src", 0, (2, 4), (4, 1))
    trace.events = [
        Alloc(0, ("src",)),
        _task(1, "t0", (whole_source, "OUTPUT_EXISTING")),
        Copy(whole_source, _rows(6, 2)),
        _task(2, "t1", (_rows(7, 1), "INPUT")),
        _task(3, "t2", (_rows(0, 1), "INPUT")),  # rows the copy did not reach: no writer
    ]
    assert {(o.src, o.dst) for o in required_orderings(trace).values()} == {("t0", "t1")}


def _drop_edges_into(graph, site: str):
    kept = copy.deepcopy(graph)
    kept.edges = {key: edge for key, edge in graph.edges.items() if edge.dst != site}
    return kept


@pytest.mark.parametrize("path", [EXAMPLES / "manual_phases.py", PROGRAMS / "graph_features.py"], ids=lambda p: p.stem)
def test_the_check_fails_on_a_graph_without_the_edges_into_a_site(path):
    program = load_program(path)
    stages = run_pipeline(program)
    inputs = program_inputs(surface_of(program), sample_values(surface_of(program), integer=3))
    checked = 0
    for stage in stages:
        if stage.name not in CHECKED_STAGES:
            continue
        orderings = required_orderings(trace_of(stage, inputs))
        graph = static_graph(stage.tree)
        assert missing_orderings(graph, orderings) == []
        for site in sorted({dst for _, dst, _ in orderings}):
            into = {key for key in orderings if key[1] == site}
            missing = {(o.src, o.dst, o.kind) for o in missing_orderings(_drop_edges_into(graph, site), orderings)}
            assert missing == into, (stage.name, site)
            checked += 1
    assert checked >= len(CHECKED_STAGES)


def test_merge_nodes_are_walked_through():
    stages, program, options = compiled(source_of("mixed", 12))
    inputs = program_inputs(surface_of(program), sample_values(surface_of(program), integer=3))
    saved = dot.MERGED_WRITERS
    dot.MERGED_WRITERS = 1
    try:
        graph = static_graph(stages[-1].tree)
    finally:
        dot.MERGED_WRITERS = saved
    orderings = required_orderings(trace_of(stages[-1], inputs))
    merges = {node for node, n in graph.nodes.items() if n.merge}
    through = [o for o in orderings.values() if any(
        (o.src, m) in {(e.src, e.dst) for e in graph.edges.values()} for m in merges)]
    assert merges and through, "the program needs orderings drawn through merge nodes"
    assert missing_orderings(graph, orderings) == []
    without = copy.deepcopy(graph)
    without.edges = {key: edge for key, edge in graph.edges.items() if edge.src not in merges}
    assert missing_orderings(without, orderings)  # the orderings through merges are no longer shown
