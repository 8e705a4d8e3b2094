"""The types of a function's names."""

from __future__ import annotations

from nanopass.languages.named import binder_list


def type_env(func) -> dict[str, object]:
    """name -> Type for every parameter and Binder of a function of the languages from hoisted to
    encoded (by the names the tree spells)."""
    env: dict[str, object] = {p.name: p.type for p in func.params}
    for binder in binder_list(func.body):
        env[binder.name] = binder.type
    return env
