"""The dependency figures (tools/measure_edges.py) summed over generated programs.

    python -m nanopass.tools.measure_generated [--seeds 200] [--first 0] [--manual] [--before]

Programs come from ``gen_programs.generate(RandomChooser(seed))`` for each of the ``--seeds``
seeds from ``--first`` on: AUTO programs (every insertion is the compiler's), or with ``--manual`` the manual
ones (seed % 4 == 3 in the CI samples, with the dependencies ``fuzz_deps.derive_deps`` writes for
the user, so most of their insertions are the user's). Each program runs on each of its value
sets. The last figure compares the insertions with the fewest a compiler can make that submits the
user's ``deps=`` as written (docs/semantics.md, "The user's dependencies stay"): the minimum plus
the user's redundant entries. ``--before`` also sums the compile without the passes that drop and merge insertions
(option ``lean_edges=False``).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

FIGURES = ("runs", "tasks", "insertions", "redundant", "minimum", "dummies")


def generated_totals(seeds, manual: bool = False, options: dict | None = None) -> Counter:
    """The figures summed over the generated programs of ``seeds`` and their value sets, with
    the insertions per kind (``by_kind``); ``refused`` counts the programs the compiler refuses
    because no compilation of them is correct (they have no figures)."""
    from nanopass.api import surface_of

    from .check import program_inputs
    from .fuzz_deps import compile_generated
    from .gen_programs import RandomChooser, generate
    from .measure_edges import measure_stages

    total: Counter = Counter()
    for seed in seeds:
        program = generate(RandomChooser(seed), manual=manual, max_statements=9)
        compiled = compile_generated(program, seed, options)
        if compiled is None:
            total["refused"] += 1
            continue
        _, stages, dsl = compiled
        for values in program.value_sets():
            figures = measure_stages(stages, program_inputs(surface_of(dsl), values))
            total["runs"] += 1
            for name in FIGURES[1:]:
                total[name] += getattr(figures, name)
            for kind, count in figures.by_kind.items():
                total[f"by_kind {kind}"] += count
            total["redundant user"] += figures.redundant_by_kind["user"]
    return total


def line(total: Counter) -> str:
    over = (total["insertions"] / total["minimum"] - 1) * 100 if total["minimum"] else 0.0
    kinds = ", ".join(f"{k.split()[1]} {v}" for k, v in sorted(total.items()) if k.startswith("by_kind"))
    kept = total["minimum"] + total["redundant user"]
    over_kept = (total["insertions"] / kept - 1) * 100 if kept else 0.0
    return (f"{total['runs']} runs, {total['tasks']} tasks ({total['refused']} programs refused): insertions {total['insertions']} ({kinds}), "
            f"redundant {total['redundant']} (user {total['redundant user']}), minimum {total['minimum']}, dummies {total['dummies']}; "
            f"insertions {over:+.1f}% against the minimum, {over_kept:+.1f}% against the minimum plus the user's redundant entries")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--manual", action="store_true")
    parser.add_argument("--before", action="store_true")
    args = parser.parse_args(argv)
    seeds = [s for s in range(args.first, args.first + args.seeds) if (s % 4 == 3) == args.manual]
    print(f"{len(seeds)} {'manual' if args.manual else 'AUTO'} programs (seeds {args.first}-{args.first + args.seeds - 1})")
    print("with the lean passes:    " + line(generated_totals(seeds, args.manual)), flush=True)
    if args.before:
        print("without (lean_edges off): " + line(generated_totals(seeds, args.manual, {"lean_edges": False})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
