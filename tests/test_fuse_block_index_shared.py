"""A block's index of accesses (``_BlockIndex``) shares the index of its live uses (``live_uses``'
parts) when every statement's accesses are its live uses (no statement with bodies, no Yield, no
dead let that reads a name): on every example, the dead values program and the bench shapes its
positions, mentions and creates are those of the index built from the accesses, it is
shared on the reuses shape, and a block with a dead let that reads a name is not shared."""

from __future__ import annotations

import pytest

from test_fuse_shared_tables import analysed, blocks, inputs

from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes.remove_dead_values import PURE


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return inputs(tmp_path_factory.mktemp("fuse_shared_index"))


def test_a_shared_index_is_the_one_built_from_the_accesses(programs):
    shared = not_shared = 0
    for program in programs:
        pass_ = analysed(program)
        for block in blocks(program.orch.body):
            uses = pass_.parts[id(block)]
            got, built = fuse._BlockIndex(block, pass_.live, uses), fuse._BlockIndex(block, pass_.live)
            assert (got.positions, got.made, got.mentioned) == (built.positions, built.made, built.mentioned)
            if got.positions is uses.positions:
                shared += 1
                assert all(s._production != "Yield" and s._production not in fuse.BODY_FIELDS for s in block)
            else:
                not_shared += 1
    assert shared > 0 and not_shared > 0


def test_a_dead_let_that_reads_a_name_is_not_shared(programs):
    # (the dead values program: a view, a scalar and an element read nothing observes)
    found = 0
    for program in programs:
        pass_ = analysed(program)
        block = program.orch.body
        dead = [s for s in block if s._production == "Let" and s.value._production in PURE and s.var.name not in pass_.live
                and fuse._accesses([s])]
        if dead and all(s._production not in fuse.BODY_FIELDS and s._production != "Yield" for s in block):
            found += 1
            index = fuse._BlockIndex(block, pass_.live, pass_.parts[id(block)])
            assert index.positions is not pass_.parts[id(block)].positions
            assert index.positions != pass_.parts[id(block)].positions  # (the dead let's reads are accesses, not uses)
    assert found > 0
