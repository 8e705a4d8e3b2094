"""Debugging tags: none yet.

The reference DSL's selective dump belongs here: ``pl.dump_tag(t)`` as a statement (a
``STATEMENT`` form; it marks every later task that passes ``t``), and the ``dumps=[...]`` keyword
that ``pl.submit`` and ``pl.at`` forms accept (read by their handlers, with a helper here).
"""
