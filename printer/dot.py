"""The task graph of a program at any stage, as Graphviz DOT.

One node per submit site (a ``Task`` or a dummy barrier, or in the emission language a
``Submit``), labelled with its task number, kernel and core; loops, branches and runtime scopes
are clusters. Solid edges are data dependencies (a task reading or writing a buffer after another
task wrote it); dashed edges are explicit dependencies (``deps=``), bold when the compiler added
them. Guarded edges (the TaskId may be invalid) are drawn with an open arrowhead. The graph is
built structurally with the graphviz package; node ids follow program order, so the output is
deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import graphviz

from nanopass.languages.terms import ArgDir, ParamDir

_WRITE = {ArgDir.Output, ArgDir.OutputExisting, ArgDir.InOut}
_READ = {ArgDir.Input, ArgDir.InOut}


@dataclass
class _Graph:
    dot: graphviz.Digraph
    clusters: int = 0
    tasks: int = 0
    last_writer: dict[str, str] = field(default_factory=dict)
    roots: dict[str, str] = field(default_factory=dict)
    tid_origin: dict[str, set[str]] = field(default_factory=dict)
    edges: set[tuple[str, str, str]] = field(default_factory=set)


def task_graph(tree, name: str = "tasks") -> graphviz.Digraph:
    """The task graph of ``tree`` (a Program of any language before emission, or a Unit)."""
    dot = graphviz.Digraph(name=name, graph_attr={"rankdir": "TB", "fontname": "Helvetica"},
                           node_attr={"shape": "box", "fontname": "Helvetica", "style": "rounded"})
    graph = _Graph(dot)
    if tree._production == "Unit":
        _emission_graph(graph, tree)
    else:
        kernels = {k.name: k for k in tree.kernels}
        func = tree.orch
        for param in func.params:
            graph.roots[param.name] = param.name
        _body(graph, dot, func.body, kernels)
    return dot


def to_dot(tree, name: str = "tasks") -> str:
    return task_graph(tree, name).source


def _root(graph: _Graph, name: str) -> str:
    return graph.roots.get(name, name)


def _cluster(graph: _Graph, parent, label: str, style: str):
    graph.clusters += 1
    sub = graphviz.Digraph(name=f"cluster_{graph.clusters}")
    sub.attr(label=label, style=style, fontname="Helvetica", fontsize="10")
    return sub


def _body(graph: _Graph, sub, stmts, kernels) -> None:
    for stmt in stmts:
        kind = stmt._production
        if kind == "Task":
            _task(graph, sub, stmt, kernels)
        elif kind == "Dummy":
            _dummy(graph, sub, stmt)
        elif kind == "Let":
            _let(graph, stmt)
        elif kind == "Alloc":
            for create in stmt.creates:
                graph.roots[create.var.name] = create.var.name
        elif kind == "Scope":
            origin = getattr(stmt, "origin", None)
            label = f"{stmt.mode.name.upper()} scope" + (f" ({origin.name})" if origin is not None else "")
            inner = _cluster(graph, sub, label, "dashed" if stmt.mode.name == "auto" else "bold")
            _body(graph, inner, stmt.body, kernels)
            sub.subgraph(inner)
        elif kind == "For":
            for it in stmt.iters:
                _alias(graph, it.var.name, it.init)
            label = f"{'pl.parallel' if stmt.kind.name == 'parallel' else 'pl.range'} {stmt.var.name}"
            inner = _cluster(graph, sub, label, "solid")
            for _ in range(2):  # twice, so loop-carried TaskIds reach the top of the body
                _body(graph, inner, stmt.body, kernels)
                _carry_back(graph, stmt)
            sub.subgraph(inner)
            for it, result in zip(stmt.iters, stmt.results):
                graph.roots[result.name] = _root(graph, it.var.name)
                graph.tid_origin[result.name] = set(graph.tid_origin.get(it.var.name, ()))
        elif kind == "If":
            for label, body in (("then", stmt.then), ("else", stmt.orelse)):
                if body:
                    inner = _cluster(graph, sub, f"if {label}", "dotted")
                    _body(graph, inner, body, kernels)
                    sub.subgraph(inner)
            _merge_branches(graph, stmt)


def _last_yield(body):
    while len(body) == 1 and body[0]._production == "Scope" and getattr(body[0], "origin", None) is not None:
        body = body[0].body
    return body[-1] if body and body[-1]._production == "Yield" else None


def _carry_back(graph: _Graph, loop) -> None:
    yld = _last_yield(loop.body)
    if yld is None:
        return
    for it, value in zip(loop.iters, yld.values):
        if value._production == "Var":
            origins = graph.tid_origin.setdefault(it.var.name, set())
            origins |= graph.tid_origin.get(value.name, set())


def _merge_branches(graph: _Graph, branch) -> None:
    results = getattr(branch, "results", ())
    for i, res in enumerate(results):
        name = getattr(res, "var", res).name
        origins: set[str] = set()
        for body in (branch.then, branch.orelse):
            yld = _last_yield(body)
            if yld is not None and yld.values[i]._production == "Var":
                value = yld.values[i].name
                origins |= graph.tid_origin.get(value, set())
                graph.roots[name] = _root(graph, value)
        graph.tid_origin[name] = origins


def _alias(graph: _Graph, name: str, expr) -> None:
    if expr._production == "Var":
        graph.roots[name] = _root(graph, expr.name)
        graph.tid_origin[name] = set(graph.tid_origin.get(expr.name, ()))


def _let(graph: _Graph, let) -> None:
    value = let.value
    kind = value._production
    name = let.var.name
    if kind == "Var":
        _alias(graph, name, value)
    elif kind == "AssembleTensor":
        graph.roots[name] = _root(graph, value.target.name)
    elif kind == "SetItem":
        graph.roots[name] = _root(graph, value.array.name)
        graph.tid_origin[name] = graph.tid_origin.get(value.array.name, set()) | graph.tid_origin.get(
            getattr(value.value, "name", ""), set()
        )
    elif kind == "GetItem":
        graph.tid_origin[name] = set(graph.tid_origin.get(value.array.name, ()))
    elif kind in ("SliceTensor", "TransposeTensor", "ReshapeTensor"):
        graph.roots[name] = _root(graph, value.tensor.name)
    else:
        graph.roots[name] = name


def _arg_dirs(stmt, kernels) -> list[tuple[str, ArgDir]]:
    kernel = kernels.get(stmt.kernel)
    out = []
    for i, arg in enumerate(stmt.args):
        value = arg.value
        if value._production != "Var":
            continue
        if hasattr(arg, "dir"):
            direction = arg.dir
        elif kernel is not None and i < len(kernel.params):
            pdir = kernel.params[i].dir
            if kernel.params[i].type._production != "TensorType":
                continue
            direction = {ParamDir.In: ArgDir.Input, ParamDir.Out: ArgDir.OutputExisting, ParamDir.InOut: ArgDir.InOut}[pdir]
        else:
            continue
        if direction is ArgDir.Scalar:
            continue
        out.append((value.name, direction))
    return out


def _task_label(n: int, stmt, kernels) -> str:
    kernel = kernels.get(stmt.kernel)
    core = getattr(kernel, "core", None)
    core_text = core.name if core is not None else (kernel.kind.name if kernel is not None else "?")
    return f"t{n}: {stmt.kernel}\\n{core_text}"


def _task(graph: _Graph, sub, stmt, kernels) -> None:
    node = f"t{graph.tasks}"
    sub.node(node, _task_label(graph.tasks, stmt, kernels))
    graph.tasks += 1
    _explicit_edges(graph, node, stmt.deps)
    for name, direction in _arg_dirs(stmt, kernels):
        root = _root(graph, name)
        writer = graph.last_writer.get(root)
        if writer is not None and writer != node and direction in _READ | _WRITE:
            _edge(graph, writer, node, "data", root)
        if direction in _WRITE:
            graph.last_writer[root] = node
    kernel = kernels.get(stmt.kernel)
    for i, out in enumerate(stmt.outs):
        binder = getattr(out, "var", out)
        written = [v for v, d in _arg_dirs(stmt, kernels) if d in _WRITE]
        source = written[i] if i < len(written) else None
        graph.roots[binder.name] = _root(graph, source) if source else binder.name
        if source is None:
            graph.last_writer[binder.name] = node
    del kernel
    if stmt.tid is not None:
        graph.tid_origin[stmt.tid.name] = {node}


def _dummy(graph: _Graph, sub, stmt) -> None:
    node = f"b{graph.tasks}"
    graph.tasks += 1
    sub.node(node, "barrier", shape="diamond", style="filled", fillcolor="lightgrey")
    _explicit_edges(graph, node, stmt.deps)
    graph.tid_origin[stmt.var.name] = {node}


def _explicit_edges(graph: _Graph, node: str, deps) -> None:
    for dep in deps:
        kind = dep._production
        if kind == "DepEdge":
            name = dep.tid.name
            style = "user" if dep.user else "derived"
            guarded = dep.guarded
        else:
            ref = dep.array if kind == "DepItem" else dep.value
            name = ref.name
            style = "derived" if kind == "DerivedDep" else "user"
            guarded = False
        for origin in sorted(graph.tid_origin.get(name, ())):
            _edge(graph, origin, node, style + ("-guarded" if guarded else ""), name)


def _edge(graph: _Graph, src: str, dst: str, kind: str, label: str) -> None:
    key = (src, dst, kind)
    if key in graph.edges:
        return
    graph.edges.add(key)
    attrs: dict[str, str] = {}
    if kind == "data":
        attrs["color"] = "black"
    else:
        attrs["style"] = "bold,dashed" if kind.startswith("derived") else "dashed"
        attrs["color"] = "blue" if kind.startswith("user") else "darkgreen"
        if kind.endswith("guarded"):
            attrs["arrowhead"] = "empty"
    attrs["tooltip"] = label
    graph.dot.edge(src, dst, **attrs)


def _emission_graph(graph: _Graph, unit) -> None:
    """Tasks of the emission language: each Submit with the AddTensor calls on its Arg."""
    adds: dict[str, list[tuple[str, ArgDir]]] = {}
    comments: list[str] = []

    def body(sub, stmts):
        for stmt in stmts:
            kind = stmt._production
            if kind == "Comment":
                comments.append(stmt.text)
            elif kind == "AddTensor":
                adds.setdefault(stmt.args, []).append((stmt.tensor, stmt.dir))
            elif kind in ("Submit", "GuardedDummy"):
                node = f"t{graph.tasks}"
                graph.tasks += 1
                label = comments[-1] if comments else stmt.args
                sub.node(node, label)
                for name, direction in adds.get(stmt.args, []):
                    writer = graph.last_writer.get(name)
                    if writer is not None and direction in _READ | _WRITE:
                        _edge(graph, writer, node, "data", name)
                    if direction in _WRITE:
                        graph.last_writer[name] = node
            elif kind in ("ScopeBlock", "ForBlock", "IfBlock"):
                label = {"ScopeBlock": "scope", "ForBlock": "for", "IfBlock": "if"}[kind]
                inner = _cluster(graph, sub, label, "dashed")
                for field in ("body", "then", "orelse"):
                    if hasattr(stmt, field):
                        body(inner, getattr(stmt, field))
                sub.subgraph(inner)

    body(graph.dot, unit.body)
