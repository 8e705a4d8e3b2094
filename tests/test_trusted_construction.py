"""``make_trusted``: a node class's constructor without the grammar checks, for callers that have
proved their values (language.py). It builds the node ``make`` builds; ``make`` still refuses a bad
field; inside ``trusted_checked()`` ``make_trusted`` refuses it too, and the front end and
convert_to_ssa (the trusted callers) make the same trees with their trust checked, on every
example and golden program, the printed-IR samples, the bench shapes and random programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, load_program

from nanopass.api import surface_of
from nanopass.errors import GrammarError, Span, UserError
from nanopass.language import Production, trusted_checked
from nanopass.languages import SSA, SURFACE
from nanopass.languages.terms import DType, LoopKind
from nanopass.printed_ir import load_printed_text
from nanopass.passes.convert_to_ssa import ConvertToSsa
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of
from nanopass.tools.gen_programs import RandomChooser, generate

L = SURFACE
PROGRAMS = sorted(p for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.py"))
PRINTED = sorted((REPO / "tests" / "printed_ir").glob("*/*.py"))
SHAPES = ["straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles", "reuses"]
SPAN = Span("f.py", 3, 4)


def _some_nodes(make):
    """A few nodes of several classes, each built by ``make(cls)``'s constructor (lists given for
    tuple fields)."""
    ty = L.ScalarType.make(DType.INT64)
    var = make(L.Var)("x", span=SPAN)
    binder = make(L.Binder)("y", ty, span=SPAN)
    arg = make(L.Arg)(var, False, None, span=SPAN)
    task = make(L.Task)([binder], None, "k", [arg, arg], [], False, [], None, span=SPAN)
    one = make(L.Int)(1, DType.INDEX)
    loop = make(L.For)(binder, one, var, one, LoopKind.seq, [], [task], [], span=SPAN)
    return [var, binder, arg, task, loop]


def test_make_trusted_builds_the_node_make_builds():
    checked = _some_nodes(lambda cls: cls.make)
    trusted = _some_nodes(lambda cls: cls.make_trusted)
    assert trusted == checked
    for a, b in zip(trusted, checked):
        assert type(a) is type(b) and a.span == b.span
        for name in a._fields:  # (a list given for a tuple field is a tuple in both)
            assert type(getattr(a, name)) is type(getattr(b, name))


BAD = [
    (lambda make: make(L.Var)(5), "name"),
    (lambda make: make(L.Var)("x", span=("f.py", 1, 2)), "span"),
    (lambda make: make(L.Binder)("not an identifier", L.ScalarType.make(DType.INT64)), "name"),
    (lambda make: make(L.Arg)(L.Binder.make("y", L.ScalarType.make(DType.INT64)), False, None), "value"),
    (lambda make: make(L.Task)([], None, "k", [L.Var.make("x")], [], False, [], None), "args"),
    (lambda make: make(L.For)(L.Binder.make("i", L.ScalarType.make(DType.INDEX)), L.Int.make(0, DType.INDEX),
                              L.Int.make(1, DType.INDEX), L.Int.make(1, DType.INDEX), "range", [], [], []), "kind"),
]


@pytest.mark.parametrize("build, field", BAD, ids=[f"{i}-{f}" for i, (_, f) in enumerate(BAD)])
def test_make_refuses_a_bad_field_and_so_does_make_trusted_when_checked(build, field):
    with pytest.raises(GrammarError, match=field):
        build(lambda cls: cls.make)
    build(lambda cls: cls.make_trusted)  # unchecked: the caller's proof is all there is
    with trusted_checked():
        with pytest.raises(GrammarError, match=field):
            build(lambda cls: cls.make_trusted)
        with trusted_checked():  # (nested: the outer block still checks after the inner one)
            pass
        with pytest.raises(GrammarError, match=field):
            build(lambda cls: cls.make_trusted)
    build(lambda cls: cls.make_trusted)  # unchecked again after the block


def test_make_trusted_is_a_reserved_field_name():
    with pytest.raises(ValueError, match="reserved"):
        Production("P", "make_trusted:symbol")


def _both_ways(path: Path):
    """The surface and ssa trees of ``path``, read and converted with trusted construction as it
    is and checked."""
    surface = surface_of(load_program(path))
    ssa = ConvertToSsa(PassContext()).run(surface)
    with trusted_checked():
        surface_checked = surface_of(load_program(path))
        ssa_checked = ConvertToSsa(PassContext()).run(surface_checked)
    assert SSA.is_program(ssa)
    return (surface, ssa), (surface_checked, ssa_checked)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_trusted_construction_makes_the_trees_checked_construction_makes(path: Path):
    fast, checked = _both_ways(path)
    assert fast == checked


@pytest.mark.parametrize("path", PRINTED, ids=[f"{p.parent.name}-{p.stem}" for p in PRINTED])
def test_trusted_construction_on_the_printed_ir_samples(path: Path):
    def trees():
        surface = surface_of(load_printed_text(path.read_text(), str(path))[0])
        return surface, ConvertToSsa(PassContext()).run(surface)

    fast = trees()
    with trusted_checked():
        checked = trees()
    assert fast == checked


def _shape_and_random_sources():
    """(name, source) of each bench shape at N = 24 and of 40 random programs."""
    yield from ((shape, source_of(shape, 24)) for shape in SHAPES)
    for seed in range(40):
        yield f"random_{seed}", generate(RandomChooser(3700 + seed), manual=seed % 3 == 1).render()


def test_trusted_construction_on_the_shapes_and_random_programs(tmp_path):
    compiled = 0
    for name, source in _shape_and_random_sources():
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        try:
            fast, checked = _both_ways(path)
        except UserError:  # (a random program the front end refuses: refused both ways)
            assert name.startswith("random_"), name
            with trusted_checked(), pytest.raises(UserError):
                surface_of(load_program(path))
            continue
        assert fast == checked, name
        compiled += 1
    assert compiled >= len(SHAPES) + 20
