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


def one_edit_away(name: str, known: Iterable[str], limit: int = 3) -> str | None:
    """``did you mean 'x'?`` for the known names one insertion, deletion, substitution or swap of
    neighbours away from ``name`` (``yy`` for ``y``, ``tnp`` for ``tmp``): short names, which
    ``closest``'s ratio rarely finds, typed with one key wrong. None for a name of one character
    (every other one-character name would do) and when no known name is that close."""
    if len(name) < 2:
        return None
    found = sorted({k for k in known if k != name and _one_edit(name, k)})[:limit]
    return "did you mean " + " or ".join(f"'{n}'" for n in found) + "?" if found else None


def _one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1:]


def unknown_name(kind: str, name: str, known: Iterable[str], where: str = "") -> str:
    """One line for an unknown name: ``no pass named 'x' (did you mean 'y'?)``, or, when nothing is
    close, the known names themselves (``(passes: a, b, c)``)."""
    known = list(known)
    hint = did_you_mean(name, known)
    tail = hint if hint else f"{kind}{'es' if kind.endswith('s') else 's'}: {', '.join(known)}"
    return f"{where}no {kind} named '{name}' ({tail})"
