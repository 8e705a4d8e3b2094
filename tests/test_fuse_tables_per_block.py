"""``fuse_create_assemble_to_slice`` keeps, in its tables keyed by a node's ``id``, entries for
blocks and assembles, not one per statement: a statement's reads are found again where asked
(``stmt_reads``), not held for every statement of the function. On f01c69e a table of each
statement's own live uses (``own_uses``, filled by ``live_uses``) held an entry and a dict per
statement: about 6 MiB of the pass's 27 MiB at N = 16,000 on the reuses shape, which no longer
fit the caches with the rest, so the pass grew 22-28x from N = 1,000 to 16,000 although the
lines it runs grow 16x. Counted here, not timed: the entries keyed by id after the pass ran, at
two sizes; and the whole-function walks, of which f01c69e made a second one to look for a source
of several creates (``share_exclusive_creates``) that the blocks' indexed assembles answer."""

from __future__ import annotations

from conftest import bench_file, pass_input

from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes.util import BODY_FIELDS, iter_stmts
from nanopass.rewrite import PassContext

FUSE = "fuse_create_assemble_to_slice"


def entries_by_id(pass_) -> int:
    """The entries of the pass's tables keyed by ints (a node's id)."""
    return sum(
        len(table) for table in vars(pass_).values()
        if isinstance(table, dict) and table and all(isinstance(key, int) for key in table)
    )


def test_the_tables_by_node_hold_entries_per_block_and_assemble_not_per_statement(tmp_path):
    for size in (40, 160):
        program = pass_input(bench_file(tmp_path, "reuses", size), FUSE)
        stmts = list(iter_stmts(program.orch.body))
        assembles = sum(s._production == "Let" and s.value._production == "AssembleTensor" for s in stmts)
        blocks = 1 + sum(len(BODY_FIELDS.get(s._production, ())) for s in stmts)
        pass_ = fuse.FuseCreateAssembleToSlice(PassContext())
        out = pass_.run(program)
        assert assembles == size // 4 and not any(  # (each placed: none left)
            s._production == "Let" and s.value._production == "AssembleTensor" for s in iter_stmts(out.orch.body)
        )
        assert entries_by_id(pass_) <= 2 * assembles + blocks < len(stmts), (size, entries_by_id(pass_), len(stmts))


def test_the_function_is_walked_whole_once_when_no_source_may_be_several_creates(tmp_path, monkeypatch):
    # (the walk that finds an assemble at all; the sharing of creates reads the blocks' assembles
    # that ``live_uses`` indexed, and walks the function only for a source of several creates)
    program = pass_input(bench_file(tmp_path, "reuses", 40), FUSE)
    walks = []
    iter_stmts_walked = fuse.iter_stmts

    def counted(stmts):
        walks.append(stmts)
        return iter_stmts_walked(stmts)

    monkeypatch.setattr(fuse, "iter_stmts", counted)
    out = fuse.FuseCreateAssembleToSlice(PassContext()).run(program)
    assert out is not program
    assert sum(stmts is program.orch.body for stmts in walks) == 1, len(walks)
