"""Sweep the static task graph's oracle over generated programs.

    python -m nanopass.tools.graph_sweep --surface --seeds 0-299
    python -m nanopass.tools.graph_sweep --manual --seeds 40-79 [--after-front-end]

For each seed (``A-B``: A to B, both included) this makes a program, compiles it and checks every
stage ``task_graph_oracle.violations`` checks: each ordering a run needs must be shown by the
stage's static graph (printer/dot.py). The programs are the attack tester's surface programs
(``--surface``: tools/attack/surface_generate.py, run with n in 0, 2, 3 and c in 0, 1) or
gen_programs' (``--auto``, ``--manual``: as tests/test_task_graph_oracle.py makes them, run with
each program's value sets). A program the compiler refuses (a located error: the graph of a
program that does not compile is not drawn), or a surface program of two orchestration
functions (the check reads one), is counted as skipped. Prints one line per seed whose stages miss an ordering (the count and the first),
one per seed whose check raised, and a summary; exits 1 when any seed did either.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass


@dataclass
class Made:
    """A compiled program and the values to run it on."""

    stages: list
    program: object
    options: dict
    value_sets: list


SURFACE_VALUES = [{"n": str(n), "c": str(c)} for n in (0, 2, 3) for c in (0, 1)]


def surface_program(seed: int) -> Made | None:
    """The attack tester's surface program of ``seed``, compiled; None when skipped."""
    from nanopass.errors import UserError
    from nanopass.tools.attack import surface_generate
    from nanopass.tools.attack.program import render
    from nanopass.tools.gen_programs import options_of
    from nanopass.tools.properties import compile_text

    generated = surface_generate.generate(seed, None)
    if any(type(f).__name__ == "SecondOrch" for f in generated.functions):
        return None
    text = render(generated).source
    options = options_of(text)
    try:
        stages, program = compile_text(text, options)
    except UserError:
        return None
    return Made(stages, program, options, SURFACE_VALUES)


def generated_program(seed: int, manual: bool) -> Made | None:
    """gen_programs' program of ``seed`` (with ``manual``, its dependencies derived as
    fuzz_deps does), compiled; None when the compiler refuses it."""
    from nanopass.errors import UserError
    from nanopass.tools.fuzz_deps import derive_deps
    from nanopass.tools.gen_programs import RandomChooser, generate, options_of
    from nanopass.tools.properties import compile_text

    generated = generate(RandomChooser(seed), manual=manual)
    try:  # (deriving a manual program's dependencies compiles it)
        text = generated.render(derive_deps(generated, random.Random(seed))[0] if manual else None)
        options = options_of(text)
        stages, program = compile_text(text, options)
    except UserError:
        return None
    return Made(stages, program, options, generated.value_sets())


def seed_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main(argv=None) -> int:
    from nanopass.tools.task_graph_oracle import violations

    parser = argparse.ArgumentParser(prog="python -m nanopass.tools.graph_sweep", description=__doc__.split("\n\n")[0])
    kind = parser.add_mutually_exclusive_group(required=True)
    kind.add_argument("--surface", action="store_true", help="the attack tester's surface programs")
    kind.add_argument("--auto", action="store_true", help="gen_programs' programs in AUTO scopes")
    kind.add_argument("--manual", action="store_true", help="gen_programs' programs with manual scopes")
    parser.add_argument("--seeds", default="0-99", help="A-B: the seeds A to B, both included")
    parser.add_argument("--after-front-end", action="store_true", help="check the stages after the front end's only")
    args = parser.parse_args(argv)
    checked = skipped = 0
    failed: list[int] = []
    for seed in seed_range(args.seeds):
        try:
            made = surface_program(seed) if args.surface else generated_program(seed, manual=args.manual)
            if made is None:
                skipped += 1
                continue
            found = violations(made.stages, made.program, made.value_sets, made.options,
                               surface_stage=not args.after_front_end)
        except Exception as error:  # (a crash of the compiler or the check: reported, the sweep goes on)
            failed.append(seed)
            print(f"seed {seed}: raised {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}",
                  flush=True)
            continue
        checked += 1
        if found:
            failed.append(seed)
            print(f"seed {seed}: {len(found)} orderings not shown, the first: {found[0]}", flush=True)
    print(f"{checked} programs checked, {skipped} skipped, {len(failed)} failed"
          + (f": seeds {' '.join(map(str, failed))}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
