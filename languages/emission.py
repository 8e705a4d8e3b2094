"""emission: C++ statements, one node per line or block of the output.

Keeps only scalar expressions (``Expr``) and the dynamic-dim definitions from the languages
before; everything else is a statement of the generated C++ (``EStmt``) that the printer writes
one to one: a comment, a blank line, a runtime scope, a loop, an ``alloc_tensors`` batch, a
task's head (its comment, its argument object and every add call: ``TaskArgs``), a task's
dependency array (declared, filled and set: ``Deps``; a barrier's is its ``GuardedDummy``'s),
one submit. Nothing is left for the printer to decide except the ABI spelling (D1).
"""

from operator import attrgetter

from nanopass.errors import VerifyError
from nanopass.language import Nonterminal, Production

from . import encoded
from .terms import encoding

# The emission statements with bodies, and their body fields: the one table of them, which
# ``statements`` walks (the printer and the interpreters enter each body in their handlers).
BODIES = {"ScopeBlock": ("body",), "Block": ("body",), "ForBlock": ("body",), "WhileBlock": ("body",),
          "IfBlock": ("then", "orelse")}


def statements(body) -> list:
    """Every statement under ``body`` (a list of ``EStmt``), nested ones included: ``body``'s
    statements, then the bodies of each of them that has some (``BODIES``), in turn (breadth
    first: a body's statements come before those nested in them, not in program order)."""
    out = list(body)
    body_of = _BODY_OF_CLASS  # (by class: a statement's kind read in one lookup)
    for node in out:  # (``out`` grows as it is read: each nested body is appended, then read in turn)
        nested = body_of.get(type(node))
        if nested is not None:
            out += nested(node)
    return out


def check_task_heads(unit) -> None:
    """Every ``TaskArgs`` pairs its lists: a direction per tensor, an encoding per scalar; every
    ``GuardedDummy`` has a push (its guard reads the count its dependency array declares); a
    ``Submit`` that declares its TaskId captures its outputs (the TaskId is read from them).

    Each holds of a node on its own: the constructors of the three classes run these rules
    (``node_rules``), so every tree of the language meets the invariant (``Language.proves``)
    and the pipeline does not walk one for it; this walk checks a tree all the same."""
    rule_of = _RULE_OF_CLASS
    body_of = _BODY_OF_CLASS
    nodes = list(unit.body)  # (``statements``' walk, checked as it goes: a statement with bodies is none of the three)
    for node in nodes:
        cls = type(node)
        rule = rule_of.get(cls)
        if rule is not None:
            rule(node)
        else:
            nested = body_of.get(cls)
            if nested is not None:
                nodes += nested(node)


def _check_head(node) -> None:
    if len(node.dirs) != len(node.tensors) or len(node.scalars) != len(node.encodings):
        raise VerifyError(
            f"task head {node.name}: {len(node.dirs)} directions for {len(node.tensors)} tensors, "
            f"{len(node.encodings)} encodings for {len(node.scalars)} scalars",
            node=node,
        )


def _check_submit(node) -> None:
    if node.tid is not None and node.outs is None:
        raise VerifyError(f"submit of {node.args}: TaskId {node.tid} declared without its outputs", node=node)


def _check_dummy(node) -> None:
    if not node.pushes:
        raise VerifyError(f"guarded dummy {node.args}: no dependency to wait for", node=node)


# (each rule's condition, inlined in the constructors: a rule's ``inline``, over its fields' names)
_check_head.inline = "{len}({dirs}) == {len}({tensors}) and {len}({scalars}) == {len}({encodings})"
_check_submit.inline = "{tid} is None or {outs} is not None"
_check_dummy.inline = "{pushes}"
check_task_heads.node_rules = {"TaskArgs": _check_head, "Submit": _check_submit, "GuardedDummy": _check_dummy}


LANGUAGE = encoded.LANGUAGE.extend(
    "emission",
    doc="C++ statements of the orchestration entry",
    entry="Unit",
    inherit_invariants=False,
    invariants=[check_task_heads],
    add_terminals=[encoding],
    remove_nonterminals=[
        "Program", "Kernel", "KStmt", "KArg", "Param", "Function", "Binder", "IterArg", "Arg",
        "Dep", "DepEdge", "Stmt", "Rhs", "Type", "Carry", "Phi", "Slot", "TidSource", "Create",
    ],
    add_nonterminals=[
        Nonterminal(
            "Unit",
            Production(
                "Unit",
                "func:symbol",
                "arg_count:integer",
                "externals:External*",
                "scalars:EntryScalar*",
                "dyn_defs:DynDef*",
                "body:EStmt*",
            ),
        ),
        Nonterminal("External", Production("External", "name:symbol", "slot:integer")),
        Nonterminal("EntryScalar", Production("EntryScalar", "name:symbol", "dtype:dtype", "slot:integer")),
        Nonterminal(
            "EStmt",
            Production("Blank"),
            Production("Comment", "text:text"),
            Production("ScopeBlock", "mode:scope_mode", "body:EStmt*"),
            Production("Block", "body:EStmt*", doc="{ ... }: a C++ block of its own (its names end with it)"),
            Production("ForBlock", "var:symbol", "start:Expr", "stop:Expr", "step:Expr", "body:EStmt*"),
            Production("WhileBlock", "cond:Expr", "body:EStmt*", doc="while (cond) { body }"),
            Production("IfBlock", "cond:Expr", "then:EStmt*", "orelse:EStmt*"),
            Production("DeclScalar", "name:symbol", "dtype:dtype", "value:Expr?"),
            Production("DeclTensor", "name:symbol", "value:Expr?"),
            Production("AssignVar", "name:symbol", "value:Expr"),
            Production("ShapeArray", "name:symbol", "values:Expr*", doc="uint32_t name[n] = {...};"),
            Production(
                "ViewExtents", "name:symbol", "values:Expr*", "tensor:symbol", "offsets:symbol", "clamp:boolean",
                doc="uint32_t name[n] = {...}: a slice's extents, each clamped to what is left of tensor after "
                "offsets when clamp (the slice's clamp=True) or under --abi l2 (as the reference does)",
            ),
            Production(
                "CreateInfo", "name:symbol", "shapes:symbol", "ndims:integer", "dtype:dtype", "manual_dep:boolean"
            ),
            Production("SetInitial", "info:symbol", "dtype:dtype", "value:Expr"),
            Production("AllocTensors", "name:symbol", "infos:symbol*"),
            Production("BindRef", "name:symbol", "source:symbol", "index:integer"),
            Production("AssignRef", "name:symbol", "source:symbol", "index:integer", doc="name = source.get_ref(i);"),
            Production("ReadElement", "name:symbol?", "dtype:dtype", "tensor:symbol", "indices:symbol?", "ndims:integer"),
            Production("WriteElement", "tensor:symbol", "dtype:dtype", "indices:symbol?", "ndims:integer", "value:Expr"),
            Production("ViewTensor", "name:symbol", "tensor:symbol", "shapes:symbol", "offsets:symbol", "manual_dep:boolean"),
            Production("TransposeView", "name:symbol", "tensor:symbol", "axis1:integer", "axis2:integer", "manual_dep:boolean"),
            Production("ReshapeView", "name:symbol", "tensor:symbol", "shapes:symbol", "ndims:integer", "manual_dep:boolean"),
            Production("ReadDim", "name:symbol", "tensor:symbol", "axis:integer"),
            Production(
                "TaskArgs", "blank:boolean", "comment:text?", "name:symbol", "dirs:arg_dir*", "tensors:symbol*",
                "scalars:Expr*", "encodings:encoding*",
                doc="a task's head, written whole: a blank line (when blank), // comment (when one), the argument "
                "object name declared, an add call per tensor (of dirs[i]), then an add_scalar per scalar (encoded "
                "encodings[i])",
            ),
            Production(
                "Deps", "args:symbol", "size:integer", "pushes:DepPush*",
                doc="PTO2TaskId args_deps[size] and its count declared, each push, then args.set_dependencies(...)",
            ),
            Production("DumpArgs", "args:symbol", "tensors:symbol*", doc="args.dump(t, ...): tensors to dump"),
            Production("AllowEarlyResolve", "args:symbol", doc="args.set_allow_early_resolve(true);"),
            Production("SetBlockNum", "args:symbol", "value:Expr", doc="args.launch_spec.set_block_num(value);"),
            Production("SetSyncStart", "args:symbol", doc="args.launch_spec.set_require_sync_start(true);"),
            Production("DeclMixed", "name:symbol", "aic:integer", "aiv0:integer", "aiv1:integer?"),
            Production(
                "Submit", "args:symbol", "launch:Launch", "outs:symbol?", "tid:symbol?",
                doc="the submit (its TaskOutputTensors captured as outs when outs), then the task's TaskId declared "
                "as tid, outs.task_id(), when tid",
            ),
            Production("DeclTid", "name:symbol", "value:TidValue"),
            Production("AssignTid", "name:symbol", "value:TidValue"),
            Production("DeclTidArray", "name:symbol", "size:integer"),
            Production(
                "FillTidArray", "name:symbol", "size:integer", "value:TidValue", "loop:symbol", "declare:boolean",
                doc="every slot of name[size] = value (declare: PTO2TaskId name[size]; first)",
            ),
            Production("CopyTidArray", "dst:symbol", "src:symbol", "size:integer", "loop:symbol"),
            Production("SetTidSlot", "array:symbol", "index:Expr", "value:TidValue"),
            Production("DeclArray", "name:symbol", "dtype:dtype", "size:integer"),
            Production(
                "CopyArray", "dst:symbol", "src:symbol", "size:integer", "loop:symbol",
                doc="every element of a data array: dst[k] = src[k] for k < size",
            ),
            Production("DeclElement", "name:symbol", "dtype:dtype", "array:symbol", "index:Expr"),
            Production("SetArrayItem", "array:symbol", "index:Expr", "value:Expr"),
            Production(
                "GuardedDummy", "args:symbol", "size:integer", "pushes:DepPush*", "outs:symbol?", "tid:symbol?",
                doc="a barrier's dependency array (as Deps'), then its dummy submitted when it has entries (with tid: "
                "tid declared, the one entry itself when it has one)",
            ),
        ),
        Nonterminal(
            "DepPush",
            Production(
                "PushDep", "tid:symbol", "index:Expr?", "guarded:boolean",
                doc="one entry: the TaskId variable tid (or tid[index]), by its identifier",
            ),
            Production("PushDepSlots", "array:symbol", "size:integer", "loop:symbol", doc="the valid slots of array[size]"),
        ),
        Nonterminal(
            "Launch",
            Production("AicLaunch", "id:integer"),
            Production("AivLaunch", "id:integer"),
            Production("MixedLaunch", "mixed:symbol"),
            Production("DummyLaunch"),
        ),
        Nonterminal(
            "TidValue",
            Production("TidInvalid", doc="PTO2TaskId::invalid()"),
            Production("TidCopy", "value:Expr", doc="another TaskId (a variable or arr[i])"),
            Production("TidSlot", "array:symbol", "index:Expr"),
        ),
    ],
)

_RULE_OF_CLASS = {LANGUAGE.nodes[production]: rule for production, rule in check_task_heads.node_rules.items()}
# class -> its bodies, as one sequence (a statement of one body: that body's getter)
_BODY_OF_CLASS = {
    LANGUAGE.nodes[kind]: attrgetter(fields[0]) if len(fields) == 1 else (lambda node, get=attrgetter(*fields): sum(get(node), ()))
    for kind, fields in BODIES.items()
}
