"""The surface grammar's outlined blocks of several statements (tools/attack/surface_blocks.py):
the generator makes the shapes that decide which names leave a block (a block in a host loop
binding a name the next iteration reads above it), and the model's values are Python's: a name a
block binds is visible after it, in the loop's next iteration too."""

from __future__ import annotations

import re

from nanopass.tools.attack import blocks
from nanopass.tools.attack import program as P
from nanopass.tools.attack import runner, semantics, surface_generate
from nanopass.tools.attack import surface as S
from nanopass.tools.attack.surface_blocks import BAsm, BIf, Blk, BOp, block_params, liveness

USE = P.Kernel("k0", (("in", "A"), ("inout", "A")))


def _program(body, kernels=(USE,)) -> P.Program:
    return P.Program(tuple(kernels), tuple(body), surface=True, settings=((2, 0),))


def _known_bug() -> P.Program:
    """t = pl.create_tensor(...); for i in pl.range(3): a = self.k0(t, a); with pl.at(...): t = pl.add(x, x)"""
    return _program([P.Create("t", "A"),
                     P.Loop("range", "i", 3, (P.Call("k0", ("t", "a"), ("a",)), Blk("blk1", (BOp("t", ("x", "x")),))))])


def _blks(body):
    for s in body:
        if isinstance(s, Blk):
            yield s
        for ch in P.children(s):
            yield from _blks(ch)


def _bound(stmt) -> set:
    return set().union(*(block_params(b.ops)[3] for b in _blks([stmt])))


def _reads(stmt) -> set:
    if isinstance(stmt, P.Call):
        return set(stmt.args)
    if isinstance(stmt, (P.HostRead, P.Slice, P.Alias)):
        return {getattr(stmt, "tensor", None) or stmt.src}
    if isinstance(stmt, Blk):
        ins, inouts, _, _ = block_params(stmt.ops)
        return set(ins) | set(inouts)
    return set().union(set(), *(_reads(s) for ch in P.children(stmt) for s in ch))


def _shapes(prog: P.Program) -> set:
    """The shapes around blocks that `prog` has (module doc)."""
    out = set()

    def walk(body, loop):
        for i, s in enumerate(body):
            if isinstance(s, Blk):
                ops = [op for op in s.ops if isinstance(op, BOp)]
                if len({op.name for op in ops}) < len(ops):
                    out.add("bound twice")
                if any(isinstance(op, BIf) for op in s.ops):
                    out.add("if in a block")
                if loop is not None and any(isinstance(op, BOp) and op.name in {c for c, _ in loop.carries}
                                            for op in s.ops):
                    out.add("binds a loop carry")
            if isinstance(s, (P.Loop, S.While)):
                for j, st in enumerate(s.body):
                    bound = _bound(st)
                    if not bound:
                        continue
                    for r in s.body[:j]:
                        if isinstance(r, P.Call) and set(r.args) & bound:
                            out.add("read above the block, next iteration")
                        if isinstance(r, P.If) and _reads(r) & bound:
                            out.add("read above the block in a branch")
                        if isinstance(r, P.If) and any(isinstance(a, P.Alias) and a.name in bound for a in r.then):
                            out.add("rebound above the block on some paths")
                        if isinstance(r, P.Alias) and r.src in bound:
                            out.add("alias above the block")
                    for r in s.body[j + 1:]:
                        if isinstance(r, Blk) and _reads(r) & bound:
                            out.add("a later block reads it")
                    if isinstance(st, P.If):
                        out.add("block in an if in a loop")
                    if isinstance(st, P.Manual):
                        out.add("block in a manual scope in a loop")
                    if isinstance(s, S.While):
                        out.add("block in a pl.while_")
                    if loop is not None:
                        out.add("block in nested loops")
                if any(_reads(r) & _bound(s) for r in body[i + 1:]):
                    out.add("read after the loop")
            for ch in P.children(s):
                walk(ch, s if isinstance(s, (P.Loop, S.While)) else loop)
    walk(prog.body, None)
    return out


SHAPES = ("bound twice", "if in a block", "binds a loop carry", "read above the block, next iteration",
          "read above the block in a branch", "rebound above the block on some paths", "alias above the block", "a later block reads it",
          "block in an if in a loop", "block in a manual scope in a loop", "block in a pl.while_",
          "block in nested loops", "read after the loop")


def test_seed_5765_has_a_block_in_a_loop_whose_name_the_next_iteration_reads_above_it():
    prog = surface_generate.generate(5765)
    assert {"read above the block, next iteration", "rebound above the block on some paths"} <= _shapes(prog)
    source = P.render(prog).source
    assert ("        for i3 in pl.range(n):\n"
            "            if c > 0:\n"
            "                t2 = x\n"
            "            b = self.k0(t2, b)\n") in source, source
    assert ("            with pl.at(level=pl.Level.CORE_GROUP, name_hint='blk1'):\n"
            "                t2 = pl.add(a, b)\n") in source, source


def test_the_generator_makes_each_shape():
    seen = set().union(*(_shapes(surface_generate.generate(seed)) for seed in range(5750, 5850)))
    assert not set(SHAPES) - seen, set(SHAPES) - seen
    text = "\n".join(P.render(surface_generate.generate(seed)).source for seed in range(5750, 5790))
    assert re.search(r"for bi_blk\d+ in pl\.spmd\(2", text) and re.search(r"with pl\.spmd\(2", text)


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


def test_a_block_in_an_inline_function_binds_the_callers_variable_for_its_parameter():
    # section 5: q is the caller's t; the block's q is returned, so it leaves the block whether the
    # call's result is t again or another name (de34d9e: the kernel has no Out with `t = ...`)
    fn = S.InlineFn("inl0", (("p", "A", "in"), ("q", "A", "inout")), (Blk("ib", (BOp("q", ("p", "p")),)),),
                    ("q",), ("A",))
    for res in ("t", "u"):
        prog = P.Program((USE,), (P.Create("t", "A"), S.InlineCall("inl0", ("x", "t"), (res,)),
                                  P.Call("k0", (res, "a"), ("a",))), surface=True, functions=(fn,))
        block, use = semantics.run(prog, P.render(prog).lines, 0, 0).events
        assert [a.read for a in block.accesses] == [True, False]      # p (In), q (Out)
        assert use.reads[0][0] == ("ev", block.idx)


def test_the_blocks_grammar_counts_by_hand():
    # 18 atoms, none fixed by the t/u swap: size 1, 18 / 2; size 2, 18 * 18 / 2 atom pairs and
    # 5 blocks * 18 / 2; size 3, 18^3 / 2, 2 * 5 * 18^2 / 2 (a block of one atom before or after an
    # atom), 5 * 18^2 / 2 (a block of two), (5 * 5 - 1) * 18 / 2 (nested blocks, no manual in manual)
    assert len(blocks.ATOMS) == 18
    assert [blocks.count(k) for k in (1, 2, 3)] == [9, 162 + 45, 2916 + 1620 + 810 + 216]


def test_the_blocks_grammar_has_the_next_iterations_read_above_a_block():
    for prog in blocks.programs(3):
        [loop] = [s for s in prog.body if isinstance(s, P.Loop)] or [None]
        if (loop is not None and loop.trip == "n" and len(loop.body) == 2 and isinstance(loop.body[0], P.Call)
                and isinstance(loop.body[1], Blk) and loop.body[0].args[0] == "t" and loop.body[1].ops == (BOp("t", ("x", "x")),)):
            break
    else:
        raise AssertionError("no `for i in pl.range(n): a = self.rd(t, a); with pl.at(...): t = pl.add(x, x)`")
    seq = semantics.run(prog, P.render(prog).lines, 2, 0)
    rd0, blk0, rd1, _ = seq.events
    assert rd1.reads[0][0] == ("ev", blk0.idx) and len(blk0.accesses) == 2


def test_an_inline_calls_block_has_an_out_for_what_the_return_assigns():
    """The copy's return assigns the result (`u = t`): a read of t whether or not u is read later,
    as the compiler counts it (s58200000117: the model said no Out for a result nothing reads, the
    compiler kept one); where the result is the returned name (`t = self.inl0(x, t)`), only a
    later read keeps it."""
    fn = S.InlineFn("inl0", (("p", "A", "in"), ("q", "A", "inout")), (Blk("ib", (BOp("q", ("p", "p")),)),),
                    ("q",), ("A",))
    later = (P.Call("k0", ("t", "a"), ("a",)),)
    for result, tail, outs in (("u", (), 1), ("u", later, 1), ("t", (), 0), ("t", later, 1)):
        prog = P.Program((USE,), (P.Create("t", "A"), S.InlineCall("inl0", ("x", "t"), (result,))) + tail,
                         surface=True, functions=(fn,))
        block = semantics.run(prog, P.render(prog).lines, 0, 0).events[0]
        assert sum(not a.read for a in block.accesses) == outs, (result, tail)
        assert runner.check(prog).classes() == set(), (result, tail)


def test_a_returned_name_an_inline_calls_block_binds_has_an_out():
    """The return reads what it returns (the compiler keeps the block's result for a returned
    output parameter, whose name ends on the caller's buffer): an Inline function's block binding
    its parameter q, called on the returned ``a``, has an Out (s57700000039, s57700000370: the
    model said none, the compiler kept one)."""
    fn = S.InlineFn("inl0", (("p", "A", "in"), ("q", "A", "inout")), (Blk("ib", (BOp("q", ("q", "q")),)),),
                    ("q",), ("A",))
    prog = P.Program((USE,), (S.InlineCall("inl0", ("x", "a"), ("a",)),), returns="a", surface=True, functions=(fn,))
    block = semantics.run(prog, P.render(prog).lines, 0, 0).events[0]
    assert sum(not a.read for a in block.accesses) == 1
    assert runner.check(prog).classes() == set()


def test_a_dead_host_read_after_a_block_keeps_its_out():
    """`v = pl.tensor.read(t, ...)` with v unused still reads t where the front end outlines the
    block that binds t (remove_dead_values drops the read later): the kernel has an Out for t
    (s57730000359: the model counted none, the compiler kept one)."""
    prog = _program([Blk("blk1", (BOp("t", ("x", "x")),)), P.HostRead("v", "t", (0, 0), 0, live=False)])
    block = semantics.run(prog, P.render(prog).lines, 0, 0).events[0]
    assert sum(not a.read for a in block.accesses) == 1
    assert runner.check(prog).classes() == set()
