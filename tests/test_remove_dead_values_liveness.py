"""remove_dead_values' liveness flows back one level at a time with set operations (the names
met for the first time: ``reads - live``; those that are lets, carries or if results: the
intersections with their tables). Its live set is the plain fixpoint's, computed here name by
name until nothing changes, on every example and golden program, the bench shapes and random
control-flow programs, with and without dummies as values."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, REPO, fuzz_budget, load_program
from program_gen import control_flow_programs

from nanopass.api import run_pipeline
from nanopass.languages.statements import iter_stmts
from nanopass.passes.remove_dead_values import PURE, RemoveDeadValues, _EFFECTS, _reads_of
from nanopass.passes.util import last_yield, var_reads
from nanopass.tools.bench import source_of

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROGRAMS = sorted(p for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.py"))


def plain_liveness(body, dummies: bool) -> set[str]:
    """Every name an effect reads, and every name a live name's value, carry or if result reads,
    until no name is added (a carry's iter_arg and result live together)."""
    needs: dict[str, list] = {}  # name -> the expressions its value reads
    roots: list = []
    pairs = []
    for stmt in iter_stmts(body):
        kind = stmt._production
        if kind == "Let":
            if stmt.value._production in PURE:
                needs[stmt.var.name] = [stmt.value]
            else:
                roots.append(stmt.value)
        elif kind in ("For", "While"):
            roots += [stmt.start, stmt.stop, stmt.step] if kind == "For" else [stmt.cond]
            yld = last_yield(stmt.body)
            for k, (it, result) in enumerate(zip(stmt.iters, stmt.results)):
                sources = [it.init] + ([yld.values[k]] if yld is not None else [])
                needs[it.var.name] = needs[result.name] = sources
                pairs.append((it.var.name, result.name))
        elif kind == "If":
            roots.append(stmt.cond)
            ylds = [y for y in (last_yield(stmt.then), last_yield(stmt.orelse)) if y]
            for k, res in enumerate(stmt.results):
                needs[res.name] = [y.values[k] for y in ylds]
        elif kind == "Dummy" and dummies:
            needs[stmt.var.name] = list(stmt.deps)
        elif kind == "Task" or kind in _EFFECTS:
            roots += list(_reads_of(stmt))
    live = set(var_reads(roots))
    while True:
        more = set(live)
        for name in live:
            more |= set(var_reads(needs.get(name, [])))
        for a, b in pairs:
            if a in more or b in more:
                more |= {a, b}
        if more == live:
            return live
        live = more


def check(program) -> None:
    stages = run_pipeline(program)
    body = stages["drop_overwritten_cell_stores"].tree.orch.body  # remove_dead_values' input
    for dummies in (False, True):
        live, _ = RemoveDeadValues.liveness(body, dummies=dummies)
        assert live == plain_liveness(body, dummies)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_programs(path: Path):
    check(load_program(path))


@pytest.mark.parametrize("shape", ["straight", "nested", "mixed", "scopes", "branches", "reuses"])
def test_shapes(tmp_path, shape):
    (path := tmp_path / f"{shape}.py").write_text(source_of(shape, 6))
    check(load_program(path))


@PROPERTY
@given(control_flow_programs())
def test_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    check(load_program(path))


def _create_body(extent, init):
    """``m = n + 1; t = create([extent, 16], init); return t``, in remove_dead_values' language."""
    from nanopass.languages import DIRECTED as D
    from nanopass.languages.terms import BinOp, DType

    index = D.ScalarType(DType.INDEX)
    m = D.Let(var=D.Binder(name="m", type=index), value=D.Bin(op=BinOp.add, a=D.Var(name="n"), b=D.Int(value=1, dtype=DType.INDEX)))
    shape = (extent, D.Int(value=16, dtype=DType.INDEX))
    t = D.Let(var=D.Binder(name="t", type=D.TensorType(shape=shape, dtype=DType.FP32)),
              value=D.CreateTensor(shape=shape, dtype=DType.FP32, manual_dep=False, init=init))
    return (m, t, D.Return(values=(D.Var(name="t"),)))


@pytest.mark.parametrize("where", ["extent", "init", "neither"])
@pytest.mark.parametrize("enough", [False, True])
def test_a_create_whose_extent_or_init_reads_a_name_keeps_it_live(where, enough):
    """The liveness walk takes a create with constant extents and a constant initial value (or
    none) as reading no name (``_constant_create``): one whose extent or initial value is a
    name keeps that name, and what it reads, live."""
    from nanopass.languages import DIRECTED as D
    from nanopass.languages.terms import DType

    m = D.Var(name="m")
    extent = m if where == "extent" else D.Int(value=8, dtype=DType.INDEX)
    init = m if where == "init" else D.Float(value=0.5, dtype=DType.FP32)
    body = _create_body(extent, init)
    live, removable = RemoveDeadValues.liveness(body, enough=enough)
    assert removable == {"m", "t"}
    assert live == ({"t", "m", "n"} if where != "neither" else {"t"})
    assert live == plain_liveness(body, dummies=False)


@pytest.mark.parametrize("where", ["offset", "extent", "neither"])
@pytest.mark.parametrize("enough", [False, True])
def test_a_slice_whose_box_reads_a_name_keeps_it_live(where, enough):
    """The liveness walk takes a slice of constant extents and offsets as reading its source
    alone (``_constant_box``): one whose offset or extent is a name keeps that name live too."""
    from nanopass.languages import DIRECTED as D
    from nanopass.languages.terms import DType

    m, t, ret = _create_body(D.Int(value=8, dtype=DType.INDEX), None)
    const = D.Int(value=0, dtype=DType.INDEX)
    offset = (D.Var(name="m") if where == "offset" else const, const)
    shape = (D.Var(name="m") if where == "extent" else D.Int(value=4, dtype=DType.INDEX), D.Int(value=16, dtype=DType.INDEX))
    view = D.Let(var=D.Binder(name="v", type=t.var.type),
                 value=D.SliceTensor(tensor=D.Var(name="t"), shape=shape, offset=offset, manual_dep=False, clamp=False,
                                     placed=False))
    body = (m, t, view, D.Return(values=(D.Var(name="v"),)))
    live, removable = RemoveDeadValues.liveness(body, enough=enough)
    assert removable == {"m", "t", "v"}
    assert live == ({"v", "t", "m", "n"} if where != "neither" else {"v", "t"})
    assert live == plain_liveness(body, dummies=False)


@pytest.mark.parametrize("where", ["offset", "neither"])
@pytest.mark.parametrize("enough", [False, True])
def test_an_assemble_whose_offset_reads_a_name_keeps_it_live(where, enough):
    """The liveness walk takes an assemble of constant offsets as reading its target and source
    alone (``_constants``): one whose offset is a name keeps that name live too."""
    from nanopass.languages import DIRECTED as D
    from nanopass.languages.terms import DType

    m, t, _ = _create_body(D.Int(value=8, dtype=DType.INDEX), None)
    const = D.Int(value=0, dtype=DType.INDEX)
    offset = (D.Var(name="m") if where == "offset" else const, const)
    assemble = D.Let(var=D.Binder(name="u", type=t.var.type),
                     value=D.AssembleTensor(target=D.Var(name="x"), source=D.Var(name="t"), offset=offset))
    body = (m, t, assemble)
    live, removable = RemoveDeadValues.liveness(body, enough=enough)
    assert removable == {"m", "t"}
    assert live == ({"x", "t", "m", "n"} if where != "neither" else {"x", "t"})
    assert live == plain_liveness(body, dummies=False)
