"""Mutations of DSL programs for front-end fuzzing (issue 11), and hypothesis strategies over them.

A mutation takes a program's source (one of the examples, golden or test programs) and returns a
new source that is usually wrong in one small way: a statement dropped, duplicated or moved, two
arguments swapped, a dtype or a shape changed, a variable renamed, an expression replaced by a
tensor, a scalar, a TaskId, None or something outside the DSL, an unsupported statement inserted,
a block broken (its indentation, its header, its body). Most mutations edit the AST and unparse
it; the indentation ones edit the text, so that Python's own syntax errors are reached too.

Every choice goes through a ``Chooser``: ``DrawChooser`` draws from hypothesis (shrinkable, for
the tests), ``RandomChooser`` from ``random.Random`` (fast, for the fuzz tool's long runs).
"""

from __future__ import annotations

import ast
import copy
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

REPO = Path(__file__).resolve().parent.parent
# the programs the mutations start from: the examples, the golden and test programs (the golden
# surface programs too), the users' programs and the existing compiler's printed IR
SOURCE_DIRS = [REPO / "examples", REPO / "tests" / "golden", REPO / "tests" / "golden" / "surface", REPO / "tests" / "programs",
               REPO / "tests" / "user_programs" / "valid", *sorted((REPO / "tests" / "printed_ir").glob("*/"))]

DTYPES = ["FP16", "FP32", "FP64", "BF16", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32",
          "UINT64", "BOOL", "INDEX", "TASK_ID"]
NOT_DTYPES = ["FP99", "TaskId", "Tensor", "float32", "Orchestration"]


def seed_sources() -> list[tuple[str, str]]:
    """(name, text) of every program the mutations start from, in a fixed order."""
    paths = sorted(p for d in SOURCE_DIRS for p in d.glob("*.py"))
    return [(str(p.relative_to(REPO).with_suffix("")), p.read_text()) for p in paths]


class Chooser(Protocol):
    def choice(self, options: Sequence[Any]) -> Any: ...

    def integer(self, low: int, high: int) -> int: ...


class RandomChooser:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choice(self, options: Sequence[Any]) -> Any:
        return options[self.rng.randrange(len(options))]

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class DrawChooser:
    def __init__(self, draw: Callable):
        from hypothesis import strategies as st

        self.draw = draw
        self.st = st

    def choice(self, options: Sequence[Any]) -> Any:
        return options[self.draw(self.st.integers(0, len(options) - 1))]

    def integer(self, low: int, high: int) -> int:
        return self.draw(self.st.integers(low, high))


class NotApplicable(Exception):
    """The mutation has nothing to act on in this program."""


# -- where to mutate ------------------------------------------------------------------------------


@dataclass
class Site:
    """A statement list inside a function of a program class, and the function it is in."""

    body: list[ast.stmt]
    function: ast.FunctionDef


def program_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    """The methods of the classes of the module, in file order."""
    return [f for c in tree.body if isinstance(c, ast.ClassDef) for f in c.body if isinstance(f, ast.FunctionDef)]


def pick_function(tree: ast.Module, chooser: Chooser) -> ast.FunctionDef:
    funcs = program_functions(tree)
    if not funcs:
        raise NotApplicable("no functions")
    orch = [f for f in funcs if "Orchestration" in "".join(ast.unparse(d) for d in f.decorator_list)]
    if orch and chooser.integer(0, 3) > 0:  # orchestration bodies get three mutations in four
        return chooser.choice(orch)
    return chooser.choice(funcs)


def sites(func: ast.FunctionDef) -> list[Site]:
    out = []
    stack: list[list[ast.stmt]] = [func.body]
    while stack:
        body = stack.pop()
        out.append(Site(body, func))
        for stmt in body:
            for name in ("body", "orelse"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    stack.append(inner)
    return out


def statements(func: ast.FunctionDef) -> list[tuple[list[ast.stmt], int]]:
    return [(site.body, i) for site in sites(func) for i in range(len(site.body))]


def expressions(node: ast.AST, *, loads_only: bool = True) -> list[tuple[ast.AST, str, int | None]]:
    """Every (parent, field, index) holding an expression below ``node`` (index None: a single field)."""
    out = []
    for parent in ast.walk(node):
        if isinstance(parent, (ast.JoinedStr, ast.FormattedValue)):
            continue  # an f-string's parts are not free-standing expressions
        for field, value in ast.iter_fields(parent):
            if isinstance(value, ast.expr):
                if not loads_only or not isinstance(getattr(value, "ctx", None), (ast.Store, ast.Del)):
                    out.append((parent, field, None))
            elif isinstance(value, list):
                for index, item in enumerate(value):
                    if isinstance(item, ast.expr) and (
                        not loads_only or not isinstance(getattr(item, "ctx", None), (ast.Store, ast.Del))
                    ):
                        out.append((parent, field, index))
    return out


def get_slot(parent: ast.AST, field: str, index: int | None) -> ast.AST:
    value = getattr(parent, field)
    return value if index is None else value[index]


def set_slot(parent: ast.AST, field: str, index: int | None, new: ast.AST) -> None:
    old = get_slot(parent, field, index)
    ast.copy_location(new, old)
    if index is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[index] = new


def parse_expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def parse_stmts(text: str) -> list[ast.stmt]:
    return ast.parse(text).body


def names_in(func: ast.FunctionDef) -> dict[str, list[str]]:
    """Names of a function by kind: params (tensor/scalar), locals, TaskIds, kernels of the class."""
    tensors, scalars = [], []
    for arg in func.args.args[1:]:
        text = ast.unparse(arg.annotation) if arg.annotation else ""
        (tensors if "Tensor" in text else scalars).append(arg.arg)
    locals_ = sorted({n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)})
    tids = []
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and "submit" in ast.unparse(node.value.func):
            target = node.targets[0]
            if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[-1], ast.Name):
                tids.append(target.elts[-1].id)
    return {"tensors": tensors or ["a"], "scalars": scalars or ["n"], "locals": locals_ or ["x"], "tids": tids or ["tid"]}


# -- the mutations (each edits ``tree`` in place and returns what it did) ---------------------------


def drop_statement(tree: ast.Module, c: Chooser) -> str:
    body, i = c.choice(statements(pick_function(tree, c)))
    gone = body.pop(i)
    if not body:
        body.append(ast.Pass())
    return f"drop '{_short(gone)}'"


def duplicate_statement(tree: ast.Module, c: Chooser) -> str:
    func = pick_function(tree, c)
    body, i = c.choice(statements(func))
    stmt = body[i]
    target = c.choice(sites(func))
    where = c.integer(0, len(target.body))
    target.body.insert(where, copy.deepcopy(stmt))
    return f"duplicate '{_short(stmt)}'"


def move_statement(tree: ast.Module, c: Chooser) -> str:
    func = pick_function(tree, c)
    body, i = c.choice(statements(func))
    stmt = body.pop(i)
    if not body:
        body.append(ast.Pass())
    target = c.choice(sites(func))
    target.body.insert(c.integer(0, len(target.body)), stmt)
    return f"move '{_short(stmt)}'"


def swap_arguments(tree: ast.Module, c: Chooser) -> str:
    func = pick_function(tree, c)
    calls = [n for n in ast.walk(func) if isinstance(n, ast.Call) and len(n.args) >= 2]
    params = func.args.args[1:]
    if not calls and len(params) < 2:
        raise NotApplicable("nothing to swap")
    if calls and (len(params) < 2 or c.integer(0, 3) > 0):
        call = c.choice(calls)
        i = c.integer(0, len(call.args) - 1)
        j = c.choice([k for k in range(len(call.args)) if k != i])
        call.args[i], call.args[j] = call.args[j], call.args[i]
        return f"swap arguments {i} and {j} of '{_short(call)}'"
    i = c.integer(0, len(params) - 1)
    j = c.choice([k for k in range(len(params)) if k != i])
    params[i], params[j] = params[j], params[i]
    return f"swap parameters {params[j].arg} and {params[i].arg} of {func.name}"


def change_dtype(tree: ast.Module, c: Chooser) -> str:
    func = pick_function(tree, c)
    spots = [n for n in ast.walk(func) if isinstance(n, ast.Attribute) and n.attr in DTYPES]
    if not spots:
        raise NotApplicable("no dtype")
    node = c.choice(spots)
    old = node.attr
    node.attr = c.choice([d for d in DTYPES + NOT_DTYPES if d != old])
    return f"dtype {old} -> {node.attr}"


SHAPE_VALUES = ["0", "-1", "1", "3", "17", "100000", "2 ** 70", "1.5", "None", "n", "M", "'16'", "True", "[16]"]


def change_shape(tree: ast.Module, c: Chooser) -> str:
    func = pick_function(tree, c)
    lists = [n for n in ast.walk(func) if isinstance(n, (ast.List, ast.Tuple)) and n.elts
             and all(isinstance(e, (ast.Constant, ast.Name, ast.BinOp, ast.Call)) for e in n.elts)]
    if not lists:
        raise NotApplicable("no shape")
    node = c.choice(lists)
    before = _short(node)
    how = c.integer(0, 3)
    if how == 0 or len(node.elts) == 1:
        node.elts[c.integer(0, len(node.elts) - 1)] = parse_expr(c.choice(SHAPE_VALUES))
    elif how == 1:
        node.elts.pop(c.integer(0, len(node.elts) - 1))
    elif how == 2:
        node.elts.insert(c.integer(0, len(node.elts)), parse_expr(c.choice(["16", "1", "n", "0"])))
    else:
        node.elts = [parse_expr("16")] * c.integer(0, 7)
    return f"shape {before} -> {_short(node)}"


SPECIAL_NAMES = ["self", "pl", "_", "x__ssa_v1", "zz", "None_", "range", "i"]


def rename_variable(tree: ast.Module, c: Chooser) -> str:
    func = pick_function(tree, c)
    names = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id not in ("pl", "self")]
    args = func.args.args[1:]
    if not names and not args:
        raise NotApplicable("no names")
    pool = names_in(func)
    kernels = [f.name for f in program_functions(tree)]
    new = c.choice(pool["tensors"] + pool["scalars"] + pool["locals"] + kernels + SPECIAL_NAMES)
    how = c.integer(0, 2)
    if how == 0 and args:  # a parameter, consistently or only in the signature
        arg = c.choice(args)
        old = arg.arg
        arg.arg = new
        if c.integer(0, 1):
            for n in names:
                if n.id == old:
                    n.id = new
            return f"rename parameter {old} -> {new} everywhere"
        return f"rename parameter {old} -> {new} in the signature"
    if not names:
        raise NotApplicable("no names")
    node = c.choice(names)
    old = node.id
    if how == 1:
        for n in names:
            if n.id == old:
                n.id = new
        return f"rename {old} -> {new} everywhere in {func.name}"
    node.id = new
    return f"rename one {old} -> {new}"


def replacements(func: ast.FunctionDef, tree: ast.Module) -> list[str]:
    pool = names_in(func)
    kernels = [f.name for f in program_functions(tree)]
    return [
        *pool["tensors"], *pool["scalars"], *pool["tids"], "None", "1", "0", "-3", "2.5", "True", "2 ** 70", "1e400",
        "'text'", "[1, 2]", "(a, b)", "{}", "self", f"self.{kernels[0] if kernels else 'k'}", "pl", "pl.FP32",
        "pl.system.task_invalid()", "pl.create_tensor([16, 16], dtype=pl.FP32)", "len(a)", "lambda: 0",
        "n if n else 1", "a[0]", "a[0:2]", "a.shape", "f'{n}'", "(x := 1)", "...", "pl.range(4)", "pl.no_dep(a)",
        f"self.{kernels[0] if kernels else 'k'}(a)", "not n", "n < 1 < 2", "n ** 2", "n & 1", "-a", "a + a",
        "pl.tensor.read(a, [0, 0])", "pl.dynamic('M')", "pl.tensor.dim(a, 5)", "[x for x in a]",
    ]


def replace_expression(tree: ast.Module, c: Chooser) -> str:
    func = pick_function(tree, c)
    scope = func if c.integer(0, 4) else c.choice([func.args, *func.decorator_list, func.returns or func.args])
    slots = expressions(scope)
    if not slots:
        raise NotApplicable("no expression")
    parent, field, index = c.choice(slots)
    old = get_slot(parent, field, index)
    text = c.choice(replacements(func, tree))
    set_slot(parent, field, index, parse_expr(text))
    return f"replace '{_short(old)}' by '{text}'"


UNSUPPORTED = [
    "while n > 0:\n    pass", "try:\n    pass\nexcept Exception:\n    pass", "del a", "import os", "global g",
    "print(a)", "a += 1", "x: int", "assert a", "raise ValueError('no')", "break", "continue", "return a",
    "def f():\n    pass", "class C:\n    pass", "with open('f') as g:\n    pass", "for i in range(3):\n    pass",
    "match n:\n    case 1:\n        pass", "lambda: 0", "a = b = a", "a.b = 1", "a[0] = 1", "a[0, 0] = 1",
    "x, *y = a", "if True:\n    pass", "yield a", "x = pl.range(3)", "pl.tensor.write(a, [0], 1)", "self.k",
    "pl.submit(self.k, a)", "with pl.manual_scope():\n    pass", "with pl.scope():\n    pass", "x = yield",
    "with pl.manual_scope(), pl.scope():\n    pass", "for i in pl.range(2):\n    break", "a, b = pl.yield_(a)",
    "x = pl.yield_(a)", "pl.yield_(a)", "for i in pl.range(3):\n    pass\nelse:\n    pass", "x = (yield a)",
    "async def g():\n    pass", "n = n + 1.5", "t = pl.create_tensor([16, 16], dtype=pl.TASK_ID)",
    "ids = pl.array.create(4, pl.FP32)", "b = pl.system.task_dummy(deps=[a])", "x = self", "x = pl",
    "x = a[0]", "x = a[0:1]", "x = pl.tensor.slice(a, [1, 1], [99, 99])", "x = pl.tensor.reshape(a, [7])",
    "x = pl.tensor.transpose(a, 0, 0)", "x = pl.assemble(a, a, [0])", "x = 1\nx = 1.5", "x = None\nx = 1",
    "for i, (p, q) in pl.range(2, init_values=(a,)):\n    r = pl.yield_(p)",
    "for i, (p,) in pl.range(2, init_values=(a,)):\n    pass",
]


def insert_unsupported(tree: ast.Module, c: Chooser) -> str:
    func = pick_function(tree, c)
    site = c.choice(sites(func))
    text = c.choice(UNSUPPORTED)
    at = c.integer(0, len(site.body))
    site.body[at:at] = parse_stmts(text)
    return f"insert '{text.splitlines()[0]}'"


WRAPPERS = ["if n > 0:", "for i in pl.range(2):", "for i in pl.parallel(2):", "with pl.manual_scope():",
            "with pl.scope():", "if n > 0:\n    pass\nelse:"]


def restructure_block(tree: ast.Module, c: Chooser) -> str:
    """Hoist a block's body out of its header, or wrap statements in a new block."""
    func = pick_function(tree, c)
    compound = [(b, i) for b, i in statements(func) if hasattr(b[i], "body") and not isinstance(b[i], ast.FunctionDef)]
    if compound and c.integer(0, 1):
        body, i = c.choice(compound)
        stmt = body[i]
        body[i:i + 1] = stmt.body + (getattr(stmt, "orelse", []) if c.integer(0, 1) else [])
        return f"unwrap '{_short(stmt)}'"
    body, i = c.choice(statements(func))
    j = c.integer(i + 1, len(body))
    header = c.choice(WRAPPERS)
    wrapper = parse_stmts(header + "\n    pass")[0]
    inner = body[i:j]
    if isinstance(wrapper, ast.If) and wrapper.orelse:
        wrapper.orelse = inner
    else:
        wrapper.body = inner
    body[i:j] = [wrapper]
    return f"wrap {j - i} statement(s) in '{header.splitlines()[0]}'"


def mutate_decorator(tree: ast.Module, c: Chooser) -> str:
    funcs = program_functions(tree)
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    how = c.integer(0, 4)
    if how == 0 and classes:
        cls = c.choice(classes)
        cls.decorator_list = []
        return f"drop @pl.program of {cls.name}"
    if not funcs:
        raise NotApplicable("no functions")
    func = c.choice(funcs)
    if how == 1:
        func.decorator_list = []
        return f"drop the decorator of {func.name}"
    text = c.choice([
        "pl.function(type=pl.FunctionType.AIV)", "pl.function(type=pl.FunctionType.AIC)",
        "pl.function(type=pl.FunctionType.Orchestration)", "pl.function(type=pl.FunctionType.Group)",
        "pl.function(type=pl.FunctionType.InCore)", "pl.function", "pl.function()", "pl.function(type=3)",
        "pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)", "pl.function(pl.FunctionType.AIV)",
        "pl.function(type=pl.FunctionType.Orchestration, auto_scope=1)", "pl.function(kind=pl.FunctionType.AIV)",
        "pl.function(type=pl.FunctionType.Spmd)", "staticmethod",
    ])
    func.decorator_list = [parse_expr(text)]
    return f"decorate {func.name} with @{text}"


MODULE_VALUES = ["0", "-4", "2 ** 80", "1.5", "'text'", "None", "True", "[16, 16]", "(4,)", "len('abc')",
                 "pl.dynamic('Q')", "pl.dynamic(3)", "pl.FP16", "pl.FunctionType.AIV", "pl.Tensor[[16, 16], pl.FP32]",
                 "lambda: 3", "{}", "N_UNDEFINED + 1"]


def change_module_constant(tree: ast.Module, c: Chooser) -> str:
    """Give a module-level name another value, or add one the program then uses."""
    assigns = [s for s in tree.body if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name)]
    value = c.choice(MODULE_VALUES)
    if assigns and c.integer(0, 2):
        stmt = c.choice(assigns)
        old = ast.unparse(stmt.value)
        stmt.value = parse_expr(value)
        return f"module constant {stmt.targets[0].id} = {old} -> {value}"
    func = pick_function(tree, c)
    slots = expressions(func)
    if not slots:
        raise NotApplicable("no expression")
    where = next(i for i, s in enumerate(tree.body) if isinstance(s, ast.ClassDef))
    tree.body.insert(where, ast.Assign([ast.Name("K_NEW", ast.Store())], parse_expr(value), lineno=0))
    parent, field, index = c.choice(slots)
    set_slot(parent, field, index, parse_expr("K_NEW"))
    return f"module constant K_NEW = {value}, used in {func.name}"


AST_MUTATIONS: dict[str, Callable[[ast.Module, Chooser], str]] = {
    "module": change_module_constant,
    "drop": drop_statement,
    "duplicate": duplicate_statement,
    "move": move_statement,
    "swap": swap_arguments,
    "dtype": change_dtype,
    "shape": change_shape,
    "rename": rename_variable,
    "replace": replace_expression,
    "unsupported": insert_unsupported,
    "block": restructure_block,
    "decorator": mutate_decorator,
}


def break_indentation(text: str, c: Chooser) -> tuple[str, str]:
    """A text edit of one indented line of a class: re-indent it, empty a block, or split it."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("class ")), None)
    indented = [i for i, line in enumerate(lines) if start is not None and i > start and line.startswith("    ")
                and line.strip()]
    if not indented:
        raise NotApplicable("no class body")
    i = c.choice(indented)
    how = c.integer(0, 4)
    line = lines[i]
    if how == 0:
        lines[i] = line[c.integer(1, 4):]
        what = f"dedent line {i + 1}"
    elif how == 1:
        lines[i] = " " * c.choice([1, 2, 4]) + line
        what = f"indent line {i + 1}"
    elif how == 2:
        lines[i] = line.replace("    ", "\t", 1)
        what = f"tab on line {i + 1}"
    elif how == 3:
        depth = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > depth):
            j += 1
        del lines[i + 1:j]
        what = f"empty the block of line {i + 1}"
    else:
        cut = c.integer(0, len(line))
        lines[i:i + 1] = [line[:cut], line[cut:]]
        what = f"split line {i + 1}"
    return "\n".join(lines) + "\n", what


def mutate(text: str, c: Chooser, rounds: int = 1) -> tuple[str, list[str]]:
    """Apply ``rounds`` mutations to ``text``; returns the new text and what was done."""
    done: list[str] = []
    for _ in range(rounds):
        kind = c.choice([*AST_MUTATIONS, "indent"])
        try:
            if kind == "indent":
                text, what = break_indentation(text, c)
            else:
                tree = ast.parse(text)
                what = AST_MUTATIONS[kind](tree, c)
                text = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
        except (NotApplicable, ValueError):  # ValueError: a tree ast.unparse cannot print
            continue
        except SyntaxError:
            break  # an earlier text edit broke the syntax: no AST to work on
        done.append(f"{kind}: {what}")
    return text, done


def mutated_programs(max_rounds: int = 2):
    """Hypothesis strategy: (seed program name, mutations done, mutated source)."""
    from hypothesis import strategies as st

    sources = seed_sources()

    @st.composite
    def build(draw):
        name, text = draw(st.sampled_from(sources))
        chooser = DrawChooser(draw)
        new, done = mutate(text, chooser, draw(st.integers(1, max_rounds)))
        return name, done, new

    return build()


def _short(node: ast.AST, limit: int = 60) -> str:
    text = ast.unparse(node).splitlines()[0] if not isinstance(node, str) else node
    return text if len(text) <= limit else text[: limit - 3] + "..."
