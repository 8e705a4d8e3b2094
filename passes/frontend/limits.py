"""The front end's limits, each with the runtime or compiler reason it exists.

Both readers of a program file share them: the static loader (``--no-exec``) bounds the constants
it evaluates with ``MAX_SEQUENCE`` and ``MAX_INT_BITS``.
"""

from __future__ import annotations

import ast

MAX_NESTING = 48  # blocks (loops, ifs, scopes); the runtime allows 64 scopes in all
MAX_PARALLEL_NESTING = 8  # pl.parallel loops within one another: the hazard analysis grows ~3x per level
MAX_EXPR_DEPTH = 100  # nodes on the longest path of one expression, as expr_depth counts them; bounds every pass's recursion
MAX_TENSOR_DIMS = 5  # dimensions of a runtime Tensor (MAX_TENSOR_DIMS)
MAX_DIM = 2**32  # extents are uint32_t in the runtime
MAX_ARRAY_SIZE = 65536  # elements of a pl.array.create: a C array on the orchestration function's stack
MAX_ENTRY_TENSORS = 128  # the orchestration entry's tensor arguments (CHIP_MAX_TENSOR_ARGS)
MAX_ENTRY_SCALARS = 128  # and its scalar arguments (CHIP_MAX_SCALAR_ARGS)
MAX_TASK_TENSORS = 32  # tensors one runtime Arg holds
MAX_TASK_SCALARS = 16  # scalars one runtime Arg holds
MAX_SEQUENCE = 4096  # elements of a constant tuple/list (the static loader's module constants)
MAX_INT_BITS = 256  # larger integers (2 ** 10 ** 6, 1 << 10 ** 9) are refused, not computed


def expr_depth(node: ast.AST) -> int:
    """How deep ``node`` nests (iteratively), counting every ``ast`` node on the way down, a name's
    context (``ast.Load``) too: ``a + b`` is 3 deep. A chain ``a and b and c`` counts as the nesting
    it becomes."""
    deepest = 0
    stack = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        step = len(current.values) - 1 if isinstance(current, ast.BoolOp) else 1
        stack.extend((child, depth + step) for child in ast.iter_child_nodes(current))
    return deepest
