"""Which variables name the same physical tensor (or array): SSA names grouped into roots."""

from __future__ import annotations

from typing import Any, Callable

from .kernels import output_params
from .util import last_yield


def buffer_roots(func, kernels: dict[str, Any], trivial_carry: Callable[[Any], bool] = lambda it: True) -> dict[str, str]:
    """name -> the name whose storage it is.

    A kernel's result is the Out/InOut argument it writes back; an assemble's result is its
    target; ``x = y`` of a tensor or array is ``y``; an array after ``arr[i] = v`` is ``arr``;
    a loop carry (iter_arg and result) is its init when ``trivial_carry(iter_arg)`` says the
    carry is the same physical value on every iteration; an if's result is the value both
    branches yield when they agree. Everything else is its own root.
    """
    roots: dict[str, str] = {p.name: p.name for p in func.params}
    extend_buffer_roots(roots, func.body, kernels, trivial_carry)
    return roots


def extend_buffer_roots(
    roots, stmts, kernels: dict[str, Any], trivial_carry: Callable[[Any], bool] = lambda it: True
) -> None:
    """Add to ``roots`` (``buffer_roots``' table of what is bound before ``stmts``, or any mapping
    with its ``get`` and item assignment) the names ``stmts`` bind, as ``buffer_roots`` would."""
    outputs: dict[str, tuple] = {}  # kernel name -> ``output_params``
    get = roots.get

    def root(expr) -> str | None:
        if expr is None or expr._production != "Var":
            return None
        return get(expr.name, expr.name)

    def body(stmts) -> None:
        # (``root`` written out where most statements ask it: a let's, a task's, a carry's)
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let":
                value = stmt.value
                vk = value._production
                src = None
                if vk == "Var":
                    if stmt.var.type._production in ("TensorType", "ArrayType"):
                        src = get(value.name, value.name)
                elif vk == "AssembleTensor":
                    src = root(value.target)
                elif vk == "SetItem":
                    src = root(value.array)
                roots[stmt.var.name] = src or stmt.var.name
            elif kind == "Task":
                params = outputs.get(stmt.kernel)
                if params is None:
                    params = outputs[stmt.kernel] = output_params(kernels[stmt.kernel])
                args = stmt.args
                count = len(args)
                i = 0
                for out in stmt.outs:
                    name = out.name
                    p = params[i]
                    i += 1
                    src = None
                    if p is not None and p < count:
                        arg = args[p].value
                        if arg is not None and arg._production == "Var":
                            src = get(arg.name, arg.name)
                    roots[name] = src or name
            elif kind == "For" or kind == "While":
                iters = stmt.iters
                for it in iters:
                    name = it.var.name
                    src = None
                    if trivial_carry(it):
                        init = it.init
                        if init is not None and init._production == "Var":
                            src = get(init.name, init.name)
                    roots[name] = src or name
                inner = stmt.body
                while len(inner) == 1 and (inner[0]._production == "Scope" or inner[0]._production == "CompilerScope"):
                    inner = inner[0].body  # (a body that is one scope: the scope's, without a call for it)
                body(inner)
                for it, result in zip(iters, stmt.results):
                    name = it.var.name
                    src = roots[name]
                    roots[result.name] = src if src != name else result.name
            elif kind == "If":
                for inner in (stmt.then, stmt.orelse):
                    # (a branch that is one scope: the scope's body, without a call for the scope)
                    while len(inner) == 1 and (inner[0]._production == "Scope" or inner[0]._production == "CompilerScope"):
                        inner = inner[0].body
                    body(inner)
                then_y, else_y = last_yield(stmt.then), last_yield(stmt.orelse)
                for i, res in enumerate(getattr(stmt, "results", ())):
                    binder = getattr(res, "var", res)
                    a = root(then_y.values[i]) if then_y else None
                    b = root(else_y.values[i]) if else_y else None
                    roots[binder.name] = a if a is not None and a == b else binder.name
            elif kind == "Scope" or kind == "CompilerScope":
                body(stmt.body)

    body(stmts)


def buffer_groups(roots: dict[str, str]) -> dict[str, list[str]]:
    """root -> the other names of its storage, from ``buffer_roots``' map (both in its order);
    a root no other name shares is left out."""
    groups: dict[str, list[str]] = {}
    for name, root in roots.items():
        if name != root:
            aliases = groups.get(root)
            if aliases is None:
                groups[root] = [name]
            else:
                aliases.append(name)
    return groups


def written_roots(func) -> dict[str, str]:
    """name -> root for the variables that name another's storage, as classify_iter_arg_carry
    wrote them onto the function (``Function.buffer_groups``, carried to hoisted); a name not in
    it is its own root (look up with ``.get(name, name)``)."""
    roots: dict[str, str] = {}
    for group in func.buffer_groups:
        roots.update(dict.fromkeys(group.aliases, group.root))
    return roots
