"""'Did you mean ...?' for a misspelled name: the closest known names, for a message's help line.

``closest(name, known)`` returns the known names within a small edit distance of ``name`` (or
sharing its last dotted part, for ``pl.tensr.read`` against ``pl.tensor.read``), best first;
``did_you_mean`` turns them into a help line, or None when nothing is close (then a message lists
the known names instead, as it did before).
"""

from __future__ import annotations

import difflib
from typing import Iterable


CUTOFF = 0.75  # difflib's similarity ratio a suggestion needs at least
MARGIN = 0.05  # how much less similar than the best a second suggestion may be


def closest(name: str, known: Iterable[str], limit: int = 3) -> list[str]:
    """The names in ``known`` that ``name`` is probably a misspelling of, best first."""
    candidates = sorted(set(known))
    if name in candidates:
        return [name]
    scored = []
    for candidate in candidates:
        matcher = difflib.SequenceMatcher(None, name, candidate)
        if matcher.real_quick_ratio() >= CUTOFF and matcher.quick_ratio() >= CUTOFF and matcher.ratio() >= CUTOFF:
            scored.append((matcher.ratio(), candidate))
    scored.sort(key=lambda item: (-item[0], item[1]))
    # the best, and the others nearly as close (a name close to several is ambiguous: all are shown)
    found = [candidate for ratio, candidate in scored if ratio >= scored[0][0] - MARGIN] if scored else []
    lowered = {c.lower(): c for c in candidates}
    if name.lower() in lowered and lowered[name.lower()] not in found:  # a difference of case only
        found.insert(0, lowered[name.lower()])
    return found[:limit]


def did_you_mean(name: str, known: Iterable[str], prefix: str = "") -> str | None:
    """``did you mean 'x'?`` (or ``'x' or 'y'``) for a help line; None when nothing is close.
    ``prefix`` is shown before each name (``pl.`` for a DSL operation)."""
    found = closest(name, known)
    if not found or found == [name]:
        return None
    return "did you mean " + " or ".join(f"'{prefix}{n}'" for n in found) + "?"


def unknown_name(kind: str, name: str, known: Iterable[str], where: str = "") -> str:
    """One line for an unknown name: ``no pass named 'x' (did you mean 'y'?)``, or, when nothing is
    close, the known names themselves (``(passes: a, b, c)``)."""
    known = list(known)
    hint = did_you_mean(name, known)
    tail = hint if hint else f"{kind}{'es' if kind.endswith('s') else 's'}: {', '.join(known)}"
    return f"{where}no {kind} named '{name}' ({tail})"
