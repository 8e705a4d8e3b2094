"""The front end's fixed point: what it gives for every program the repository holds, as one text.

    python -m nanopass.tools.frontend_snapshot --write FILE [--mutants N] [--seed S]
    python -m nanopass.tools.frontend_snapshot --check FILE [--mutants N] [--seed S]

Every ``*.py`` file under ``examples/``, ``tests/programs/``, ``tests/golden/``, ``tests/corpus/``
and ``tests/semantics/``, plus ``N`` mutants of the example, golden and test programs (drawn by
``fuzz_mutations`` from seed ``S``: mostly wrong programs, so most of the front end's messages
are reached), is read twice: by importing it and without running it (``--no-exec``). For each
reading the text records, per program of the file, the front end's output as the
``00_parse_dsl.surface.txt`` dump holds it, with each node's span, or the exact ``UserError``
(position, message, hint); a file that does not load records the loader's error, and anything
else raised records its type and message.

A restructuring of the front end must leave the text byte for byte the same: ``--write`` it
before, ``--check`` after each step (exit status 1 and the first differences if it changed).
Paths print relative to the repository, mutants as ``<mutant NNNN>``, so the text does not depend
on where the checkout or the temporary directory is.
"""

from __future__ import annotations

import argparse
import difflib
import random
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Callable, Iterator

REPO = Path(__file__).resolve().parent.parent
DIRS = ["examples", "tests/programs", "tests/golden", "tests/corpus", "tests/semantics"]


def repository_files() -> list[Path]:
    return sorted(p for d in DIRS for p in (REPO / d).rglob("*.py"))


def mutants(count: int, seed: int) -> Iterator[str]:
    """``count`` mutants of the seed programs, the same ones for the same ``seed``."""
    from nanopass.tools.fuzz_mutations import RandomChooser, mutate, seed_sources

    rng = random.Random(seed)
    sources = seed_sources()
    made = 0
    while made < count:
        _name, text = sources[rng.randrange(len(sources))]
        new, done = mutate(text, RandomChooser(rng), rng.randint(1, 2))
        if done:
            made += 1
            yield new


def reading(path: Path, load: Callable[[str], list]) -> str:
    """The front end's output (or error) for every program ``load`` finds in ``path``."""
    from nanopass.errors import UserError
    from nanopass.text import unparse

    try:
        programs = load(str(path))
    except UserError as error:
        return f"load: {_error_text(error)}\n"
    except Exception as error:  # noqa: BLE001 - recorded: a crash is part of the fixed point too
        return f"load crashed: {type(error).__name__}: {error}\n"
    out = []
    for program in programs:
        out.append(f"program {program.name}:\n")
        try:
            out.append(unparse(program.surface(None), show_spans=True) + "\n")
        except UserError as error:
            out.append(_error_text(error) + "\n")
        except Exception as error:  # noqa: BLE001
            out.append(f"crashed: {type(error).__name__}: {error}\n")
    return "".join(out)


def _error_text(error) -> str:
    hint = f"\n  hint: {error.hint}" if error.hint else ""
    return f"{error}{hint}"


def snapshot(count: int, seed: int) -> str:
    from nanopass.loader import load_programs
    from nanopass.static_loader import load_programs_static

    with tempfile.TemporaryDirectory() as tmp:
        entries: list[tuple[str, Path]] = [(str(p.relative_to(REPO)), p) for p in repository_files()]
        for index, text in enumerate(mutants(count, seed)):
            path = Path(tmp) / f"mutant_{index:04d}.py"
            path.write_text(text)
            entries.append((f"<mutant {index:04d}>", path))
        parts = []
        for label, path in entries:
            for mode, load in (("import", load_programs), ("no-exec", load_programs_static)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    text = reading(path, load)
                text = text.replace(str(path), label).replace(str(REPO) + "/", "")
                parts.append(f"### {label} [{mode}]\n{text}")
        return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", metavar="FILE")
    what.add_argument("--check", metavar="FILE")
    parser.add_argument("--mutants", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args(argv)
    text = snapshot(args.mutants, args.seed)
    if args.write:
        Path(args.write).write_text(text)
        print(f"wrote {args.write}: {text.count('### ')} readings, {len(text)} characters")
        return 0
    expected = Path(args.check).read_text()
    if text == expected:
        print(f"same as {args.check}: {text.count('### ')} readings")
        return 0
    diff = difflib.unified_diff(expected.splitlines(), text.splitlines(), args.check, "now", lineterm="", n=1)
    for count, line in enumerate(diff):
        if count == 200:
            print("...")
            break
        print(line)
    return 1


if __name__ == "__main__":
    sys.exit(main())
