"""derive_call_directions builds its output's Args with ``rewrite.trusted_maker`` (an Arg's
direction checked, the fields passed on from the input's node trusted: the grammar proves them),
its Tasks and compound statements with ``make_trusted`` (arguments and bodies it built itself).
The output is the one the checked constructors give, on every example and golden program, every
bench shape and random programs; a checked field still refuses a bad value."""

from __future__ import annotations

import pytest

from conftest import corpus_tests, pass_inputs, random_file, run_both_ways, running

from nanopass.errors import GrammarError
from nanopass.passes import derive_call_directions as module
from nanopass.passes.derive_call_directions import DeriveCallDirections

D = DeriveCallDirections.target


MAKERS = {"_ARG": "Arg", "_TASK": "Task", "_FOR": "For", "_WHILE": "While", "_IF": "If", "_SCOPE": "Scope"}


def checked(cls):
    """The target class's own ``make`` (every field checked), the span positional as the trusted
    makers take it."""
    return lambda *fields: cls.make(*fields[:-1], span=fields[-1])


def check(path) -> None:
    for given in pass_inputs(path, DeriveCallDirections.name):
        fast, full = run_both_ways(running(DeriveCallDirections), given,
                                   [(module, name, checked(D.nodes[production])) for name, production in MAKERS.items()])
        assert fast == full


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("seed", range(4070, 4100))
def test_random_programs(tmp_path, seed):
    check(random_file(tmp_path, seed, manual=seed % 3 == 0))


def test_a_checked_field_still_refuses_a_bad_value():
    value = D.Var.make("t")
    with pytest.raises(GrammarError, match="field 'dir'"):
        module._ARG(value, "Input", None)
