"""An error or warning located in an inline function's copy quotes the copy's names: the caller's
argument for a parameter, ``<name>_inline<k>`` for the function's own variable. Its notes say
which parameter or variable of the function each is (``nanopass/inline_copies.py``), from the
front end's records of the copies."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import load_program, run_cli

import nanopass
from nanopass.errors import Span, UserError
from nanopass.inline_copies import InlineCopy, copy_notes

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def wide(self, src: pl.Tensor[[32, 16], pl.FP32], dst: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
        tmp = self.step(src, tmp)
        dst = pl.assemble(dst, tmp, [0, 0])
        tmp = self.step(src, tmp)
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def keep(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
        tmp = self.step(src, tmp)
        dst = pl.assemble(dst, tmp, [16, 0])
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def local(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
        tmp = self.step(src, tmp)
        big = pl.create_tensor([32, 16], dtype=pl.FP32)
        big = pl.assemble(big, tmp, [0, 0])
        tmp = self.step(src, tmp)
        dst = self.wide(big, dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
'''

ASSEMBLED_THEN_WRITTEN = "dst = pl.assemble(dst, tmp, [0, 0])"  # fill's line that the pass refuses


def write(tmp_path: Path, body: str) -> tuple[Path, str]:
    text = HEADER + textwrap.indent(textwrap.dedent(body), "        ")
    path = tmp_path / "prog.py"
    path.write_text(text)
    return path, text


def line_of(text: str, fragment: str, nth: int = 0) -> int:
    """The line number of the ``nth`` line (from 0) holding ``fragment``."""
    lines = [i for i, line in enumerate(text.splitlines(), 1) if fragment in line]
    return lines[nth]


def error_lines(path: Path) -> list[str]:
    done = run_cli("run", str(path))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr.splitlines()


def notes(lines: list[str]) -> list[str]:
    return [line.strip() for line in lines if line.strip().startswith("note:")]


def test_an_error_quoting_a_parameters_argument_notes_the_parameter(tmp_path):
    # the pass refuses fill's assemble line, which reads 'dst'; the copy it found this in reads 'y'
    path, text = write(tmp_path, "y = self.fill(x, y)\nreturn y\n")
    call = line_of(text, "y = self.fill(x, y)")
    lines = error_lines(path)
    assert lines[0] == (f"{path}:{line_of(text, ASSEMBLED_THEN_WRITTEN)}:9: error: 'tmp_inline0' is used after it "
                        "was assembled into 'y'")
    assert notes(lines) == [
        f"note: 'tmp_inline0' is the variable 'tmp' of the inline function 'fill', renamed in the copy made for "
        f"the call at line {call}",
        f"note: 'y' is the argument the call at line {call} passes for the parameter 'dst' of the inline function "
        "'fill'",
    ]


def test_the_notes_are_the_errors_data_in_the_library(tmp_path):
    path, text = write(tmp_path, "y = self.fill(x, y)\nreturn y\n")
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    call = line_of(text, "y = self.fill(x, y)")
    assert info.value.notes == (
        f"'tmp_inline0' is the variable 'tmp' of the inline function 'fill', renamed in the copy made for the call "
        f"at line {call}",
        f"'y' is the argument the call at line {call} passes for the parameter 'dst' of the inline function 'fill'",
    )
    assert str(info.value).endswith("error: 'tmp_inline0' is used after it was assembled into 'y'")  # (not the notes)


def test_no_note_for_a_quoted_name_that_is_no_argument(tmp_path):
    # local's refused assemble is into its own 'big': the names quoted are the copy's variables
    # only, though the call passes 'y' and 'x'
    path, text = write(tmp_path, "y = self.local(x, y)\nreturn y\n")
    call = line_of(text, "y = self.local(x, y)")
    lines = error_lines(path)
    assert lines[0] == (f"{path}:{line_of(text, 'big = pl.assemble(big, tmp, [0, 0])')}:9: error: 'tmp_inline0' is "
                        "used after it was assembled into 'big_inline0'")
    assert notes(lines) == [
        f"note: 'tmp_inline0' is the variable 'tmp' of the inline function 'local', renamed in the copy made for "
        f"the call at line {call}",
        f"note: 'big_inline0' is the variable 'big' of the inline function 'local', renamed in the copy made for "
        f"the call at line {call}",
    ]


def test_each_call_that_passes_the_name_gets_a_note(tmp_path):
    # three copies of fill: the first and the third pass 'y' for dst, the second 'w'; the error's
    # position (fill's body) does not say which copy it is in, so both calls that pass 'y' are named
    body = ("y = self.fill(x, y)\nw = pl.create_tensor([32, 16], dtype=pl.FP32)\nw = self.fill(x, w)\n"
            "y = self.fill(x, y)\nreturn y\n")
    path, text = write(tmp_path, body)
    first, third = line_of(text, "y = self.fill(x, y)"), line_of(text, "y = self.fill(x, y)", 1)
    argument_notes = [n for n in notes(error_lines(path)) if "is the argument" in n]
    assert argument_notes == [
        f"note: 'y' is the argument the call at line {first} passes for the parameter 'dst' of the inline function "
        "'fill'",
        f"note: 'y' is the argument the call at line {third} passes for the parameter 'dst' of the inline function "
        "'fill'",
    ]


def test_an_error_outside_every_copy_has_no_note(tmp_path):
    # keep is inlined with 'y' for dst, but the refused assemble is the caller's own line
    body = ("y = self.keep(x, y)\nt = pl.create_tensor([16, 16], dtype=pl.FP32)\nt = self.step(x, t)\n"
            "y = pl.assemble(y, t, [0, 0])\nt = self.step(x, t)\nreturn y\n")
    path, text = write(tmp_path, body)
    lines = error_lines(path)
    assert lines[0] == f"{path}:{line_of(text, 'y = pl.assemble(y, t, [0, 0])')}:9: error: 't' is used after it was " \
                       "assembled into 'y'"
    assert notes(lines) == []


def test_a_call_in_an_inline_function_is_named_with_the_copy_it_is_in(tmp_path):
    # outer passes its parameter 'd' to fill's 'dst': in outer's copy, the call at outer's line
    # passes the caller's 'y' (the line itself shows 'd')
    outer = '''
    @pl.function(type=pl.FunctionType.Inline)
    def outer(self, s: pl.Tensor[[16, 16], pl.FP32], d: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        d = self.fill(s, d)
        return d
'''
    marker = "    @pl.function(type=pl.FunctionType.Orchestration)"
    text = HEADER.replace(marker, textwrap.indent(textwrap.dedent(outer), "    ").lstrip("\n") + "\n" + marker)
    text += "        y = self.outer(x, y)\n        return y\n"
    path = tmp_path / "prog.py"
    path.write_text(text)
    inner_call, outer_call = line_of(text, "d = self.fill(s, d)"), line_of(text, "y = self.outer(x, y)")
    assert notes(error_lines(path)) == [
        f"note: 'tmp_inline1' is the variable 'tmp' of the inline function 'fill', renamed in the copy made for "
        f"the call at line {inner_call} (in the copy of 'outer' made for the call at line {outer_call})",
        f"note: 'y' is the argument the call at line {inner_call} (in the copy of 'outer' made for the call at line "
        f"{outer_call}) passes for the parameter 'dst' of the inline function 'fill'",
    ]


def test_a_front_end_error_in_a_copy_notes_the_parameter_too(tmp_path):
    # the front end reads shrink's copy, in which 'dst' is the caller's 'y'
    program = HEADER.replace(
        "    @pl.function(type=pl.FunctionType.Orchestration)",
        "    @pl.function(type=pl.FunctionType.Inline)\n"
        "    def shrink(self, s: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]):\n"
        "        t = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
        "        dst = self.step(s, t)\n\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)")
    program += "        self.shrink(x, y)\n        return y\n"
    path = tmp_path / "prog.py"
    path.write_text(program)
    lines = error_lines(path)
    assert lines[0] == (f"{path}:{line_of(program, 'dst = self.step(s, t)')}:9: error: cannot re-assign 'y' with a "
                        "different type: was pl.Tensor[[32, 16], pl.FP32], got pl.Tensor[[16, 16], pl.FP32]")
    assert notes(lines) == [f"note: 'y' is the argument the call at line {line_of(program, 'self.shrink(x, y)')} "
                            "passes for the parameter 'dst' of the inline function 'shrink'"]


SCRIBBLE = HEADER.replace(
    "    @pl.function(type=pl.FunctionType.Orchestration)",
    "    @pl.function(type=pl.FunctionType.Inline)\n"
    "    def scribble(self, s: pl.Tensor[[16, 16], pl.FP32], o: pl.Tensor[[16, 16], pl.FP32]):\n"
    "        self.step(s, o)\n\n"
    "    @pl.function(type=pl.FunctionType.Orchestration)") + "        self.scribble(x, x)\n        return y\n"


def test_a_warning_in_a_copy_notes_the_parameter_too(tmp_path):
    # scribble writes its In parameter 'o' with a kernel: the pass warns of the caller's 'x' it
    # passes (for both parameters)
    program = SCRIBBLE
    path = tmp_path / "prog.py"
    path.write_text(program)
    done = run_cli("run", str(path))
    assert done.returncode == 0, done.stderr
    write_line = line_of(program, "self.step(s, o)")
    lines = done.stderr.splitlines()
    at = lines.index(next(line for line in lines if line.startswith(f"{path}:{write_line}:9: warning: 'x' is an input "
                                                                       "parameter of 'orch'")))
    following = [line.strip() for line in lines[at + 1:at + 5]]
    call = line_of(program, "self.scribble(x, x)")
    assert following[-1] == (f"note: 'x' is the argument the call at line {call} passes for the parameters 's' and "
                             "'o' of the inline function 'scribble'")


def test_check_json_gives_a_warnings_notes(tmp_path):
    import json

    path = tmp_path / "prog.py"
    path.write_text(SCRIBBLE)
    done = run_cli("check", str(path), "--json")
    assert done.returncode == 0, done.stderr
    warnings = json.loads(done.stdout)["compile_warnings"]
    written = [w for w in warnings if w["message"].startswith("'x' is an input parameter of 'orch'")]
    call = line_of(SCRIBBLE, "self.scribble(x, x)")
    assert len(written) == 1 and written[0]["notes"] == [
        f"'x' is the argument the call at line {call} passes for the parameters 's' and 'o' of the inline function "
        "'scribble'"]
    assert all(w["notes"] == [] for w in warnings if w is not written[0])


def test_copy_notes_reads_the_records_alone():
    # no source: the records say what each name is; a position outside the body gets the
    # variable's note only
    record = InlineCopy("f", "prog.py", (10, 14), Span("prog.py", 30, 8), (("a", "x"), ("o", "out")),
                        (("t_inline0", "t"),))
    inside, outside = Span("prog.py", 12, 4), Span("prog.py", 30, 4)
    assert copy_notes("'out' and 't_inline0' and 'a'", inside, None, [record]) == (
        "'out' is the argument the call at line 30 passes for the parameter 'o' of the inline function 'f'",
        "'t_inline0' is the variable 't' of the inline function 'f', renamed in the copy made for the call at line 30",
    )
    assert copy_notes("'out' and 't_inline0'", outside, None, [record]) == (
        "'t_inline0' is the variable 't' of the inline function 'f', renamed in the copy made for the call at line 30",
    )
    assert copy_notes("'out'", Span("other.py", 12, 4), None, [record]) == ()
    assert copy_notes("'x'", inside, "'out'", [record]) == (
        "'x' is the argument the call at line 30 passes for the parameter 'a' of the inline function 'f'",
        "'out' is the argument the call at line 30 passes for the parameter 'o' of the inline function 'f'",
    )


def test_the_dump_report_lists_a_stages_warnings_with_their_help_and_notes(tmp_path):
    import html
    import json
    import re

    path = tmp_path / "prog.py"
    path.write_text(SCRIBBLE)
    out = tmp_path / "dump"
    done = run_cli("run", str(path), "--dump-all", str(out))
    assert done.returncode == 0, done.stderr
    script = next(out.glob("*_check_output_params_written.stage.js")).read_text()
    body = json.loads(json.loads(re.fullmatch(r"nanopassReport\.stage\(\d+, (\".*\")\);\n", script, flags=re.S).group(1)))["html"]
    warnings = re.search(r'<details class="warnings" open><summary>Warnings \((\d+)\)</summary>(.*?)</ul></details>', body, re.S)
    assert warnings, body[:500]
    items = re.findall(r"<li>(.*?)</li>", warnings.group(2), re.S)
    assert int(warnings.group(1)) == len(items) >= 1
    write_line, call = line_of(SCRIBBLE, "self.step(s, o)"), line_of(SCRIBBLE, "self.scribble(x, x)")
    written = [html.unescape(i) for i in items if "is an input parameter of" in html.unescape(i)]
    assert len(written) == 1
    assert written[0].startswith(f"<code>{path}:{write_line}:9</code>: warning: 'x' is an input parameter of 'orch'")
    assert '<span class="help">help: declare it pl.InOut[...]' in written[0]
    assert written[0].endswith(f"<span class=\"note\">note: 'x' is the argument the call at line {call} passes for the "
                               "parameters 's' and 'o' of the inline function 'scribble'</span>")
    page = (out / "index.html").read_text()
    head = next(h for h in re.findall(r'<section class="stage".*?</section>', page, flags=re.S)
                if re.search(r"<h2>\d+ check_output_params_written ", h))
    assert f"{len(items)} warning" in head
    # a stage whose pass gave no warning shows none
    quiet = next(out.glob("*_derive_call_directions.stage.js")).read_text()
    assert 'class="warnings"' not in quiet
