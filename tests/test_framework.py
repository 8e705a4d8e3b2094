"""The nanopass framework on a toy language: grammar checks, extension, text form, passes, driver."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from nanopass.errors import GrammarError, InternalError, VerifyError
from nanopass.language import Language, Nonterminal, Production, boolean, integer, real, symbol, text, walk
from nanopass.pipeline import Pipeline, PipelineError
from nanopass.rewrite import Pass, PassRegistry
from nanopass.strategies import trees
from nanopass.text import TextSyntaxError, parse, unparse

L0 = Language(
    "toy0",
    terminals=[symbol, integer, boolean, real, text],
    entry="Prog",
    nonterminals=[
        Nonterminal(
            "Expr",
            Production("Var", "name:symbol"),
            Production("Num", "value:integer"),
            Production("Add", "a:Expr", "b:Expr"),
        ),
        Nonterminal(
            "Stmt",
            Production("Let", "name:symbol", "value:Expr"),
            Production("Loop", "count:integer", "body:Stmt*"),
            Production("Note", "msg:text", "weight:real?"),
        ),
        Nonterminal("Prog", Production("Prog", "body:Stmt*", "flag:boolean?")),
    ],
)
L1 = L0.extend(
    "toy1",
    add={"Stmt": [Production("Print", "value:Expr")]},
    remove={"Stmt": ["Note"]},
)


def test_nodes_are_frozen_and_compare_structurally():
    a = L0.Add(L0.Var("x"), L0.Num(1))
    b = L0.Add(L0.Var("x"), L0.Num(1))
    assert a == b and hash(a) == hash(b)
    assert a != L0.Add(L0.Var("x"), L0.Num(2))
    with pytest.raises(AttributeError):
        a.a = L0.Num(3)


def test_list_fields_become_tuples():
    loop = L0.Loop(2, [L0.Let("x", L0.Num(1))])
    assert isinstance(loop.body, tuple)


def test_grammar_error_names_node_field_expected_and_received():
    with pytest.raises(GrammarError) as info:
        L0.Let("x", L0.Let("y", L0.Num(1)))
    message = str(info.value)
    assert "field 'value'" in message and "(Let ...)" in message
    assert "expected Expr" in message and "(Let y (Num 1))" in message


@pytest.mark.parametrize(
    "build",
    [
        lambda: L0.Var("not an identifier"),
        lambda: L0.Num(True),
        lambda: L0.Num("3"),
        lambda: L0.Loop(1, (L0.Num(1),)),
        lambda: L0.Loop(1, "abc"),
        lambda: L0.Note("x", 3),
        lambda: L0.Prog((), 1),
    ],
)
def test_ill_formed_nodes_are_refused(build):
    with pytest.raises(GrammarError):
        build()


def test_extension_shares_unchanged_classes_only():
    assert L1.Var is L0.Var and L1.Add is L0.Add  # Expr is unchanged
    assert L1.Let is L0.Let  # refers to Expr only
    assert L1.Loop is not L0.Loop  # its body is Stmt*, and Stmt changed
    assert L1.Prog is not L0.Prog
    assert "Note" not in L1.nodes and "Print" in L1.nodes


def test_extended_language_refuses_removed_productions():
    with pytest.raises(GrammarError):
        L1.Loop(1, (L0.Note("hi", None),))


def test_grammar_text_and_diff():
    grammar = L1.grammar_text()
    assert "(Stmt ::= (Let name:symbol value:Expr)" in grammar
    assert "(Print value:Expr)" in grammar and "Note" not in grammar
    diff = L0.diff(L1)
    assert "- Stmt ::= (Note msg:text weight:real?)" in diff
    assert "+ Stmt ::= (Print value:Expr)" in diff
    assert "Expr ::=" not in diff


def test_language_declaration_errors():
    with pytest.raises(ValueError):
        Language("bad", terminals=[symbol], entry="X", nonterminals=[Nonterminal("X", Production("X", "a:Nope"))])
    with pytest.raises(ValueError):
        L0.extend("bad", remove={"Stmt": ["NoSuchProduction"]})
    with pytest.raises(ValueError):
        Production("P", "span:symbol")


@settings(max_examples=200, deadline=None)
@given(trees(L0))
def test_text_form_round_trips(tree):
    for width in (100, 20):
        assert parse(L0, unparse(tree, width=width)) == tree


def test_text_form_is_readable():
    tree = L0.Prog([L0.Let("x", L0.Add(L0.Var("y"), L0.Num(3)))], None)
    assert unparse(tree) == "(Prog [(Let x (Add (Var y) (Num 3)))] _)"


def test_parse_reports_position():
    with pytest.raises(TextSyntaxError) as info:
        parse(L0, "(Prog [(Let x (Oops 1))] _)")
    assert info.value.span.col == 15 and "Oops" in info.value.message


def test_walk_does_not_recurse():
    body = L0.Num(0)
    for _ in range(5000):
        body = L0.Add(body, L0.Num(1))
    assert sum(1 for _ in walk(body)) == 10001


# -- passes ------------------------------------------------------------------------------------------


class _ScaleNums(Pass):
    """Double every number. Test-only pass; nothing else changes."""

    name = "scale_nums"
    source = L0
    target = L0

    def Num(self, node):
        return L0.Num(node.value * 2)


class _LowerNotes(Pass):
    """Replace notes by prints of 0 (toy0 -> toy1). Test-only pass."""

    name = "lower_notes"
    source = L0
    target = L1

    def Note(self, node):
        return L1.Print(L1.Num(0))


def test_pass_rewrites_only_what_it_handles_and_reuses_the_rest():
    keep = L0.Let("keep", L0.Var("v"))
    tree = L0.Prog([keep, L0.Let("x", L0.Num(2))], True)
    out = _ScaleNums().run(tree)
    assert out.body[1].value == L0.Num(4)
    assert out.body[0] is keep  # unchanged subtree reused, not copied


def test_pass_into_extended_language_rebuilds_changed_classes():
    let = L0.Let("x", L0.Num(1))
    tree = L0.Prog([L0.Loop(2, [let, L0.Note("n", None)])], None)
    out = _LowerNotes().run(tree)
    assert L1.is_program(out) and not L0.is_program(out)
    assert out.body[0].body[1] == L1.Print(L1.Num(0))
    assert out.body[0].body[0] is let


def test_every_way_of_building_a_node_leaves_a_frozen_node_of_its_class():
    """Constructors, ``replace`` and identity clauses fill a builder object and turn it into the
    node class (``nanopass.language.Node``): no builder object may come out of any of them."""
    from nanopass.language import Node

    tree = L0.Prog([L0.Loop(2, [L0.Let("x", L0.Num(1)), L0.Note("n", 0.5)])], None)
    lowered = _LowerNotes().run(tree)  # the Loop and the Prog rebuilt by identity clauses
    made = L0.Loop.make(2, [L0.Let.make("x", L0.Num.make(1))], None)
    built = [tree.body[0], tree.body[0].replace(count=3), lowered.body[0], lowered, lowered.body[0].body[1], made]
    expected = [L0.Loop, L0.Loop, L1.Loop, L1.Prog, L1.Print, L0.Loop]
    assert L1.Loop is not L0.Loop and lowered.body[0].body[0] is tree.body[0].body[0]
    for node, cls in zip(built, expected):
        assert type(node) is cls and isinstance(node, Node)
        assert not issubclass(cls._builder, Node) and cls._builder.__slots__ == cls._fields + ("span", "_hash")
        assert cls.__slots__ == () and cls.__mro__ == (cls, cls._builder, Node, object)
        for name in cls._fields + ("span",):
            with pytest.raises(AttributeError, match="immutable"):
                setattr(node, name, None)
            with pytest.raises(AttributeError, match="immutable"):
                delattr(node, name)
    assert lowered.body[0].count == 2 and lowered.body[0].body[1] == L1.Print(L1.Num(0))
    assert made == L0.Loop(2, [L0.Let("x", L0.Num(1))]) and isinstance(made.body, tuple)


def test_nodes_pickle_by_language_and_production_name():
    """Node classes are built at run time (not importable by qualified name): a node pickles as
    its language's name, its production's name, its fields and its span, and comes back as a node
    of the same class, checked by its constructor."""
    import pickle

    from nanopass.errors import Span

    tree = L1.Prog([L1.Loop(2, [L1.Let("x", L1.Add(L1.Num(1), L1.Var("y", span=Span("f.py", 3, 4))))])], True)
    back = pickle.loads(pickle.dumps(tree))
    assert back == tree and back is not tree
    loop = back.body[0]
    assert type(loop) is L1.Loop and type(loop.body[0]) is L0.Let is L1.Let  # a class shared with the parent
    assert loop.body[0].value.b.span == Span("f.py", 3, 4)


def test_a_node_of_a_shadowed_or_unknown_language_does_not_pickle():
    import pickle

    from nanopass.language import Production

    def toy():
        return Language("toy_pickle", terminals=[integer], entry="P", nonterminals=[Nonterminal("P", Production("P", "n:integer"))])

    old = toy()
    node = old.P(1)
    keep = toy()  # a second language of the same name: the name no longer finds the first
    with pytest.raises(pickle.PicklingError, match="another language of that name"):
        pickle.dumps(node)
    data = pickle.dumps(keep.P(2))
    assert pickle.loads(data) == keep.P(2)
    del keep, old
    import gc

    gc.collect()
    with pytest.raises(pickle.UnpicklingError, match="no language 'toy_pickle'"):
        pickle.loads(data)


def test_make_checks_like_the_constructor():
    """``Cls.make`` (span positional too) is the constructor without the class call."""
    from nanopass.errors import Span

    span = Span("f.py", 3, 4)
    assert L0.Var.make("x", span).span is span and L0.Var.make("x", span=span) == L0.Var("x")
    for build in (L0.Let, L0.Let.make):
        with pytest.raises(GrammarError) as info:
            build("x", L0.Let("y", L0.Num(1)))
        assert "field 'value'" in str(info.value)
    with pytest.raises(GrammarError):
        L0.Var.make("x", (1, 2))
    with pytest.raises(ValueError, match="reserved"):
        Production("P", "make:integer")


def test_pass_skips_subtrees_it_cannot_change():
    assert "Expr" not in _LowerNotes._touched
    assert "Expr" in _ScaleNums._touched


def test_handler_can_splice_lists():
    class _Unroll(Pass):
        """Replace a loop by its body repeated. Test-only pass."""

        name = "expand_loops"
        source = L0
        target = L0

        def Loop(self, node):
            return list(self.visit_all(node.body)) * node.count

    tree = L0.Prog([L0.Loop(3, [L0.Let("x", L0.Num(1))])], None)
    assert len(_Unroll().run(tree).body) == 3


class _UnrollOrNote(Pass):
    """Replace a loop by its body repeated, a loop run once by a note. Test-only pass; keeps
    the tuples that ``visit_all`` was asked to visit (``generic``)."""

    name = "expand_loops"
    source = L0
    target = L0

    def __init__(self):
        super().__init__()
        self.generic = []

    def Loop(self, node):
        if node.count == 1:
            return L0.Note("once", None)
        return node if node.count < 0 else list(self.visit_all(node.body)) * node.count

    def visit_all(self, items):
        self.generic.append(items)
        return super().visit_all(items)


def _unrolled(tree):
    """``tree`` run through ``_UnrollOrNote``, which must not have handed an identity clause's
    field to ``visit_all`` (it is asked only for the bodies of the loops it unrolls)."""
    unroll = _UnrollOrNote()
    out = unroll.run(tree)
    assert all(len(items) == 1 for items in unroll.generic)
    return out


def test_a_one_element_tuple_field_is_kept_emptied_or_spliced():
    """The identity clause visits a tuple field's only element itself (not through visit_all):
    the same tuple comes back when the element does, a handler's list replaces it (an empty
    list deletes it), a handler's node is wrapped in a new tuple."""
    let = L0.Let("x", L0.Num(1))
    kept = L0.Prog([L0.Loop(-1, [let])], None)
    assert _unrolled(kept) is kept
    assert _unrolled(L0.Prog([L0.Loop(0, [let])], None)).body == ()
    assert _unrolled(L0.Prog([L0.Loop(2, [let])], None)).body == (let, let)
    assert _unrolled(L0.Prog([L0.Loop(1, [let])], None)).body == (L0.Note("once", None),)


def test_a_two_element_tuple_field_is_kept_changed_or_spliced():
    """The identity clause visits both elements of a two-element tuple field itself (not through
    visit_all): the same tuple comes back when both elements do, a changed element (either one)
    is put in its place, and a handler's list is spliced in (an empty list deletes the element)."""
    let, note, once = L0.Let("x", L0.Num(1)), L0.Note("n", None), L0.Note("once", None)
    kept = L0.Prog([L0.Loop(-1, [let]), note], None)
    assert _unrolled(kept) is kept
    assert _unrolled(L0.Prog([note, L0.Loop(0, [let])], None)).body == (note,)
    assert _unrolled(L0.Prog([L0.Loop(2, [let]), note], None)).body == (let, let, note)
    assert _unrolled(L0.Prog([note, L0.Loop(2, [let])], None)).body == (note, let, let)
    assert _unrolled(L0.Prog([L0.Loop(1, [let]), L0.Loop(3, [note])], None)).body == (once, note, note, note)
    assert _unrolled(L0.Prog([note, L0.Loop(1, [let])], None)).body == (note, once)
    changed = _unrolled(L0.Prog([L0.Loop(1, [let]), note], None))
    assert changed.body == (once, note) and changed.body[1] is note


def test_pass_declarations_are_checked():
    with pytest.raises(TypeError, match="verb"):

        class _Bad(Pass):
            """Doc."""

            name = "frobnicate_things"
            source = L0
            target = L0

    with pytest.raises(TypeError, match="docstring"):

        class _NoDoc(Pass):
            name = "check_nothing"
            source = L0
            target = L0

    with pytest.raises(TypeError, match="no such production"):

        class _Typo(Pass):
            """Doc."""

            name = "check_typos"
            source = L0
            target = L0

            def Nmu(self, node):
                return node


def test_registry_refuses_duplicate_names():
    registry = PassRegistry()
    registry.register(_ScaleNums)

    class _Other(Pass):
        """Another pass with a taken name."""

        name = "scale_nums"
        source = L0
        target = L0

    with pytest.raises(ValueError, match="already registered"):
        registry.register(_Other)


def test_pipeline_checks_chaining_and_stops_after():
    with pytest.raises(ValueError, match="does not chain"):
        Pipeline([_LowerNotes, _ScaleNums])
    pipeline = Pipeline([_ScaleNums, _LowerNotes])
    tree = L0.Prog([L0.Let("x", L0.Num(1))], None)
    stages = pipeline.run(tree, stop_after="scale_nums")
    assert [s.name for s in stages] == ["input", "scale_nums"]
    stages = pipeline.run(tree)
    assert stages[-1].language is L1 and stages[-1].tree.body[0].value == L1.Num(2)


def test_pipeline_reports_output_outside_target_language():
    class _Wrong(Pass):
        """Return a tree of the wrong language. Test-only pass."""

        name = "check_wrong_output"
        source = L0
        target = L1

        def run(self, tree):
            return tree  # still toy0

    with pytest.raises(PipelineError) as info:
        Pipeline([_Wrong]).run(L0.Prog((), None))
    assert isinstance(info.value.error, VerifyError)
    assert info.value.error.pass_name == "check_wrong_output"


def _no_negative_numbers(checked: list):
    """An invariant that records each tree it checks in ``checked``."""

    def no_negative_numbers(prog):
        checked.append(prog)
        if any(getattr(n, "value", 0) < 0 for n in walk(prog) if n._production == "Num"):
            raise VerifyError("a negative number", node=prog)

    return no_negative_numbers


def test_pipeline_rechecks_invariants_only_of_trees_a_pass_changed():
    checked = []
    no_negative_numbers = _no_negative_numbers(checked)

    toy = L0.extend("toy_checked", invariants=[no_negative_numbers])

    class _Keep(Pass):
        """Return the input as it is. Test-only pass."""

        name = "check_keep"
        source = toy
        target = toy

    class _Negate(Pass):
        """Negate every number. Test-only pass."""

        name = "convert_nums_to_negative"
        source = toy
        target = toy

        def Num(self, node):
            return toy.Num(-node.value)

    class _KeepAgain(_Keep):
        """Return the input as it is, again. Test-only pass."""

        name = "check_keep_again"

    tree = toy.Prog([toy.Let("x", toy.Num(0))], None)
    Pipeline([_Keep, _KeepAgain]).run(tree)
    assert checked == [tree]  # the input once; the unchanged outputs are not checked again
    with pytest.raises(PipelineError) as info:
        Pipeline([_Keep, _Negate]).run(toy.Prog([toy.Let("x", toy.Num(1))], None))
    assert isinstance(info.value.error, VerifyError) and info.value.error.pass_name == "convert_nums_to_negative"


def test_convert_rebuilds_the_tree_in_the_target_and_the_pipeline_trusts_its_invariants():
    checked = []
    no_negative_numbers = _no_negative_numbers(checked)

    def lets_only(prog):  # the target's own invariant: run on the converted tree
        checked.append(("lets_only", prog))

    source = L0.extend("toy_conv_src", invariants=[no_negative_numbers])
    target = source.extend("toy_conv_dst", add={"Stmt": [Production("Print", "value:Expr")]}, invariants=[lets_only])

    class _Convert(Pass):
        """Convert the tree as it is (its Note handler must not run). Test-only pass."""

        name = "convert_toy_to_printing"
        source = L0  # replaced below
        target = L0

        def Note(self, node):  # a handler convert must not run
            return target.Print(target.Num(-1))

        def run(self, tree):
            return self.convert(tree)

    _Convert.source, _Convert.target = source, target
    _Convert._prepare()
    tree = source.Prog([source.Loop(2, [source.Let("x", source.Num(1)), source.Note("n", None)])], None)
    stages = Pipeline([_Convert]).run(tree)
    out = stages[-1].tree
    assert target.is_program(out) and type(out.body[0]) is target.nodes["Loop"]
    assert type(out.body[0]).__name__ == type(tree.body[0]).__name__ and out.body[0] is not tree.body[0]
    assert out.body[0].body[1]._production == "Note"  # no handler ran
    assert out.body[0].body[0] is tree.body[0].body[0]  # a Let keeps its class: reused
    assert checked == [tree, ("lets_only", out)]  # the source's invariant is not checked again


def test_pipeline_wraps_crashes_as_internal_errors_naming_the_pass():
    class _Crash(Pass):
        """Crash. Test-only pass."""

        name = "check_crash"
        source = L0
        target = L0

        def Num(self, node):
            raise KeyError("boom")

    with pytest.raises(PipelineError) as info:
        Pipeline([_Crash]).run(L0.Prog([L0.Let("x", L0.Num(1))], None))
    error = info.value.error
    assert isinstance(error, InternalError) and error.pass_name == "check_crash" and "boom" in str(error)


def test_terminal_inline_forms_agree_with_their_predicates():
    from nanopass.languages import ALL

    terminals = {t for language in ALL for t in language.terminals.values()} | {symbol, integer, boolean, real, text}
    members = [m for t in terminals if isinstance(t.inline_object, type) and hasattr(t.inline_object, "__members__") for m in t.inline_object]
    values = ["x", "_a1", "a.b", "not id", "é", "", "1x", 0, 1, True, False, 1.5, float("nan"), None, [], ("x",), *members]
    for terminal in terminals:
        if terminal.inline is None:
            continue
        expression = terminal.inline.format(v="value", t="obj", k="known", c="check")
        for value in values:
            for known in (terminal.inline_known, set()):  # what the predicate accepted so far, or nothing yet
                names = {"_tp": type, "value": value, "obj": terminal.inline_object, "known": known, "check": terminal.predicate}
                inlined = eval(expression, names)  # noqa: S307
                assert bool(inlined) == bool(terminal.predicate(value)), (terminal.name, value)


class _Text(str):
    """A string of another class: not a symbol, even when equal to one."""


def test_a_known_identifier_of_another_class_is_still_refused():
    L0.Let("x", L0.Num(1))  # "x" now known as an identifier
    with pytest.raises(GrammarError):
        L0.Let(_Text("x"), L0.Num(1))
    with pytest.raises(GrammarError):
        L0.Let.make(_Text("x"), L0.Num(1))


def test_generated_constructors_check_like_isinstance():
    toy = Language(
        "toy_builtins",
        terminals=[symbol, integer],
        entry="Box",
        nonterminals=[
            Nonterminal("Box", Production("Box", "int:integer", "str:symbol", "type:Item*", "bool:Item?")),
            Nonterminal("Item", Production("Item", "name:symbol")),
        ],
    )
    box = toy.Box(3, "s", [toy.Item("a")], None)  # fields named like builtins
    assert box.type == (toy.Item("a"),) and box.int == 3

    class Special(toy.Item):  # a subclass of a node class is an instance of it
        __slots__ = ()

    assert toy.Box(1, "s", (toy.Item("a"), Special("b")), Special("c")).bool == Special("c")
    with pytest.raises(GrammarError) as info:
        toy.Box(1, "s", (toy.Item("a"), box), None)
    assert "field 'type'" in str(info.value) and "(Box 3" in str(info.value)
    for bad in (lambda: toy.Box(True, "s", (), None), lambda: toy.Box(1, "no way", (), None), lambda: toy.Item(b"x")):
        with pytest.raises(GrammarError):
            bad()


L2 = L1.extend(  # Expr loses Num: a Loop's body may still be copied, a Let's value may not
    "toy2",
    remove={"Expr": ["Num"]},
    add={"Expr": [Production("Lit", "value:integer")]},
)


class _LiteralNums(Pass):
    """Numbers become literals (toy1 -> toy2). Test-only pass."""

    name = "convert_nums"
    source = L1
    target = L2

    def Num(self, node):
        return L2.Lit(node.value)


class _ForgetNums(Pass):
    """toy1 -> toy2 with no handler for Num: every Num the pass meets is a compiler bug. Test-only."""

    name = "drop_nums"
    source = L1
    target = L2

    def Print(self, node):
        return L2.Print(L2.Var("p"))


def test_identity_clauses_check_what_the_grammar_does_not_prove():
    from nanopass.rewrite import _proved_fields

    # Loop.count (a terminal both languages share) is proved; Loop.body (Stmt changed) is not
    assert _proved_fields(_LiteralNums(), L1.Loop) == {0}
    # Let.name is proved, Let.value (Expr: Num is gone) is visited and checked
    assert _proved_fields(_LiteralNums(), L1.Let) == {0}
    tree = L1.Prog([L1.Loop(2, [L1.Let("x", L1.Num(1)), L1.Print(L1.Add(L1.Var("a"), L1.Num(2)))])], None)
    out = _LiteralNums().run(tree)
    assert L2.is_program(out) and out.body[0].body[0] == L2.Let("x", L2.Lit(1))
    assert out.body[0].count == 2


def test_a_visited_field_handed_back_as_it_was_is_not_checked_again():
    """An identity clause sets a visited field unchecked when it comes back as the very object
    the input node held and the grammar proves that object's kind in the target (the input node
    was checked when it was built); a value a handler changed is checked."""
    unchecked = object.__new__(L0.Add._builder)  # an Add no constructor would build: made by hand
    unchecked.a, unchecked.b, unchecked.span = "not an expression", L0.Num(1), None
    unchecked.__class__ = L0.Add
    out = _ScaleNums().run(L0.Prog([L0.Let("x", unchecked)], None))  # Add rebuilt: its b changes
    assert out.body[0].value.a == "not an expression" and out.body[0].value.b == L0.Num(2)

    class _BadNums(Pass):
        """Turn numbers into text. Test-only."""

        name = "convert_nums_to_text"
        source = L0
        target = L0

        def Num(self, node):
            return "not an expression"

        def Note(self, node):
            return L0.Num(1)  # an expression where a statement belongs

    with pytest.raises(GrammarError, match="Add"):
        _BadNums().run(L0.Prog([L0.Let("x", L0.Add(L0.Var("a"), L0.Num(1)))], None))
    for body in ([L0.Note("n", None)], [L0.Note("n", None), L0.Let("x", L0.Var("a"))]):
        with pytest.raises(GrammarError, match="Loop"):
            _BadNums().run(L0.Prog([L0.Loop(2, body)], None))


def test_an_identity_clause_still_refuses_a_node_outside_the_target():
    tree = L1.Prog([L1.Let("x", L1.Num(1))], None)
    with pytest.raises(InternalError, match="no handler for production Num"):
        _ForgetNums().run(tree)

    class _BadLet(Pass):
        """Returns a toy1 value into a toy2 Let. Test-only."""

        name = "drop_lets"
        source = L1
        target = L2

        def Num(self, node):
            return L1.Num(node.value)  # of the source language: refused where it is set

    with pytest.raises(GrammarError, match="Let"):
        _BadLet().run(tree)


def test_an_ill_formed_node_inside_a_rebuilt_subtree_is_caught_naming_the_pass_and_the_node():
    """Deep in a tree whose other statements are reused as they are, a handler builds a node
    with a bad field, or returns a statement where an expression belongs: the pipeline stops at
    that pass, and the error names the pass and the production."""
    reused = L0.Loop(3, [L0.Let("a", L0.Var("b"))])  # no Num inside: handed on as it is

    class _BadName(Pass):
        """Rename numbers to an ill-formed symbol. Test-only."""

        name = "convert_nums_to_bad_names"
        source = L0
        target = L0

        def Num(self, node):
            return L0.Var("not a name")

    class _StmtForExpr(Pass):
        """Put a statement where a number was. Test-only."""

        name = "convert_nums_to_statements"
        source = L0
        target = L0

        def Num(self, node):
            return L0.Note("n", None)

    tree = L0.Prog([reused, L0.Loop(2, [L0.Let("x", L0.Add(L0.Var("y"), L0.Num(1)))]), reused], None)
    for pass_, production, field in ((_BadName, "Var", "name"), (_StmtForExpr, "Add", "b")):
        with pytest.raises(PipelineError) as info:
            Pipeline([pass_]).run(tree)
        error = info.value.error
        assert isinstance(error, InternalError) and error.pass_name == pass_.name
        assert f"({production} ...)" in str(error) and f"field '{field}'" in str(error)
    assert _BadName().visit(reused) is reused  # the statements around were not rebuilt


def test_a_tuple_field_checks_each_element_a_handler_replaced_whatever_its_length():
    """An identity clause leaves unchecked the elements of a tuple field that come back as they
    were (the grammar proves their kind in the target) and checks each one a handler replaced,
    or spliced in, as it comes back (``visit_all``'s ``kinds``; the one- and two-element cases in
    the clause): a wrong one among many stops the pipeline naming the pass, the production and
    the field."""

    class _NoteToNum(Pass):
        """Put an expression where a note was. Test-only."""

        name = "convert_notes_to_numbers"
        source = L0
        target = L0

        def Note(self, node):
            return L0.Num(1) if node.msg == "one" else [L0.Let("s", L0.Var("t")), L0.Num(2)]

    let = L0.Let("a", L0.Var("b"))
    for note in ("one", "spliced"):
        for at in range(4):
            for length in (1, 2, 3, 5):
                if at >= length:
                    continue
                body = [let] * length
                body[at] = L0.Note(note, None)
                with pytest.raises(PipelineError) as info:
                    Pipeline([_NoteToNum]).run(L0.Prog([L0.Loop(2, body)], None))
                error = info.value.error
                assert isinstance(error, GrammarError) and error.pass_name == _NoteToNum.name, (note, at, length)
                assert "(Loop ...)" in str(error) and "field 'body'" in str(error)

    class _NoteToLet(Pass):
        """Notes become lets. Test-only."""

        name = "convert_notes_to_lets"
        source = L0
        target = L0

        def Note(self, node):
            return L0.Let(node.msg, L0.Num(0)) if node.weight is None else []

    body = [let, L0.Note("n", None), let, L0.Note("m", 1.0), let]
    out = _NoteToLet().run(L0.Prog([L0.Loop(2, body)], None))
    assert out.body[0].body == (let, L0.Let("n", L0.Num(0)), let, let)


def test_a_node_rule_runs_in_every_constructor_and_names_the_pass_that_broke_it():
    """An invariant that holds of each node of some productions on its own declares them as
    ``node_rules``: every constructor of the language's classes runs them (the generated
    identity clauses too), the language proves the invariant and ``verify`` walks no tree for it;
    a pass building a node the rule refuses stops the pipeline naming the pass."""
    from nanopass.errors import VerifyError

    walked = []

    def check_positive(tree):
        walked.append(tree)

    def positive(node):
        raise VerifyError(f"count {node.count} is negative", node=node)

    positive.inline = "{count} >= 0"
    check_positive.node_rules = {"Loop": positive}
    toy = L0.extend("toy_rules", add={"Stmt": [Production("Mark", "n:integer")]}, remove={"Stmt": ["Loop"]},
                    invariants=[check_positive])
    toy = toy.extend("toy_rules2", remove={"Stmt": ["Mark"]}, add={"Stmt": [L0.production("Loop")]})
    assert toy.proves(check_positive) and not L0.proves(check_positive)
    shared = L0.extend("toy_shared", invariants=[check_positive])  # (L0's Loop class, which runs no rule)
    assert shared.Loop is L0.Loop and not shared.proves(check_positive)
    Loop = toy.Loop
    for build in (lambda: Loop(-1, ()), lambda: Loop.make(-1, ()), lambda: Loop.make_trusted(-1, ())):
        with pytest.raises(VerifyError, match="count -1"):
            build()
    tree = toy.Prog([Loop(2, [toy.Let("x", toy.Num(1))])], None)
    toy.verify(tree)
    assert walked == []  # (proved: not walked)

    class _Negate(Pass):
        """Loops count down. Test-only."""

        name = "convert_counts"
        source = toy
        target = toy

        def Loop(self, node):
            return self.build(node, count=-node.count)

    with pytest.raises(PipelineError) as info:
        Pipeline([_Negate]).run(tree)
    assert isinstance(info.value.error, VerifyError) and info.value.error.pass_name == "convert_counts"
