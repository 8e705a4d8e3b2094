"""Facts about kernels that several passes read (each a pure function of the kernel nodes)."""

from __future__ import annotations

from typing import Any

from nanopass.languages.terms import ParamDir


def kernel_table(program) -> dict[str, Any]:
    return {k.name: k for k in program.kernels}


_FACTS: dict[int, tuple[Any, tuple, tuple]] = {}


def _facts(kernel) -> tuple[tuple[int | None, ...], tuple[int | None, ...]]:
    """(returned_params, output params) of ``kernel``, computed once per kernel node. Cached by
    node identity: kernels are shared, unchanged, by every stage, and a structural cache key would
    compare whole kernels per lookup."""
    cached = _FACTS.get(id(kernel))
    if cached is not None and cached[0] is kernel:
        return cached[1], cached[2]
    if len(_FACTS) > 1024:
        _FACTS.clear()
    returned = _returned_params(kernel)
    outputs = tuple(_output_param_of_result(kernel, returned, i) for i in range(len(kernel.results)))
    _FACTS[id(kernel)] = (kernel, returned, outputs)
    return returned, outputs


def returned_params(kernel) -> tuple[int | None, ...]:
    """For each declared result of ``kernel``: the index of the parameter it writes back, or None.

    Reads the kernel's (normalized) return statement: a returned value that *is* a parameter
    (``(Var p)``) maps to that parameter. Without a return, a single result maps to the unique
    Out/InOut parameter if there is exactly one.
    """
    return _facts(kernel)[0]


def _returned_params(kernel) -> tuple[int | None, ...]:
    index = {p.name: i for i, p in enumerate(kernel.params)}
    ret = next((s for s in kernel.body if s._production == "KReturn"), None)
    out: list[int | None] = []
    for i in range(len(kernel.results)):
        value = ret.values[i] if ret is not None and i < len(ret.values) else None
        if value is not None and value._production == "Var" and value.name in index:
            out.append(index[value.name])
        else:
            out.append(None)
    written = [i for i, p in enumerate(kernel.params) if p.dir is not ParamDir.In]
    if len(kernel.results) == 1 and out[0] is None and len(written) == 1:
        out[0] = written[0]
    return tuple(out)


def output_param_of_result(kernel, result_index: int) -> int | None:
    """The parameter a result aliases, falling back to the i-th Out/InOut parameter."""
    return _facts(kernel)[1][result_index]


def output_params(kernel) -> tuple[int | None, ...]:
    """``output_param_of_result(kernel, i)`` for every result ``i``, in order."""
    return _facts(kernel)[1]


def written_param_of_result(kernel, result_index: int) -> int | None:
    """The parameter whose buffer a call's ``result_index``-th result is, or None for a new tensor
    (``materialize_result_buffers`` gives such a result a parameter of its own): the parameter
    the kernel's return names, else the Out/InOut parameter in its place
    (``output_param_of_result``) unless another result names that one."""
    returned, outputs = _facts(kernel)
    if returned[result_index] is not None:
        return returned[result_index]
    param = outputs[result_index]
    return None if param in returned else param


def _output_param_of_result(kernel, returned, result_index: int) -> int | None:
    mapped = returned[result_index]
    if mapped is not None:
        return mapped
    written = [i for i, p in enumerate(kernel.params) if p.dir is not ParamDir.In]
    base = max(0, len(kernel.results) - len(written))
    if result_index >= base and result_index - base < len(written):
        return written[result_index - base]
    return None
