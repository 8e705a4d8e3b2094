"""hoisted: values that outlive the user scope computing them are declared before it.

Admits the statement ``(Declare var)`` (in the grammar from scoped on, which the invariant
``check_no_declare`` keeps out of the programs before hoisted; hoisted drops it, and shares every
node class of batched): a C++ variable declared (without a value) before a user
``PTO2_SCOPE`` block so that code after the block can read what the block assigned; the
statement inside the block that defines ``var`` then assigns it instead of declaring it.
Allocations of a manual scope's body (and allocations used after any user scope) stand before
the scope. Invariant: every identifier the C++ reads after a user scope is declared outside it.
"""

from . import batched, dep_annotated

LANGUAGE = batched.LANGUAGE.extend(
    "hoisted",
    doc="declarations hoisted out of the user scopes they escape",
    drop_invariants=[dep_annotated.check_no_declare],
)
