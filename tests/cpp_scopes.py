"""A checker for the generated C++: no identifier is used outside the braces that declare it.

It understands the subset the compiler emits: one statement or block header per line, blocks
opened by a trailing ``{`` and closed by a leading ``}``, declarations ``Type name ...`` at the
start of a line (``for (int64_t k = ...) {`` declares ``k`` inside its block). Every use of a
name that is declared somewhere in the entry function must see a declaration in its own block or
an enclosing one, earlier in the file.
"""

from __future__ import annotations

import re

TYPES = (
    r"(?:const\s+)?(?:Tensor|TensorCreateInfo|TaskOutputTensors|Arg|L0TaskArgs|PTO2TaskId|MixedKernels|"
    r"u?int(?:8|16|32|64)_t|float|double|bool)\s*&?"
)
DECL = re.compile(rf"^\s*{TYPES}\s+(\w+)")
UNION = re.compile(r"^\s*union \{.*\} (\w+);")
FOR = re.compile(r"^\s*for \(int64_t (\w+) =")
WORD = re.compile(r"\b[A-Za-z_]\w*\b")


def scope_violations(code: str) -> list[str]:
    lines = code.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("void aicpu_orchestration_entry"))
    body = lines[start + 1 :]
    declared_anywhere = set()
    for line in body:
        for pattern in (DECL, UNION, FOR):
            m = pattern.match(line)
            if m:
                declared_anywhere.add(m.group(1))
    stack: list[set[str]] = [{"orch_args"}]  # the entry function's block
    problems = []
    for number, line in enumerate(body, start=start + 2):
        text = line.split("//", 1)[0].rstrip()
        stripped = text.strip()
        if stripped.startswith("}"):
            stack.pop()
            if not stack:
                break  # the end of the entry function
            if stripped.endswith("{"):  # } else {
                stack.append(set())
            continue
        match = next((m for p in (DECL, UNION, FOR) if (m := p.match(text))), None)
        new = match.group(1) if match else None
        opens = stripped.endswith("{")
        if opens:
            stack.append(set())
        if new is not None:
            # a for header declares its variable inside the block it opens; any other
            # declaration belongs to the block it stands in
            (stack[-1] if FOR.match(text) or not opens else stack[-2]).add(new)
        visible = set().union(*stack)
        for word in WORD.findall(text):
            if word in declared_anywhere and word not in visible:
                problems.append(f"line {number}: '{word}' is used outside the block that declares it: {stripped}")
    return problems
