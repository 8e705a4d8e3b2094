"""The DSL operations of an orchestration function, one module per family. Importing this package
registers them all (``registry.OPS``); the list below is the one place that says which exist.

- ``tensor_views``: ``pl.tensor.slice``, ``.reshape``, ``.transpose``, ``.dim``, ``pl.assemble``.
"""

from . import tensor_views  # noqa: F401
