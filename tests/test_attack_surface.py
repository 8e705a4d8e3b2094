"""The adversarial tester's generator of issue 22's DSL surface (tools/attack/surface_generate.py):
it produces every construct it claims, its semantics follows the new loops and blocks, its
oracle flags C++ broken by hand, and a CI-sized sample of its programs runs end to end."""

from __future__ import annotations

import re

import pytest

from nanopass.tools.attack import oracle, record, runner, semantics, surface_generate
from nanopass.tools.attack import program as P
from nanopass.tools.attack import surface as S

CP = P.Kernel("cp", (("in", "A"), ("inout", "A")))

# what each construct looks like in the rendered source
CONSTRUCTS = {
    "pl.spmd_submit": r"pl\.spmd_submit\(",
    "with pl.spmd": r"with pl\.spmd\(",
    "for ... in pl.spmd": r"for bi_\w+ in pl\.spmd\(",
    # a plain function whose outlined regions are all spmd loops (promoted as a pl.at block promotes it)
    "plain @pl.function with spmd loops only": "PLAIN_LOOPS_ONLY",
    "with pl.at": r"with pl\.at\(level=pl\.Level\.CORE_GROUP",
    "with pl.cluster": r"with pl\.cluster\(name_hint='blk\d+'\):\n\s+\w+(, \w+)* = self\.k\d+\(",
    "pl.cluster with an AIC kernel": r"FunctionType\.AIC\)",
    "several orchestration functions": r"def zz_side\(",
    "plain @pl.function orchestration": r"    @pl\.function\n    def orch\(",
    "pl.slice": r"= pl\.slice\(",
    "pl.tensor.slice": r"= pl\.tensor\.slice\(",
    "pl.reshape": r"= pl\.reshape\(",
    "pl.transpose": r"= pl\.transpose\(\w+, 0, -1\)",
    "pl.tensor.view": r"= pl\.tensor\.view\(",
    "view of a view": None,
    "Inline function": r"FunctionType\.Inline",
    "attrs= arg_directions": r'attrs=\{"arg_directions"',
    "attrs= compiler_manual_dep_edges": r'attrs=\{"compiler_manual_dep_edges"',
    "pl.dump_tag": r"pl\.dump_tag\(",
    "dumps=": r"dumps=\[",
    "no_dep_args=": r"no_dep_args=\[",
    "kernel call as an argument": r"= self\.k\d+\(self\.k\d+\(",
    "kernel call returned": r"return self\.k\d+\(",
    "allow_early_resolve": r"allow_early_resolve=True",
    "pl.const": r"pl\.const\(",
    "tuple[...] result of the orchestration": r"def orch\(.*\) -> tuple\[",
    "pl.unroll": r"in pl\.unroll\(",
    "pl.while_ + pl.cond": r"in pl\.while_\(init_values=\(0.*\n\s+pl\.cond\(",
    "while bound read from a host-written tensor": r"(\w+) = pl\.tensor\.read\(cnt, \[\d\]\)\n(?:.*\n)*?\s+pl\.cond\(\w+ < \1\)",
    "manual scope chained to an earlier task": r"with pl\.manual_scope\(\):\n\s+(\w+) = t\d+\n",
    "deps= on a task outside a manual scope": r"pl\.(?:spmd_)?submit\(.*deps=\[t\d+\]",
}


def _views_of_views(prog: P.Program) -> bool:
    made = set()

    def walk(body):
        for s in body:
            if isinstance(s, (P.Slice, P.Transpose, S.Reshape)):
                if s.src in made:
                    return True
                made.add(s.name)
            for ch in P.children(s):
                if walk(ch):
                    return True
        return False
    return walk(prog.body)


def test_the_generator_produces_every_new_construct():
    seen = dict.fromkeys(CONSTRUCTS, 0)
    for seed in range(400):
        prog = surface_generate.generate(seed)
        src = P.render(prog).source
        for name, pat in CONSTRUCTS.items():
            if pat is None:
                seen[name] += _views_of_views(prog)
            elif pat == "PLAIN_LOOPS_ONLY":
                seen[name] += prog.plain_orch and "with pl.at(" not in src and "with pl.spmd(" not in src
            elif re.search(pat, src):
                seen[name] += 1
    missing = [name for name, n in seen.items() if n == 0]
    assert not missing, f"never generated: {missing} ({seen})"


def test_generation_is_deterministic_and_the_semantics_runs_every_setting():
    invalid = 0
    for seed in range(150):
        a, b = surface_generate.generate(seed), surface_generate.generate(seed)
        assert P.render(a).source == P.render(b).source
        rendered = P.render(a)
        try:
            for n, c in runner.SURFACE_SETTINGS:
                semantics.run(a, rendered.lines, n, c)
        except ValueError:
            invalid += 1
    assert invalid <= 3      # a reshape of a name a branch left strided (the tester skips those)


def _while_prog(bound_from_cnt: bool) -> P.Program:
    body = (P.Call("cp", ("x", "a"), ("a",)),)
    pre = (S.CountWrite(0, "n"), S.CountRead("v", 0)) if bound_from_cnt else ()
    loop = S.While("i", "v" if bound_from_cnt else S.Const(2), body, (), (), (), "e")
    return P.Program((CP,), pre + (loop,), surface=True)


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_a_while_loop_bounded_by_a_host_read_runs_that_many_times(n):
    prog = _while_prog(True)
    seq = semantics.run(prog, P.render(prog).lines, n, 0)
    assert [e.kind for e in seq.events] == ["hwrite", "hread"] + ["task"] * n
    const = _while_prog(False)
    assert sum(e.kind == "task" for e in semantics.run(const, P.render(const).lines, n, 0).events) == 2


def test_inline_calls_and_outlined_blocks_run_as_their_tasks():
    fn = S.InlineFn("inl0", (("q0", "A", "in"), ("q1", "A", "inout")),
                    (P.Call("cp", ("q0", "q1"), ("q1",)),), ("q1",), ("A",))
    prog = P.Program((CP,), (S.InlineCall("inl0", ("x", "b"), ("b",)),
                             S.At("blk1", "store", "b", "a", "A"),
                             S.At("blk2", "make", "a", "f", "A")), surface=True, functions=(fn,))
    seq = semantics.run(prog, P.render(prog).lines, 1, 0)
    assert [e.kernel for e in seq.events] == ["cp", "blk1", "blk2"]
    cp, blk1, blk2 = seq.events
    assert cp.accesses[1].buf == "ext:b" and blk1.accesses[0].buf == "ext:b"
    assert blk1.reads[0][0] == ("ev", 0)              # blk1 reads what cp wrote into b
    assert blk2.accesses[1].buf.startswith("o") and blk2.reads[0][0] == ("ev", 1)


CA = P.Kernel("ca", (("in", "A"), ("out", "A")), "AIC")
# a = cp(x, a); then one Group task: b = cp(a, b) (AIV), a = ca(b, a) (AIC, its Out written after a was read)
CLUSTER = P.Program((CP, CA), (P.Call("cp", ("x", "a"), ("a",)),
                               S.Cluster("blk1", (P.Call("cp", ("a", "b"), ("b",)), P.Call("ca", ("b", "a"), ("a",))))),
                    surface=True)


def test_a_cluster_runs_as_one_task_of_its_aic_kernel_on_the_blocks_arguments():
    # the Group's arguments: the outer tensors only read, then the written ones in order of first
    # write (b, then a, which the block read first: InOut); the recorder names a Group task by its
    # first kernel id, the AIC slot's
    assert CLUSTER.body[1].group_params(CLUSTER) == [("b", True, True), ("a", True, True)]
    seq = semantics.run(CLUSTER, P.render(CLUSTER).lines, 1, 0)
    assert [e.kernel for e in seq.events] == ["cp", "ca"]
    group = seq.events[1]
    assert [(a.buf, a.read, a.write) for a in group.accesses] == [("ext:b", True, True), ("ext:a", True, True)]
    assert group.reads[1][0] == ("ev", 0)            # it reads what cp wrote into a
    only_out = S.Cluster("blk2", (P.Call("ca", ("x", "w"), ("w",)), P.Call("cp", ("x", "b"), ("b",))))
    assert only_out.group_params(CLUSTER) == [("x", True, False), ("w", False, True), ("b", True, True)]
    assert only_out.kernel(CLUSTER) == "ca"


def test_oracle_accepts_a_cluster_and_flags_one_recorded_under_its_other_kernel(tmp_path):
    assert _compile_and_judge(tmp_path, CLUSTER, 1) == []

    def aiv_first(code):
        new = re.sub(r"MixedKernels (\w+) = \{\d+, (\w+), (\w+)\}", r"MixedKernels \1 = {INVALID_KERNEL_ID, \2, \3}",
                     code)
        assert new != code
        return new
    classes = {f.cls for f in _compile_and_judge(tmp_path, CLUSTER, 1, aiv_first)}
    assert classes == {"trace-mismatch"}


def _compile_and_judge(tmp_path, prog: P.Program, n: int, tamper=lambda code: code) -> list:
    src = tmp_path / "prog.py"
    src.write_text(P.render(prog).source)
    comp = record.compile_dsl(src)
    assert comp.code is not None, comp.error
    built = record.build(tamper(comp.code), tmp_path)
    assert built.binary is not None, built.gxx_error
    log, err = record.run(built.binary, P.entry_arguments(n, 0, surface=True))
    assert not err
    seq = semantics.run(prog, P.render(prog).lines, n, 0)
    return oracle.check_run(seq, log, comp.kernel_ids)


def test_oracle_flags_a_while_loop_whose_host_written_bound_is_wrong(tmp_path):
    prog = _while_prog(True)
    assert _compile_and_judge(tmp_path, prog, 2) == []

    def write_one(code):
        new = re.sub(r"(set_tensor_data<\w+>\(ext_cnt, [^;]*, )\w+\)", r"\g<1>1)", code)
        assert new != code
        return new
    classes = {f.cls for f in _compile_and_judge(tmp_path, prog, 2, write_one)}
    assert classes == {"trace-mismatch"}


def test_oracle_flags_an_outlined_block_whose_dependency_is_dropped(tmp_path):
    # in a manual scope: a = cp(x, a), then a pl.at block that reads a waits for it by deps=[m]
    prog = P.Program((CP,), (P.Manual((
        P.TidNone("m"), P.Call("cp", ("x", "a"), ("a",), (), True, "m", ("m",)),
        S.At("blk1", "store", "a", "b", "A", "m", ("m",)))),), surface=True)
    assert _compile_and_judge(tmp_path, prog, 1) == []

    def drop_deps(code):
        new = re.sub(r"\n[^\n]*set_dependencies[^\n]*", "", code)
        assert new != code
        return new
    classes = {f.cls for f in _compile_and_judge(tmp_path, prog, 1, drop_deps)}
    assert "hazard RAW task>task MM" in classes


SAMPLE_SEEDS = (3, 8, 17)    # about 1 s each on an idle machine (two compiles, three g++ runs, 8 runs)


def test_ci_sample_of_surface_programs_runs_end_to_end():
    record.recorder_object()
    for seed in SAMPLE_SEEDS:
        prog = surface_generate.generate(seed, 6)
        rep = runner.check(prog)
        assert rep.invalid is None, rep.invalid
        assert rep.refusal is None and not rep.failures, f"seed {seed}:\n{runner.describe(rep)}\n{rep.source}"
        assert rep.runs == len(runner.SURFACE_SETTINGS)


def test_a_plain_orchestration_function_is_one_the_compiler_takes_for_it(tmp_path):
    # s90000451 (tools/attack/found/RUNS.md): `orch` was written as a plain @pl.function because an
    # Inline function held a block, but only zz_side called that function: the compiler rightly took
    # zz_side alone, and the run of `orch` was judged against its trace (a trace mismatch)
    from nanopass.api import orchestration_functions
    from nanopass.static_loader import load_programs_static

    plain = 0
    for seed in (90000451, *range(200)):
        prog = surface_generate.generate(seed)
        if not prog.plain_orch:
            continue
        plain += 1
        path = tmp_path / f"s{seed}.py"
        path.write_text(P.render(prog).source)
        [program] = load_programs_static(str(path))
        assert "orch" in orchestration_functions(program), f"seed {seed}"
    assert plain >= 5


def test_shrinking_keeps_a_block_in_a_plain_orchestration_function():
    prog = P.Program((CP,), (P.Call("cp", ("x", "a"), ("a",)), S.At("blk1", "store", "a", "b", "A")),
                     surface=True, plain_orch=True)
    from nanopass.tools.attack import shrink

    kept = list(shrink.candidates(prog))
    assert kept and all(S.holds_block(c.body, c.functions) for c in kept)
    assert len(kept) < len(list(shrink.candidates(P.Program(prog.kernels, prog.body, surface=True))))
