"""Issue 24: the callers of ``buffer_roots``' default reading (every loop carry taken for its init)
that stay sound because something else decides. hazards.py's host accesses narrow a host
element access to the element's box (``host_accesses.element_places``) only when the storage map
gives the tensor one place, the whole buffer as its root indexes it (``FULL``, not a transpose's
``FULL_VIEW``), and the default root agrees: a carry that is ``s`` or ``s`` transposed has two
places, so its element stays the whole buffer. If the narrowing took the carry's init alone,
``t[0, 4]`` would be ``s[0, 4]``, though with ``t`` transposed it is ``s[4, 0]``, in the rows the
reader reads: the host write after the manual scope would not wait for it (a WAR on s for n >= 1,
seen with the narrowing on the default root alone)."""

from __future__ import annotations

from conftest import load_program
from nanopass.tools.check import check_program
from test_issue21_regressions import source

HOST_WRITE_THROUGH_A_TRANSPOSED_CARRY = """
with pl.manual_scope():
    s = pl.create_tensor([16, 16], dtype=pl.FP32)
    s, ts = pl.submit(self.produce, x, s)
    t = s
    for i in pl.range(n):
        t = pl.tensor.transpose(s, 0, 1)
    r = pl.tensor.slice(s, [4, 16], [4, 0])
    tr = pl.submit(self.rd4, r, deps=[ts])
pl.tensor.write(t, [0, 4], 2.0)
"""


def test_a_host_write_through_a_carry_that_may_be_a_transpose_waits_for_the_rows_reader(tmp_path):
    path = tmp_path / "program.py"
    path.write_text(source(HOST_WRITE_THROUGH_A_TRANSPOSED_CARRY))
    program = load_program(path)
    for n in (0, 2):
        result = check_program(program, {"n": str(n)})
        assert result.failing == [], f"n={n}: " + "; ".join(str(h) for h in result.failing)
        assert result.mismatches == []
