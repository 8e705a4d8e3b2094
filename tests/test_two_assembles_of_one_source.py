"""Two ``pl.assemble``s of one source (``fuse_create_assemble_to_slice``: ``place_again``,
``widen_guard``, ``placed_elsewhere``; the enumerator ``tools/two_assembles.py``).

A source made in a block around its assemble is placed where the assemble runs: its create becomes
an ``if`` over the assemble's conditions that makes the view, or the source's own buffer. A second
assemble of it into the same rows is no copy, only where the source is then a view: where it may
run without the first (another branch, a loop or the function's body after the ``if``), it is
checked as a placement of its own and the ``if`` makes the view where either runs. Before,
it was taken for a copy already made on every path: with the first assemble's condition false the
source stayed its own buffer and the rows kept their old values (tools/attack rebinds seed 5927,
program 382: ``tests/found/class5_assemble_source_placed_in_an_if_and_assembled_again_after_it.py``).
An assemble of a placed source into other rows, or another buffer, is refused, saying where the
source already is."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from conftest import REPO

from nanopass.errors import UserError
from nanopass.tools import two_assembles
from nanopass.tools.properties import Findings, check_text, compile_text
from nanopass.tools.two_assembles import Shape, program

FOUND = REPO / "tests" / "found" / "class5_assemble_source_placed_in_an_if_and_assembled_again_after_it.py"
RUNS = [{"n": str(n), "c": str(c)} for n in (0, 1) for c in (0, 1)]


def scope_of(code: str) -> str:
    """The orchestration's body: from its first scope on."""
    return code[code.index("PTO2_SCOPE") :]


@pytest.mark.parametrize("relation", two_assembles.RELATIONS)
def test_every_program_of_the_grammar_checks_clean_or_is_refused_by_the_assemble(relation):
    findings = Findings()
    failing, refused, compiled = [], Counter(), 0
    for shape in two_assembles.shapes():
        if shape.relation != relation:
            continue
        failures, refusal = two_assembles.check(shape, findings)
        failing += [f"{shape.name} {f.values}: {f.kind}: {f.message.splitlines()[0]}" for f in failures]
        if refusal is None:
            compiled += 1
        else:
            refused[refusal] += 1
    assert failing == []
    if relation == "same":  # (one place: a sound placement on every path)
        assert not refused and compiled == 2 * 4 * (len(two_assembles.SITES) ** 2 + len(two_assembles.ONE_IF))
    else:  # (two places, both observed: no single view serves)
        assert compiled == 0
        for message in refused:
            assert "'t' is used after it was assembled into" in message or (
                "pl.assemble cannot make 't' a view of" in message and "is already made a view of the rows of" in message
            ), message


def test_the_attack_program_checks_clean_for_both_branches():
    text = FOUND.read_text()
    assert check_text(text, RUNS[:2], Findings()) == []


def _cpp(text: str) -> str:
    import nanopass

    return scope_of(nanopass.compile_text(text).code)


def test_the_attack_program_places_t_unconditionally():
    code = _cpp(FOUND.read_text())
    assert re.search(r"Tensor t = ext_a\.view\(t_shapes, t_offsets\);", code), code
    assert "__own" not in code and "alloc_tensors" not in code.split("// Task 0")[0], code


@pytest.mark.parametrize(
    "shape, guard",
    [
        # the second in the other branch of the same if: every run assembles, the view itself
        (Shape("then_else", "", "same", (False, False), False), None),
        (Shape("if", "else", "same", (True, False), False), None),
        # the second in the function's body, or a loop known to run: the view itself
        (Shape("if", "plain", "same", (False, True), False), None),
        (Shape("ifloop", "loop1", "same", (False, False), True), None),
        # the second in a loop over n: where either runs
        (Shape("if", "loopn", "same", (False, False), False), r"if \(c > 0 \|\| 0 < n\)"),
        (Shape("loopn", "if", "same", (True, False), False), r"if \(0 < n \|\| c > 0\)"),
        # the second under the same condition: only there, as before
        (Shape("if", "if", "same", (False, False), False), r"if \(c > 0\) \{\s*PTO2_SCOPE"),
        (Shape("ifloop", "if", "same", (False, True), False), r"if \(c > 0\) \{\s*PTO2_SCOPE"),
    ],
    ids=lambda v: v.name if isinstance(v, Shape) else str(v),
)
def test_the_view_is_made_where_either_assemble_runs(shape, guard):
    text = program(shape)
    assert check_text(text, shape.runs(), Findings()) == []
    code = _cpp(text)
    head = code.split("// Task 0")[0]
    if guard is None:
        assert "Tensor t = ext_a.view(t_shapes, t_offsets);" in head and "__own" not in head, head
    else:
        assert re.search(guard, head) and "t__ssa_v0__own" in head, head


READ_BETWEEN = two_assembles.HEAD + """        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        t = self.wr(t)
        if c > 0:
            a = pl.assemble(a, t, [4, 0])
        s = pl.tensor.slice(a, [4, 4], [4, 0])
        r = self.rd(s, r)
        for i in pl.range(1):
            a = pl.assemble(a, t, [4, 0])
        return a
"""


def test_a_second_assemble_whose_placement_a_read_before_it_would_see_is_refused():
    # (with c = 0 the rows rd reads hold a's entry values; t a view of them there, rd would read t)
    with pytest.raises(UserError) as error:
        compile_text(READ_BETWEEN)
    message = str(error.value)
    line = READ_BETWEEN.splitlines().index("        for i in pl.range(1):") + 2  # (the loop's assemble)
    assert f":{line}:" in message.splitlines()[0], message
    assert "cannot make 't' a view of 'a'" in message and "task rd" in message and "reads the rows" in message


def test_an_assemble_of_a_placed_source_into_other_rows_says_where_it_is():
    shape = Shape("then_else", "", "rows", (False, False), False)
    text = program(shape)
    with pytest.raises(UserError) as error:
        compile_text(text)
    message = str(error.value).splitlines()[0]
    lines = text.splitlines()
    first = lines.index("            a = pl.assemble(a, t, [4, 0])") + 1
    second = lines.index("            a = pl.assemble(a, t, [0, 0])") + 1
    assert f":{second}:" in message, message
    assert f"'t' is already made a view of the rows of 'a' it is assembled into at line {first}" in message, message


MORE = {
    # the create in a with block before the if (the if replaced inside it): the view where either runs
    "created_in_a_with_block": """        with pl.manual_scope():
            t = pl.create_tensor([4, 4], dtype=pl.FP32)
            t, tk = pl.submit(self.wr, t)
        if c > 0:
            a = pl.assemble(a, t, [4, 0])
        for i in pl.range(n):
            a = pl.assemble(a, t, [4, 0])
        return a
""",
    # the second in a loop of two trips that reads t before it: the view itself
    "read_in_the_loop_of_the_second": """        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        t = self.wr(t)
        if c > 0:
            a = pl.assemble(a, t, [4, 0])
        for i in pl.range(2):
            x = self.rd(t, x)
            a = pl.assemble(a, t, [4, 0])
        return a
""",
    # a third assemble after the view is made where either of the first two runs
    "three": """        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        t = self.wr(t)
        if c > 0:
            a = pl.assemble(a, t, [4, 0])
        for i in pl.range(n):
            a = pl.assemble(a, t, [4, 0])
        a = pl.assemble(a, t, [4, 0])
        return a
""",
}


@pytest.mark.parametrize("name", MORE)
def test_more_second_assembles_check_clean(name):
    text = two_assembles.HEAD + MORE[name]
    runs = [{"n": str(n), "c": str(c)} for n in (0, 1, 2) for c in (0, 1)]
    assert check_text(text, runs, Findings()) == []


@pytest.mark.parametrize("name", ["plain-plain-same-dd", "plain-plain-rows-dd"])
def test_the_enumerator_compiles_each_program_once(monkeypatch, name):
    """two_assembles.check compiles a program once: to tell a refusal, and for check_text's runs
    (it compiled each accepted program twice)."""
    import nanopass.api

    shape = next(s for s in two_assembles.shapes() if s.name == name)
    compiles = []
    run_pipeline = nanopass.api.run_pipeline

    def counted(*args, **kwargs):
        compiles.append(1)
        return run_pipeline(*args, **kwargs)

    monkeypatch.setattr(nanopass.api, "run_pipeline", counted)
    findings = Findings()
    failures, refusal = two_assembles.check(shape, findings)
    assert failures == [] and (refusal is None) == (shape.relation == "same")  # (as the grammar's test finds)
    assert findings.programs == (1 if refusal is None else 0) and findings.runs == len(shape.runs()) * findings.programs
    assert len(compiles) == 1
