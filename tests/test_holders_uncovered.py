"""``covers_after`` returns a fact no TaskId value covers as it is, without looking at the
transfers: here, each transfer keeps an uncovered fact uncovered, and a log split anywhere gives
what the whole log gives (the second part taking, as it is, a fact the first part uncovered, which
the whole log takes through the rest of its transfers), on random logs."""

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


def test_each_transfer_keeps_an_uncovered_fact_uncovered():
    rng = random.Random(42)
    for _ in range(2000):
        log = _log(rng)
        for assigns, what in log:
            if assigns:
                assert assigned_covers(frozenset(), {name for name, _ in what}, what) == frozenset()
            else:
                assert added_covers(frozenset(), *what) == frozenset()
        assert covers_after(NONE, log) is NONE


def test_a_log_split_anywhere_gives_what_the_whole_log_gives():
    rng = random.Random(43)
    uncovered_midway = 0
    for _ in range(3000):
        log = _log(rng)
        covers = frozenset(rng.sample(NAMES, rng.randrange(1, 4)))
        k = rng.randrange(0, len(log) + 1)
        midway = covers_after(covers, log[:k])
        assert covers_after(midway, log[k:]) == covers_after(covers, log)
        uncovered_midway += not midway and k < len(log)
    assert uncovered_midway > 50  # (the early return is taken midway: the comparison can fail)
