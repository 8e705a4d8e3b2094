"""The source of a test's DSL program from its kernels and body: the module preamble, the
``@pl.program`` class, kernels whose body returns the tensor they write (orchestration tests
read a kernel's signature only) and the orchestration function around the body.

    program([f"copy(a: {T}, out: pl.Out[{T}])", f"acc(x: {T}, y: pl.InOut[{T}])"],
            f"x: {T}, y: pl.InOut[{T}], n: pl.Scalar[pl.INT64]", BODY, returns=T)

is the text a test wrote out before, line for line (``import nanopass.dsl as pl``, two blank
lines, ``@pl.program``, ``class P:``, each kernel ``@pl.function(type=pl.FunctionType.AIV)``
``def copy(self, a: ..., out: ...) -> ...:`` ``return out`` and a blank line, then ``orch``),
so line numbers in a test's figures or errors keep their meaning.
"""

from __future__ import annotations

import textwrap

PREAMBLE = "import nanopass.dsl as pl\n\n\n@pl.program\n"


def _split_params(params: str) -> list[str]:
    """The parameters of a signature's list, split at the commas outside brackets."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(params):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(params[start:i].strip())
            start = i + 1
    if params[start:].strip():
        out.append(params[start:].strip())
    return out


def kernel(signature: str, returns: str | None = None, body: str | None = None) -> str:
    """An AIV kernel from ``name(params)`` (without ``self``): it returns its last ``pl.Out`` or
    ``pl.InOut`` parameter, declared of that parameter's type (``returns``: another return
    annotation; ``body``: other statements, indented by the helper). Ends in a blank line."""
    name, params = signature.split("(", 1)
    params = params.rsplit(")", 1)[0]
    written = [p for p in _split_params(params) if ": pl.Out[" in p or ": pl.InOut[" in p]
    last = written[-1]
    result, annotation = last.split(": ", 1)
    if returns is None:
        returns = annotation[annotation.index("[") + 1 : -1]
    text = body if body is not None else f"return {result}"
    return (
        "    @pl.function(type=pl.FunctionType.AIV)\n"
        f"    def {name}(self, {params}) -> {returns}:\n" + textwrap.indent(textwrap.dedent(text).strip("\n"), " " * 8) + "\n\n"
    )


def load_store_kernel(signature: str, out: str) -> str:
    """``kernel(signature)`` whose body loads the 8 x 8 FP32 tile of its parameter ``a`` and stores
    it into its parameter ``out`` (``t: pl.Tile[...] = pl.load(a, ...)``, ``o = pl.store(t, ...)``,
    ``return o``): the kernels of the lean tests, whose text only their signatures tell apart."""
    body = ("t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])\n"
            f"o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], {out})\nreturn o")
    return kernel(signature, body=body)


def header(kernels, name: str = "P", options: str | None = None) -> str:
    """The text before the orchestration function: the ``# options:`` line when given, the
    preamble, ``class name:`` and each of ``kernels`` (a ``kernel`` signature, or a kernel's text)."""
    head = f"# options: {options}\n" if options else ""
    texts = [k if k.lstrip().startswith("@pl.function") else kernel(k) for k in kernels]
    return head + PREAMBLE + f"class {name}:\n" + "".join(texts)


def orch(params: str, body: str, returns: str | None = None, auto_scope: bool = True) -> str:
    """The orchestration function ``orch(self, params) -> returns`` around ``body`` (indented by
    the helper: written at any indentation)."""
    flag = "" if auto_scope else ", auto_scope=False"
    arrow = f" -> {returns}" if returns else ""
    return (
        f"    @pl.function(type=pl.FunctionType.Orchestration{flag})\n"
        f"    def orch(self, {params}){arrow}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), " " * 8) + "\n"
    )


def program(kernels, params: str, body: str, returns: str | None = None, name: str = "P",
            options: str | None = None, auto_scope: bool = True) -> str:
    """A whole program: ``header(kernels, name, options)`` and ``orch(params, body, returns, auto_scope)``."""
    return header(kernels, name, options) + orch(params, body, returns, auto_scope)
