"""Compiles in a host's process (issue 25): several at once, from threads, give the C++ they give
one at a time, and every compile, failed or not, leaves the collector, ``sys.modules``,
``sys.path``, ``sys.stdout`` and the recursion limit as it found them."""

from __future__ import annotations

import gc
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import EXAMPLES

import nanopass
from nanopass.collector import collector_paused
from nanopass.errors import UserError
from nanopass.loader import load_programs, pick_program

STEMS = sorted(p.name[: -len(".expected.cpp")] for p in EXAMPLES.glob("*.expected.cpp"))

RAISES_ON_IMPORT = "import nanopass.dsl as pl\n\nraise ValueError('no config')\n"
DSL_MISTAKE = '''\
import nanopass.dsl as pl


@pl.program
class Broken:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        y = undefined_name
        return x
'''


def compile_file(path) -> str:
    """What a host compiler does: load the file, compile its program, keep the C++."""
    program = pick_program(load_programs(str(path)), None, str(path))
    return nanopass.generate_orchestration(program).code


def host_state() -> dict:
    return {
        "collector": gc.isenabled(),
        "modules": set(sys.modules),
        "path": list(sys.path),
        "recursion limit": sys.getrecursionlimit(),
        "stdout": sys.stdout,
    }


def test_overlapping_pauses_keep_the_collector_off_until_the_last_one_ends():
    """The interleaving that broke the process-wide pause: the first compile ends while the second
    still runs. The collector must stay off then, and come back on after the second."""
    first_in, second_in, first_out, second_may_end = (threading.Event() for _ in range(4))
    seen = {}

    def first():
        with collector_paused():
            first_in.set()
            second_in.wait(10)
        first_out.set()

    def second():
        first_in.wait(10)
        with collector_paused():
            second_in.set()
            first_out.wait(10)
            seen["after the first ended"] = gc.isenabled()
            second_may_end.wait(10)
        seen["after both ended"] = gc.isenabled()

    assert gc.isenabled()
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    first_out.wait(10)
    second_may_end.set()
    for thread in threads:
        thread.join(10)
    assert seen == {"after the first ended": False, "after both ended": True}
    assert gc.isenabled()


def test_a_host_that_paused_the_collector_finds_it_paused_after_a_compile():
    gc.disable()
    try:
        compile_file(EXAMPLES / "basic.py")
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_loaded_file_leaves_no_module_and_no_path_entry_behind(tmp_path):
    compile_file(EXAMPLES / "basic.py")  # imports what a first compile imports
    before = host_state()
    compile_file(EXAMPLES / "basic.py")
    assert host_state() == before
    (tmp_path / "raises.py").write_text(RAISES_ON_IMPORT)
    with pytest.raises(UserError, match="importing the file raised ValueError"):
        compile_file(tmp_path / "raises.py")
    assert host_state() == before


def test_a_file_can_import_its_sibling_while_it_loads(tmp_path):
    (tmp_path / "sizes_for_test_sibling.py").write_text("N = 16\n")
    source = (EXAMPLES / "basic.py").read_text()
    (tmp_path / "prog.py").write_text("import sizes_for_test_sibling\n" + source)
    before = host_state()
    assert compile_file(tmp_path / "prog.py") == compile_file(EXAMPLES / "basic.py")
    assert str(tmp_path) not in sys.path and sys.path == before["path"]
    sys.modules.pop("sizes_for_test_sibling", None)  # the sibling is an ordinary import: the host's


def test_concurrent_compiles_give_the_sequential_output_and_leave_the_host_as_it_was(tmp_path):
    (tmp_path / "raises.py").write_text(RAISES_ON_IMPORT)
    (tmp_path / "mistake.py").write_text(DSL_MISTAKE)
    sequential = {stem: compile_file(EXAMPLES / f"{stem}.py") for stem in STEMS}
    assert len(sequential) >= 8
    before = host_state()

    jobs = [EXAMPLES / f"{stem}.py" for stem in STEMS] * 3 + [tmp_path / "raises.py", tmp_path / "mistake.py"] * 3
    start = threading.Barrier(6)

    def job(path):
        try:
            start.wait(10)
        except threading.BrokenBarrierError:
            pass
        try:
            return compile_file(path)
        except UserError as error:
            return error

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(job, jobs))

    for path, result in zip(jobs, results):
        if path.parent == EXAMPLES:
            assert result == sequential[path.stem], path.stem
        elif path.stem == "raises":
            assert isinstance(result, UserError) and "raised ValueError" in result.message
        else:
            assert isinstance(result, UserError) and "undefined_name" in result.message
    assert host_state() == before


def test_the_walks_a_compile_reuses_belong_to_its_thread():
    """A compile's reused walks and verified bodies are its thread's: another thread's compile
    neither sees them (its invariants checked against a tree it did not build) nor forgets them
    when it ends (a dict another thread iterates, cleared or grown under it)."""
    from nanopass.languages import statements

    body = ()  # an empty body: its walk holds nothing
    seen_in_other: list = []
    other_ended = threading.Event()
    with statements.reusing_walks():
        statements.mark_verified(body, "rule")

        def other() -> None:
            with statements.reusing_walks():
                seen_in_other.append(dict(statements._reuse.verified))
            other_ended.set()

        worker = threading.Thread(target=other)
        worker.start()
        worker.join()
        assert other_ended.is_set() and seen_in_other == [{}]
        assert statements._reuse.verified["rule"].body is body  # the other thread's exit kept it
    assert statements._reuse.verified == {}
