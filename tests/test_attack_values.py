"""The adversarial tester runs `nanopass check`'s value comparison on every program it compiles, of
every grammar (runner.values_noting; guards' grammars through guards.model_failures): before,
only the guards and rebinds grammars did, and the default and offsets grammars never compared the
emitted program's values with the program as written's. Its mismatches are counted in the
summary as "value mismatches (check)", the runs it compared as "value-checked runs"."""

from __future__ import annotations

from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.tools.attack import cli, runner
from nanopass.tools.attack import program as P

WB = P.Kernel("wb", (("in", "A"), ("out", "B")))


def test_a_planted_miscompile_of_the_default_grammar_is_a_check_value_mismatch(tmp_path, monkeypatch):
    # t is written after it was assembled into a's rows 4-7: the refusal "'t' is used after it was
    # assembled into 'a'" off, t becomes those rows and a ends with the later write
    monkeypatch.setattr(fuse.FuseCreateAssembleToSlice, "check_uses_after", lambda self, *args: None)
    prog = P.Program((WB,), (
        P.Create("t", "B"),
        P.Call("wb", ("x", "t"), ("t",)),
        P.Assemble("a", "t", 4),
        P.Call("wb", ("x", "t"), ("t",))))
    result = cli.work("planted", prog, "element")        # what a worker of `tools/attack` runs
    assert "value mismatch (check)" in result["classes"]
    assert result["checked"] == len(runner.SETTINGS)
    found = [detail for setting, cls, detail in result["failures"] if cls == runner.CHECK_VALUES]
    assert len(found) == len(runner.SETTINGS)
    assert found[0] == (
        "the end of the program reads element [4, 0] of output parameter a: the program as written observes the "
        "write of task 0 (slot 1, element [0, 0]), the emitted program the write of task 1 (slot 1, element [0, 0])"
    )
    tally = cli.Tally(tmp_path)
    tally.add(result)
    figures = tally.summary()["figures"]
    assert figures["value mismatches (check)"] == len(runner.SETTINGS)
    assert figures["value-checked runs"] == len(runner.SETTINGS)
    assert figures.get("check crashes", 0) == 0
