"""Hypothesis strategies derived from a language's grammar (needs the ``test`` extra).

``trees(L)`` draws well-formed trees of a language's entry nonterminal (or any nonterminal):
each nonterminal becomes a choice among its productions, terminals use their own strategies,
and depth is bounded so that drawing always terminates (below the bound, a production is only
chosen if its required nonterminal fields can be satisfied).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .language import Language


def trees(language: Language, nonterminal: str | None = None, depth: int = 4, max_list: int = 3) -> Any:
    builder = _Builder(language, max_list)
    strategy = builder.nonterminal(nonterminal or language.entry, depth)
    if strategy is None:
        raise ValueError(f"{language.name}: no finite tree of {nonterminal or language.entry} within depth {depth}")
    return strategy


class _Builder:
    def __init__(self, language: Language, max_list: int):
        self.language = language
        self.max_list = max_list
        self.cache: dict[tuple[str, int], Any] = {}

    def nonterminal(self, name: str, depth: int):
        key = (name, depth)
        if key not in self.cache:
            self.cache[key] = None  # guards recursion through includes at the same depth
            options = [s for cls in self.language.classes(name) if (s := self.production(cls, depth)) is not None]
            self.cache[key] = st.one_of(options) if options else None
        return self.cache[key]

    def production(self, cls: type, depth: int):
        fields = []
        for spec in cls._field_specs:
            terminal = self.language.terminals.get(spec.kind)
            if terminal is not None:
                if terminal.strategy is None:
                    raise ValueError(f"terminal {terminal.name} has no strategy")
                inner = terminal.strategy()
            else:
                inner = self.nonterminal(spec.kind, depth - 1) if depth > 0 else None
            if spec.many:
                fields.append(st.just(()) if inner is None else st.lists(inner, max_size=self.max_list).map(tuple))
            elif spec.optional:
                fields.append(st.none() if inner is None else st.none() | inner)
            elif inner is None:
                return None
            else:
                fields.append(inner)
        if cls._rules:  # (node rules: draw again until the constructor accepts the node)
            return _obeying_rules(cls, st.tuples(*fields))
        return st.builds(cls, *fields)


@st.composite
def _obeying_rules(draw, cls: type, fields: Any) -> Any:
    """A ``cls`` node of drawn fields that its node rules accept (``Language``'s ``node_rules``):
    fields are drawn again while a rule refuses them, a bounded number of times."""
    from hypothesis import assume

    for _ in range(_RULE_TRIES):
        try:
            return cls(*draw(fields))
        except Exception:  # noqa: BLE001 - a rule refused the fields (any error it raises)
            continue
    assume(False)


_RULE_TRIES = 25


class Alien:
    """A value no grammar accepts in any field."""

    def __repr__(self) -> str:
        return "<alien>"


def nodes_of(language: Language, cls: type, depth: int = 2, max_list: int = 2) -> Any:
    """Well-formed nodes of one production class of ``language``."""
    strategy = _Builder(language, max_list).production(cls, depth)
    if strategy is None:
        raise ValueError(f"{language.name}: no finite {cls._production} within depth {depth}")
    return strategy
