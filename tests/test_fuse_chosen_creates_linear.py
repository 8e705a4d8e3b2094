"""``place_chosen`` reads, for each assemble whose source one of several creates may be, the
statements from the choice to the assemble, not the blocks around them whole: where each create
is made, the names bound before it are found from the block's binders as analysed
(``available_at``) and the loop whose counter decides from one index of the function's loops.
On 41ebca4 each such assemble walked its block's statements before each create (twice per
create), so the walks grew with the square of the number of assembles (the bench's ``choices``
shape: 8.8 s of the pass at N = 1600, 0.47 s now; ``python -m nanopass.tools.bench --shapes
choices --per-pass``). Counted here, not timed: the binders read grow with N."""

from __future__ import annotations

import re

import nanopass
from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.tools.bench import source_of


def _binders_read(size: int, monkeypatch) -> tuple[int, str]:
    calls = [0]
    original = fuse.visible_binders

    def counted(stmt):
        calls[0] += 1
        return original(stmt)

    monkeypatch.setattr(fuse, "visible_binders", counted)
    code = nanopass.compile_text(source_of("choices", size)).code
    monkeypatch.setattr(fuse, "visible_binders", original)
    return calls[0], code


def test_binders_read_for_chosen_creates_grow_with_the_program_not_its_square(monkeypatch):
    small, code = _binders_read(40, monkeypatch)
    large, _ = _binders_read(160, monkeypatch)
    assert large <= 5 * small, (small, large)
    # each pair's creates are placed where the if chooses them: a view and a buffer of its own each
    assert len(re.findall(r"ext_big\.view\(", code)) == 2 * 10 and code.count("alloc_tensors(") >= 2 * 10, code
