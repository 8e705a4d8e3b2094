"""The DSL operations of an orchestration function, one module per family. Importing this package
registers them all (``registry.OPS``); the list below is the one place that says which exist.

- ``tensor_views``: ``pl.tensor.slice``, ``.reshape``, ``.transpose``, ``.dim``, ``pl.assemble``.
- ``host_access``: ``pl.tensor.read``, ``pl.tensor.write``; subscripts ``t[i, j]``, ``arr[i]``, ``arr[i] = v``.
- ``creates``: ``pl.create_tensor`` (``pl.tensor.create``).
- ``scalars_and_arrays``: ``pl.array.create``.
- ``submits``: kernel calls ``self.k(...)``, ``pl.submit``, ``pl.no_dep``, ``deps=``, ``pl.system.task_dummy``,
  ``pl.system.task_invalid``.
- ``scopes``: ``with pl.manual_scope():``, ``with pl.scope(mode=...):``.
- ``loops``: ``for ... in pl.range(...)`` / ``pl.parallel(...)``, ``pl.yield_``.
- ``debug_tags``: none yet (``pl.dump_tag``, ``dumps=``).
"""

from . import tensor_views  # noqa: F401
from . import host_access  # noqa: F401
from . import creates  # noqa: F401
from . import scalars_and_arrays  # noqa: F401
from . import submits  # noqa: F401
from . import scopes  # noqa: F401
from . import loops  # noqa: F401
from . import debug_tags  # noqa: F401
