"""surface: the program as the DSL front end reads it.

Kernels are kept as signatures plus a summary of their bodies (assignments with the op called,
returns, memory spaces named), which is all orchestration needs. The orchestration function is a
tree of statements over named variables; a name may be assigned more than once (the front end has
checked that a re-assignment keeps the variable's type). Loop carries are explicit only where the
user wrote ``init_values=``; if statements have no results yet. Every variable reference is a
``(Var name)``; every definition is a ``(Binder name type)``.
"""

from nanopass.language import Language, Nonterminal, Production

from .terms import BASE_TERMINALS, arg_dir

EXPR = Nonterminal(
    "Expr",
    Production("Var", "name:symbol", doc="a reference to a variable"),
    Production("Int", "value:integer", "dtype:dtype", doc="an integer literal (INDEX unless typed)"),
    Production("Float", "value:real", "dtype:dtype", doc="a float literal"),
    Production("Bool", "value:boolean"),
    Production("Bin", "op:binop", "a:Expr", "b:Expr"),
    Production("Cmp", "op:cmpop", "a:Expr", "b:Expr"),
    Production("Un", "op:unop", "a:Expr"),
    doc="pure scalar expressions",
)

TYPE = Nonterminal(
    "Type",
    Production("TensorType", "shape:Expr*", "dtype:dtype"),
    Production("ScalarType", "dtype:dtype"),
    Production("ArrayType", "size:integer", "dtype:dtype"),
    Production("TileType", "shape:Expr*", "dtype:dtype", "space:symbol?"),
)

UNTRACKED = "manual_dep: the view op's in_manual_dep (untracked by the runtime); decide_view_tracking sets it"

RHS = Nonterminal(
    "Rhs",
    "Expr",
    Production("CreateTensor", "shape:Expr*", "dtype:dtype", "manual_dep:boolean", "init:Expr?"),
    Production("ReadTensor", "tensor:Expr", "index:Expr*"),
    Production(
        "SliceTensor", "tensor:Expr", "shape:Expr*", "offset:Expr*", "manual_dep:boolean", "clamp:boolean",
        "placed:boolean",
        doc=UNTRACKED + "; clamp: each extent is cut to what is left of the source after the offset (clamp=True); "
        "placed: an assemble's source in its target",
    ),
    Production("TransposeTensor", "tensor:Expr", "axis1:integer", "axis2:integer", "manual_dep:boolean", doc=UNTRACKED),
    Production("ReshapeTensor", "tensor:Expr", "shape:Expr*", "manual_dep:boolean", doc=UNTRACKED),
    Production("DimTensor", "tensor:Expr", "axis:integer", doc="a runtime read of shapes[axis]"),
    Production("AssembleTensor", "target:Expr", "source:Expr", "offset:Expr*", doc="result aliases target"),
    Production("CreateArray", "size:integer", "dtype:dtype"),
    Production("GetItem", "array:Expr", "index:Expr"),
    Production("SetItem", "array:Expr", "index:Expr", "value:Expr", doc="the array after arr[i] = v"),
    Production("NoTask", doc="None in a TaskId position: PTO2TaskId::invalid()"),
    doc="right-hand sides of a Let",
)

STMT = Nonterminal(
    "Stmt",
    Production("Let", "var:Binder", "value:Rhs"),
    Production(
        "Task",
        "outs:Binder*",
        "tid:Binder?",
        "kernel:symbol",
        "args:Arg*",
        "dumps:integer*",
        "early_resolve:boolean",
        "deps:Dep*",
        "launch:LaunchSpec?",
        doc="a kernel dispatch: self.k(...) (no tid) or pl.submit(self.k, ..., deps=) (tid); dumps: the "
        "positions, among the task's tensor arguments, of those it marks for the runtime's tensor dump "
        "(pl.dump_tag, dumps=[...]); early_resolve: allow_early_resolve=True; launch: SPMD",
    ),
    Production("Dummy", "var:Binder", "deps:Dep*", doc="pl.system.task_dummy(deps=[...])"),
    Production("WriteTensor", "tensor:Expr", "index:Expr*", "value:Expr"),
    Production(
        "For",
        "var:Binder",
        "start:Expr",
        "stop:Expr",
        "step:Expr",
        "kind:loop_kind",
        "iters:IterArg*",
        "body:Stmt*",
        "results:Binder*",
    ),
    Production(
        "While",
        "iters:IterArg*",
        "cond:Expr",
        "body:Stmt*",
        "results:Binder*",
        doc="for (a, b) in pl.while_(init_values=(a0, b0)): pl.cond(c) ...: the body runs while cond, read on "
        "the carries at the top of each iteration, holds (0 or more times); results: the last carries",
    ),
    Production("If", "cond:Expr", "then:Stmt*", "orelse:Stmt*"),
    Production("Scope", "mode:scope_mode", "body:Stmt*", doc="with pl.manual_scope() / pl.scope()"),
    Production("Yield", "values:Expr*"),
    Production("Return", "values:Expr*"),
)

LANGUAGE = Language(
    "surface",
    doc="the DSL as written: named variables (re-assignable), explicit carries only where written",
    terminals=[*BASE_TERMINALS, arg_dir],
    entry="Program",
    nonterminals=[
        Nonterminal("Program", Production("Program", "name:symbol", "kernels:Kernel*", "orch:Function")),
        Nonterminal(
            "Kernel",
            Production(
                "Kernel",
                "name:symbol",
                "kind:func_kind",
                "params:Param*",
                "results:Type*",
                "body:KStmt*",
                "dual_dispatch:boolean",
            ),
        ),
        Nonterminal(
            "KStmt",
            Production(
                "KAssign",
                "targets:symbol*",
                "op:text",
                "args:KArg*",
                "spaces:symbol*",
                doc="targets = op(args) in a kernel body; spaces = memory spaces its annotation names",
            ),
            Production("KReturn", "values:KArg*"),
            doc="what orchestration needs to know of a kernel body",
        ),
        Nonterminal("KArg", "Expr", Production("KOther", "text:text")),
        Nonterminal("Param", Production("Param", "name:symbol", "type:Type", "dir:param_dir")),
        Nonterminal(
            "Function",
            Production(
                "Function",
                "name:symbol",
                "params:Param*",
                "results:Type*",
                "auto_scope:boolean",
                "dyn_dims:DynDim*",
                "body:Stmt*",
            ),
        ),
        Nonterminal(
            "DynDim",
            Production(
                "DynDim",
                "name:symbol",
                "param:symbol",
                "axis:integer",
                doc="pl.dynamic symbol name = extent `axis` of the first parameter declaring it",
            ),
        ),
        Nonterminal("Binder", Production("Binder", "name:symbol", "type:Type")),
        Nonterminal(
            "LaunchSpec",
            Production(
                "LaunchSpec",
                "blocks:Expr",
                "sync_start:boolean",
                "region:symbol?",
                doc="pl.spmd_submit / pl.spmd: the task runs on `blocks` blocks (launch_spec.set_block_num); "
                "region: the name of a `with pl.spmd` block (<func>_spmd_<k>), which the task's comment shows",
            ),
        ),
        Nonterminal("IterArg", Production("IterArg", "var:Binder", "init:Expr")),
        Nonterminal(
            "Arg",
            Production(
                "Arg", "value:Expr", "no_dep:boolean", "hint:arg_dir?",
                doc="hint: the direction a call site's attrs={'arg_directions': [...]} asks for (Input, InOut or "
                "OutputExisting); derive_call_directions weighs it against the one it derives",
            ),
        ),
        Nonterminal(
            "Dep",
            Production("DepVar", "value:Expr", doc="a TaskId variable or a whole TaskId array"),
            Production("DepItem", "array:Expr", "index:Expr", doc="arr[i]"),
            Production(
                "DerivedDep", "value:Expr",
                doc="an edge the compiler derived, not the user (also attrs={'compiler_manual_dep_edges': [...]})",
            ),
        ),
        STMT,
        RHS,
        TYPE,
        EXPR,
    ],
)
