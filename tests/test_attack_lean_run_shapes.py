"""lean_run runs a grammar's program with the tensor shapes the program declares for its extra
parameters (``Program.extra_shapes``), as the tester's own check does: the nests grammar's ``g``
is 32 x 4, and run as the default 8 x 4 its row blocks at ``j * 4`` fell outside what the
semantics wrote, so lean_run reported needed pairs left unordered that the grammar's check (and
the hazard checker) saw ordered (seed 70000001: 5 unordered, 0 hazards)."""

from nanopass.tools.attack import lean_run, nests


def test_a_nests_program_is_measured_with_its_own_shapes():
    prog = nests.generate(70000001)
    assert dict(prog.extra_shapes).get("g") not in (None, "B")  # (the case: g's shape is not the default)
    figures, why = lean_run.program_figures(prog)
    assert why is None
    assert figures.unordered == []
    assert figures.insertions > 0
