"""``covers_after`` returns a fact no TaskId value covers as it is, without looking at the
transfers: here, against each transfer applied in turn (``assigned_covers``, ``added_covers``), on
random transfer logs, and on covered facts (which the early return must not touch)."""

import random

from nanopass.passes.holders import NONE, added_covers, assigned_covers, covers_after

NAMES = ("a", "b", "c", "d", "e")


def _log(rng: random.Random) -> list:
    """A random log of transfers as ``Holders`` keeps it."""
    log = []
    for _ in range(rng.randrange(0, 6)):
        if rng.random() < 0.6:
            what = [(name, frozenset(rng.sample(NAMES, rng.randrange(0, 3)))) for name in rng.sample(NAMES, rng.randrange(1, 3))]
            log.append((True, what))
        else:
            log.append((False, (rng.choice(NAMES), frozenset(rng.sample(NAMES, rng.randrange(0, 3))))))
    return log


def _each_in_turn(covers: frozenset, log: list) -> frozenset:
    for assigns, what in log:
        if assigns:
            covers = assigned_covers(covers, {name for name, _ in what}, what)
        else:
            covers = added_covers(covers, *what)
    return covers


def test_an_uncovered_fact_stays_uncovered_through_every_log():
    rng = random.Random(42)
    for _ in range(2000):
        log = _log(rng)
        assert _each_in_turn(frozenset(), log) == frozenset()
        assert covers_after(NONE, log) is NONE


def test_a_covered_fact_goes_through_every_transfer():
    rng = random.Random(43)
    changed = 0
    for _ in range(2000):
        log = _log(rng)
        covers = frozenset(rng.sample(NAMES, rng.randrange(1, 4)))
        after = covers_after(covers, log)
        assert after == _each_in_turn(covers, log)
        changed += after != covers
    assert changed > 100  # (the logs do change covered facts: the comparison can fail)
