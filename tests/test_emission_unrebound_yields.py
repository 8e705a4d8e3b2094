"""lower_to_emission stacks a loop or if none of whose carries is rebound as None, and its Yields
return at once (``UNREBOUND_YIELDS_SKIPPED``): with the shortcut forced off (every loop and if
stacked, each Yield's values looked at) the emission must be the same on every example and golden
program, the bench shapes and random programs (manual scopes too); the shortcut must be taken on
the nested shape, and a loop with a rebound carry must still assign it."""

from __future__ import annotations

from pathlib import Path

from conftest import bench_file, corpus_tests, pass_runs, random_file, run_both_ways, running

from nanopass.passes import lower_to_emission
from nanopass.passes.lower_to_emission import LowerToEmission

OFF = [(lower_to_emission, "UNREBOUND_YIELDS_SKIPPED", False)]
run = running(LowerToEmission)


def check(path: Path, refusals: bool = False) -> int:
    runs = 0
    for given, compiled in pass_runs(path, "lower_to_emission", refusals=refusals):
        fast, full = run_both_ways(run, given, OFF)
        assert fast == compiled, path.name
        assert fast == full, path.name
        runs += 1
    return runs


test_programs, test_shapes = corpus_tests(check)


def test_random_programs(tmp_path):
    checked = [check(random_file(tmp_path, seed, manual=seed % 2 == 1), refusals=True) for seed in range(60)]
    assert sum(checked) >= 40


def yields_met(tree, monkeypatch) -> list:
    """(owner stacked, number of values) for each Yield the lowering of ``tree`` meets."""
    met = []
    original = LowerToEmission.lower_Yield

    def counting(self, yld, out):
        met.append((self.loops[-1], len(yld.values)))
        return original(self, yld, out)

    monkeypatch.setattr(LowerToEmission, "lower_Yield", counting)
    run(tree)
    return met


def test_the_shortcut_is_taken_on_the_nested_shape(tmp_path, monkeypatch):
    ((given, _),) = pass_runs(bench_file(tmp_path, "nested", 8), "lower_to_emission")
    met = yields_met(given, monkeypatch)
    assert met and all(owner is None for owner, _ in met)


def test_a_rebound_carry_is_still_assigned(monkeypatch):
    from conftest import EXAMPLES

    stacked = 0
    for path in sorted(EXAMPLES.glob("*.py")):
        for given, _ in pass_runs(path, "lower_to_emission", refusals=True):
            for owner, count in yields_met(given, monkeypatch):
                if owner is not None:
                    carries = owner.results if owner._production == "If" else owner.iters
                    assert any(c.plan.rebind for c in carries)
                    stacked += 1
    assert stacked  # (examples with rebound carries: their loops are stacked)
