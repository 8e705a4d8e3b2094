"""check_output_params_written: directed -> directed (a check that warns)."""

from __future__ import annotations

import re

from nanopass.languages import DIRECTED
from nanopass.languages.terms import ParamDir
from nanopass.rewrite import Pass, register

from .hazards import WRITES, storage_map
from .util import iter_stmts

# Whether the walk stops looking at the output parameters' writes and reads once every one is
# written (it goes on with the In parameters' writes alone); off only in the tests that compare the two.
STOP_WHEN_WRITTEN = True


@register
class CheckOutputParamsWritten(Pass):
    """Warn when the orchestration's outputs cannot reach its caller, or it writes an input.

    Three mistakes compile silently otherwise: an ``Out`` or ``InOut`` tensor parameter that no
    task argument (with a writing direction), host element write or assemble writes, on any
    path; a plain (``In``) tensor parameter that one of them writes (the existing compiler
    accepts it, and its ``orchestration_signature`` still lists the parameter ``IN``, from the
    declared type: reference-surface.md section 4; the caller does not expect its buffer to
    change); and a returned tensor that is no parameter's buffer (a buffer created or allocated by
    the runtime inside the function, which nothing copies to the caller; an output parameter
    rebound to a create is placed or refused earlier, by
    ``place_returned_creates_in_output_params``). A warning is located at
    the parameter, the first write of an ``In`` parameter, or the return and has a help line
    (when an output parameter is passed to a kernel that only reads it, which kernel, and
    whether that call leaves arguments to the runtime).
    Storage is ``storage_map``'s (names to roots, through views, kernel results and carries).
    The program is returned unchanged.
    """

    name = "check_output_params_written"
    source = DIRECTED
    target = DIRECTED

    def run(self, program):
        func = program.orch
        kernels = {k.name: k for k in program.kernels}
        outputs = [p for p in func.params if p.type._production == "TensorType" and p.dir is not ParamDir.In]
        params = {p.name for p in func.params}
        inputs = {p.name for p in func.params if p.type._production == "TensorType" and p.dir is ParamDir.In}
        if not outputs and not func.results and not inputs:
            return program
        store = storage_map(func, kernels)

        def roots(expr) -> set[str]:
            if expr is None or expr._production != "Var":
                return set()
            return {root for root, _ in store.get(expr.name, ())}

        # one walk: the output parameters no statement so far writes (``pending``), the first read
        # of each (``reads``), the first statement writing each In parameter (``written``), and the
        # returns; once every output is written, only the In parameters' writes and the returns
        pending = {p.name for p in outputs}
        reads: dict[str, object] = {}  # param -> the first task that reads it without writing it
        written: dict[str, object] = {}  # In parameter -> the first statement that writes it
        returns = []
        stmts = iter_stmts(func.body)
        for stmt in stmts:
            kind = stmt._production
            if kind == "Task":  # (roots(arg.value), inlined: the usual statement)
                for arg in stmt.args:
                    value = arg.value
                    if value._production != "Var":
                        continue
                    places = store.get(value.name)
                    if not places:
                        continue
                    if arg.dir in WRITES:
                        for root, _ in places:
                            pending.discard(root)
                            if root in inputs:
                                written.setdefault(root, stmt)
                    else:
                        for root, _ in places:
                            if root not in reads:
                                reads[root] = (stmt, arg)
                if not pending and STOP_WHEN_WRITTEN:
                    # every output written: the statements after add nothing ``pending`` and
                    # ``reads`` (asked of an unwritten parameter only) are read for
                    break
            elif kind == "WriteTensor" or kind == "Let":
                self._write(roots(_host_write_target(stmt)), stmt, pending, inputs, written)
            elif kind == "Return":
                returns.append(stmt)
        if len(written) < len(inputs):  # (the rest, after a break: the In parameters' writes alone)
            for stmt in stmts:
                kind = stmt._production
                if kind == "Task":  # (a written name's places looked up as the walk meets it)
                    for arg in stmt.args:
                        if arg.dir in WRITES and arg.value._production == "Var":
                            for root, _ in store.get(arg.value.name, ()):
                                if root in inputs:
                                    written.setdefault(root, stmt)
                    if len(written) == len(inputs):
                        break
                elif kind == "WriteTensor" or kind == "Let":
                    self._write(roots(_host_write_target(stmt)), stmt, pending, inputs, written)
                elif kind == "Return":
                    returns.append(stmt)
        for stmt in stmts:  # (the rest, after a break)
            if stmt._production == "Return":
                returns.append(stmt)
        for param in outputs:
            if param.name in pending:
                what = "Out" if param.dir is ParamDir.Out else "InOut"
                self.ctx.warn(
                    f"{what} parameter '{param.name}' of '{func.name}' is never written: the caller's "
                    f"buffer keeps its old contents",
                    param.span or func.span,
                    self._hint(param.name, reads.get(param.name), kernels),
                )
        for param in func.params:
            stmt = written.get(param.name)
            if stmt is None:
                continue
            by = f"'{stmt.kernel}'" if stmt._production == "Task" else (
                "pl.tensor.write" if stmt._production == "WriteTensor" else "pl.assemble")
            line = f" (declared at line {param.span.line})" if param.span else ""
            self.ctx.warn(
                f"'{param.name}' is an input parameter of '{func.name}'{line} but {by} writes it here: its "
                "orchestration_signature entry stays IN, so the caller does not expect its buffer to change",
                stmt.span or param.span or func.span,
                "declare it pl.InOut[...] (or pl.Out[...] if nothing reads it before it is written), or write a "
                "tensor of your own (pl.create_tensor)",
            )
        for stmt in returns:
            for value in stmt.values:
                places = roots(value)
                if places and not places & params:
                    self.ctx.warn(
                        unseen_return_message(func.name, _source_name(value.name)),
                        stmt.span or func.span,
                        "let the kernel write into the Out parameter itself (pass the parameter as its "
                        "output argument) instead of rebinding the name to a new tensor",
                    )
        return program

    @staticmethod
    def _write(places: set[str], stmt, pending: set[str], inputs: set[str], written: dict) -> None:
        """``stmt`` (a host element write, an assemble) writes the buffers ``places``."""
        for root in places:
            pending.discard(root)
            if root in inputs:
                written.setdefault(root, stmt)

    @staticmethod
    def _hint(name: str, read, kernels) -> str:
        if read is None:
            return f"pass '{name}' to a kernel as its Out or InOut argument, or declare it as an input"
        task, arg = read
        kernel = kernels[task.kernel]
        index = task.args.index(arg)
        param = kernel.params[index].name if index < len(kernel.params) else "?"
        line = f" at line {task.span.line}" if task.span else ""
        text = f"'{name}' is passed to '{task.kernel}'{line} as its input '{param}'"
        tensors = [p for p in kernel.params if p.type._production == "TensorType"]
        given = [a for a in task.args if a.value._production == "Var" and _is_tensor_arg(a)]
        if len(given) < len(tensors):
            text += (f"; that call gives {len(given)} of the kernel's {len(tensors)} tensor arguments: those after a "
                     "missing one shift left, and the runtime allocates the output left out")
        return text


def _host_write_target(stmt):
    """The tensor a host element write writes, or an assemble's target; None for another Let."""
    if stmt._production == "WriteTensor":
        return stmt.tensor
    return stmt.value.target if stmt.value._production == "AssembleTensor" else None


def _is_tensor_arg(arg) -> bool:
    from nanopass.languages.terms import ArgDir

    return arg.dir is not ArgDir.Scalar


_UNSEEN_RETURN = re.compile(r"'[^']*' returns '([^']*)', which is not a parameter's buffer: ")


def unseen_return_message(func: str, name: str) -> str:
    """The warning that ``func`` returns ``name`` (as written), a tensor of no parameter's buffer."""
    return (f"'{func}' returns '{name}', which is not a parameter's buffer: the caller never sees it (nothing "
            "copies it into an output parameter)")


def unseen_return(warning) -> str | None:
    """The name (as written) a warning of this pass says is returned but seen by no caller
    (``unseen_return_message``), else None."""
    if warning.pass_name != CheckOutputParamsWritten.name:
        return None
    found = _UNSEEN_RETURN.match(warning.message)
    return found.group(1) if found else None


def _source_name(name: str) -> str:
    """The name as the user wrote it (``out__ssa_v0`` -> ``out``)."""
    return name.split("__", 1)[0]
