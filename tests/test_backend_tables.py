"""The tables the back end reads per node instead of computing: lower_to_emission's plain dict of
the fields ``survey`` reads, and the printer's handler tables and small-integer texts, hold what
they stand for."""

from __future__ import annotations

import pytest

from nanopass.languages import EMISSION, ENCODED
from nanopass.passes.lower_to_emission import READ, READ_FIELDS
from nanopass.printer import cpp
from nanopass.printer.cpp import EMIT_HANDLERS, EMIT_NS, Emitter, SMALL, SMALL_INTS


def test_read_is_read_fields_for_every_class_of_the_input_language():
    assert set(READ) == set(ENCODED.nodes.values())
    for cls, fields in READ.items():
        assert fields == READ_FIELDS[cls], cls.__name__


@pytest.mark.parametrize(
    "production, fields",
    [("Alloc", (("creates", True),)), ("Create", (("shape", True), ("init", False))), ("Let", (("value", False),))],
)
def test_the_fields_survey_reads_inline_are_their_read_fields(production, fields):
    """survey reads an Alloc's creates' extents and initial values, and a Let's value, inline: a
    field the grammar adds to one of them must be added there too."""
    assert READ_FIELDS[ENCODED.nodes[production]] == fields


def test_every_statement_of_emission_has_its_handler_in_the_table():
    statements = {EMISSION.nodes[p.name] for p in EMISSION.nonterminals["EStmt"].productions}
    assert statements <= set(EMIT_HANDLERS)
    for cls, handler in EMIT_HANDLERS.items():
        assert handler is EMIT_NS["emit"].dispatch(cls, Emitter)


def test_an_unknown_statement_is_refused_by_name():
    out = Emitter(cpp.SEED_ABI)
    with pytest.raises(NotImplementedError, match="emit: <Var>"):
        cpp.emit_all([EMISSION.Var("x")], out)


def test_small_integers_are_written_as_str_writes_them():
    assert len(SMALL_INTS) == SMALL
    assert all(text == str(i) for i, text in enumerate(SMALL_INTS))
    abi = cpp.SEED_ABI
    for value in (0, 7, SMALL - 1, SMALL, 10**12):
        assert cpp.fmt(EMISSION.Int(value, cpp.DType.INDEX), abi) == str(value)
        assert cpp.u32_texts([EMISSION.Int(value, cpp.DType.INDEX)], abi) == [str(value)]
    a = EMISSION.Var("a")
    assert cpp.fmt(EMISSION.Bin(cpp.BinOp.add, EMISSION.Int(SMALL + 5, cpp.DType.INDEX), EMISSION.Int(3, cpp.DType.INDEX)), abi) == f"{SMALL + 5} + 3"
    assert cpp.fmt(EMISSION.Bin(cpp.BinOp.sub, a, EMISSION.Int(SMALL * 2, cpp.DType.INDEX)), abi) == f"a - {SMALL * 2}"
