"""``--dump-all DIR``: every stage's IR text and task graph, written as the stages complete.

Files are ``NN_<pass>.<language>.txt`` and ``NN_<pass>.dot`` (``00_parse_dsl`` is the front
end's output) and, when the pipeline finishes, ``NN_print_cpp.cpp``. A manifest
(``.nanopass-dump``) lists what this tool wrote, so that a second run into the same directory
removes only its own stale files and never touches anything else there. Every file is written
to a temporary name and renamed, so a reader never sees a half-written file.
"""

from __future__ import annotations

import os

from .pipeline import Stage
from .text import unparse

MANIFEST = ".nanopass-dump"


def write_atomic(path: str, text: str) -> None:
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    tmp = os.path.join(directory, f".{os.path.basename(path)}.tmp{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)


class DumpWriter:
    """An observer for ``Pipeline.run`` that writes each stage into a directory."""

    def __init__(self, directory: str):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)
        self.previous = self._read_manifest()
        self.written: list[str] = []

    def _read_manifest(self) -> list[str]:
        path = os.path.join(self.directory, MANIFEST)
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as handle:
            return [line.strip() for line in handle if line.strip() and "/" not in line and not line.startswith(".")]

    def file_name(self, stage: Stage, suffix: str) -> str:
        return f"{stage.index:02d}_{stage.name}{suffix}"

    def __call__(self, stage: Stage) -> None:
        from nanopass.printer.dot import to_dot

        self.write(self.file_name(stage, f".{stage.language.name}.txt"), unparse(stage.tree) + "\n")
        self.write(self.file_name(stage, ".dot"), to_dot(stage.tree, name=stage.name))

    def write_code(self, index: int, code: str) -> None:
        self.write(f"{index:02d}_print_cpp.cpp", code)

    def write(self, name: str, text: str) -> None:
        write_atomic(os.path.join(self.directory, name), text)
        self.written.append(name)
        self._write_manifest()

    def finish(self) -> None:
        for name in self.previous:
            if name not in self.written:
                path = os.path.join(self.directory, name)
                if os.path.isfile(path):
                    os.remove(path)
        self._write_manifest()

    def _write_manifest(self) -> None:
        keep = sorted(set(self.written) | {n for n in self.previous if n not in self.written})
        write_atomic(os.path.join(self.directory, MANIFEST), "".join(n + "\n" for n in keep))
