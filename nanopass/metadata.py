"""The metadata a runtime build needs besides the C++ (reference-behaviour.md section 14.1), read
off the compiled program: nothing here decides anything a pass has not decided.

- ``func_name_to_id``: kernel -> id, for every kernel a task launches (assign_kernel_ids, D5);
- ``func_name_to_core_type``: kernel -> ``"VECTOR"`` (AIV) or ``"CUBE"`` (AIC) (infer_core_types);
- ``func_name_to_signature``: kernel -> the directions of its tensor arguments at its first
  dispatch (derive_call_directions): ``"IN"`` for Input, ``"OUT"`` for Output, OutputExisting and
  an output the runtime allocates, ``"INOUT"`` for InOut and NoDep; a Group's members both get
  the Group task's list;
- ``orchestration_signature``: ``"IN"`` / ``"OUT"`` / ``"INOUT"`` per tensor parameter of the
  orchestration function, from its declared direction;
- ``expected_arg_count``: tensor parameters + scalar parameters (classify_tensors, D2).
"""

from __future__ import annotations

import json
from typing import Any

from nanopass.languages.terms import ArgDir, CoreType, ParamDir

ARG_DIRECTION = {
    ArgDir.Input: "IN",
    ArgDir.Output: "OUT",
    ArgDir.OutputExisting: "OUT",
    ArgDir.InOut: "INOUT",
    ArgDir.NoDep: "INOUT",
}
PARAM_DIRECTION = {ParamDir.In: "IN", ParamDir.Out: "OUT", ParamDir.InOut: "INOUT"}
CORE_TYPE = {CoreType.AIV: "VECTOR", CoreType.AIC: "CUBE"}


def kernel_metadata(program) -> dict[str, Any]:
    """``func_name_to_id``, ``func_name_to_core_type``, ``func_name_to_signature`` and
    ``orchestration_signature`` of an ``encoded`` program (its kernels' ids and cores, its tasks'
    argument directions, its function's parameters)."""
    from nanopass.languages.statements import iter_stmts

    kernels = {k.name: k for k in program.kernels}
    ids = {k.name: k.id for k in program.kernels if k.id is not None}
    signatures: dict[str, list[str]] = {}
    for stmt in iter_stmts(program.orch.body):
        if stmt._production != "Task":
            continue
        kernel = kernels[stmt.kernel]
        launched = list(kernel.members) or [kernel.name]
        if all(name in signatures for name in launched):
            continue
        directions = [ARG_DIRECTION[a.dir] for a in stmt.args if a.dir is not ArgDir.Scalar]
        directions += ["OUT"] * (len(kernel.params) - len(stmt.args))  # the runtime allocates them
        for name in launched:
            signatures.setdefault(name, directions)
    by_id = sorted(ids, key=ids.__getitem__)
    return {
        "func_name_to_id": {name: ids[name] for name in by_id},
        "func_name_to_core_type": {name: CORE_TYPE[kernels[name].core] for name in by_id},
        "func_name_to_signature": {name: signatures[name] for name in by_id if name in signatures},
        "orchestration_signature": [
            PARAM_DIRECTION[p.dir] for p in program.orch.params if p.type._production == "TensorType"
        ],
    }


def metadata_json(program_name: str, abi: str, results) -> str:
    """``nanopass run --metadata FILE``: one entry per compiled orchestration function, by name."""
    document = {
        "program": program_name,
        "abi": abi,
        "functions": {result.func_name: result.metadata() for result in sorted(results, key=lambda r: r.func_name)},
    }
    return json.dumps(document, indent=2) + "\n"
