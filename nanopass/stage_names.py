"""The names a command line may give a stage or a pass, and the pipelines it may choose.

A compile's stages are named as ``--dump-all`` and the report name them: ``parse_dsl`` (the front
end's output, stage 0), one stage per pass, and ``print_cpp`` (the C++). ``pass_class`` finds a
pass of the pipeline by name; ``chosen_passes`` builds the pipeline that ``--passes`` and
``--skip`` choose and refuses one whose languages do not connect. Every refusal is a
``UsageError`` (exit 2) that suggests the closest name.
"""

from __future__ import annotations

from typing import Sequence

from .errors import UsageError
from .language import Language
from .rewrite import Pass
from .suggest import unknown_name

FRONT_END = "parse_dsl"
PRINTER = "print_cpp"


def pipeline_passes() -> list[type[Pass]]:
    from nanopass.passes.pipeline import PASSES

    return list(PASSES)


def known_passes() -> list[type[Pass]]:
    """The pipeline's passes, then those that stand in for one of them (``STAND_INS``)."""
    from nanopass.passes.pipeline import STAND_INS

    return pipeline_passes() + list(STAND_INS)


def with_stand_in(passes: Sequence[type[Pass]], name: str) -> list[type[Pass]]:
    """``passes`` with the stand-in called ``name`` in place of the pass it stands in for (unchanged
    when ``name`` is not a stand-in's)."""
    from nanopass.passes.pipeline import STAND_INS

    for stand_in, replaced in STAND_INS.items():
        if stand_in.name == name:
            return [stand_in if p is replaced else p for p in passes]
    return list(passes)


def stage_names() -> list[str]:
    """``parse_dsl``, every pass of the pipeline in order, ``print_cpp``."""
    return [FRONT_END] + [p.name for p in pipeline_passes()] + [PRINTER]


def check_stage_name(option: str, name: str, allowed: Sequence[str]) -> str:
    """``name`` if it is one of ``allowed``, else a usage error naming the closest."""
    if name in allowed:
        return name
    if name in stage_names():  # a stage this option cannot take
        raise UsageError(f"{option}: '{name}' cannot be used here (choose one of: {', '.join(allowed)})")
    raise UsageError(unknown_name("pass", name, allowed, where=f"{option}: "),
                     hint="'nanopass passes' lists the pipeline")


def pass_class(option: str, name: str) -> type[Pass]:
    """The pass of the pipeline, or a stand-in for one, called ``name``."""
    by_name = {p.name: p for p in known_passes()}
    return by_name[check_stage_name(option, name, list(by_name))]


def split_names(values: Sequence[str]) -> list[str]:
    """Names given as repeated flags, comma-separated lists, or both."""
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def chosen_passes(source: Language, passes: Sequence[str] | None = None, skip: Sequence[str] = (),
                  option: str = "--passes", input_label: str = "the input is in") -> list[type[Pass]]:
    """The passes to run on a tree of language ``source``: ``passes`` in the order given (default:
    the pipeline), less those in ``skip``. Each pass must read the language the one before it
    produces (the first: ``source``), and no pass may be given twice."""
    if passes is None:
        chosen = pipeline_passes()
    else:
        chosen = [pass_class(option, name) for name in passes]
    skipped = {pass_class("--skip", name) for name in skip}
    chosen = [p for p in chosen if p not in skipped]
    seen: set[str] = set()
    for p in chosen:
        if p.name in seen:
            raise UsageError(f"{option}: '{p.name}' is given twice (a pipeline runs each pass once)")
        seen.add(p.name)
    connect(source, chosen, input_label)
    return chosen


def connect(source: Language, passes: Sequence[type[Pass]], input_label: str = "the input is in") -> None:
    """Refuse (``UsageError``) a list of passes whose languages do not chain from ``source``
    (``input_label`` says where ``source`` comes from)."""
    current, before = source, None
    for p in passes:
        if p.source is not current:
            given = f"'{before.name}' produces" if before else input_label
            makers = [q.name for q in pipeline_passes() if q.target is p.source and q.source is not q.target]
            raise UsageError(
                f"the chosen passes do not connect: '{p.name}' reads language '{p.source.name}', "
                f"but {given} '{current.name}'",
                hint=f"'{makers[0]}' is the pass that produces '{p.source.name}'" if makers
                else f"'{p.source.name}' is the front end's language: '{p.name}' runs first",
            )
        current, before = p.target, p
