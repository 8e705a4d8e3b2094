"""slotted: the orchestration function's ABI is decided.

``Function`` gains ``slots`` (each tensor parameter's index among the entry tensors,
``orch_args.tensor(i)``, and each scalar parameter's index among the entry scalars,
``orch_args.scalar(j)``) and ``arg_count`` (the config's ``expected_arg_count``). Tensor
parameters are external tensors; tensors made in the body are internal.
"""

from nanopass.language import Nonterminal, Production

from . import numbered

BEFORE = numbered.LANGUAGE

LANGUAGE = BEFORE.extend(
    "slotted",
    doc="entry-argument slots of the orchestration parameters",
    remove={"Function": ["Function"]},
    add={"Function": [BEFORE.production("Function").with_fields("slots:Slot*", "arg_count:integer", before="body")]},
    add_nonterminals=[
        Nonterminal(
            "Slot",
            Production("TensorSlot", "param:symbol", "index:integer"),
            Production("ScalarSlot", "param:symbol", "index:integer"),
        )
    ],
)
