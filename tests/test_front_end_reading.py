"""How the front end reads a file: one parse shared with the loader, orchestration bodies left out of
the module Python compiles, and the expression depth limit counted while expressions are read (all
three to save work; none may change what is refused)."""

from __future__ import annotations

import ast
import random

import pytest

from conftest import fuzz_budget, load_program

import nanopass
from nanopass.errors import UserError
from nanopass.passes.frontend import source
from nanopass.passes.frontend.parse_dsl import MAX_EXPR_DEPTH, expr_depth
from nanopass.static_loader import load_programs_static

HEADER = '''\
import nanopass.dsl as pl

LIMIT = 3


@pl.program
class Reading:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], s: pl.Scalar[pl.INT64], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''


def program(lines: list[str]) -> str:
    return HEADER + "".join(" " * 8 + line + "\n" for line in lines + ["return o"])


def test_a_loaded_program_is_read_from_the_loaders_parse(tmp_path, monkeypatch):
    path = tmp_path / "reading.py"
    path.write_text(program(["s = n + LIMIT", "o = self.k(a, s, o)"]))
    loaded = load_program(path)
    assert loaded.parsed_file is not None and loaded.parsed_file.filename == str(path)

    def no_second_parse(*_args, **_kwargs):
        raise AssertionError("the front end parsed the file again")

    monkeypatch.setattr(source.ast, "parse", no_second_parse)
    tree = loaded.surface()
    monkeypatch.undo()
    assert loaded.parsed_file is None  # released: a tree is large
    assert tree == load_programs_static(str(path))[0].surface()  # as read without the loader's parse
    assert tree == load_program(path).surface()


def test_a_file_too_deep_for_compiling_from_its_tree_loads_as_before(tmp_path):
    # Python compiles a tree with a recursion bound its text compiler does not have
    path = tmp_path / "deep_constant.py"
    path.write_text(program(["o = self.k(a, n, o)"]).replace("LIMIT = 3", "LIMIT = " + " + ".join(["1"] * 2000)))
    with_tree = ast.parse(path.read_text())
    try:
        compile(with_tree, str(path), "exec", dont_inherit=True)
    except RecursionError:
        pass
    else:  # pragma: no cover - a Python that compiles this tree needs no fallback
        return
    loaded = load_program(path)
    assert loaded.closure["LIMIT"] == 2000  # the module's globals (it is no longer in sys.modules)
    assert nanopass.generate_orchestration(loaded).code == nanopass.generate_orchestration(
        load_programs_static(str(path))[0]).code


# -- orchestration bodies are read, not compiled by Python --------------------------------------------

BODY_LINE = HEADER.count("\n") + 1

# What Python's compiler (not its parser) refuses in a function body; the front end refuses each too.
REFUSED_BY_PYTHONS_COMPILER = [
    ("o = await o", 4, "unsupported expression 'await o'"),
    ("break", 0, "'break' is not supported in orchestration loops"),
    ("continue", 0, "'continue' is not supported in orchestration loops"),
    ("nonlocal q", 0, "nonlocal is not supported"),
    ("a, *b, *c = o", 3, "the target of an assignment must be a variable name"),
    ("async with o:\n            pass", 0, "async with is not supported"),
    ("z = [(yield) for i in o]", 4, "unsupported expression '[(yield) for i in o]'"),
    ("z = o is 1", 4, "unsupported comparison 'Is'"),
]


@pytest.mark.parametrize("line, col, message", REFUSED_BY_PYTHONS_COMPILER)
def test_what_pythons_compiler_refuses_in_an_orchestration_body_is_refused(tmp_path, line, col, message):
    path = tmp_path / "refused.py"
    path.write_text(program([line, "o = self.k(a, n, o)"]))
    with pytest.raises(UserError) as refused:
        nanopass.generate_orchestration(load_program(path))
    assert refused.value.message == message
    assert refused.value.span[1:] == (BODY_LINE, 8 + col)


def test_only_orchestration_bodies_are_left_out_of_the_compiled_module(tmp_path):
    path = tmp_path / "elided.py"
    path.write_text(program(["o = self.k(a, n, o)"]))
    loaded = load_program(path)
    assert loaded.cls.orch.__code__.co_firstlineno == BODY_LINE - 2  # its decorator: compiled and run
    assert loaded.cls.orch.__code__.co_names == ()  # its body (self.k ...) was not compiled
    assert "o" in loaded.cls.k.__code__.co_varnames  # a kernel compiles as written
    # a kernel body is Python's to check
    path.write_text(program(["o = self.k(a, n, o)"]).replace("        return o\n", "        break\n", 1))
    with pytest.raises(UserError, match="Python syntax error: 'break' outside loop"):
        load_program(path)


# -- the expression depth limit -------------------------------------------------------------------

INT_LEAVES = ["n", "1", "2", "LIMIT"]
MISTAKES = ["x", "'text'", "a", "max(n)", "a[n]", "(n / 2)", "(n ** 2)", "(n if n else 1)"]
WRAP_INT = ["({} + {})", "({1} - {0})", "({} * {})", "({} // {})", "({1} % {0})", "({} << 1)", "(-{})", "(~{})"]
WRAP_BOOL = ["({} < {})", "({1} == {0})", "({} >= {})"]  # an int inside, a bool around
CHAIN = ["(not {})", "((n > 1) and {})", "({} or (n < 2) or (n > 5))", "((n > 1) and (n < 9) or {})"]


def depth_of(text: str) -> int:
    return expr_depth(ast.parse(text, mode="eval").body)


def expression(rng: random.Random, depth: int) -> tuple[str, bool]:
    """A random expression at least ``depth`` deep (``expr_depth``), and whether it is a bool: mostly
    well-typed, sometimes with a mistake (an undefined name, a call, a subscript, a ``/`` ...)."""
    text, is_bool = rng.choice(INT_LEAVES), False
    want_bool = rng.random() < 0.3
    while depth_of(text) < depth:
        other = rng.choice(MISTAKES) if rng.random() < 0.006 else rng.choice(INT_LEAVES)
        if is_bool:
            text = rng.choice(CHAIN).format(text)
        elif want_bool and depth_of(text) >= depth - 4:
            text, is_bool = rng.choice(WRAP_BOOL).format(text, other), True
        else:
            text = rng.choice(WRAP_INT).format(text, other)
    return text, is_bool


@pytest.mark.parametrize("seed", range(fuzz_budget(60)))
def test_an_expression_is_refused_as_too_deep_exactly_when_it_is(tmp_path, seed):
    rng = random.Random(seed)
    text, is_bool = expression(rng, rng.randint(MAX_EXPR_DEPTH - 2, MAX_EXPR_DEPTH + 1))
    where = rng.choice(["if"] if is_bool else ["arg", "loop", "let"])
    lines = {
        "if": [f"if {text}:", "    o = self.k(a, n, o)"],
        "arg": [f"o = self.k(a, {text}, o)"],
        "loop": [f"for i in pl.range({text}):", "    o = self.k(a, n, o)"],
        "let": [f"s = {text}", "o = self.k(a, s, o)"],
    }[where]
    path = tmp_path / "depth.py"
    path.write_text(program(lines))
    too_deep = depth_of(text) > MAX_EXPR_DEPTH
    try:
        load_programs_static(str(path))[0].surface()
    except nanopass.UserError as error:
        assert (error.message == f"expression nested more than {MAX_EXPR_DEPTH} deep") == too_deep, error.message
    else:
        assert not too_deep


# -- the scope's map of visible names, and one object per tensor type ---------------------------------


class _Owner:
    """What ``Scope`` needs of a program parser: the kernels (names it refuses) and the source."""

    class src:  # noqa: N801 - stands in for a ProgramSource
        printed = False

    kernels: dict = {}


def _searched(frames, name):
    """The binding of ``name`` as a search of the frames, innermost first, finds it (the plain definition)."""
    for frame in reversed(frames):
        if name in frame:
            return frame[name]
    return None


@pytest.mark.parametrize("seed", range(40))
def test_the_visible_map_answers_as_a_search_of_the_frames(seed):
    # random pushes, definitions, pops and reads outside the innermost frame (init values):
    # after each step every name's lookup is what a search of the frames gives
    from nanopass.passes.frontend.scope import Scope

    rng = random.Random(seed)
    scope = Scope(_Owner(), lambda node: None)
    names = ["a", "b", "c", "d"]
    for step in range(60):
        action = rng.random()
        if action < 0.4:
            scope.define(rng.choice(names), f"t{step}", None)
        elif action < 0.6:
            scope.push()
        elif action < 0.8 and len(scope.frames) > 1:
            frame = scope.pop()
            assert all(scope.lookup(n) == _searched(scope.frames, n) for n in frame)
        elif len(scope.frames) > 1:
            seen = scope.outside(lambda: {n: (scope.lookup(n), _searched(scope.frames, n)) for n in names})
            assert all(got == want for got, want in seen.values())
        for n in names:
            assert scope.lookup(n) == _searched(scope.frames, n), (seed, step, n)


def test_equal_tensor_annotations_read_as_one_type_object(tmp_path):
    # the kernel's parameter and the orchestration's tensors of the same annotation: one object,
    # which the argument check compares by identity; another shape is another object
    path = tmp_path / "types.py"
    path.write_text(program(["o = self.k(a, n, o)"]).replace(
        "return o\n\n    @pl.function(type=pl.FunctionType.Orchestration)",
        "return o\n\n    @pl.function(type=pl.FunctionType.AIV)\n"
        "    def w(self, a: pl.Tensor[[16, 8], pl.FP32]) -> None:\n        return\n\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)"))
    tree = load_program(path).surface()
    kernel = {k.name: k for k in tree.kernels}
    a, s, o = kernel["k"].params
    assert a.type is o.type is tree.orch.params[0].type is tree.orch.params[1].type
    assert kernel["w"].params[0].type is not a.type
    assert kernel["w"].params[0].type != a.type


def test_a_created_tensor_of_an_annotated_type_reads_as_that_type_object(tmp_path):
    # pl.create_tensor of constant extents: the annotation's one object (the argument check and a
    # re-assignment's compare it by identity); another shape or dtype, or a dynamic extent, is another
    path = tmp_path / "created.py"
    path.write_text(program([
        "t = pl.create_tensor([16, 16], dtype=pl.FP32)", "t = self.k(a, n, t)",
        "u = pl.create_tensor([16, 8], dtype=pl.FP32)", "v = pl.create_tensor([16, 16], dtype=pl.INT32)",
        "w = pl.create_tensor([16, n], dtype=pl.FP32)", "x = pl.create_tensor([16, 16], dtype=pl.FP32)",
    ]))
    tree = load_program(path).surface()
    annotated = tree.kernels[0].params[0].type
    created = {s.var.name: s.var.type for s in tree.orch.body if s._production == "Let"}
    assert created["t"] is annotated and created["x"] is annotated
    assert all(created[name] is not annotated and created[name] != annotated for name in "uvw")
    assert created["w"].shape[1]._production == "Var"


# -- the walk for check_call_receivers: arguments whose text proves them quiet are not entered ------


def _functions_with_sources():
    """Every function of every class in the repository's programs and the bench shapes, with a
    ``ProgramSource`` of its file."""
    from nanopass.tools.bench import source_of
    from nanopass.tools.frontend_snapshot import repository_files

    texts = [(str(path), path.read_text(encoding="utf-8")) for path in repository_files()]
    texts += [(f"<{shape}>", source_of(shape, 40)) for shape in ("straight", "nested", "mixed", "scopes", "reuses")]
    for filename, text in texts:
        try:
            tree = ast.parse(text, filename)
        except SyntaxError:
            continue
        for cls in (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)):
            src = source.ProgramSource(cls.name, filename, text, cls)
            for fdef in cls.body:
                if isinstance(fdef, ast.FunctionDef):
                    yield src, fdef


def test_the_walk_finds_the_same_stores_and_receivers_without_entering_quiet_arguments():
    # the shortcut forced off (no quiet test) and on: the same names stored and the same receivers
    from collections import Counter

    from nanopass.passes.frontend.names import _stores_and_receivers, quiet_expressions

    functions = list(_functions_with_sources())
    assert len(functions) > 300
    for src, fdef in functions:
        plain_stores, plain_receivers = _stores_and_receivers(fdef)
        stores, receivers = _stores_and_receivers(fdef, quiet_expressions(src))
        assert Counter(stores) == Counter(plain_stores), (src.filename, fdef.name)
        assert receivers == plain_receivers, (src.filename, fdef.name)


def _walked_stores_and_receivers(fdef):
    """What ``_stores_and_receivers`` finds, by ``ast.walk``: the reference."""
    stores = [n.id for n in ast.walk(fdef) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    receivers = set()
    for node in ast.walk(fdef):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            head = node.func.value
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name):
                receivers.add(head.id)
    return stores, receivers


def test_the_walk_finds_what_ast_walk_finds():
    # the names and constants read in place (targets, arguments, lists, attributes, iterators)
    # and the quiet arguments skipped: the same stores and receivers as a walk of every node
    from collections import Counter

    from nanopass.passes.frontend.names import _stores_and_receivers, quiet_expressions

    extra = ast.parse(
        "def f(self, a):\n"
        "    for (i, j) in pl.range(k(q := 2)): b, c = pl.f(x=[d := 1, pl.g(e=3)], y=pl.h(z := 4).w)\n"
        "    for m in pl.range(n): o.p.q = r(s)\n"
        "    else: elsewhere.call(t2 := 6)\n"
        "    pl.t([u for u in v], w.x.y, (pl := 5))\n"
    ).body[0]
    functions = [(None, extra)] + list(_functions_with_sources())
    for src, fdef in functions:
        want_stores, want_receivers = _walked_stores_and_receivers(fdef)
        for quiet in [None] + ([quiet_expressions(src)] if src is not None else []):
            stores, receivers = _stores_and_receivers(fdef, quiet)
            assert Counter(stores) == Counter(want_stores), (fdef.name, sorted(stores), sorted(want_stores))
            assert receivers == want_receivers, fdef.name


def _walked_shape(shape: str) -> tuple[list[tuple[str, bool]], list[str], set[str]]:
    """The walk of the orchestration function of the bench shape ``shape`` (N = 8): the arguments
    it asked ``quiet`` about (their text and the answer), the stores and the receivers."""
    from nanopass.passes.frontend.names import _stores_and_receivers, quiet_expressions
    from nanopass.tools.bench import source_of

    text = source_of(shape, 8)
    cls = next(node for node in ast.parse(text).body if isinstance(node, ast.ClassDef))
    src = source.ProgramSource(cls.name, f"<{shape}>", text, cls)
    quiet = quiet_expressions(src)
    asked = []

    def counting(node):
        answer = quiet(node)
        asked.append((ast.unparse(node), answer))
        return answer

    orch = next(f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "orch")
    stores, receivers = _stores_and_receivers(orch, counting)
    return asked, stores, receivers


def test_the_walk_skips_the_arithmetic_arguments_of_the_nested_shape():
    # each of the 8 calls' arithmetic argument (a + b * k + c - d) is proved quiet by its text
    asked, _stores, _receivers = _walked_shape("nested")
    proved = [text for text, answer in asked if answer]
    assert len([text for text in proved if text.count("+") == 2]) == 8, proved


def test_the_walk_enters_names_attributes_and_lists_without_testing_their_text():
    # the straight shape's arguments ([16, 16], dtype=pl.FP32, names): read in place, for less than the test costs
    asked, stores, receivers = _walked_shape("straight")
    assert asked == [] and receivers == {"pl", "self"} and len(stores) == 17  # t0..t7 twice, y


@pytest.mark.parametrize("text, quiet", [
    ("a + b * 2", True), ("t", True), ("[16, 16]", True), ("pl.FP32", True), ("x[i, j]", True),
    ("pl.f(x) + 1", False), ("(z := a) + 1", False), ("z := a", False), ("[i for i in x]", False),
    ("lambda q: q", False), ("f'{a.b(c)}'", False), ("'é' + a", False), ("a +\n b", False),
    ("format + 1", False),  # a false alarm ('for' in a name): entered, nothing lost
])
def test_an_expression_is_quiet_only_when_its_text_shows_no_call_and_no_store(text, quiet):
    from nanopass.passes.frontend.names import quiet_expressions

    line = f"v = ({text})\n"
    tree = ast.parse(line)
    expr = tree.body[0].value
    src = source.ProgramSource("P", "<p>", line, ast.ClassDef("P", [], [], [ast.Pass()], []))
    assert quiet_expressions(src)(expr) is quiet
    if quiet:
        assert not any(isinstance(n, ast.Call) or (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
                       for n in ast.walk(expr))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_the_source_lines_are_numbered_as_ast_numbers_them(newline):
    text = newline.join(["alpha = 1", "", "beta = (gamma +", "    delta)", "epsilon = 2", ""])
    src = source.ProgramSource("P", "<p>", text, ast.ClassDef("P", [], [], [ast.Pass()], []))
    names = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)]
    assert len(names) == 5
    for name in names:
        assert src.lines()[name.lineno - 1][name.col_offset:name.end_col_offset] == name.id


@pytest.mark.parametrize("text", ["pl.range(2)", "self.k(x)", "pl.tensor.read(t, [0])", "f(x)", "x", "a.b.c.d()",
                                  "self.a.b()", "(1).real()", "pl.x.y(1)(2)", "q[0].f()", "pl.f", "self()"])
def test_dsl_call_reads_what_the_attribute_path_spells(text):
    # dsl_call's shortcut for pl.op(...) gives what its definition by attr_path gives
    from nanopass.passes.frontend.names import attr_path, dsl_call

    node = ast.parse(text, mode="eval").body
    path = attr_path(node.func) if isinstance(node, ast.Call) else None
    expected = None if path is None or len(path) < 2 or path[0] == "self" else ".".join(path[1:])
    assert dsl_call(node) == expected
