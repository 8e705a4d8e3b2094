"""``dep_edges.EdgeWriter`` asks whether a cell or join is an earlier pass's once per rewritten
task: the question must cost the same however many cells earlier passes made (a scan of their
list per task made the pass quadratic in the number of joins)."""

from __future__ import annotations

from conftest import bench_file, pass_input, running

import nanopass.passes.dep_edges as dep_edges
from nanopass.passes.order_write_after_read import OrderWriteAfterRead
from nanopass.passes.util import iter_stmts


class CountedValues(dict):
    """A dict that counts the scans of its values."""

    scans = 0

    def values(self):
        CountedValues.scans += 1
        return super().values()


def test_the_earlier_cells_are_scanned_once_per_writer_not_once_per_task(tmp_path, monkeypatch):
    made = dep_edges._existing_cells

    def counted(func):
        cells, joins = made(func)
        return CountedValues(cells), CountedValues(joins)

    monkeypatch.setattr(dep_edges, "_existing_cells", counted)
    given = pass_input(bench_file(tmp_path, "scopes", 64), OrderWriteAfterRead.name)
    monkeypatch.setattr(CountedValues, "scans", 0)
    out = running(OrderWriteAfterRead)(given)
    barriers = [s for s in iter_stmts(out.orch.body) if s._production == "Dummy"]
    assert len(barriers) >= 10  # (a join source task per scope: each one rewritten)
    assert CountedValues.scans <= 2  # (one writer: its cells' and its joins' values, once each)
