"""The surface grammar's outlined blocks of several statements (tools/attack/surface_blocks.py):
the generator makes the shapes that decide which names leave a block (a block in a host loop
binding a name the next iteration reads above it), and the model's values are Python's: a name a
block binds is visible after it, in the loop's next iteration too."""

from __future__ import annotations

import re

from nanopass.tools.attack import program as P
from nanopass.tools.attack import runner, semantics, surface_generate
from nanopass.tools.attack.surface_blocks import BAsm, BIf, Blk, BOp, block_params, liveness

USE = P.Kernel("k0", (("in", "A"), ("inout", "A")))


def _program(body, kernels=(USE,)) -> P.Program:
    return P.Program(tuple(kernels), tuple(body), surface=True, settings=((2, 0),))


def _known_bug() -> P.Program:
    """t = pl.create_tensor(...); for i in pl.range(3): a = self.k0(t, a); with pl.at(...): t = pl.add(x, x)"""
    return _program([P.Create("t", "A"),
                     P.Loop("range", "i", 3, (P.Call("k0", ("t", "a"), ("a",)), Blk("blk1", (BOp("t", ("x", "x")),))))])


def test_seed_5752_has_a_block_in_a_loop_whose_name_the_next_iteration_reads_above_it():
    source = P.render(surface_generate.generate(5752)).source
    # t5 is read by a task above the block in the loop body, and bound by the block below it
    assert re.search(r"for i6 in pl\.range\(n\):\n(?:.*\n)*?\s+b = self\.k3\(t5, b\)\n(?:.*\n)*?"
                     r"\s+with pl\.at\(level=pl\.Level\.CORE_GROUP, name_hint='blk2'\):\n\s+t5 = pl\.muls\(x, 2\.0\)",
                     source), source


def test_the_generator_makes_each_shape():
    sources = [P.render(surface_generate.generate(seed)).source for seed in range(5750, 5790)]
    text = "\n".join(sources)
    assert re.search(r"for \w+ in pl\.range\(.*\n\s+if .*:\n\s+\w+ = self\.k\d+\((\w+), \w+\)\n(?:.*\n)*?\s+\1 = pl\.", text)
    assert re.search(r"if .*:\n\s+with pl\.at\(", text)                        # a block in an if
    assert re.search(r"with pl\.manual_scope\(\):\n\s+m\d+ = None\n\s+with pl\.(at|spmd)\(", text)
    assert re.search(r"with pl\.at\(.*\n\s+if .*:\n\s+l\d+ = pl\.add", text)   # one branch binds
    assert re.search(r"= pl\.assemble\(", text)
    assert re.search(r"for bi_blk\d+ in pl\.spmd\(2", text)
    assert re.search(r"for \w+, \(p\d+,\) in pl\.range\(", text)              # a carried tensor


def test_block_parameters_follow_the_text():
    ops = (BOp("u", ("b", "x")), BIf(("c", ">", 0), (BOp("l", ("t",)), BAsm("a", "l"))),
           BOp("t", ("u", "t")), BOp("u", ("u",)))
    ins, inouts, bound, surely = block_params(ops)
    assert ins == ("b", "x", "t") and inouts == ("a",) and bound == ("u", "l", "t") and surely == {"u", "t"}


def test_liveness_counts_the_next_iterations_read_above_the_block():
    prog = _known_bug()
    [blk] = [s for s in prog.body[1].body if isinstance(s, Blk)]
    assert "t" in liveness(prog)[id(blk)]
    # read nowhere else: not live (a loop whose body surely binds t before reading it)
    dead = _program([P.Loop("range", "i", 3, (P.Create("t", "A"), P.Call("k0", ("t", "a"), ("a",)),
                                                Blk("blk1", (BOp("t", ("x", "x")),))))])
    [blk] = [s for s in dead.body[0].body if isinstance(s, Blk)]
    assert "t" not in liveness(dead)[id(blk)]


def test_the_model_reads_the_blocks_value_in_the_next_iterations():
    prog = _known_bug()
    seq = semantics.run(prog, P.render(prog).lines, 2, 0)
    tasks = [e for e in seq.events if e.kind == "task"]
    assert [e.kernel for e in tasks] == ["k0", "blk1"] * 3
    assert len(tasks[1].accesses) == 2       # x (In), t (Out)
    # iteration 0 reads the create (never written), iterations 1 and 2 the block before them
    assert tasks[0].reads[0][0] == semantics.UNDEF
    assert tasks[2].reads[0][0] == ("ev", tasks[1].idx) and tasks[4].reads[0][0] == ("ev", tasks[3].idx)


def test_main_compiles_the_known_bug_to_the_models_values():
    # at 39cebf3~1 this fails: the kernel blk1 has no Out for t (`trace-mismatch`: 1 recorded
    # parameter, the model 2), so iterations 1 and 2 read the create
    rep = runner.check(_known_bug(), values=False)
    assert not rep.classes() and not rep.invalid, runner.describe(rep)
