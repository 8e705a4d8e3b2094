"""The body of one stage of the report, loaded when the stage is opened (``report.py``): the
rest of its pass's contract (the page shows the first paragraph), its graphs, what its pass
changed, its notes and hazards, its IR text, and links to its files.

A graph with a picture gets a frame ``<div class="viewport" data-svg="NAME.svg">`` that the
page's script fills; one without shows why, and its DOT source when small. What the pass
changed is a unified diff, or for a pass that rewrites most statements (``stage_diff``) a table
of each input statement beside the output statements it became. Long texts and lists are cut
at a size a browser shows at once, with a link to the file that has all of it.
"""

from __future__ import annotations

import html

from .report import GraphSection, ReportNote, ReportStage, ReportWarning, contract_rest, prose  # noqa: F401 - prose for callers
from .stage_diff import PairedDiff, StageDiff

INLINE_TEXT_LIMIT = 300_000  # characters of IR text, DOT or diff shown in the page
PAIR_LIMIT = 2_000  # statement pairs shown
NOTE_LIMIT = 500  # notes listed


def stage_body(stage: ReportStage, previous: ReportStage | None) -> tuple[str, list[str]]:
    """(the HTML of the stage's body, the SVG files it shows)."""
    esc = html.escape
    parts: list[str] = []
    svgs: list[str] = []
    rest = contract_rest(stage.contract)
    if rest:
        paragraphs = "".join(f"<p>{prose(p)}</p>" for p in rest)
        parts.append(f'<div class="contract-rest">{paragraphs}</div>')
    for graph in stage.graphs:
        parts.append(_graph_block(graph))
        if graph.svg_file:
            svgs.append(graph.svg_file)
    if stage.instance_note:
        parts.append(f'<p class="note instance-note">Instance graph: {esc(stage.instance_note)}</p>')
    parts.append(_findings(stage))
    if previous is not None and stage.change is not None:
        parts.append(_change_block(previous, stage))
    chars, lines = stage.text_size or (len(stage.text), stage.text.count("\n") + 1)
    text_file = next((f for f in stage.files if f.endswith(".txt")), "")
    parts.append(f'<details class="ir-text"><summary>IR text ({esc(stage.language)}, {lines} lines)</summary>'
                 f'{text_block(stage.text, text_file, "ir", chars)}</details>')
    if stage.files:
        links = " ".join(f'<a href="{esc(f)}">{esc(f)}</a>' for f in stage.files)
        parts.append(f'<p class="files">Files: {links}</p>')
    return "\n".join(parts), svgs


def text_block(text: str, file: str, cls: str, chars: int | None = None) -> str:
    """``text`` in a ``<pre>``, or where it is when it has more than INLINE_TEXT_LIMIT characters or
    ``text`` holds less of it than its ``chars`` (the dump keeps no text the page does not show)."""
    chars = len(text) if chars is None else chars
    if chars > INLINE_TEXT_LIMIT or len(text) < chars:
        where = f'open <a href="{html.escape(file)}">{html.escape(file)}</a>' if file else "see the dump directory"
        return f'<pre class="{cls}">{chars} characters: too large to show here; {where}.</pre>'
    return f'<pre class="{cls}">{html.escape(text)}</pre>'


def _graph_block(graph: GraphSection) -> str:
    esc = html.escape
    parts = [f'<figure class="graph"><figcaption>{esc(graph.title)}']
    if graph.file:
        parts.append(f' (<a href="{esc(graph.file)}">{esc(graph.file)}</a>')
        if graph.svg_file:
            parts.append(f', picture <a href="{esc(graph.svg_file)}">{esc(graph.svg_file)}</a>')
        parts.append(")")
    if graph.same_as:
        parts.append(f' <span class="remark">{esc(graph.same_as)}</span>')
    parts.append("</figcaption>")
    if graph.note:
        parts.append(f'<p class="note">{esc(graph.note)}</p>')
    if graph.drawing_note:
        parts.append(f'<p class="note drawing">Drawn: {esc(graph.drawing_note)}.</p>')
    if graph.svg_file:
        parts.append(f'<div class="viewport" data-svg="{esc(graph.svg_file)}"><p class="note">loading the picture…</p></div>')
    else:
        parts.append(f'<p class="note">{esc(graph.why)}</p>')
        if graph.dot:
            parts.append(text_block(graph.dot, graph.file, "dot"))
    parts.append("</figure>")
    return "".join(parts)


def _findings(stage: ReportStage) -> str:
    esc = html.escape
    dropped = [n for n in stage.notes if n.kind == "dropped-edge"]
    others = [n for n in stage.notes if n.kind != "dropped-edge"]
    parts = ['<div class="findings">']
    if stage.notes_summary:
        parts.append(f'<p class="notes-summary">Notes: {esc(stage.notes_summary)}</p>')
    if stage.warnings:
        parts.append(f'<details class="warnings" open><summary>Warnings ({len(stage.warnings)})</summary><ul class="warnings">')
        parts.extend(_warning_item(w) for w in stage.warnings)
        parts.append("</ul></details>")
    if dropped:
        parts.append(f'<details class="notes" open><summary>Dropped compiler edges ({len(dropped)})</summary><ul class="dropped">')
        parts.extend(f"<li>{_where(n)}{esc(n.message)}</li>" for n in dropped[:NOTE_LIMIT])
        parts.append(_more(len(dropped), NOTE_LIMIT) + "</ul></details>")
    if others:
        parts.append(f'<details class="notes"><summary>Notes ({len(others)})</summary><ul class="notes">')
        parts.extend(f"<li>[{esc(n.kind)}] {_where(n)}{esc(n.message)}</li>" for n in others[:NOTE_LIMIT])
        parts.append(_more(len(others), NOTE_LIMIT) + "</ul></details>")
    if stage.hazards is None:
        parts.append('<p class="hazards none">Hazards: not checked (the hazard checker did not run on this stage).</p>')
    elif stage.hazard_count:
        parts.append(f'<h3>Hazards found ({stage.hazard_count})</h3><ul class="hazards">')
        for hazard in stage.hazards:
            pair = f" <code>{esc(hazard.first)}</code> / <code>{esc(hazard.second)}</code>" if hazard.first or hazard.second else ""
            parts.append(f"<li>{esc(hazard.message)}{pair}</li>")
        parts.append(_more(stage.hazard_count, len(stage.hazards)) + "</ul>")
    else:
        parts.append('<p class="hazards">Hazards found: none.</p>')
    parts.append("</div>")
    return "".join(parts)


def _warning_item(warning: ReportWarning) -> str:
    """A warning as the command line prints it: where, the message, its help line and notes."""
    esc = html.escape
    where = f"<code>{esc(warning.where)}</code>: " if warning.where else ""
    lines = [f"<li>{where}warning: {esc(warning.message)}"]
    if warning.hint:
        lines.append(f'<br><span class="help">help: {esc(warning.hint)}</span>')
    lines.extend(f'<br><span class="note">note: {esc(note)}</span>' for note in warning.notes)
    return "".join(lines) + "</li>"


def _more(total: int, shown: int) -> str:
    return f'<li class="more">… and {total - shown} more</li>' if total > shown else ""


def _where(note: ReportNote) -> str:
    return f"<code>{html.escape(note.where)}</code>: " if note.where else ""


def _change_block(previous: ReportStage, stage: ReportStage) -> str:
    change = stage.change
    if isinstance(change, PairedDiff):
        return _pairs_block(previous, change)
    return _diff_block(previous, change)


def _diff_block(previous: ReportStage, diff: StageDiff) -> str:
    esc = html.escape
    title = f"Diff against stage {previous.index:02d}"
    if diff.lines is None:
        return (f'<details class="diff" open><summary>{title}: too large to diff here</summary>'
                '<pre class="diff">Compare the two .txt files with diff.</pre></details>')
    if not diff.lines:
        return (f'<details class="diff" open><summary>{title}: no change</summary>'
                '<p class="note">The pass returned its input unchanged.</p></details>')
    body = []
    for line in diff.lines:
        cls = ("file" if line.startswith(("+++", "---")) else "add" if line[:1] == "+" else "del" if line[:1] == "-"
               else "hunk" if line.startswith("@@") else "ctx")
        body.append(f'<span class="{cls}">{esc(line)}</span>')
    text = "\n".join(body)
    if len(text) > INLINE_TEXT_LIMIT:
        content = f'<pre class="diff">+{diff.added} −{diff.removed} lines: too large to show here; compare the two .txt files.</pre>'
    else:
        content = f'<pre class="diff">{text}</pre>'
    return f'<details class="diff" open><summary>{title} (+{diff.added} −{diff.removed} lines)</summary>{content}</details>'


def _pairs_block(previous: ReportStage, paired: PairedDiff) -> str:
    """Each input statement beside the statements it became (unchanged ones counted, not shown)."""
    esc = html.escape
    changed = [p for p in paired.pairs if not p.same]
    rows = []
    for pair in changed[:PAIR_LIMIT]:
        where = f'<span class="where">{esc(pair.where)}</span>' if pair.where else ""
        before = esc(pair.before) if pair.before else '<span class="note">(made by the compiler)</span>'
        after = "\n".join(esc(line) for line in pair.after) if pair.after else '<span class="note">(removed)</span>'
        rows.append(f'<tr><td>{where}<pre class="del">{before}</pre></td><td><pre class="add">{after}</pre></td></tr>')
    more = f'<p class="note">… and {len(changed) - PAIR_LIMIT} more statements.</p>' if len(changed) > PAIR_LIMIT else ""
    same = len(paired.pairs) - len(changed)
    kept = f" ({same} statements kept as they were are not shown)" if same else ""
    return (f'<details class="diff" open><summary>What each statement of stage {previous.index:02d} became: '
            f"{esc(paired.summary)}{kept}</summary>"
            f'<table class="pairs"><thead><tr><th>input statement</th><th>output statements</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{more}</details>')
