"""``fuse_create_assemble_to_slice`` places a source through an ``if`` over the condition of the
``if`` that chooses its target (``place_by_branch``), checking each branch on its own with the
tables of the function walked again where the branch stands in for the ``if``. Those walks cover
only the region the branch changes (``branch_tables``): the tables equal a walk of the whole
function with the branch inlined (the reference below, what the pass did before), and the cost
grows with the program, not with its square (k such placements in a row: 4.4x the pass's time
per doubling of k before, 62 ms -> 5.1 s from k = 25 to 200)."""

from __future__ import annotations

from conftest import FOUND, counting, load_program
from nanopass.api import run_pipeline
from nanopass.errors import UserError
from nanopass.pipeline import PipelineError
from nanopass.passes import aliases
from nanopass.passes.aliases import buffer_roots
from nanopass.passes.fuse_create_assemble_to_slice import FuseCreateAssembleToSlice, _inline_branch
from nanopass.passes.hazards import walk_storage
from nanopass.passes.util import BODY_FIELDS, iter_stmts

SWAPS = FOUND / "class7_assemble_target_an_if_after_the_source_swaps.py"
HEAD, FIRST = SWAPS.read_text().split("        part: pl.Tensor")


def swaps(k: int, between: str = "") -> str:
    """The found program's block k times in a row: each creates a source, swaps the two targets
    in an if, writes the source and assembles it into one of them; ``between`` goes between
    the if and the source's writer."""
    blocks = "".join(
        f"""        part{i}: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
        if n > {i}:
            t{i} = big
            big = other
            other = t{i}
{between.format(i=i)}        part{i} = self.rd(x, part{i})
        big = pl.assemble(big, part{i}, [8, 0])
        rows{i} = pl.tensor.slice(big, [8, 8], [8, 0])
        y = self.upd(rows{i}, y)
"""
        for i in range(k)
    )
    return HEAD + blocks + "        return y\n"


def _replace_stmt(stmts, old, new: list) -> tuple:
    out = []
    for stmt in stmts:
        if stmt is old:
            out += new
            continue
        fields = BODY_FIELDS.get(stmt._production)
        if fields:
            stmt = stmt.replace(**{f: _replace_stmt(getattr(stmt, f), old, new) for f in fields})
        out.append(stmt)
    return tuple(out)


def reference_tables(fuse, region: list, rebound) -> tuple:
    """The tables as the pass made them before: the whole function walked again, the ``if``
    replaced by the branch that begins ``region``."""
    branch, inline = next(
        (s, _inline_branch(s, body))
        for s in iter_stmts(fuse.func.body)
        if s._production == "If"
        for body in (s.then, s.orelse)
        if list(region[: len(_inline_branch(s, body))]) == _inline_branch(s, body)
    )
    func = fuse.func.replace(body=_replace_stmt(fuse.func.body, branch, inline))
    places = {name: where for name, where in fuse.places.items() if name not in rebound}
    walk_storage(region, places, fuse.kernels)
    roots = buffer_roots(func, fuse.kernels)
    named: dict[str, set[str]] = {}
    for name, root in roots.items():
        named.setdefault(root, set()).add(name)
    return places, roots, named, buffer_roots(func, fuse.kernels, lambda it: False)


def names_of(fuse, region: list) -> set[str]:
    """The names the checks may ask about: the parameters and those the region reads or binds."""
    from nanopass.language import walk

    out = {p.name for p in fuse.func.params}
    for stmt in region:
        out |= {n.name for n in walk(stmt) if n._production in ("Var", "Binder")}
    return out


def compared(monkeypatch) -> list:
    """Make every ``branch_tables`` call check its tables against the reference; the record."""
    calls: list = []
    original = FuseCreateAssembleToSlice.branch_tables

    def checked(self, region, rebound):
        out = original(self, region, rebound)
        places, roots, named, buffers = out
        ref_places, ref_roots, ref_named, ref_buffers = reference_tables(self, region, rebound)
        names = names_of(self, region)
        for name in sorted(names):
            assert places.get(name) == ref_places.get(name), name
            assert roots.get(name) == ref_roots.get(name), name
            assert buffers.get(name) == ref_buffers.get(name), name
        for root in sorted({ref_roots[n] for n in names if n in ref_roots}):
            assert (named.get(root) or set()) & names == ref_named.get(root, set()) & names, root
        calls.append(len(names))
        return out

    monkeypatch.setattr(FuseCreateAssembleToSlice, "branch_tables", checked)
    return calls


def compile_source(tmp_path, source: str, name: str = "p.py"):
    path = tmp_path / name
    path.write_text(source)
    return run_pipeline(load_program(path), stop_after="fuse_create_assemble_to_slice")


def test_the_region_tables_equal_a_walk_of_the_whole_function(tmp_path, monkeypatch):
    calls = compared(monkeypatch)
    compile_source(tmp_path, SWAPS.read_text(), "found.py")
    compile_source(tmp_path, swaps(4), "swaps.py")
    assert len(calls) == 2 * (1 + 4)  # (each branch of each placement)


def test_the_tables_agree_where_a_branch_use_refuses_the_placement(tmp_path, monkeypatch):
    # (a read of the target's rows between the source's create and the assemble: the check
    # on the first branch reads the region tables, and refuses)
    calls = compared(monkeypatch)
    read = "        y = self.upd(pl.tensor.slice(big, [8, 8], [8, 0]), y)\n"
    try:
        compile_source(tmp_path, swaps(3, read), "reads.py")
    except PipelineError as error:
        assert isinstance(error.error, UserError), error.error
        assert "between the creation of 'part0' and the assemble" in str(error), error
    else:
        raise AssertionError("the read of the rows between create and assemble was accepted")
    assert calls


def test_the_placements_cost_grows_with_the_program_not_its_square(tmp_path, monkeypatch):
    def visits(k: int) -> int:
        with monkeypatch.context() as patch:
            ifs = counting(patch, aliases, "last_yield")  # (one per if a roots walk visits)
            compile_source(tmp_path, swaps(k), f"swaps{k}.py")
        return len(ifs)

    small, large = visits(10), visits(20)
    assert small > 0
    assert large <= 2.2 * small, (small, large)
