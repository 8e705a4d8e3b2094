"""Nodes and spans each phase of a compile builds.

    python -m nanopass.tools.node_counts FILE.py [FILE.py ...]

Prints, per file, for the front end and each pass: the distinct nodes of its output tree, how many
of them its input tree does not hold (the nodes the phase built: a pass that returns what it does
not change as it is builds only the nodes on the paths to its changes), and how many distinct
``Span`` objects its output holds that its input does not (the spans it built; a pass that copies
its input's spans builds none). A node or span held in several places counts once, and "held" is
by identity: an equal node built anew counts as built.

What a node and a span cost, built and freed (about 1,500 instructions each on CPython 3.11), is
in ``Node``'s and ``Span``'s docstrings: what the figures cost next to a phase's count in
``tools/instructions.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Iterable


def held(tree: Any) -> tuple[dict[int, Any], dict[int, Any]]:
    """The distinct nodes of ``tree`` and the distinct spans they hold, by ``id`` (each kept, so
    that no id is reused while the caller compares). A subtree met again is not walked again."""
    nodes: dict[int, Any] = {}
    spans: dict[int, Any] = {}
    stack = [tree]
    while stack:
        node = stack.pop()
        if id(node) in nodes:
            continue
        nodes[id(node)] = node
        span = node.span
        if span is not None:
            spans[id(span)] = span
        if node._child_fields:
            stack.extend(node._children())
    return nodes, spans


def built(before: Any, after: Any) -> tuple[int, int, int]:
    """(distinct nodes of ``after``, those ``before`` does not hold, distinct spans of ``after``
    that ``before`` does not hold); ``before`` None: nothing held before (the front end's)."""
    old_nodes, old_spans = held(before) if before is not None else ({}, {})
    nodes, spans = held(after)
    return len(nodes), sum(1 for key in nodes if key not in old_nodes), sum(1 for key in spans if key not in old_spans)


def phases(path: str) -> Iterable[tuple[str, int, int, int]]:
    """(phase, distinct nodes of its output, nodes built, spans built) for the front end and each
    pass of the compile of the program in ``path``."""
    from nanopass.api import surface_of
    from nanopass.languages.statements import reusing_walks
    from nanopass.loader import load_programs
    from nanopass.passes.pipeline import PIPELINE
    from nanopass.rewrite import PassContext

    tree = surface_of(load_programs(path)[0])
    yield ("front end", *built(None, tree))
    with reusing_walks():
        stages = PIPELINE.run(tree, PassContext(), input_name="parse_dsl")
    for before, after in zip(stages, stages[1:]):
        yield (after.name, *built(before.tree, after.tree))


def report(path: str) -> str:
    rows = list(phases(path))
    lines = [f"{os.path.basename(path)}", f"  {'phase':<44}{'nodes':>9}{'built':>9}{'spans built':>13}"]
    for name, nodes, new, spans in rows:
        lines.append(f"  {name:<44}{nodes:>9}{new:>9}{spans:>13}")
    lines.append(f"  {'passes (total)':<44}{'':>9}{sum(r[2] for r in rows[1:]):>9}{sum(r[3] for r in rows[1:]):>13}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100000))
    for path in args.files:
        print(report(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
