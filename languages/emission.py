"""emission: C++ statements, one node per line or block of the output.

Keeps only scalar expressions (``Expr``) and the dynamic-dim definitions from the languages
before; everything else is a statement of the generated C++ (``EStmt``) that the printer writes
one to one: a comment, a blank line, a runtime scope, a loop, an ``alloc_tensors`` batch, a
task's head (its comment, its argument object and every add call: ``TaskArgs``), one
dependency insertion, one submit. Nothing is left for the printer to
decide except the ABI spelling (D1).
"""

from operator import attrgetter

from nanopass.errors import VerifyError
from nanopass.language import Nonterminal, Production

from . import encoded
from .terms import encoding

# the emission statements with bodies, and their body fields
_BODIES = {"ScopeBlock": ("body",), "Block": ("body",), "ForBlock": ("body",), "WhileBlock": ("body",),
           "IfBlock": ("then", "orelse")}


def check_task_heads(unit) -> None:
    """Every ``TaskArgs`` pairs its lists: a direction per tensor, an encoding per scalar."""
    head, bodies_of = _HEAD_CLASS, _BODIES_OF_CLASS  # (by class: a statement's kind read in one lookup)
    bodies = [unit.body]
    while bodies:
        for node in bodies.pop():
            cls = type(node)
            if cls is not head:
                fields = bodies_of.get(cls)
                if fields is not None:
                    bodies += fields(node)
            elif len(node.dirs) != len(node.tensors) or len(node.scalars) != len(node.encodings):
                raise VerifyError(
                    f"task head {node.name}: {len(node.dirs)} directions for {len(node.tensors)} tensors, "
                    f"{len(node.encodings)} encodings for {len(node.scalars)} scalars",
                    node=node,
                )


LANGUAGE = encoded.LANGUAGE.extend(
    "emission",
    doc="C++ statements of the orchestration entry",
    entry="Unit",
    inherit_invariants=False,
    invariants=[check_task_heads],
    add_terminals=[encoding],
    remove_nonterminals=[
        "Program", "Kernel", "KStmt", "KArg", "Param", "Function", "Binder", "IterArg", "Arg",
        "DepEdge", "Stmt", "Rhs", "Type", "Carry", "Phi", "Slot", "TidSource", "Create",
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
            Production("DeclArgs", "name:symbol"),
            Production(
                "TaskArgs", "blank:boolean", "comment:text", "name:symbol", "dirs:arg_dir*", "tensors:symbol*",
                "scalars:Expr*", "encodings:encoding*",
                doc="a task's head, written whole: a blank line (when blank), // comment, the argument object name "
                "declared, an add call per tensor (of dirs[i]), then an add_scalar per scalar (encoded encodings[i])",
            ),
            Production("AddTensor", "args:symbol", "dir:arg_dir", "tensor:symbol"),
            Production("AddScalar", "args:symbol", "value:Expr", "encoding:encoding"),
            Production("DeclDeps", "args:symbol", "size:integer"),
            Production("PushDep", "args:symbol", "tid:Expr", "index:Expr?", "guarded:boolean"),
            Production("PushDepSlots", "args:symbol", "array:symbol", "size:integer", "loop:symbol"),
            Production("SetDeps", "args:symbol"),
            Production("DumpArgs", "args:symbol", "tensors:symbol*", doc="args.dump(t, ...): tensors to dump"),
            Production("AllowEarlyResolve", "args:symbol", doc="args.set_allow_early_resolve(true);"),
            Production("SetBlockNum", "args:symbol", "value:Expr", doc="args.launch_spec.set_block_num(value);"),
            Production("SetSyncStart", "args:symbol", doc="args.launch_spec.set_require_sync_start(true);"),
            Production("DeclMixed", "name:symbol", "aic:integer", "aiv0:integer", "aiv1:integer?"),
            Production("Submit", "args:symbol", "launch:Launch", "outs:symbol?"),
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
            Production("GuardedDummy", "args:symbol", "outs:symbol?", "tid:symbol?"),
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
            Production("TidOfOuts", "outs:symbol", doc="task_<n>_outs.task_id()"),
            Production("TidInvalid", doc="PTO2TaskId::invalid()"),
            Production("TidCopy", "value:Expr", doc="another TaskId (a variable or arr[i])"),
            Production("TidSlot", "array:symbol", "index:Expr"),
        ),
    ],
)

_HEAD_CLASS = LANGUAGE.nodes["TaskArgs"]
_BODIES_OF_CLASS = {LANGUAGE.nodes[kind]: attrgetter(*fields) if len(fields) > 1 else (lambda node, f=fields[0]: (getattr(node, f),))
                    for kind, fields in _BODIES.items()}
