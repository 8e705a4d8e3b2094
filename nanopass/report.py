"""The ``--dump-all`` report: a small page that loads each stage when it is opened.

``render_report`` takes one ``ReportStage`` per stage (in pipeline order) and returns the report's
files by name: ``index.html`` and one ``NN_<pass>.stage.js`` per stage. The page holds the
pipeline as a table (pass, language, time, graph size, what changed, notes, hazards), the legend
of the graphs, and per stage a section with its pass's contract, its language's delta and a line
of figures; opening a stage (its section's body, a link to it, or ``#stage-NN`` in the address)
loads its file, which holds the rest (``report_stage.py``): the graphs, the diff or statement
pairs, the IR text, the notes, the warnings (with their help lines and notes) and hazards. A graph's picture is its own file ``<name>.svg``
(several stages with the same graph share one), which the page loads through its twin
``<name>.svg.js`` (``svg_script``; a page opened from disk may load scripts, not read files).
Scripts and styles are the package's ``report_assets``, inlined, so the page works offline.

The page's script (``report_assets/report.js``) draws each graph in a frame with pan (drag) and
zoom (the buttons, or Ctrl and the wheel), finds tasks and kernels by name in the graphs shown,
and writes ``opened N of M stages; K rendered in T ms`` into ``#render-status`` (``data-ok``
"yes" when every opened stage is on screen; also logged to the console), which is what a
headless browser checks. ``#all`` in the address opens every stage; ``;find=NAME`` after a
stage's or ``all`` fills the search box.
"""

from __future__ import annotations

import html
import json
import os
import re
from dataclasses import dataclass, field

from .stage_diff import PairedDiff, StageDiff

EDGE_LEGEND = [
    # (kind, colour, dash pattern, meaning) - the styles of printer/graph.py's EDGE_STYLES
    ("data", "black", "", "data dependency the runtime tracks (AUTO scope)"),
    ("data-untracked", "gray", "2,3", "data dependency inside a MANUAL scope (only explicit edges order it)"),
    ("explicit-user", "blue", "6,3", "explicit dependency the user wrote (deps=)"),
    ("explicit-compiler", "darkgreen", "6,3", "explicit dependency the compiler derived (bold)"),
    ("explicit", "purple", "6,3", "explicit dependency whose author the stage no longer records"),
]
_ASSETS = os.path.join(os.path.dirname(__file__), "report_assets")


@dataclass(frozen=True)
class Hazard:
    """A read/write hazard at one stage: two tasks touching one buffer that nothing orders."""

    message: str
    first: str = ""
    second: str = ""


@dataclass(frozen=True)
class ReportNote:
    kind: str  # e.g. "dropped-edge"
    message: str
    where: str = ""  # FILE:LINE:COL, when the note has a source span


@dataclass(frozen=True)
class ReportWarning:
    """A warning the stage's pass (or the front end, at stage 0) gave: what the command line
    prints as ``warning:``, with its help line and notes."""

    message: str
    where: str = ""  # FILE:LINE:COL, when the warning has a source span
    hint: str = ""
    notes: tuple[str, ...] = ()


@dataclass
class GraphSection:
    """One graph of a stage: its size and DOT file, and what the page draws of it."""

    title: str
    nodes: int
    edges: int = 0
    file: str = ""  # the whole graph's DOT file
    note: str = ""  # about the graph (e.g. "4000 task instances")
    svg_file: str = ""  # the picture (perhaps an earlier stage's); "" when there is none
    drawing: str = ""  # "full" | "changed" | "collapsed" | "per-site": what the picture shows
    drawing_note: str = ""  # what a summarised picture leaves out
    why: str = ""  # why there is no picture
    same_as: str = ""  # "unchanged from stage NN" when an earlier stage has the same graph
    dot: str = ""  # the DOT source, shown when there is no picture (may be "": too large)


@dataclass
class ReportStage:
    index: int
    name: str  # the pass that produced the stage ("parse_dsl" for the front end's output)
    language: str
    language_delta: str  # what this language adds/removes relative to the previous stage's ("" if same)
    contract: str
    text: str  # the IR text, or "" when it is too long for the page (it is in its file)
    seconds: float
    graphs: list[GraphSection] = field(default_factory=list)
    notes: list[ReportNote] = field(default_factory=list)
    warnings: list[ReportWarning] = field(default_factory=list)
    hazards: list[Hazard] | None = None  # None: no hazard checker ran
    instance_note: str = ""  # why there is no instance graph, when there is none
    files: list[str] = field(default_factory=list)
    language_doc: str = ""  # the language's one-line description
    change: StageDiff | PairedDiff | None = None  # against the previous stage
    hazard_total: int | None = None  # hazards found, when more than listed
    notes_summary: str = ""  # one line about the notes (notes.describe)
    text_size: tuple[int, int] | None = None  # the whole IR text's characters and lines (None: ``text``'s)

    @property
    def hazard_count(self) -> int:
        return len(self.hazards or ()) if self.hazard_total is None else self.hazard_total


def stage_file(stage: ReportStage) -> str:
    return f"{stage.index:02d}_{stage.name}.stage.js"


def svg_script(svg_file: str, svg: str) -> str:
    """The twin script of an SVG file: hands the page the picture."""
    return f"nanopassReport.svg({json.dumps(svg_file)}, {_js_string(svg)});\n"


def _js_string(text: str) -> str:
    """A JavaScript string literal that is safe inside a script file."""
    return json.dumps(text).replace("</", "<\\/")


def _asset(name: str) -> str:
    with open(os.path.join(_ASSETS, name), encoding="utf-8") as handle:
        return handle.read()


def render_report(
    title: str,
    stages: list[ReportStage],
    *,
    renderer: str | None,
    code: tuple[str, str] | None = None,
    failure: str | None = None,
    source: str = "",
    instances: bool = False,
    note: str = "",
) -> dict[str, str]:
    """The report's files by name. ``renderer`` names the Graphviz that drew the pictures;
    ``code`` is (file name, C++ text); ``failure`` the error that ended the run; ``instances``
    whether an interpreter was asked for instance graphs; ``note`` a line for the top of the index
    (which of a program's orchestration functions the report shows)."""
    from .report_stage import stage_body

    files = {"index.html": render_index(title, stages, renderer=renderer, code=code, failure=failure,
                                        source=source, instances=instances, note=note)}
    for i, stage in enumerate(stages):
        body, svgs = stage_body(stage, stages[i - 1] if i else None)
        data = {"html": body, "svgs": svgs}
        files[stage_file(stage)] = f"nanopassReport.stage({stage.index}, {_js_string(json.dumps(data))});\n"
    return files


def render_index(title: str, stages: list[ReportStage], *, renderer: str | None, code=None, failure=None,
                 source: str = "", instances: bool = False, note: str = "") -> str:
    esc = html.escape
    out: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{_asset('report.css')}</style></head><body>",
        '<nav id="stages"><h2>Stages</h2>',
        '<p><input type="search" id="find" placeholder="find a task or kernel" aria-label="find a task or kernel'
        ' in the graphs shown"> <span id="found"></span></p><ol start="0">',
    ]
    for stage in stages:
        out.append(f'<li><a href="#{_anchor(stage)}">{esc(stage.name)}</a> <span class="lang">{esc(stage.language)}</span></li>')
    if code:
        out.append('<li class="cpp"><a href="#cpp">C++</a></li>')
    out.append('</ol><p><button type="button" id="expand">open all</button> '
               '<button type="button" id="collapse">close all</button></p></nav>')
    out.append("<main>")
    out.append(f"<header><h1>{esc(title)}</h1>")
    if source:
        out.append(f"<p>Source: <code>{esc(source)}</code></p>")
    if note:
        out.append(f'<p class="note">{esc(note)}</p>')
    out.append(f"<p>{len(stages)} stages; graphs drawn with {esc(renderer or 'none (DOT source shown)')}. "
               "Open a stage to load its graphs, diff and IR text.</p>")
    if not instances:
        out.append('<p class="note">Instance graphs (one node per task of a run) need the program interpreter, which '
                   'was not run for this report: only the static graphs are shown.</p>')
    elif stages and not any(g.title.startswith("Instance") for s in stages for g in s.graphs):
        reason = next((s.instance_note for s in reversed(stages) if s.instance_note), "")
        if reason:
            out.append(f'<p class="note">No instance graphs: {esc(reason)}.</p>')
    if failure:
        out.append(f'<p class="failure" role="alert">The run stopped with an error: <code>{esc(failure)}</code>. '
                   "The stages reached are below.</p>")
    out.append("</header>")
    out.append(_summary_table(stages))
    out.append(_legend())
    for i, stage in enumerate(stages):
        out.append(_stage_section(stage, stages[i - 1] if i else None))
    if code:
        name, text = code
        lines = text.count("\n")
        out.append(f'<section id="cpp"><h2>C++ <a href="{esc(name)}">{esc(name)}</a></h2>'
                   f'<p>{lines} lines; open the file to read it.</p></section>')
    out.append('<footer><p id="render-status" data-ok="no">loading…</p></footer>')
    out.append(f"</main><script>{_asset('report.js')}</script></body></html>")
    return "\n".join(out) + "\n"


def _anchor(stage: ReportStage) -> str:
    return f"stage-{stage.index:02d}"


def _summary_table(stages: list[ReportStage]) -> str:
    esc = html.escape
    rows = [
        '<section id="summary"><h2>Pipeline</h2><table><thead><tr>'
        "<th>#</th><th>pass</th><th>language</th><th>ms</th><th>task graph</th><th>IR change</th><th>notes</th>"
        "<th>hazards</th></tr></thead><tbody>"
    ]
    before = None
    for stage in stages:
        graph = stage.graphs[0] if stage.graphs else None
        hazards = "not checked" if stage.hazards is None else str(stage.hazard_count)
        rows.append(
            f'<tr><td>{stage.index:02d}</td><td><a href="#{_anchor(stage)}">{esc(stage.name)}</a></td>'
            f"<td>{esc(stage.language)}</td><td class=\"num\">{_ms(stage)}</td>"
            f"<td>{esc(graph_size(graph, before))}</td>"
            f"<td>{esc(change_summary(stage))}</td><td>{esc(stage.notes_summary) or '—'}</td>"
            f"<td>{hazards}</td></tr>"
        )
        before = graph
    total = sum(s.seconds for s in stages) * 1000
    rows.append(f'<tr class="total"><td></td><td>total</td><td></td><td class="num">{total:.2f}</td><td colspan="4"></td></tr>')
    rows.append("</tbody></table></section>")
    return "".join(rows)


def graph_size(graph: GraphSection | None, before: GraphSection | None = None) -> str:
    """``N nodes, M edges``, with the change since ``before`` (the stage before's task graph)."""
    nodes, edges = (graph.nodes, graph.edges) if graph else (0, 0)
    if before is None:
        return f"{_plural(nodes, 'node')}, {_plural(edges, 'edge')}"
    return f"{_plural(nodes, 'node')}{_delta(nodes - before.nodes)}, {_plural(edges, 'edge')}{_delta(edges - before.edges)}"


def _delta(change: int) -> str:
    return f" ({change:+d})" if change else ""


def change_summary(stage: ReportStage) -> str:
    return "—" if stage.change is None else stage.change.summary


def _ms(stage: ReportStage) -> str:
    """The pass's time; the front end's output (stage 0) has none."""
    return f"{stage.seconds * 1000:.2f}" if stage.index else "—"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def prose(text: str) -> str:
    """Escaped text with the docstrings' ``code`` spans as <code>."""
    return re.sub(r"``(.+?)``", r"<code>\1</code>", html.escape(text))


def _legend() -> str:
    items = []
    for kind, colour, dash, meaning in EDGE_LEGEND:
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        width = 3 if kind == "explicit-compiler" else 1.5
        sample = (
            f'<svg width="44" height="10" aria-hidden="true"><line x1="2" y1="5" x2="42" y2="5" stroke="{colour}"'
            f' stroke-width="{width}"{dash_attr}/></svg>'
        )
        items.append(f"<li>{sample} {html.escape(meaning)}</li>")
    items.append("<li>open arrowhead and <code>?</code>: guarded edge (the TaskId may be invalid; inserted under <code>is_valid()</code>)</li>")
    items.append("<li><code>↻</code>: carried around a loop back edge; <code>name[N]</code>: a TaskId array of N slots</li>")
    items.append("<li>boxes: tasks (blue AIC, yellow AIV, violet MIX); grey diamonds: dummy barriers; frames: scopes, loops, branches;"
                 " double frames: groups of tasks in a summarised graph; <code>+</code> heavy and <code>−</code> red edges: added"
                 " and removed by the pass</li>")
    items.append("<li>rows follow program order: tasks in one row may run side by side</li>")
    return '<section id="legend"><h2>Reading the task graphs</h2><ul>' + "".join(items) + "</ul></section>"


def _stage_section(stage: ReportStage, previous: ReportStage | None) -> str:
    esc = html.escape
    head = f"{stage.index:02d} {stage.name}"
    arrow = f"{previous.language} → {stage.language}" if previous else stage.language
    parts = [
        f'<section class="stage" id="{_anchor(stage)}" data-stage="{stage.index}" data-src="{esc(stage_file(stage))}">',
        f'<h2>{esc(head)} <span class="lang">{esc(arrow)}</span> <span class="time">{_ms(stage)} ms</span></h2>',
    ]
    if stage.contract:
        parts.append(f'<p class="contract">{prose(contract_summary(stage.contract))}</p>')
    about = f" — {esc(stage.language_doc)}" if stage.language_doc else ""
    if stage.language_delta:
        what = "what it adds and removes" if previous else "its grammar"
        parts.append(f'<details class="delta"><summary>Language <b>{esc(stage.language)}</b>{about}: {what}</summary>'
                     f"<pre>{esc(stage.language_delta)}</pre></details>")
    else:
        parts.append(f'<p class="same-language">Language <b>{esc(stage.language)}</b>{about} (unchanged).</p>')
    parts.append(f'<p class="glance">{_glance(stage)}</p>')
    parts.append('<details class="body"><summary>graphs, changes, IR text, notes and hazards</summary>'
                 '<div class="content"></div></details>')
    parts.append("</section>")
    return "\n".join(parts)


def contract_summary(contract: str) -> str:
    """The first paragraph of a contract: what the page shows of it (the stage's body, loaded on
    demand, has the rest: ``contract_rest``)."""
    return contract.partition("\n\n")[0]


def contract_rest(contract: str) -> list[str]:
    """The paragraphs of a contract after its first."""
    rest = contract.partition("\n\n")[2]
    return rest.split("\n\n") if rest else []


def _glance(stage: ReportStage) -> str:
    esc = html.escape
    items = []
    for graph in stage.graphs:
        what = "task graph" if graph.title.startswith("Task") else "instance graph"
        text = f"{what}: {_plural(graph.nodes, 'node')}, {_plural(graph.edges, 'edge')}"
        if graph.same_as:
            text += f" ({graph.same_as})"
        elif graph.drawing in ("changed", "collapsed", "per-site"):
            text += {"changed": ", drawn: the part that changed", "collapsed": ", drawn summarised",
                     "per-site": ", drawn per submit site"}[graph.drawing]
        items.append(esc(text))
    if stage.change is not None:
        items.append(f"IR: {esc(change_summary(stage))}")
    if stage.notes_summary:
        items.append(f"notes: {esc(stage.notes_summary)}")
    if stage.warnings:
        items.append(_plural(len(stage.warnings), "warning"))
    if stage.hazards is not None:
        items.append(f"hazards: {stage.hazard_count}")
    return " · ".join(items)
