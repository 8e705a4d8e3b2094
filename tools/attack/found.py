"""The smallest program of each failure class the tester found in nanopass (branch attack), as
abstract programs; `python -m nanopass.tools.attack.found [--open] DIR` renders each (only the
open ones with --open) with its failures into DIR (tools/attack/found/ holds the rendered
copies). Each entry: (class key, what issue 21 calls it, program)."""

from __future__ import annotations

import sys
from pathlib import Path

from . import printed as PR
from . import printed_scalars as PS
from . import program as P
from . import scalars as SC
from . import surface as S
from . import surface_blocks as SB

KA = P.Kernel("k0", (("in", "A"), ("inout", "A")))     # reads p0, updates p1
RD = P.Kernel("rd", (("in", "A"), ("out", "A")))       # reads p0 into a runtime-allocated output
WR = P.Kernel("wr", (("in", "A"), ("out", "A")))
WB = P.Kernel("wb", (("in", "A"), ("out", "B")))
UB = P.Kernel("ub", (("inout", "B"),))
MB = P.Kernel("mb", (("in", "A"), ("out", "B")))       # makes a [4, 4] runtime-allocated output
OB = P.Kernel("ob", (("out", "B"),))
UA = P.Kernel("ua", (("inout", "A"),))
TWO = P.Kernel("two", (("in", "A"), ("out", "A"), ("out", "A")))  # two runtime-allocated outputs


def chain(kernel, args, results, m="m"):
    return P.Call(kernel, args, results, (), True, m, (m,))


FOUND = {
    "01-host-write-after-task-read": (
        "hazard WAR task>hwrite AA",
        "issue 21 class 1: set_tensor_data does not wait for a task that only read the tensor",
        P.Program((KA,), (P.Call("k0", ("b", "a"), ("a",)), P.HostWrite("b", (3, 2), 2.0)))),
    "02-host-write-after-task-read-in-manual-scope": (
        "hazard WAR task>hwrite MM",
        "issue 21 class 1, inside a manual scope (also MA: the write after the scope; AM: the read "
        "before the scope, the write inside it)",
        P.Program((KA,), (P.Manual((P.TidNone("m"), chain("k0", ("a", "b"), ("b",)),
                                    P.HostWrite("a", (6, 0), 7.0))),))),
    "03-host-write-after-manual-task-write": (
        "hazard WAW task>hwrite MA",
        "issue 21 class 1's mirror: a task's write in a manual scope never reaches the TensorMap, so "
        "a later set_tensor_data does not wait for it (also MM: the host write inside the scope)",
        P.Program((KA,), (P.Manual((P.TidNone("m"), chain("k0", ("x", "b"), ("b",)))),
                          P.HostWrite("b", (2, 2), 6.0)))),
    "04-host-read-after-manual-task-write": (
        "hazard RAW task>hread MA",
        "issue 21 class 1's mirror named there: get_tensor_data cannot see a write made in a manual "
        "scope (also MM: the read inside the scope)",
        P.Program((KA,), (P.Manual((P.TidNone("m"), chain("k0", ("a", "b"), ("b",)))),
                          P.HostRead("v", "b", (0, 2), 1)))),
    "05-manual-scope-in-a-loop": (
        "hazard RAW task>task MM",
        "issue 21 class 2: nothing orders one instance of a manual scope after the previous one "
        "(RAW, WAW and WAR alike)",
        P.Program((UB,), (P.Loop("range", "i", 2, (P.Manual((P.TidNone("m"), chain("ub", ("w",), ("w",)))),)),))),
    "06-conditional-write-in-a-loop": (
        "hazard WAR task>task AA",
        "issue 21 class 3: the write in iteration 1 does not wait for iteration 0's read, as the "
        "write of iteration 0 did not happen",
        P.Program((RD, WR), (P.Loop("range", "i", 2, (
            P.Call("rd", ("a", None), ("f",), (), True, "t", ()),
            P.If(("i", ">", 0), (P.Call("wr", ("x", "a"), ("a",)),)))),))),
    "07-runtime-output-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21: a buffer the runtime allocates for a task's Out parameter in a manual scope "
        "is freed once its scope ended and the task completed; the C++ uses it after the scope",
        P.Program((RD, KA), (P.Manual((P.TidNone("m"), P.Call("rd", ("x", None), ("f",), (), True, "m", ("m",)))),
                             P.Call("k0", ("a", "f"), ("f",))))),
    "08-created-tensor-escapes-a-branch-scope": (
        "runtime use_after_scope",
        "not in issue 21: create_tensor in an if branch, bound to an outer name; its alloc_tensors "
        "stays in the branch's PTO2_SCOPE and the host write after the if uses the freed buffer",
        P.Program((), (P.If(("c", "==", 0), (P.Create("t", "B"), P.Alias("w", "t"))),
                       P.HostWrite("w", (1, 2), 4.0)))),
    "11-runtime-output-carried-into-a-manual-scope": (
        "hazard WAW task>task AM",
        "not listed in issue 21 (a boundary edge, class 4's family): a tensor made by a task in "
        "iteration 0 and carried into iteration 1 is written in a manual scope there with no dep "
        "on its creator (a manual scope has no creator retention); it is also used after its scope",
        P.Program((MB, OB), (P.Loop("range", "i", 2, (
            P.Call("mb", ("x", None), ("f",), (), True, "t", ()),
            P.Manual((P.TidNone("m"), chain("ob", ("p",), ("p",))))),
            carries=(("p", "w"),), yields=("f",), results=("r",)),))),
    "12-runtime-output-in-a-branch-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (found on land21, seed 5): 07's buffer made by a task in an if branch of the "
        "manual scope; only tasks directly in the scope had their escaping output allocated before it "
        "(the same in a loop is still open: docs/semantics.md, \"Still open\" 10)",
        P.Program((RD, KA), (P.Manual((P.TidNone("m"), P.If(("c", "==", 0), (
            P.Call("rd", ("x", None), ("f",), (), True, "m", ("m",)), P.Alias("b", "f"))))),
            P.Call("k0", ("b", "a"), ("a",))))),
    "13-created-tensor-in-a-branch-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (12's family, written for the fix): 08's create_tensor in an if branch "
        "inside a manual scope; hoist_scope_escapes moved only allocations directly in the scope",
        P.Program((), (P.Manual((P.If(("c", "==", 0), (P.Create("t", "B"), P.Alias("w", "t"))),)),
                       P.HostWrite("w", (1, 2), 4.0)))),
    "14-second-runtime-output-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (found on land21, seed 5, three programs): 07 with a kernel of two Out "
        "parameters the call leaves out, the second used after the scope; only the first left-out "
        "argument could be given a buffer made before the scope (arguments are positional)",
        P.Program((TWO, KA), (P.Manual((P.TidNone("m"), P.Call("two", ("x", None, None), ("f", "g"), (), True, "m",
                                                                ("m",)))),
                              P.Call("k0", ("g", "a"), ("a",))))),
    "15-host-read-of-a-manual-output-only-copied-after-the-scope": (
        "refusal",
        "not in issue 21 (found on land21, seed 5): a copy nothing reads (`b = f` after the scope) "
        "counted as a use after the scope, so the output got a buffer made before the scope, whose "
        "host read in the scope no task's creation orders any more: refused",
        P.Program((RD,), (P.Manual((P.TidNone("m"), P.Call("rd", ("x", None), ("f",), (), True, "m", ("m",)),
                                    P.HostRead("v", "f", (0, 0), 0))),
                          P.Alias("b", "f")))),
    "16-host-read-beside-the-assembled-rows-of-a-written-target": (
        "refusal",
        "not in issue 21 (found on land21, seed 5): a host read of row 6 of a target a task has "
        "written (its name is then the task's result, the same buffer) was taken for a read of all "
        "of it, so the placement of the source in rows 2-5 was refused as visible",
        P.Program((UA,), (P.Create("t", "A"), P.Call("ua", ("t",), ("t",)), P.Create("s", "B"),
                          P.HostRead("v", "t", (6, 1), 0), P.Assemble("t", "s", 2)))),
    "17-assemble-target-bound-after-the-source-to-an-existing-buffer": (
        "refusal",
        "issue 21 class 7's family (found on land21 + fixes, seed 6): the target is a copy of a "
        "tensor that exists when the source is created, bound after it (`a = b`, a swap); the "
        "target's name had to exist there, not only its buffer",
        P.Program((), (P.Create("t", "B"), P.Alias("a", "b"), P.Assemble("a", "t", 2),
                       P.HostRead("v", "a", (3, 1), 0)))),
    "18-runtime-output-in-a-loop-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (found on land21, seed 5, r50000006): 07's buffer made by a task in a loop "
        "inside the manual scope and carried out of it; each iteration's buffer was freed with the "
        "scope (docs/semantics.md \"Still open\" 10; now one buffer made before the scope, shared by "
        "the iterations, which the compiler orders)",
        P.Program((RD, KA), (P.Manual((P.TidNone("m"), P.Loop("range", "i", "n", (
            P.Call("rd", ("x", None), ("f",), (), True, "t", ()),), carries=(("p", "b"),), yields=("f",),
            results=("r",)))),
            P.Call("k0", ("r", "a"), ("a",))))),
    "19-created-tensor-in-a-loop-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (18's family, written for the fix): a create_tensor in the loop, written by "
        "a task of each iteration and carried out of the manual scope",
        P.Program((WR,), (P.Manual((P.Loop("range", "i", "n", (
            P.Create("t", "A"), P.Call("wr", ("x", "t"), ("t",), (), True, "q", ())),
            carries=(("p", "b"),), yields=("t",), results=("r",)),)),
            P.HostWrite("r", (1, 2), 4.0)))),
    "24-runtime-output-read-by-the-next-iteration-in-a-loop-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (18's family, written for docs/semantics.md \"Still open\" 10): each iteration's "
        "task reads the buffer the iteration before made while the runtime allocates its own, so one "
        "buffer cannot serve them all; now two row blocks of one buffer made before the scope, i % 2",
        P.Program((RD, KA), (P.Manual((P.TidNone("m"), P.Loop("range", "i", "n", (
            P.Call("rd", ("p", None), ("f",), (), True, "m", ("m",)),), carries=(("p", "b"),), yields=("f",),
            results=("r",)))),
            P.Call("k0", ("r", "a"), ("a",))))),
    "25-runtime-output-read-by-the-next-iteration-in-a-loop-of-an-auto-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (24 in a hand-placed AUTO scope, written for the same fix)",
        P.Program((RD, KA), (P.Auto((P.Loop("range", "i", "n", (
            P.Call("rd", ("p", None), ("f",), (), True, "t", ()),), carries=(("p", "b"),), yields=("f",),
            results=("r",)),)),
            P.Call("k0", ("r", "a"), ("a",))), auto_scope=False)),
    "26-runtime-output-kept-by-a-second-carry-in-a-loop-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (written for the same fix): a second carry keeps the buffer of the iteration "
        "before the last, read by a task after the iteration made its own; now three row blocks",
        P.Program((RD, KA), (P.Manual((P.TidNone("m"), P.Loop("range", "i", "n", (
            P.Call("rd", ("x", None), ("f",), (), True, "t", ("m",)),
            P.Call("k0", ("v", "a"), ("a",), (), True, "m", ("t",))),
            carries=(("p", "b"), ("v", "b")), yields=("f", "p"), results=("r", "s")))),
            P.Call("k0", ("r", "a"), ("a",)), P.Call("k0", ("s", "a"), ("a",))))),
    "27-runtime-output-in-a-parallel-loop-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (18 with pl.parallel(3), written for the same fix): iterations that may run at "
        "once cannot share one buffer; now one row block each of a buffer made before the scope",
        P.Program((RD, KA), (P.Manual((P.TidNone("m"), P.Loop("parallel", "i", 3, (
            P.Call("rd", ("x", None), ("f",), (), True, "t", ()),), carries=(("p", "b"),), yields=("f",),
            results=("r",)))),
            P.Call("k0", ("r", "a"), ("a",))))),
    "28-created-tensor-in-a-parallel-loop-of-an-auto-scope-used-after-it": (
        "runtime use_after_scope",
        "not in issue 21 (19 with pl.parallel(2) in a hand-placed AUTO scope, written for the same fix)",
        P.Program((WR, KA), (P.Auto((P.Loop("parallel", "i", 2, (
            P.Create("t", "A"), P.Call("wr", ("x", "t"), ("t",))), carries=(("p", "b"),), yields=("t",),
            results=("r",)),)),
            P.Call("k0", ("r", "a"), ("a",))), auto_scope=False)),
    "09-assemble-drops-the-source-init-value": (
        "value final",
        "issue 21 class 5, a shape it does not list: the source of pl.assemble made by "
        "create_tensor(init_value=...) and never written; placing it inside the target drops the "
        "fill, so the target keeps its old rows",
        P.Program((), (P.Create("t", "B", 0.5), P.Assemble("a", "t", 0)))),
    "10-read-before-assemble-sees-assembled-rows": (
        "value hread",
        "issue 21 class 5 as listed: a read of the target between the source's write and the "
        "assemble observes the assembled rows",
        P.Program((WB,), (P.Create("t", "B"), P.Call("wb", ("x", "t"), ("t",)),
                          P.HostRead("v", "a", (5, 1), 0), P.Assemble("a", "t", 4)))),
}

# Defects the rows grammar found (tools/attack/rows.py, branch att5 on main c6721bf): the smallest
# program of each shape, as the grammar writes it. OPEN holds the ones the compiler still fails
# (none of these now; `python -m nanopass.tools.attack.found --open DIR` writes them); a fixed one moves to
# FOUND, where tests/test_attack.py checks it passes (29-31: the pairs an assemble's placement makes
# in a manual scope are the compiler's since branch asm21; 32: a host access in a manual scope waits
# for the scope's tasks through a host wait since branch ref21).
RW = P.Kernel("wr", (("in", "A"), ("out", "B")))        # writes a [4, 4] tensor or row block
RR = P.Kernel("rd", (("in", "B"), ("out", "B")))        # reads one into a runtime-allocated output


def _asm(t, row, tid):
    """A careful user's create + write + assemble in a manual scope: the source is a fresh
    tensor, so its writer waits for nothing."""
    return (P.Create(t, "B"), P.Call("wr", ("x", t), (t,), (), True, tid), P.Assemble("a", t, row))


FOUND.update({
    "29-assemble-sources-of-a-loop-in-a-manual-scope-share-the-target-rows": (
        "hazard WAW task>task MM recorded-only",
        "rows grammar, size 3 (rows3-00061; pl.range(n): rows3-00072): a create + write + assemble "
        "into rows 0..3 of `a` in a loop of a manual scope. Each iteration's source is placed in "
        "the same rows of `a` (t2 = ext_a.view(...)) and nothing orders the two writers, which the "
        "user wrote as writes of two fresh tensors: `a` ends with either iteration's rows. "
        "`nanopass check` flags the same pair",
        P.Program((RW,), (P.Manual((P.TidNone("u"), P.Loop("range", "i", 2, _asm("t", 0, "u")))),),
                  extra=("v",))),
    "30-assemble-source-placed-over-rows-a-manual-task-writes": (
        "hazard WAW task>task MM recorded-only",
        "rows grammar, size 3: a task writes rows 0..3 of `a` through a slice in a manual scope, "
        "then a create + write + assemble into the same rows; the source, placed in those rows, "
        "is written with no dependency on the slice's writer (the user's program has none: the "
        "source is fresh), so `a` may end with the slice writer's rows",
        P.Program((RW,), (P.Manual((P.TidNone("t"), P.Slice("s", "a", 0),
                                    P.Call("wr", ("x", "s"), ("s",), (), True, "t", ("t",)))
                                   + _asm("q", 0, "u")),), extra=("v",))),
    "31-assemble-source-placed-over-rows-a-manual-task-reads": (
        "hazard WAR task>task MM recorded-only",
        "rows grammar, size 3: a task reads rows 0..3 of `a` through a slice in a manual scope, "
        "then a create + write + assemble into the same rows; the placed source's writer may "
        "overwrite the rows before the reader has read them",
        P.Program((RR, RW), (P.Manual((P.TidNone("t"), P.Slice("s", "a", 0),
                                       P.Call("rd", ("s", None), ("f",), (), True, "t", ("t",)))
                                      + _asm("q", 0, "u")),), extra=("v",))),
    "32-host-access-beside-the-rows-an-assemble-fills-in-a-manual-scope-refused": (
        "refusal",
        "rows grammar, size 3: in a manual scope, a create + write + assemble into rows 4..7 of "
        "`a`, then a host write of a[1, 1] (rows 0..3; a host read is refused alike). Refused: "
        "\"the host writes an element of 'a' in the manual scope where task wr writes it\"; the "
        "source's writer writes rows 4..7 only, placed or not, so the program has a correct "
        "compilation (found/16's imprecision, inside a manual scope). With the host access on "
        "rows 4..7 the refusal is right: the placed source's writer races it",
        P.Program((RW,), (P.Manual((P.TidNone("u"),) + _asm("t", 4, "u") + (P.HostWrite("a", (1, 1), 1.0),)),),
                  extra=("v",))),
})



# Defects the scopes grammar found (tools/attack/scopes.py, branch att6 on land21 0b18d80): the
# smallest program of each shape, as the grammar writes it (size 4 or 5; no program of size 2 or
# less fails, nor any of the 2,423 of size 3 run, among them every use after a block that allocates;
# RUNS.md).
def _scopes(shape, atoms) -> P.Program:
    from . import scopes
    return scopes.build(shape, tuple(scopes.ATOMS.index(a) for a in atoms))


def _block(kind, *items):
    return (kind, tuple(items))


# 34, 35 and 37 pass since branch uaf21 (a block of one buffer made before the scope for each run of a
# nest of constant inner bounds, or of loops of constant bounds; the spurious warning of 35 went with it).
FOUND.update({
    "34-runtime-output-of-a-parallel-loop-reading-the-other-iterations-output-in-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "scopes grammar, size 4: 27's family, where each iteration of the pl.parallel(2) loop reads "
        "the buffer the iteration before made (`w, m = pl.submit(self.rd, w, deps=[m])`). The "
        "compiler warns ('iterations that may run at once need a buffer each, which the compiler makes "
        "before the block only for a loop ... whose iterations read no other iteration's buffer') and "
        "leaves the output in the scope; the host read after it uses the freed buffer. Also with the "
        "use in the next iteration of a loop around the manual scope instead of after it",
        _scopes((_block("manual", _block("parallel_2", "atom")), "atom"), [("mk", "w", "w"), ("hr", "w")])),
    "35-warning-of-a-freed-buffer-that-nothing-uses-after-the-scope": (
        "warning buffer freed",
        "scopes grammar, size 4: a create with init_value in a loop of a manual scope, in a loop; "
        "nothing reads `w` after the scope (the next iteration rebinds it first, and nothing follows "
        "the outer loop), yet the compiler warns that 'w' is 'used after the block' and 'the use "
        "after the block may use a freed buffer'. The runs pass; the warning is spurious (the same "
        "with `with pl.scope()` for the manual scope, or pl.parallel(2) for the inner loop)",
        _scopes((_block("range_n", _block("manual", _block("range_2", "atom"))),), [("newi", "w")])),
    "37-runtime-output-read-by-the-next-iteration-of-an-inner-loop-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "scopes grammar, size 5: 24 with the loop inside another pl.range(2) loop of the manual scope: "
        "each iteration of the inner loop reads the buffer the iteration before made and the runtime "
        "allocates its own; the host read after the scope uses a freed buffer (the compiler warns). "
        "With `pl.submit(self.rd, v)` (reading no earlier iteration's buffer) it passes",
        _scopes((_block("manual", _block("range_2", _block("range_2", "atom"))), "atom"), [("mk", "w", "w"), ("hr", "w")])),
})

# 36 passes since a read in the other branch of an if around the allocation no longer counts as a read
# after it (place_loop_allocations_before_scopes.exclusive: no run reaches both).
FOUND.update({
    "36-created-tensor-in-a-branch-of-a-loop-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "scopes grammar, size 5: 13 and 19 together, a create in `if n > 1` inside a pl.range(n) loop "
        "of a manual scope, read after the scope. The compiler warns (the buffers are made before the "
        "block 'only for an allocation run once in every iteration of a pl.range loop directly in the "
        "block') and leaves the create in the scope, which frees it. The same with a runtime output "
        "(`w, m = pl.submit(self.rd, v, deps=[m])`) for the create, with `with pl.scope()` for the "
        "manual scope, and with pl.parallel(2) for the loop",
        _scopes((_block("manual", _block("range_n", _block("if_n", "atom"))), "atom"), [("new", "w"), ("hr", "w")])),
})

# 23 (surface tester, main 51da541): the tester ran an Inline function the Python way, nanopass as
# reference-surface.md section 5 says (a parameter the body rebinds rebinds the caller's variable);
# the tester follows section 5 since branch inl22, and they agree. nanopass warns at the rebinding
# (no failure: the warning names no freed buffer). tools/attack/found/23 keeps the program found.
FOUND.update({
    "23-inline-parameter-rebinding-rebinds-the-callers-name": (
        "value",
        "surface tester, the tester's model: `b = self.inl0(b, a, ...)` where inl0 swaps its "
        "parameters q0, q1 and returns q0; the task after it writes `a`, which section 5's "
        "substitution left on b's tensor (Python's reading: on a's)",
        P.Program((KA,), (S.InlineCall("inl0", ("b", "a"), ("b",)), P.Call("k0", ("x", "a"), ("a",))), surface=True,
                  functions=(S.InlineFn("inl0", (("q0", "A", "inout"), ("q1", "A", "inout")),
                                        (P.Swap("q0", "q1", "o"),), ("q0",), ("A",)),))),
})

# 33 passes since branch uaf22: a create with an init_value that nothing writes shares one buffer made
# (and filled) before the block; one the block writes, in a loop of a run-time trip count, was a
# located error until branch runs22 and gets one buffer of max(n, 1) filled row blocks made before
# the block, run j taking block j (place_loop_allocations_before_scopes.run_time_blocks).
FOUND.update({
    "33-created-tensor-with-an-init-value-in-a-loop-of-a-manual-scope-used-after-it": (
        "runtime use_after_scope",
        "scopes grammar, size 4: 19 with init_value=0.5. The compiler warned (place_loop_allocations_"
        "before_scopes: 'one buffer made before the block would not start from the initial value in "
        "every iteration') and left the create in the manual scope, which frees it; the host read "
        "after the scope used the freed buffer. The same with `with pl.scope()` for the manual scope "
        "and with pl.parallel(2) or pl.range(2) for the loop. With a task writing the buffer in the "
        "loop (`w = self.up(w)`) the program is refused: every run must start from the fill in a "
        "buffer of its own made before the block",
        _scopes((_block("manual", _block("range_n", "atom")), "atom"), [("newi", "w"), ("hr", "w")])),
    "33-created-tensor-with-an-init-value-written-in-a-loop-of-a-manual-scope-used-after-it": (
        "refusal",
        "33 with a task updating the created buffer in the loop: refused with a located error (the "
        "runtime fills a buffer only when it allocates it, and the runs' number is known only at run "
        "time) until branch runs22, which makes one buffer of max(n, 1) filled row blocks before the "
        "block, the number counted there, run j writing block j",
        _scopes((_block("manual", _block("range_n", "atom", "atom")), "atom"), [("newi", "w"), ("up", "w"), ("hr", "w")])),
})

# Refusals of placeable programs the assemble rule of tools/attack/semantics.py counts since
# branch tester23 (a use of an assemble's source after the assemble has no correct compilation
# only where the source and the target's rows may differ there), found by hand: the compiler's
# rule was coarser (a write of either buffer, any use by another assemble, a write nothing reads).
# They pass since branch asm23 (fuse_create_assemble_to_slice: a write of other rows of the target
# changes nothing a read of the source sees, an assemble into the rows the source is placed in is
# no copy, an assemble into a tensor nothing reads places nothing).
_MADE = (P.Create("t", "B"), P.Call("wb", ("x", "t"), ("t",)))
FOUND.update({
    "38-assemble-source-read-after-a-write-of-other-rows-of-the-target-refused": (
        "refusal",
        "t is assembled into rows 0..3 of b, then the host writes b[5, 1] and reads t[1, 1]: refused "
        "(\"'t' is used after it was assembled into 'b'\"), though the write touches no row t lives "
        "in, placed, so the read sees what the copy holds (the compiler's rule counts a write of the "
        "target's buffer, not of its rows)",
        P.Program((WB,), _MADE + (P.Assemble("b", "t", 0), P.HostWrite("b", (5, 1), 2.0),
                                  P.HostRead("v", "t", (1, 1), 0)))),
    "39-assemble-source-assembled-again-into-the-same-rows-refused": (
        "refusal",
        "t is assembled into rows 0..3 of b twice in a row: refused as a use after the assemble, "
        "though t placed in those rows makes both assembles nothing",
        P.Program((WB,), _MADE + (P.Assemble("b", "t", 0), P.Assemble("b", "t", 0)))),
    "40-assemble-source-assembled-again-into-a-tensor-nothing-reads-refused": (
        "refusal",
        "t is assembled into rows 0..3 of b, then into a created tensor u nothing reads: refused as "
        "a use after the assemble, though the second assemble is dead (t placed in b)",
        P.Program((WB,), _MADE + (P.Create("u", "A"), P.Assemble("b", "t", 0), P.Assemble("u", "t", 0)))),
    "41-assemble-source-written-after-its-assemble-into-a-tensor-nothing-reads-refused": (
        "refusal",
        "t is assembled into a created tensor u nothing reads, then updated and read by the host: "
        "refused as a use after the assemble, though no read of u can see the update",
        P.Program((WB, UB), _MADE + (P.Create("u", "A"), P.Assemble("u", "t", 0), P.Call("ub", ("t",), ("t",)),
                                     P.HostRead("v", "t", (0, 0), 0)))),
})
OPEN: dict = {}

# Refusals of placeable programs the nested-assembles grammar found (tools/attack/nested.py, branch
# rows40 = land40 6c0160b; RUNS.md "Nested assembles (session 21)"), shrunk (tools/attack/shrink.py);
# each compiles since branch place41 (fuse_create_assemble_to_slice's fuse_across and
# check_uses_after; docs/semantics.md "Still open" 16).
_RDD = P.Kernel("rdd", (("in", "D"), ("out", "D")))   # reads a [2, 4] tensor into a runtime-allocated output
FOUND.update({
    "42-assemble-source-read-after-the-manual-scope-of-its-assembles-refused": (
        "refusal",
        "nested grammar, size 6 (`manual { T M A1 A2 }; rd(u)`), shrunk: u is assembled into t and t "
        "into rows 4..7 of a, both in a manual scope; a task after the scope reads u. Refused until "
        "branch place41 (\"'u' is used after it was assembled into 't'\"), though nothing writes u or "
        "the rows it is placed in after the assembles: placed, the read sees what the copies hold. The "
        "uses after an assemble are now read on past the with blocks, ifs and loops around it",
        P.Program((_RDD,), (P.Manual((P.Create("t", "B"), P.Create("u", "D"), P.Assemble("t", "u", 2),
                                      P.Assemble("a", "t", 4))),
                            P.Call("rdd", ("u", None), ("f",), (), True, "q")))),
    "43-assemble-in-another-block-than-its-sources-create-refused": (
        "refusal",
        "nested grammar, size 5 (`T M A1 if(A2)`; also a loop or a manual scope around the outer "
        "assemble, or around the create and write of the inner source with its assemble after the "
        "scope), shrunk to one level: t made at the top and assembled into a in `if c > 0`. Refused "
        "until branch place41 (\"pl.assemble needs a source made by pl.create_tensor in the same "
        "block; 't' is not\"), though nothing between the create and the assemble touches the rows. "
        "Now placed when the branch will run (c is known at the create): the create is an if over "
        "c > 0 yielding the view of a, or a fresh buffer",
        P.Program((), (P.Create("t", "B"), P.If(("c", ">", 0), (P.Assemble("a", "t", 4),))))),
    "44-assemble-source-read-in-a-block-before-a-write-of-its-rows-there-refused": (
        "refusal",
        "random nested programs (`--grammar nested --seed 2`, nested20000240), shrunk: u assembled "
        "into t, then a manual scope reads u and then the host writes t[3, 1], a row u is placed in. "
        "Refused until branch place41 (\"'u' is used after it was assembled into 't'\"), though the "
        "write comes after the read: placed, the read sees what the copy holds. The with block is "
        "now read through (in a `pl.range` loop the refusal is right: the next iteration reads after "
        "the write)",
        P.Program((_RDD,), (P.Create("t", "B"), P.Create("u", "D"), P.Assemble("t", "u", 2),
                            P.Manual((P.TidNone("tu"), P.Call("rdd", ("u", None), ("f1",), (), True, "tu", ("tu",)),
                                      P.HostWrite("t", (3, 1), 1.0)))))),
})

# A refusal kept as the language's rule (docs/semantics.md, the assemble placement rule: the
# source is placed at its create only on the paths where the assemble runs, which must be known
# there); the tester's semantics, which places at the assemble it runs, finds it placeable.
OPEN.update({
    "58-assemble-in-an-if-on-the-loop-variable-with-its-source-made-before-the-loop-refused": (
        "refusal",
        "nested grammar, size 6 (`T M A1 range(if(A2))`), shrunk: t made at the top, assembled into a "
        "in `if i > 0` inside `for i in pl.range(n)`. Refused by the placement rule: whether the "
        "assemble runs is decided by i, not known where t is created (placed at the create, the view "
        "would be wrong for n = 1: the rows of a would take t's writes though no assemble ran). Write "
        "the create inside the if, or the assemble outside the loop",
        P.Program((WB,), (P.Create("t", "B"), P.Call("wb", ("x", "t"), ("t",)),
                          P.Loop("range", "i", "n", (P.If(("i", ">", 0), (P.Assemble("a", "t", 4),)),))))),
})

# The printed-IR grammars' (tools/attack/printed.py, printed_scalars.py; RUNS.md "Printed IR
# (session 23)"), on land42 (d191156), shrunk: refusals, open.
_SC_SLICE = SC.Program((("s", "INT64"),), (("k0", ("INT64",)),),
                       (SC.Dim("d", "y", 1), SC.Slice("v", "y", (("lit", 1), ("var", "d")), (("lit", 0), ("lit", 0))),
                        SC.Call("k0", "v", (("var", "s"),))), ((("M", 2), ("N", 3), ("s", 1)),))
PRINTED_OPEN: dict = {}
OPEN.update(PRINTED_OPEN)
# ... and fixed in session 23: an annotation's dimension may be computed from the function's
# variables (passes/frontend/type_reader.py, local_dims); a call's result types bind the kernel's
# dimension symbols to its arguments' dimensions (passes/frontend/ops/submits.py, result_types).
PRINTED_FOUND = {
    "60-printed-annotation-of-a-shape-computed-on-the-host-refused": (
        "refusal",
        "printed-scalars grammar (printed_scalars.py, `computed_types`), shrunk by hand: a slice whose "
        "shape is computed on the host (`d = pl.tensor.dim(y, 1)`) annotated with that shape, "
        "`v: pl.Tensor[[1, d], pl.FP32] = pl.tensor.slice(y, [1, d], [0, 0])`, as python_print annotates "
        "every assignment with its type: \"'d' is not a constant defined at module level\". The spec's "
        "examples show no such shape; without the annotation the program compiles and its values match",
        PS.Program(_SC_SLICE, computed_types=True)),
    "61-printed-pipeline-result-of-a-kernel-with-symbolic-dims-returned-refused": (
        "refusal",
        "printed-scalars grammar, after the pipeline (printed_scalars.py), random seeds 3, 5, 7, 9, shrunk: "
        "`y__ssa_v1: pl.Tensor[[M, N], pl.FP32] = self.k0(y__ssa_v0, s__ssa_v0, ...)` with the kernel "
        "declared over `pl.Tensor[[P, Q], pl.FP32]`, then `return y__ssa_v1`: \"'orch' returns a "
        "pl.Tensor[[P, Q], pl.FP32] where its return type declares pl.Tensor[[M, N], pl.FP32]\". The "
        "result keeps the callee's symbols where the DSL form and the printed form as written bind P, Q "
        "to the argument's M, N (both compile); `return y__ssa_v0`, the same buffer, compiles too",
        PS.Program(SC.Program((("s", "INT64"),), (("k0", ("INT64",)),), (SC.Call("k0", "y", (("var", "s"),)),),
                              ((("M", 2), ("N", 3), ("s", 1)),)), style="pipeline")),
}
FOUND.update(PRINTED_FOUND)
# ... and fixed in session 24: a host read whose value nothing uses observes nothing, so the
# placement rule no longer counts it (passes/fuse_create_assemble_to_slice.py,
# check_placement_invisible; a live read is still refused: tests/test_fuse_dead_host_read.py).
PRINTED_FIXED_24 = {
    "59-dead-host-read-of-the-rows-an-assemble-fills-refused": (
        "refusal",
        "printed grammar, random seed 42 (printed420000110, as written), shrunk; the DSL form is refused "
        "alike: a host read of b[0, 1] whose value nothing uses, between the create of t7 and its "
        "assemble into rows 0..3 of b. The placement rule (docs/semantics.md) refuses any read of those "
        "rows there, a dead one too, though a dead read observes nothing (the tester's semantics: a "
        "correct compilation exists; a live read is a right refusal, tied by name)",
        PR.Program(P.Program((), (P.Create("t7", "B"), P.HostRead("v8", "b", (0, 1), 2, live=False),
                                  P.Assemble("b", "t7", 0))))),
}
FOUND.update(PRINTED_FIXED_24)
# ... and fixed in session 30: an assemble into a task's runtime-allocated output nothing reads is
# dropped like one into a created tensor nothing reads (passes/assembled_rows.py, dead_assembles).
FIXED_30 = {
    "62-create-assembled-into-a-runtime-output-nothing-reads-refused": (
        "refusal",
        "default grammar, random seed 4931 (r49310000024), shrunk by hand: t6, made and never "
        "written, is assembled into rows 2..5 of f3 and rows 0..3 of f4, both outputs the runtime "
        "allocates for one task; only f4 is read. Refused as a use of t6 after its assemble into "
        "f3, though nothing reads f3: placing t6 in f4 alone is a correct compilation (t6's rows "
        "are undefined, so any value read from them is)",
        P.Program((TWO,), (P.Call("two", ("x", None, None), ("f3", "f4"), (), True, "t5"),
                           P.Create("t6", "B"), P.Assemble("f3", "t6", 2), P.Assemble("f4", "t6", 0),
                           P.HostRead("v", "f4", (3, 2), 2)))),
}
FOUND.update(FIXED_30)


def write_one(out: Path, name: str, cls: str, what: str, prog: P.Program, where: str) -> None:
    from . import runner
    rep = prog.check() if hasattr(prog, "check") else runner.check(prog)     # scalars.Program: its own
    head = f"class: {cls}\n{what}\n\n{where}:\n{runner.describe(rep) or 'nothing (fixed)'}"
    text = "".join(f"# {line}\n".replace("# \n", "#\n") for line in head.splitlines())
    (out / f"{name}.py").write_text(text + (prog.source if hasattr(prog, "check") else P.render(prog).source))


# The scalars grammar's (tools/attack/scalars.py; RUNS.md, session 22): found on land41 (2ba6cdd),
# fixed or settled there; and the programs docs/semantics.md rules out since, which the tester
# does not run (tests/test_attack_scalars.py checks the compiler refuses those it should).
FOUND.update(SC.FOUND)
RULED_OUT: dict = dict(SC.RULED_OUT)


# The surface grammar's outlined blocks of several statements (tools/attack/surface_blocks.py,
# blocks.py; RUNS.md "Outlined blocks (session 37)"), on main de34d9e, by hand from the shrunk
# programs; fixed in session 37 (passes/frontend/ops/outlining.py: a block's result named as an
# outer variable it reads is a new tensor; a block in an inline function's copy binding a
# variable of the caller's is asked of the code after the call).
_USE = P.Kernel("k0", (("in", "A"), ("inout", "A")))
FIXED_37: dict = {
    "63-block-that-reads-the-name-it-binds-drops-its-result": (
        "trace-mismatch",
        "surface grammar (every read-rebind block of seed 5750's run): `t = pl.add(t, x)` in a pl.at "
        "block (pl.spmd and pl.cluster alike, in or out of loops, Inline functions): the kernel reads t "
        "and has no Out for it, so the read after the block (the next iteration's too) sees the create, "
        "not the block's t; nanopass check agrees (the recorded task has the inputs t and x and no "
        "output)",
        P.Program((_USE,), (P.Create("t", "A", 0.5), SB.Blk("blk1", (SB.BOp("t", ("t", "x")),)),
                            P.Call("k0", ("t", "a"), ("a",))), surface=True)),
    "64-inline-function-block-binding-its-returned-parameter-drops-its-result": (
        "trace-mismatch",
        "by hand (blocks grammar, atom inl): an Inline function whose pl.at block binds its parameter q "
        "and returns q, called `t = self.inl0(x, t)`: the block's kernel has no Out, so the task after "
        "the call reads the create, and does not wait for the block (with the model's Out left out: "
        "value task, hazard RAW); `u = self.inl0(x, t)` is right",
        P.Program((_USE,), (P.Create("t", "A"), S.InlineCall("inl0", ("x", "t"), ("t",)),
                            P.Call("k0", ("t", "a"), ("a",))), surface=True,
                  functions=(S.InlineFn("inl0", (("p", "A", "in"), ("q", "A", "inout")),
                                        (SB.Blk("ib", (SB.BOp("q", ("p", "p")),)),), ("q",), ("A",)),))),
}
FOUND.update(FIXED_37)


def where_found(name: str) -> str:
    if name in SC.FOUND:
        return "found on land41 (2ba6cdd), fixed in session 22"
    if name in RULED_OUT:
        return "found on land41 (2ba6cdd), ruled out by docs/semantics.md in session 22"
    if name in PRINTED_OPEN:
        return "still open on land42 (d191156)"
    if name in PRINTED_FOUND:
        return "found on land42 (d191156), fixed in session 23"
    if name in PRINTED_FIXED_24:
        return "found on land42 (d191156), fixed in session 24"
    if name in FIXED_30:
        return "found on main 371bfc0 (session 29), fixed in session 30"
    if name in FIXED_37:
        return "found on main de34d9e (session 37), fixed in session 37"
    return "still open on land40 (6c0160b)" if name in OPEN else "found on branch attack"


def write(out: Path, open_only: bool = False) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, (cls, what, prog) in {} if open_only else {**FOUND, **RULED_OUT}.items():
        write_one(out, name, cls, what, prog, where_found(name))
    for name, (cls, what, prog) in OPEN.items():
        write_one(out, name, cls, what, prog, where_found(name))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--open"]
    write(Path(args[0]) if args else Path(__file__).resolve().parent / "found", "--open" in sys.argv)
