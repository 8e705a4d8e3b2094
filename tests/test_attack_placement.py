"""The adversarial tester's rule for uses of an assemble's source after the assemble
(tools/attack/semantics.py, module doc): the runtime has no tensor copy, so the source lives in
the target's rows; a use after the assemble has no correct compilation only when the source and
those rows may differ there, and one source cannot live in two regions whose assembled values
are both used. A refusal of a program the rule calls placeable is a failure of the compiler."""

from __future__ import annotations

from nanopass.tools.attack import record, runner, semantics
from nanopass.tools.attack import program as P

WB = P.Kernel("wb", (("in", "A"), ("out", "B")))      # writes a [4, 4] tensor or row block
UB = P.Kernel("ub", (("inout", "B"),))
CB = P.Kernel("cb", (("in", "B"), ("inout", "B")))    # reads p0 into p1
KERNELS = (WB, UB, CB)
MADE = (P.Create("t", "B", 0.5), P.Call("wb", ("x", "t"), ("t",)))   # the fill overwritten whole


def unorderable(*after, n: int = 1) -> list:
    prog = P.Program(KERNELS, MADE + after)
    return semantics.run(prog, P.render(prog).lines, n, 0).unorderable


def test_one_source_assembled_into_two_used_regions_has_no_correct_compilation():
    """tools/attack --seed 14 r140001656: `b = pl.assemble(b, t3, ...)` then `a = pl.assemble(a, t3,
    ...)`, both parameters (their final values are used)."""
    two_targets = unorderable(P.Assemble("b", "t", 0), P.Assemble("a", "t", 0))
    assert len(two_targets) == 1 and "two regions" in two_targets[0]
    two_row_blocks = unorderable(P.Assemble("b", "t", 0), P.Assemble("b", "t", 4))
    assert "two regions" in two_row_blocks[0]
    # read by a task rather than at the end: still both used
    created = (P.Create("u", "A"), P.Assemble("b", "t", 0), P.Assemble("u", "t", 0),
               P.HostRead("v", "u", (1, 1), 0))
    assert "two regions" in unorderable(*created)[0]


def test_one_source_assembled_twice_is_placeable_when_one_region_is_not_used():
    assert unorderable(P.Assemble("b", "t", 0), P.Assemble("b", "t", 0)) == []     # the same rows
    # the second region is a created tensor nothing reads
    assert unorderable(P.Create("u", "A"), P.Assemble("b", "t", 0), P.Assemble("u", "t", 0)) == []
    # the first region's rows are overwritten before anything reads them
    overwritten = (P.Assemble("b", "t", 0), P.Assemble("a", "t", 0),
                   P.Slice("s", "b", 0), P.Call("wb", ("x", "s"), ("s",)))
    assert unorderable(*overwritten) == []


def test_reads_of_the_source_after_the_assemble_that_no_write_precedes_are_placeable():
    assert unorderable(P.Assemble("b", "t", 0), P.HostRead("v", "t", (1, 1), 0)) == []
    read_by_a_task = (P.Assemble("b", "t", 0), P.Alias("y", "t"), P.Call("cb", ("y", "w"), ("w",)),
                      P.HostRead("v", "y", (3, 3), 0))
    assert unorderable(*read_by_a_task) == []
    # a write of the target's other rows, or of another tensor, changes nothing the read sees
    elsewhere = (P.Assemble("b", "t", 0), P.HostWrite("b", (5, 1), 2.0), P.HostRead("v", "t", (1, 1), 0))
    assert unorderable(*elsewhere) == []
    # the read comes before the write of the target's rows
    before = (P.Assemble("b", "t", 0), P.HostRead("v", "t", (1, 1), 0), P.HostWrite("b", (1, 1), 2.0))
    assert unorderable(*before) == []


def test_a_write_of_either_between_the_assemble_and_a_read_has_no_correct_compilation():
    target_then_source = (P.Assemble("b", "t", 0), P.HostWrite("b", (1, 1), 2.0),
                          P.HostRead("v", "t", (1, 1), 0))
    assert "host read" in unorderable(*target_then_source)[0]
    source_then_target = (P.Assemble("b", "t", 0), P.Call("ub", ("t",), ("t",)),
                          P.HostRead("v", "b", (2, 0), 0))
    assert "host read" in unorderable(*source_then_target)[0]
    # the target is a parameter: its final value is read at the end
    source_then_end = (P.Assemble("b", "t", 0), P.HostWrite("t", (0, 0), 3.0))
    assert "end of the program" in unorderable(*source_then_end)[0]


def test_a_write_of_the_source_the_target_never_shows_is_placeable():
    """A write of the source after the assemble whose rows are written again before anything
    reads them (the target must not see it, and nothing looks)."""
    rewritten = (P.Assemble("b", "t", 0), P.Call("ub", ("t",), ("t",)),
                 P.Slice("s", "b", 0), P.Call("wb", ("x", "s"), ("s",)))
    assert unorderable(*rewritten) == []
    into_a_dead_tensor = (P.Create("u", "A"), P.Assemble("u", "t", 0), P.Call("ub", ("t",), ("t",)),
                          P.HostRead("v", "t", (0, 0), 0))
    assert unorderable(*into_a_dead_tensor) == []


def _refusing(monkeypatch, message: str = "'t' is used after it was assembled into 'b'", nth: int = 0):
    """The compiler made to refuse with `message`, located (as the compiler locates a refusal of
    an assemble) at the `nth` `pl.assemble` of the source it is given."""
    def compile_dsl(path, **options):
        lines = [i for i, text in enumerate(path.read_text().splitlines(), 1) if "pl.assemble(" in text]
        return record.Compiled(error_kind="user", error=f"prog.py:{lines[nth]}:9: error: {message}")

    monkeypatch.setattr(record, "compile_dsl", compile_dsl)


def test_a_refusal_counts_as_a_failure_only_when_a_correct_compilation_exists(monkeypatch):
    _refusing(monkeypatch)
    placeable = P.Program(KERNELS, MADE + (P.Assemble("b", "t", 0), P.HostRead("v", "t", (1, 1), 0)))
    assert runner.check(placeable, settings=((1, 0),)).classes() == {"refusal"}
    dead = P.Program(KERNELS, MADE + (P.Create("u", "A"), P.Assemble("b", "t", 0), P.Assemble("u", "t", 0)))
    assert runner.check(dead, settings=((1, 0),)).classes() == {"refusal"}
    twice = P.Program(KERNELS, MADE + (P.Assemble("b", "t", 0), P.Assemble("a", "t", 0)))
    rep = runner.check(twice, settings=((1, 0),))
    assert rep.refusal and rep.unorderable and rep.classes() == set()


def test_the_compiler_refuses_a_source_assembled_into_two_used_regions_rightly():
    twice = P.Program(KERNELS, MADE + (P.Assemble("b", "t", 0), P.Assemble("a", "t", 0)))
    rep = runner.check(twice, settings=((1, 0),))
    assert rep.refusal and "assembled" in rep.refusal
    assert rep.classes() == set(), runner.describe(rep)


def test_a_parameter_assembled_into_used_rows_has_no_correct_compilation():
    """tools/attack --seed 23 r230000212: the source is, when an `if` took its branch, the
    parameter `w` (swapped in); the caller made its buffer, which no placement can move."""
    param = unorderable(P.Assemble("a", "w", 0))
    assert len(param) == 1 and "parameter w" in param[0]
    swapped = (P.If(("n", ">", 1), (P.Swap("w", "t", "o"),), ()), P.Assemble("a", "t", 0))
    assert unorderable(*swapped, n=1) == []
    assert "parameter w" in unorderable(*swapped, n=2)[0]
    overwritten = (P.Assemble("a", "w", 0), P.Slice("s", "a", 0), P.Call("wb", ("x", "s"), ("s",)))
    assert unorderable(*overwritten) == []
    rep = runner.check(P.Program(KERNELS, MADE + swapped), settings=((1, 0), (2, 0)))
    assert rep.refusal and rep.classes() == set(), runner.describe(rep)


def test_the_refusals_found_by_hand_are_placeable():
    """tools/attack/found 38-41: the tester finds a correct compilation for each (the compiler
    refused them until branch asm23; test_attack.test_found_programs checks it compiles them)."""
    from nanopass.tools.attack import found

    names = [k for k in found.FOUND if k[:2] in ("38", "39", "40", "41")]
    assert len(names) == 4
    for name in names:
        _, _, prog = found.FOUND[name]
        for n, c in runner.SETTINGS:
            assert semantics.run(prog, P.render(prog).lines, n, c).unorderable == [], name


def test_a_task_reading_the_target_rows_and_writing_the_source_has_no_correct_compilation():
    """tools/attack --seed 25 r250000498: `b = pl.assemble(b, t1, [4, 0])` then `b, t1 = self.k1(b,
    t1)`, b's rows rewritten before anything else reads them: placed, the task reads the rows it
    writes through its other argument (issue 21, class 5)."""
    def rewrite(row):  # the target's rows written again: nothing after the task sees them differ
        return (P.Slice(f"r{row}", "b", row), P.Call("wb", ("x", f"r{row}"), (f"r{row}",)))

    whole_target = unorderable(P.Assemble("b", "t", 4), P.Call("wb", ("b", "t"), ("t",)), *rewrite(4))
    assert len(whole_target) == 1 and "through two arguments" in whole_target[0]
    rows_into_source = (P.Assemble("b", "t", 4), P.Slice("s", "b", 4), P.Call("cb", ("s", "t"), ("t",)))
    assert "through two arguments" in unorderable(*rows_into_source, *rewrite(4))[0]
    # reading another tensor, or the target's other rows, while writing the source is placeable
    assert unorderable(P.Assemble("b", "t", 4), P.Call("wb", ("x", "t"), ("t",)), *rewrite(4)) == []
    other_rows = (P.Assemble("b", "t", 0), P.Slice("s", "b", 4), P.Call("cb", ("s", "t"), ("t",)))
    assert unorderable(*other_rows, *rewrite(0)) == []


def test_a_refusal_of_a_program_with_no_correct_compilation_is_right_only_for_that_reason(monkeypatch):
    """The source is assembled into two used regions (no correct compilation: an assemble's
    placement). Refused as an assemble the runtime cannot copy, that is right; refused for a race,
    a TaskId or a loop's allocation, the compiler refused it for a reason that is not there."""
    twice = P.Program(KERNELS, MADE + (P.Assemble("b", "t", 0), P.Assemble("a", "t", 0)))
    for right in ("'t' is used after it was assembled into 'b'",
                  "pl.assemble cannot make 't' a view of 'a' (the runtime cannot copy): ..."):
        _refusing(monkeypatch, right)
        rep = runner.check(twice, settings=((1, 0),))
        assert rep.unorderable_kinds == {semantics.PLACEMENT}
        assert rep.right_refusal() and rep.classes() == set(), right
    for wrong in ("the host write of 'b' races the task that reads it in this manual scope",
                  "this loop may yield several TaskIds for 'm'",
                  "'t' is created in a loop of a manual scope and used after it: no correct compilation"):
        _refusing(monkeypatch, wrong)
        rep = runner.check(twice, settings=((1, 0),))
        assert not rep.right_refusal() and rep.classes() == {"refusal"}, wrong


def test_an_access_to_a_source_already_placed_in_the_rows_touches_them():
    """`b = pl.assemble(b, t, ...)`, then `s` made, `s = cb(t, s)` and `b = pl.assemble(b, s, ...)`
    into the same rows: t lives in b's rows, so placing s there too makes cb
    read and write the same bytes, and s's own write overwrites what cb reads as t. No correct
    compilation, though no access between s's creation and its assemble names b itself."""
    made_s = (P.Create("s", "B"), P.Call("wb", ("x", "s"), ("s",)))
    same_rows = (P.Assemble("b", "t", 0), P.HostRead("v", "b", (1, 1), 0), *made_s,
                 P.Call("cb", ("t", "s"), ("s",)), P.Assemble("b", "s", 0))
    reasons = unorderable(*same_rows)
    assert reasons and "touches the rows" in reasons[0] and "line" in reasons[0]
    # t placed in other rows: s's rows are not t's, and cb reading t touches nothing of them
    other_rows = (P.Assemble("b", "t", 4), P.HostRead("v", "b", (5, 1), 0), *made_s,
                  P.Call("cb", ("t", "s"), ("s",)), P.Assemble("b", "s", 0))
    assert unorderable(*other_rows) == []


# Two created sources: t assembled into two used regions (no correct compilation), s into rows
# 4..7 of b, which is placeable. Only a refusal of t's assembles is right.
MADE_S = (P.Create("s", "B"), P.Call("wb", ("x", "s"), ("s",)))
TWO_SOURCES = P.Program(KERNELS, MADE + MADE_S + (P.Assemble("b", "s", 4), P.Assemble("b", "t", 0),
                                                  P.Assemble("a", "t", 0)))


def test_the_reasons_name_the_assembles_and_tensors_they_are_about():
    rendered = P.render(TWO_SOURCES)
    lines = [i for i, text in enumerate(rendered.source.splitlines(), 1) if "pl.assemble(" in text]
    reasons = semantics.run(TWO_SOURCES, rendered.lines, 1, 0).unorderable
    assert len(reasons) == 1 and "two regions" in reasons[0]
    assert reasons[0].lines == set(lines[1:]) and {"t", "a", "b"} <= reasons[0].names
    assert "s" not in reasons[0].names


def test_a_refusal_is_right_only_when_it_names_the_tensor_and_the_assemble_found(monkeypatch):
    """The same kind of refusal (an assemble the runtime cannot copy) is right for t at one of
    t's assembles, and wrong for s (placeable), at s's assemble or at t's."""
    for message, nth in (("'t' is used after it was assembled into 'b'", 1),
                         ("pl.assemble cannot make 't' a view of 'a' (the runtime cannot copy): ...", 2)):
        _refusing(monkeypatch, message, nth)
        rep = runner.check(TWO_SOURCES, settings=((1, 0),))
        assert rep.refusal_check() == "name" and rep.classes() == set(), message
    for message, nth in (("'s' is used after it was assembled into 'b'", 0),      # another tensor
                         ("'s' is used after it was assembled into 'b'", 1),      # at t's assemble
                         ("'t' is used after it was assembled into 'b'", 0)):     # t, at s's assemble
        _refusing(monkeypatch, message, nth)
        rep = runner.check(TWO_SOURCES, settings=((1, 0),))
        assert rep.unorderable_kinds == {semantics.PLACEMENT}
        assert rep.refusal_check() is None and rep.classes() == {"refusal"}, (message, nth)


def test_a_refusal_that_names_no_tensor_is_matched_by_its_kind_only():
    """A located error quoting no name (or one with no location) cannot be tied to an access:
    its kind is matched, and the check says so."""
    reason = semantics.Reason(semantics.PLACEMENT, "two regions", {22, 23}, {"c1"}, {"t", "b"})
    rep = runner.Report("", refusal="prog.py:22:9: error: pl.assemble cannot place this source", reasons=[reason])
    assert rep.refusal_check() == "kind" and rep.classes() == set()
    unlocated = runner.Report("", refusal="error: 't' is used after it was assembled into 'b'", reasons=[reason])
    assert unlocated.refusal_check() == "kind"
    named = runner.Report("", refusal="prog.py:22:9: error: 't' is used after it was assembled into 'b'",
                          reasons=[reason])
    assert named.refusal_check() == "name"
    # an inline function's variable, quoted as its copy's, is tied by the function's name for it
    copied = runner.Report("", refusal="prog.py:22:9: error: 't_inline0' is used after it was assembled into 'b'",
                           reasons=[reason])
    assert copied.refusal_check() == "name"
    # another kind of message is wrong, named or not
    race = runner.Report("", refusal="prog.py:22:9: error: the host write of 'b' races a task", reasons=[reason])
    assert race.refusal_check() is None and race.classes() == {"refusal"}


def test_apostrophes_in_a_refusal_s_prose_are_no_quotes():
    """Only the head of a refusal (where it names the assemble's source and target) is read for
    names: an apostrophe in the prose after it ("the source's writer") opens no quote, and
    names the prose quotes are not the refusal's."""
    reason = semantics.Reason(semantics.PLACEMENT, "two regions", {22, 23}, {"c1"}, {"t", "b"})
    right = [
        "pl.assemble cannot make 't' a view of 'b' (the runtime cannot copy): the source's writer "
        "(task k_copy of line 20) runs after it, so 'b' would hold the writer's rows",
        "'t' is used after it was assembled into 'b'; the target's rows change under it ('x' writes them)",
        "pl.assemble needs a source made by pl.create_tensor; 't' may be 'c' (the output of k's call) "
        "or 'd' (made before the assemble) here: only a pl.create_tensor can be made a view of the rows of 'b'",
        "the target 'b' of pl.assemble must exist before its source 't' is created (the target's buffer)",
    ]
    for message in right:
        rep = runner.Report("", refusal=f"prog.py:22:9: error: {message}", reasons=[reason])
        assert rep.refusal_check() == "name" and rep.classes() == set(), message
        assert runner.named_tensors(message) <= {"t", "b"}, message
    # the same prose refusing another tensor, or at another line, is still wrong
    other = "pl.assemble cannot make 's' a view of 'b' (the runtime cannot copy): the source's writer races it"
    assert runner.named_tensors(other) == {"s", "b"}
    for refusal in (f"prog.py:22:9: error: {other}", f"prog.py:30:9: error: {right[0]}"):
        rep = runner.Report("", refusal=refusal, reasons=[reason])
        assert rep.refusal_check() is None and rep.classes() == {"refusal"}, refusal
    # a message of the kind that names no tensor, apostrophe or not, is matched by its kind only
    rep = runner.Report("", refusal="prog.py:22:9: error: pl.assemble needs a source of the target's dtype",
                        reasons=[reason])
    assert runner.named_tensors("pl.assemble needs a source of the target's dtype") == set()
    assert rep.refusal_check() == "kind"


def test_the_compiler_refuses_the_tensor_the_tester_found():
    rep = runner.check(TWO_SOURCES, settings=((1, 0),))
    assert rep.refusal and rep.refusal_check() == "name", runner.describe(rep)


def test_the_recorded_right_refusals_are_tied_by_name():
    """tools/attack/found 09 and 10, refused rightly (test_attack.test_found_programs checks that
    every recorded case still has no failure): each refusal names the tensors and the assemble
    the tester found."""
    from nanopass.tools.attack import found

    for name in ("09-assemble-drops-the-source-init-value", "10-read-before-assemble-sees-assembled-rows"):
        rep = runner.check(found.FOUND[name][2])
        assert rep.refusal and rep.refusal_check() == "name" and rep.classes() == set(), name
