"""named: every variable has the C++ identifier the emission will give it.

The identifiers are a map on the function, not a rename of the tree: ``Function`` gains
``renamed``, every variable, parameter, cell or TaskId storage whose C++ identifier is not its
own name (a name not listed is its own identifier), in the order remap_output_aliases named
them, and ``identifiers``, their identifiers, index for index (two tuples of symbols rather than
a node per name: most variables are in the map), and ``scalars_renamed``: whether a data scalar (a
variable of a ScalarType other than TASK_ID) is among them (a task's scalar argument and the
shapes, offsets and fill values of creates and views read data scalars only: while it is false,
they read no name that has another identifier). Only ``Function`` changes: every statement is
the input's, with its SSA names (and its meaning: every name read is defined); the pass that
spells C++ (lower_to_emission) looks each name up in the map. One physical tensor has one
identifier: ``ext_<p>`` for tensor parameters, one shared identifier for all SSA versions that
are the same storage (a kernel's output *is* the Out/InOut argument it writes, an assemble's
result *is* its target, a carry that is not rebound *is* its init), and unique identifiers
elsewhere. A let of one identifier to another name of it (a tensor copy) copies nothing.
``Function`` loses ``buffer_groups``: the variables of one storage now share an identifier.
Invariant: the map is one: as many identifiers as renamed names, no name renamed twice.
"""

from nanopass.errors import VerifyError

from . import carried, hoisted, ssa


def check_name_map(program) -> None:
    func = program.orch
    renamed = func.renamed
    if len(renamed) != len(func.identifiers) or len(set(renamed)) != len(renamed):
        raise VerifyError("the name map is not one identifier per renamed name", node=func)


LANGUAGE = hoisted.LANGUAGE.extend(
    "named",
    doc="C++ identifiers in a map on the function; physical aliases share one identifier",
    remove={"Function": ["Function"]},
    remove_nonterminals=["BufferGroup"],
    add={
        "Function": [
            hoisted.LANGUAGE.production("Function")
            .without_fields("buffer_groups")
            .with_fields("renamed:symbol*", "identifiers:symbol*", "scalars_renamed:boolean", before="body")
        ],
    },
    drop_invariants=[ssa.check_single_definition, carried.check_buffer_groups],
    invariants=[check_name_map],
)


# The statement classes ``binder_list`` tells apart: named's, which are hoisted's, dimmed's and
# encoded's too (those languages change only ``Function``; tests/test_named_binders.py checks it).
_N = LANGUAGE.nodes
_TASK, _FOR, _WHILE, _IF, _YIELD, _SCOPE, _ALLOC = (
    _N["Task"], _N["For"], _N["While"], _N["If"], _N["Yield"], _N["Scope"], _N["Alloc"]
)
_VAR_STMTS = frozenset({_N["Let"], _N["Dummy"], _N["Declare"]})  # (the statements that define their one ``var``)


def binder_list(stmts, if_results_first: bool = False) -> list:
    """``statements.binder_list(stmts, if_results_first)`` for the statements of named (and of
    hoisted, dimmed and encoded, which share its statement classes), by node class: every Binder
    in program order, loop variables and carries included, a loop's results after its body, an
    if's before its branches when ``if_results_first`` (else after). Here a task's outs and a
    loop's results are Binders and an if's results Phis. (The one binder walk of these languages:
    remap_output_aliases and ``types`` read it; tested against a reference walk.)"""
    out: list = []
    add, more = out.append, out.extend
    stack: list = list(stmts)
    stack.reverse()
    pop, push, extend = stack.pop, stack.append, stack.extend
    task, for_, while_, if_, yield_, scope, alloc, var_stmts = _TASK, _FOR, _WHILE, _IF, _YIELD, _SCOPE, _ALLOC, _VAR_STMTS
    while stack:
        item = pop()
        kind = type(item)
        if kind is task:
            more(item.outs)
            if item.tid is not None:
                add(item.tid)
        elif kind is yield_:
            continue
        elif kind in var_stmts:
            add(item.var)
        elif kind is for_ or kind is while_:
            if kind is for_:
                add(item.var)
            for it in item.iters:
                add(it.var)
            if item.results:
                push(item.results)  # (a tuple: met after the body)
            extend(reversed(item.body))
        elif kind is scope:
            extend(reversed(item.body))
        elif kind is tuple or kind is list:  # a loop's results (a tuple), an if's (a list): met after the bodies
            more(item)
        elif kind is if_:
            if item.results:
                if if_results_first:
                    for phi in item.results:
                        add(phi.var)
                else:
                    push([phi.var for phi in item.results])
            extend(reversed(item.orelse))
            extend(reversed(item.then))
        elif kind is alloc:
            for create in item.creates:
                add(create.var)
    return out


def named_binders(body) -> list:
    """``binder_list(body, if_results_first=True)``: the order remap_output_aliases names the
    binders in."""
    return binder_list(body, if_results_first=True)
