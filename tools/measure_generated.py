"""The dependency figures (tools/measure_edges.py) summed over generated programs.

    python -m nanopass.tools.measure_generated [--seeds 200] [--first 0] [--manual] [--before] [--worst K]

Programs come from ``gen_programs.generate(RandomChooser(seed))`` for each of the ``--seeds``
seeds from ``--first`` on: AUTO programs, or with ``--manual`` the manual ones (seed % 4 == 3 in
the CI samples, with the dependencies ``fuzz_deps.derive_deps`` writes for the user, so most of
their insertions are the user's). Each program runs on each of its value sets. The insertions are
counted per kind (tools/measure_edges.py: ``user`` is what the program's dependencies put in the
arrays, however the compiler lowers them: a TaskId array named whole, the user's
``task_dummy``, a phase fence over an array). The last figure compares the insertions with the
fewest a compiler can make that submits the user's ``deps=`` as written (docs/semantics.md, "The
user's dependencies stay"): the user's insertions plus the compiler minimum, the covering pairs
of the run's order that neither the runtime nor the user's entries order (without dummies, the
minimum plus the user's redundant entries). ``--before`` also sums the compile without the passes
that drop and merge insertions (option ``lean_edges=False``).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

FIGURES = ("runs", "tasks", "insertions", "redundant", "minimum", "compiler_minimum", "implied_by_user", "dummies")


def generated_totals(seeds, manual: bool = False, options: dict | None = None) -> Counter:
    """The figures summed over the generated programs of ``seeds`` and their value sets, with
    the insertions per kind (``by_kind``); ``refused`` counts the programs the compiler refuses
    because no compilation of them is correct (they have no figures)."""
    total: Counter = Counter()
    for seed in seeds:
        total.update(program_totals(seed, manual, options))
    return total


def program_totals(seed: int, manual: bool = False, options: dict | None = None) -> Counter:
    """The figures of seed ``seed``'s program summed over its value sets (``generated_totals``)."""
    from nanopass.api import surface_of

    from .check import program_inputs
    from .fuzz_deps import compile_generated
    from .gen_programs import RandomChooser, generate
    from .measure_edges import measure_stages

    total: Counter = Counter()
    program = generate(RandomChooser(seed), manual=manual, max_statements=9)
    compiled = compile_generated(program, seed, options)
    if compiled is None:
        total["refused"] += 1
        return total
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


def excess(total: Counter) -> int:
    """The insertions over the user's entries plus the compiler minimum: the compiler's own
    insertions past the fewest it needs."""
    return total["insertions"] - total["by_kind user"] - total["compiler_minimum"]


def line(total: Counter) -> str:
    over = (total["insertions"] / total["minimum"] - 1) * 100 if total["minimum"] else 0.0
    kinds = ", ".join(f"{k.split()[1]} {v}" for k, v in sorted(total.items()) if k.startswith("by_kind"))
    kept = total["by_kind user"] + total["compiler_minimum"]
    over_kept = (total["insertions"] / kept - 1) * 100 if kept else 0.0
    return (f"{total['runs']} runs, {total['tasks']} tasks ({total['refused']} programs refused): insertions {total['insertions']} ({kinds}), "
            f"redundant {total['redundant']} (user {total['redundant user']}; of the compiler's, implied by the "
            f"runtime and the user's {total['implied_by_user']}), minimum {total['minimum']} "
            f"(beyond the user's entries {total['compiler_minimum']}), dummies {total['dummies']}; "
            f"insertions {over:+.1f}% against the minimum, {over_kept:+.1f}% against the user's entries plus the "
            f"compiler minimum")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--manual", action="store_true")
    parser.add_argument("--before", action="store_true")
    parser.add_argument("--worst", type=int, default=0, metavar="K",
                        help="also list the K programs with the most insertions over the user's entries plus the "
                        "compiler minimum")
    args = parser.parse_args(argv)
    seeds = [s for s in range(args.first, args.first + args.seeds) if (s % 4 == 3) == args.manual]
    print(f"{len(seeds)} {'manual' if args.manual else 'AUTO'} programs (seeds {args.first}-{args.first + args.seeds - 1})")
    each = {seed: program_totals(seed, args.manual) for seed in seeds}
    print("with the lean passes:    " + line(sum(each.values(), Counter())), flush=True)
    if args.before:
        print("without (lean_edges off): " + line(generated_totals(seeds, args.manual, {"lean_edges": False})))
    for seed in sorted(each, key=lambda s: (-excess(each[s]), s))[:args.worst]:
        total = each[seed]
        print(f"  seed {seed}: {excess(total)} over; insertions {total['insertions']} (user {total['by_kind user']}), "
              f"redundant {total['redundant']} (user {total['redundant user']}; of the compiler's, implied by the "
              f"runtime and the user's {total['implied_by_user']}), compiler minimum {total['compiler_minimum']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
