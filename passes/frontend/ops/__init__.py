"""The DSL operations of an orchestration function, one module per family. Importing this package
registers them all (``registry.OPS``); the list below is the one place that says which exist.

- ``tensor_views``: ``pl.tensor.slice``, ``.reshape``, ``.transpose`` (short forms ``pl.slice``, ``pl.reshape``,
  ``pl.transpose``), ``pl.tensor.view``, ``.dim``, ``pl.assemble``.
- ``host_access``: ``pl.tensor.read``, ``pl.tensor.write``; subscripts ``t[i, j]``, ``arr[i]``, ``arr[i] = v``.
- ``creates``: ``pl.create_tensor`` (``pl.tensor.create``).
- ``scalars_and_arrays``: ``pl.const``, ``pl.array.create``.
- ``submits``: kernel calls ``self.k(...)``, ``pl.submit``, ``pl.no_dep``, ``deps=``, ``pl.system.task_dummy``,
  ``pl.system.task_invalid``; ``call_attrs`` reads a call's ``attrs=`` for it; ``nested_calls`` flattens a
  kernel call or a view used as a task's argument, a view's operand or a returned value.
- ``scopes``: ``with pl.manual_scope():``, ``with pl.scope(mode=...):``.
- ``loops``: ``for ... in pl.range(...)`` / ``pl.parallel(...)`` / ``pl.pipeline(...)`` / ``pl.unroll(...)``,
  ``pl.yield_``; ``pl.split_aiv`` refused (``registry.refuse_op``).
- ``while_loops``: ``for (a, b) in pl.while_(init_values=...)`` with ``pl.cond(...)`` first in its body.
- ``debug_tags``: ``pl.dump_tag``; ``dump_positions`` reads ``dumps=`` for the task forms.
- ``inlining``: calls ``self.f(...)`` of ``pl.FunctionType.Inline`` functions (the body copied in); the
  statement readers hand every ``self.`` call to ``inlining.self_call``, which leaves kernels to ``submits``.
- ``outlining``: ``with pl.at(level=pl.Level.CORE_GROUP, ...) [as tid]:`` blocks outlined into kernels.
- ``spmd``: ``pl.spmd_submit``, ``with pl.spmd(...) [as tid]:``, ``for i in pl.spmd(...)``, ``with pl.cluster():``.

The constructs of ``shared/spec/reference-surface.md`` (and of the existing compiler's printed IR)
read outside these modules:

- ``tuple[...]`` annotations, ``pl.MemRef`` in types, kernels without ``self``
  (``type_reader``); several orchestration functions, ``level=``/``role=``, ``@pl.jit`` (``program``);
  SSA names such as ``x__ssa_v1`` (``names.check_user_name``); ``pl.tile.*`` kernel bodies
  (``kernels``); a tuple result read by index, ``r[0]`` (``host_access.subscript``; a submit's tuple: ``submit_tuples``). In the existing
  compiler's printed IR, ``printed_form`` reads the ``MemRef``s, kernels without ``self``,
  ``level=``/``role=``, SSA names, ``pl.tile.*`` bodies and tuples read by index already, by
  rewriting the class into the DSL before it is read.

The import order below is the order of registration, which the messages that list operations
follow ("only kernel calls, pl.submit and pl.yield_ can be unpacked").
"""

from types import ModuleType

from . import tensor_views, host_access, creates, scalars_and_arrays, submits, scopes, loops  # (in this order)
from . import while_loops, debug_tags, outlining, spmd

# The families, in the order they registered their readers: importing this package imports them
# all, so a family imported on its own (``from .ops.submits import ...``) still comes after the
# ones before it.
FAMILIES: tuple[ModuleType, ...] = (tensor_views, host_access, creates, scalars_and_arrays, submits, scopes, loops,
                                    while_loops, debug_tags, outlining, spmd)


def registered_families() -> tuple[ModuleType, ...]:
    """The families of operations, every one of whose readers is in ``registry.OPS``: what a
    module that reads operations (``context``) calls to say that it needs them all."""
    return FAMILIES
