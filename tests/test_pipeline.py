"""The registered passes and the pipeline list."""

from __future__ import annotations

import nanopass.passes.pipeline as pipeline_module
from nanopass.languages import ALL, EMISSION, SURFACE
from nanopass.rewrite import PASS_VERBS, REGISTRY


def test_registry_keys_equal_declared_names():
    assert REGISTRY.names(), "no pass registered"
    for key, cls in REGISTRY.items():
        assert key == cls.name


def test_every_pipeline_pass_is_registered_and_verb_first():
    for cls in pipeline_module.PASSES:
        assert REGISTRY[cls.name] is cls
        assert cls.name.split("_")[0] in PASS_VERBS
        assert cls.contract(), f"{cls.name} has no contract"


def test_pipeline_languages_chain_from_surface_to_emission():
    passes = pipeline_module.PASSES
    assert passes[0].source is SURFACE and passes[-1].target is EMISSION
    for before, after in zip(passes, passes[1:]):
        assert after.source is before.target, f"{before.name} -> {after.name}"


def test_every_language_is_produced_by_some_pass():
    produced = {SURFACE} | {p.target for p in pipeline_module.PASSES}
    assert produced == set(ALL)


def test_every_pass_module_holds_one_pass():
    import inspect

    from nanopass.rewrite import Pass

    for cls in pipeline_module.PASSES:
        module = inspect.getmodule(cls)
        passes = [
            v for v in vars(module).values()
            if isinstance(v, type) and issubclass(v, Pass) and v.__module__ == module.__name__  # (not a base it imports)
        ]
        assert passes == [cls], f"{module.__name__} defines {passes}"
        assert module.__name__.rsplit(".", 1)[-1] == cls.name
