"""Regenerate the README tutorial's pictures in docs/tutorial/ from the current compiler.

    python -m nanopass.tools.tutorial_images [DOCS_DIR]

Needs Graphviz's ``dot`` (the task graphs, as SVG) and Debian's ``chromium`` (a screenshot of
the ``--dump-all`` report). Writes ``<pass>.svg`` for the tutorial's stages of
``examples/manual_phases.py``, ``legend.svg`` (every edge kind, from
``tests/programs/graph_features.py``), ``report.png`` (the top of the report) and
``report-stage.png`` (its ``resolve_dep_edges`` stage).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TUTORIAL = REPO / "examples" / "manual_phases.py"
LEGEND = REPO / "tests" / "programs" / "graph_features.py"
STAGES = ("parse_dsl", "materialize_runtime_scopes", "lower_to_emission")


def _stages(path: Path):
    from nanopass.api import run_pipeline
    from nanopass.loader import load_programs, pick_program

    return run_pipeline(pick_program(load_programs(str(path)), None, str(path)))


def _svg(tree, name: str) -> str:
    from nanopass.printer.dot import task_graph

    return task_graph(tree, name).pipe(format="svg", encoding="utf-8")


def main(argv: list[str]) -> int:
    docs = Path(argv[0]) if argv else REPO / "docs" / "tutorial"
    chromium = shutil.which("chromium")
    if not shutil.which("dot") or not chromium:
        print("needs Graphviz's dot and chromium on PATH", file=sys.stderr)
        return 2
    docs.mkdir(parents=True, exist_ok=True)
    by_name = {s.name: s for s in _stages(TUTORIAL)}
    for name in STAGES:
        (docs / f"{name}.svg").write_text(_svg(by_name[name].tree, name))
    resolved = next(s for s in _stages(LEGEND) if s.name == "resolve_dep_edges")
    (docs / "legend.svg").write_text(_svg(resolved.tree, "legend"))
    with tempfile.TemporaryDirectory() as scratch:
        dump = Path(scratch, "dump")
        subprocess.run([sys.executable, "-m", "nanopass", "run", str(TUTORIAL.relative_to(REPO)), "--dump-all", str(dump), "-q"],
                       check=True, cwd=REPO)
        page = dump / "index.html"
        _screenshot(chromium, page, docs / "report.png", scratch)
        # One stage alone: the page with every other section hidden.
        stage = next(n for n in sorted(os.listdir(dump)) if n.endswith("_resolve_dep_edges.dot")).split("_", 1)[0]
        hide = f"<style>header, footer, #summary, #legend, #cpp, section.stage:not(#stage-{stage}) {{ display: none; }}</style>"
        alone = dump / "stage.html"
        alone.write_text(page.read_text().replace("</head>", hide + "</head>", 1))
        _screenshot(chromium, alone, docs / "report-stage.png", scratch, height=1000, open_stage=stage)
    print(f"wrote {docs}")
    return 0


def _screenshot(chromium: str, page: Path, png: Path, scratch: str, height: int = 900, open_stage: str = "",
                width: int = 1280) -> None:
    """A picture of ``page``; with ``open_stage`` (e.g. "17"), that stage opened (its body, graphs
    and all, which the page loads: the browser waits for it, in virtual time)."""
    url = page.as_uri() + (f"#stage-{open_stage}" if open_stage else "")
    subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={scratch}/profile",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
         "--virtual-time-budget=10000", f"--screenshot={png}", f"--window-size={width},{height}", url],
        check=True, capture_output=True,
    )


def stage_screenshot(chromium: str, dump: Path, stage: str, png: Path, scratch: str, height: int = 1400,
                     width: int = 1400) -> None:
    """A picture of one stage of the report in ``dump`` alone, opened."""
    hide = f"<style>header, footer, #summary, #legend, #cpp, section.stage:not(#stage-{stage}) {{ display: none; }}</style>"
    alone = dump / f"stage-{stage}.html"
    alone.write_text((dump / "index.html").read_text().replace("</head>", hide + "</head>", 1))
    _screenshot(chromium, alone, png, scratch, height=height, open_stage=stage, width=width)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
