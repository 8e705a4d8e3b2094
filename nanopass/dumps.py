"""``--dump-all DIR``: every stage's IR text and task graph, written as the stages complete, and
an HTML report about them all (``DIR/index.html``, see ``report.py``) when the run ends.

Files are ``NN_<pass>.<language>.txt`` and ``NN_<pass>.dot`` (``00_parse_dsl`` is the front
end's output), ``NN_<pass>.instances.dot`` when an instance graph was made, ``index.html``, and,
when the pipeline finishes, ``NN_print_cpp.cpp``. A manifest (``.nanopass-dump``) lists what
this tool wrote, so that a second run into the same directory removes only its own stale files
and never touches anything else there; a file in the way that the manifest does not list is
never overwritten (the run stops with a user error). Every file is written to a temporary name
and renamed, so a reader never sees a half-written file.

Two hooks feed the report: ``hazards_of(stage)`` returns the hazards found at a stage (the
hazard checker; None when there is none) and ``instances_of(stage)`` the task instances of one
run of the stage's program (the interpreter), or why the stage cannot be run (a string, or
None). ``nanopass.tools.instances.StageRuns`` provides both.
"""

from __future__ import annotations

import os
from typing import Callable, Iterable

from .errors import UserError
from .pipeline import Stage
from .report import GraphSection, Hazard, ReportNote, ReportStage, find_renderer, render_html
from .text import unparse

MANIFEST = ".nanopass-dump"
REPORT = "index.html"

HazardHook = Callable[[Stage], "list[Hazard] | None"]
InstanceHook = Callable[[Stage], "Iterable | str | None"]


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


class DumpWriter:
    """An observer for ``Pipeline.run`` that writes each stage into a directory.

    ``planned`` names the files the run may write; one that is in the way (not this tool's) stops
    the run before anything is written.
    """

    def __init__(
        self,
        directory: str,
        *,
        source: str = "",
        planned: Iterable[str] = (),
        hazards_of: HazardHook | None = None,
        instances_of: InstanceHook | None = None,
        renderer: object = "auto",
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
        self.source = source
        self.hazards_of = hazards_of
        self.instances_of = instances_of
        self.renderer = find_renderer() if renderer == "auto" else renderer
        self.stages: list[ReportStage] = []
        self.languages: list = []
        self.code: tuple[str, str] | None = None
        self.title = "nanopass report"
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
        from nanopass.printer.dot import static_graph

        text = unparse(stage.tree)
        graph = static_graph(stage.tree)
        dot = graph.to_digraph(stage.name).source
        text_file = self.file_name(stage, f".{stage.language.name}.txt")
        dot_file = self.file_name(stage, ".dot")
        self.write(text_file, text + "\n")
        self.write(dot_file, dot)
        if not self.stages:
            self.title = _title(stage.tree)
        report = ReportStage(
            index=stage.index,
            name=stage.name,
            language=stage.language.name,
            language_delta=self._language_delta(stage),
            contract=stage.contract,
            text=text,
            seconds=stage.seconds,
            graphs=[GraphSection("Task graph: one node per submit site", dot, len(graph.nodes), len(graph.edges), dot_file)],
            notes=[ReportNote(n.kind, n.message, str(n.span) if n.span else "") for n in stage.notes],
            hazards=self.hazards_of(stage) if self.hazards_of else None,
            files=[text_file, dot_file],
            language_doc=stage.language.doc,
        )
        self._instances(stage, report)
        self.stages.append(report)
        self.languages.append(stage.language)

    def _language_delta(self, stage: Stage) -> str:
        if not self.languages:
            return stage.language.grammar_text()
        before = self.languages[-1]
        return "" if before is stage.language else before.diff(stage.language)

    def _instances(self, stage: Stage, report: ReportStage) -> None:
        from nanopass.printer.instances import instance_graph

        if self.instances_of is None:
            return
        instances = self.instances_of(stage)
        if instances is None or isinstance(instances, str):
            report.instance_note = instances or "the interpreter cannot run this stage's program"
            return
        result = instance_graph(instances)
        name = self.file_name(stage, ".instances.dot")
        dot = result.graph.to_digraph(f"{stage.name}_instances").source
        self.write(name, dot)
        note = f"{result.instances} task instances"
        if result.summarised:
            note += ", summarised per submit site" + (f" ({result.omitted_sites} sites not drawn)" if result.omitted_sites else "")
        report.graphs.append(
            GraphSection("Instance graph: one node per task of one run", dot, len(result.graph.nodes),
                         len(result.graph.edges), name, note)
        )
        report.files.append(name)

    def write_code(self, index: int, code: str) -> None:
        name = f"{index:02d}_print_cpp.cpp"
        self.write(name, code)
        self.code = (name, code)

    def write(self, name: str, text: str) -> None:
        self._check_not_foreign(name)
        write_atomic(os.path.join(self.directory, name), text)
        self.written.append(name)
        self._write_manifest()

    def report_path(self) -> str:
        return os.path.join(self.directory, REPORT)

    def finish(self, failure: str | None = None) -> None:
        """Write the report, then remove this tool's files that this run did not write again."""
        page = render_html(self.title, self.stages, renderer=self.renderer, code=self.code, failure=failure,
                           source=self.source, instances=self.instances_of is not None)
        self.write(REPORT, page)
        for name in self.previous:
            if name not in self.written:
                path = os.path.join(self.directory, name)
                if os.path.isfile(path):
                    os.remove(path)
        self._write_manifest()

    def _write_manifest(self) -> None:
        keep = sorted(set(self.written) | {n for n in self.previous if n not in self.written})
        write_atomic(os.path.join(self.directory, MANIFEST), "".join(n + "\n" for n in keep))


def _title(tree) -> str:
    program = getattr(tree, "name", "")
    func = getattr(getattr(tree, "orch", None), "name", "") or getattr(tree, "func", "")
    return f"nanopass report: {program}.{func}" if program and func else "nanopass report"
