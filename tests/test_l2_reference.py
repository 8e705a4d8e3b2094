"""``--abi l2`` against the existing compiler's output for the same programs (decision D17).

``tests/reference/<name>.cpp`` is what the reference emits for ``examples/<name>.py``. The two
are compared line by line: every run of differing lines must be listed here, with the rows of
the README's table "Deliberate differences from the existing compiler under ``--abi l2``" that
explain it, and nothing else may differ.
"""

from __future__ import annotations

import difflib
import re

import pytest

from conftest import REPO, compile_check, load_program

import nanopass

REFERENCE = REPO / "tests" / "reference"
EXAMPLES = REPO / "examples"

# name -> [(README rows, our lines, the reference's lines)], in file order
ALLOWED = {
    "basic": [],
    "runtime_outputs": [],
    "loop_scalar": [
        (
            ("dead-values", "operand-order"),
            ["        if ((steps > 2)) {"],
            ["        Tensor y__phi_v3 = ext_x;", "        if ((2 < steps)) {"],
        ),
        (("dead-values",), [], ["                y__phi_v3 = ext_y;"]),
        (("dead-values",), [], ["                y__phi_v3 = ext_y;"]),
    ],
    "manual_phases": [
        (("folded-none-seed",), [], ["            PTO2TaskId prev_tid = PTO2TaskId::invalid();"]),
        (
            ("folded-none-seed",),
            [
                "            for (int64_t __init_i = 0; __init_i < 4; ++__init_i) "
                "prev_tid__rv_v2[__init_i] = PTO2TaskId::invalid();"
            ],
            ["            for (int64_t __init_i = 0; __init_i < 4; ++__init_i) prev_tid__rv_v2[__init_i] = prev_tid;"],
        ),
        (
            ("fan-out-loops",),
            [
                "                    for (int64_t slot = 0; slot < 4; ++slot) {",
                "                        if (prev_tid__rv_v2[slot].is_valid()) "
                "params_t0_deps[params_t0_deps_count++] = prev_tid__rv_v2[slot];",
                "                    }",
            ],
            [
                f"                    if (prev_tid__rv_v2[{k}].is_valid()) "
                f"params_t0_deps[params_t0_deps_count++] = prev_tid__rv_v2[{k}];"
                for k in range(4)
            ],
        ),
    ],
}


def differences(ours: list[str], reference: list[str]) -> list[tuple[list[str], list[str]]]:
    matcher = difflib.SequenceMatcher(None, ours, reference, autojunk=False)
    return [
        (ours[i1:i2], reference[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


def table_rows() -> set[str]:
    """The keys of the README's table of deliberate differences (its first column)."""
    text = (REPO / "README.md").read_text()
    start = text.index("### Deliberate differences from the existing compiler under `--abi l2`")
    end = text.index("\n#", start + 1)
    return set(re.findall(r"^\| `([a-z-]+)` \|", text[start:end], re.MULTILINE))


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_l2_output_differs_from_the_reference_only_as_the_readme_lists(name, tmp_path):
    code = nanopass.generate_orchestration(load_program(EXAMPLES / f"{name}.py"), abi="l2").code
    reference = (REFERENCE / f"{name}.cpp").read_text()
    found = differences(code.splitlines(), reference.splitlines())
    assert found == [(ours, theirs) for _, ours, theirs in ALLOWED[name]]
    assert code.endswith("\n") and reference.endswith("\n")
    compile_check(code, tmp_path)
    compile_check(reference, tmp_path, "reference.cpp")  # the stand-in header takes the reference's spelling too


def test_every_allowed_difference_is_a_row_of_the_readme_table():
    rows = table_rows()
    used = {key for allowed in ALLOWED.values() for keys, _, _ in allowed for key in keys}
    assert used <= rows, used - rows
    assert len(rows) >= 10


GOLDEN_PROGRAMS = sorted(
    p.with_name(p.name.replace(".expected.cpp", ".py")) for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.expected.cpp")
)


@pytest.mark.parametrize("source", GOLDEN_PROGRAMS, ids=[p.stem for p in GOLDEN_PROGRAMS])
def test_every_golden_program_compiles_with_gxx_under_l2(source, tmp_path):
    from test_golden import golden_options

    code = nanopass.generate_orchestration(load_program(source), abi="l2", **golden_options(source)).code
    assert code.startswith("#include <stddef.h>\n") and "L0TaskArgs params_t0;" in code
    compile_check(code, tmp_path, f"{source.stem}.cpp")
