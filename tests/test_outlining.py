"""``with pl.at(level=pl.Level.CORE_GROUP, ...)`` blocks outlined into kernels, and plain
``@pl.function`` bodies holding them (reference-surface.md section 3); misuse is a located error."""

from __future__ import annotations

import textwrap

import pytest

from conftest import load_program

import nanopass
from nanopass.errors import UserError
from nanopass.languages.terms import FuncKind, ParamDir

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[32, 64], pl.FP32], o: pl.InOut[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        return o

    @pl.function
    def main(self, a: pl.Tensor[[32, 64], pl.FP32], b: pl.Tensor[[32, 64], pl.FP32],
             out: pl.InOut[pl.Tensor[[32, 64], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[32, 64], pl.FP32]:
'''
AT = "with pl.at(level=pl.Level.CORE_GROUP):\n"


def write(tmp_path, body: str):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8) + "        return out\n")
    return path


def surface(tmp_path, body: str):
    return load_program(write(tmp_path, body)).surface()


def error(tmp_path, body: str) -> str:
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(write(tmp_path, body)))
    span = info.value.span
    return f"{span.line}:{span.col + 1}: {info.value.message}"


def test_a_plain_function_with_a_block_is_the_orchestration_function(tmp_path):
    program = surface(tmp_path, AT + "    out = pl.assemble(out, pl.add(a, b), [0, 0])\n")
    assert program.orch.name == "main"
    [kernel] = [k for k in program.kernels if k.name == "main_incore_0"]
    assert kernel.kind is FuncKind.InCore
    assert [(p.name, p.dir) for p in kernel.params] == [("a", ParamDir.In), ("b", ParamDir.In), ("out", ParamDir.InOut)]
    assert [s._production for s in kernel.body] == ["KAssign", "KReturn"]
    [task] = [s for s in program.orch.body if s._production == "Task"]
    assert task.kernel == "main_incore_0" and [o.name for o in task.outs] == ["out"] and task.tid is None


INLINE_CHAIN = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def inner(self, x: pl.Tensor[[8, 4], pl.FP32], q: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="blk"):
            t = pl.load(x, [0, 0], [8, 4])
            q = pl.store(t, [0, 0], q)
        return q

    @pl.function(type=pl.FunctionType.Inline)
    def outer(self, x: pl.Tensor[[8, 4], pl.FP32], q: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        q = self.inner(x, q)
        return q

    @pl.function
    def helper(self, x: pl.Tensor[[8, 4], pl.FP32]) -> pl.Tensor[[8, 4], pl.FP32]:
        return x

    @pl.function
    def main(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        a = self.CALLEE(x, a)
        return a
'''


@pytest.mark.parametrize("callee", ["inner", "outer"])
@pytest.mark.parametrize("no_exec", [False, True], ids=["importing", "no-exec"])
def test_a_plain_function_calling_an_inline_function_that_holds_a_block_is_the_orchestration_function(
    tmp_path, callee, no_exec
):
    # the reference inlines every call before it outlines (reference-surface.md sections 3 and 5):
    # after inlining, main holds the block; helper, which holds none, stays a plain function
    from nanopass.static_loader import load_programs_static

    path = tmp_path / "prog.py"
    path.write_text(INLINE_CHAIN.replace("CALLEE", callee))
    [program] = load_programs_static(str(path)) if no_exec else [load_program(path)]
    assert program.surface().orch.name == "main"
    code = nanopass.generate_orchestration(program).code
    assert code.count("rt_submit_aiv_task(") == 1 and "// Task 0: blk" in code


def test_an_unnamed_blocks_k_counts_every_outlined_block_of_the_function_named_ones_too(tmp_path):
    # reference-surface.md section 3: "default <enclosing>_incore_<k> (k counts outlined blocks per
    # function from 0)"; a block with name_hint= is an outlined block too, so it takes a k.
    program = surface(tmp_path, AT.replace("CORE_GROUP", 'CORE_GROUP, name_hint="first"')
                      + "    out = pl.assemble(out, pl.add(a, b), [0, 0])\n"
                      + AT + "    out = pl.assemble(out, pl.mul(a, b), [0, 0])\n"
                      + "with pl.spmd(2):\n    out = pl.assemble(out, a, [0, 0])\n"
                      + AT + "    out = pl.assemble(out, b, [0, 0])\n")
    tasks = [s.kernel for s in program.orch.body if s._production == "Task"]
    assert tasks == ["first", "main_incore_1", "main_incore_2", "main_incore_3"]


def test_reads_come_first_then_writes_scalars_are_scalar_arguments_and_kernel_ids_follow_dispatch(tmp_path):
    code = nanopass.generate_orchestration(load_program(write(tmp_path, """
        for i in pl.range(n):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="rows"):
                t = pl.load(a, [i * 16, 0], [16, 64])
                out = pl.store(t, [i * 16, 0], out)
        out = self.k(b, out)
    """))).code
    assert "params_t0.add_input(ext_a);\n                params_t0.add_inout(ext_out);\n" \
           "                params_t0.add_scalar((uint64_t)i);\n                rt_submit_aiv_task(0, params_t0);" in code
    assert "rt_submit_aiv_task(1, params_t1);" in code


def test_tensors_the_block_defines_and_later_code_reads_leave_through_buffers_the_caller_creates(tmp_path):
    code = nanopass.generate_orchestration(load_program(write(tmp_path, """
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.add(a, b)
            u: pl.Tensor[[32, 64], pl.FP32] = pl.exp(t)
        out = self.k(t, out)
        out = self.k(u, out)
    """))).code
    assert "alloc_tensors(ret0__out_ci, ret1__out_ci)" in code
    assert ("params_t0.add_input(ext_a);\n        params_t0.add_input(ext_b);\n"
            "        params_t0.add_output(ret0__out);\n        params_t0.add_output(ret1__out);") in code
    assert "params_t1.add_input(ret0__out);" in code and "params_t2.add_input(ret1__out);" in code


def test_dumps_and_early_resolve_of_a_block_mark_its_task(tmp_path):
    # reference-surface.md sections 8 and 11: dumps= names tensors the block captures, a pl.dump_tag
    # marks a captured tensor too; allow_early_resolve=True makes the block a submit
    code = nanopass.generate_orchestration(load_program(write(tmp_path, """
        pl.dump_tag(b)
        with pl.at(level=pl.Level.CORE_GROUP, dumps=[a], allow_early_resolve=True):
            out = pl.assemble(out, pl.add(a, b), [0, 0])
        with pl.at(level=pl.Level.CORE_GROUP, allow_early_resolve=False, dumps=None):
            out = pl.assemble(out, a, [0, 0])
    """))).code
    assert ("params_t0.add_inout(ext_out);\n        params_t0.dump(ext_a, ext_b);\n"
            "        params_t0.set_allow_early_resolve(true);\n        rt_submit_aiv_task(0, params_t0);") in code
    assert "params_t1.add_inout(ext_out);\n        rt_submit_aiv_task(1, params_t1);" in code


def test_a_name_the_block_defines_and_later_code_assigns_first_stays_in_the_kernel(tmp_path):
    program = surface(tmp_path, AT + "    t = pl.add(a, b)\n    out = pl.assemble(out, t, [0, 0])\n"
                      + AT + "    t = pl.mul(a, b)\n    out = pl.assemble(out, t, [0, 0])\n")
    assert [len(s.outs) for s in program.orch.body if s._production == "Task"] == [1, 1]


def test_a_name_defined_only_in_the_block_is_gone_after_it(tmp_path):
    assert error(tmp_path, AT + "    t = pl.load(a, [0, 0], [16, 64])\n    out = pl.store(t, [0, 0], out)\n"
                 "out = self.k(t, out)\n").startswith("16:22: cannot tell the type of 't'")


@pytest.mark.parametrize("body, message", [
    ("with pl.at():\n    out = pl.assemble(out, a, [0, 0])\n", "13:14: pl.at needs level=pl.Level.CORE_GROUP"),
    ("with pl.at(level=pl.Level.HOST):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:26: pl.at(level=pl.Level.HOST) is not supported: only pl.Level.CORE_GROUP blocks are outlined into kernels; "
     "the other levels make the existing compiler's hierarchy scopes, whose meaning for an orchestration function "
     "is not documented"),
    ("with pl.at(level=pl.Level.CORE_GROUP, windowize=True):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:57: pl.at(windowize=...) is not supported: it changes how the existing compiler builds the outlined "
     "kernel's body (kernel code, which nanopass does not compile), and what it changes in the task that launches "
     "it is not documented"),
    ("with pl.at(level=pl.Level.CORE_GROUP, predicate=n > 0):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:57: pl.at(predicate=...) is not supported: a dispatch predicate makes the runtime skip the task"),
    (AT + "    out = pl.assemble(out, a, [0, 0])\nout, t = pl.submit(self.k, a, out, predicate=n > 0)\n",
     "15:54: pl.submit(predicate=...) is not supported: a dispatch predicate makes the runtime skip the task"),
    ("with pl.at(level=pl.Level.CORE_GROUP, windowize=False, predicate=None):\n    out = pl.assemble(out, a, [0, 0])\n"
     "with pl.manual_scope() as s:\n    pass\n", "15:35: 'with ... as' is not supported for scopes"),
    ("with pl.at(level=pl.Level.CORE_GROUP, name_hint='not a name'):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:57: name_hint= must be a string literal that is an identifier"),
    ("with pl.at(level=pl.Level.CORE_GROUP, name_hint='k'):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:57: the outlined kernel's name 'k' is already a function of program 'P'"),
    ("with pl.at(level=pl.Level.CORE_GROUP, dumps=[b]):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:54: pl.at's dumps= entries must be tensors the task takes as arguments; 'b' is not one"),
    ("with pl.at(level=pl.Level.CORE_GROUP, dumps=a):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:53: pl.at's dumps= must be a list of tensor variables"),
    ("with pl.at(level=pl.Level.CORE_GROUP, allow_early_resolve=1):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:67: allow_early_resolve= must be True or False"),
    ("with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[n]):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:60: no_dep_args= entries must name tensors the block uses from outside it, got 'n'"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n    out = self.k(a, out)\n",
     "14:19: a pl.at block holds tile and tensor operations only"),
    ("with pl.at(level=pl.Level.CORE_GROUP) as (x, y):\n    out = pl.assemble(out, a, [0, 0])\n",
     "13:50: 'with pl.at(...) as' takes one name (the task's TaskId)"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n    t = pl.load(a, [0, 0], [16, 64])\nout = self.k(t, out)\n",
     "15:22: cannot tell the type of 't', which the pl.at block defines at line 14 and this later code reads"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n    while n > 0:\n        pass\n",
     "14:13: a kernel block cannot hold this statement: 'while n > 0: ...'"),
    (AT + "    out = pl.assemble(out, a, [0, 0])\nwith pl.manual_scope() as s:\n    pass\n",
     "15:35: 'with ... as' is not supported for scopes"),
])
def test_misuse_is_a_located_error(tmp_path, body, message):
    found = error(tmp_path, body)
    assert found == message or (found.startswith(message) and message.endswith("skip the task"))


LOAD = "    t = pl.load(a, [0, 0], [16, 64])\n    out = pl.store(t, [0, 0], out)\n"


@pytest.mark.parametrize("body, message", [
    (AT + LOAD + "out = self.k(a, out)\nout = self.k(t, out)\n",
     "17:22: cannot tell the type of 't', which the pl.at block defines at line 14 and this later code reads"),
    (AT + LOAD + "if n > 0:\n    t = a\nelse:\n    out = self.k(a, out)\nout = self.k(t, out)\n",
     "20:22: cannot tell the type of 't', which the pl.at block defines at line 14 and this later code reads"),
    ("with pl.spmd(core_num=4):\n" + LOAD + "out = self.k(t, out)\n",
     "16:22: cannot tell the type of 't', which the pl.spmd block defines at line 14 and this later code reads"),
    (AT + "    if n > 0:\n        t = a\n    else:\n        t = b\n    out = pl.assemble(out, t, [0, 0])\n"
     "out = self.k(t, out)\n", "19:22: 't' is read here, after the pl.at block, but the branches of an if in it bind "
                                "it to different tensors (its definition at line 15)"),
    (AT + "    t = pl.add(a, b)\n    for i in pl.range(n):\n        t = a\nout = self.k(t, out)\n",
     "17:22: 't' is read here, after the pl.at block, but the loop at line 15 (which may run no iteration) and the "
     "code before it in it bind it to different tensors (its definition at line 14)"),
], ids=["later-read", "read-after-a-rebind-in-one-branch", "spmd", "branches", "loop"])
def test_a_name_leaving_a_block_unusable_is_refused_at_the_read_that_needs_it(tmp_path, body, message):
    assert error(tmp_path, body) == message


INLINE_WITH_BLOCK = """    @pl.function(type=pl.FunctionType.Inline)
    def twice(self, a: pl.Tensor[[32, 64], pl.FP32], out: pl.InOut[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP{hint}):
            out = pl.assemble(out, pl.add(a, a), [0, 0])
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main"""


def inline_program(tmp_path, hint: str = ""):
    path = tmp_path / "prog.py"
    path.write_text(HEADER.replace("    @pl.function\n    def main", INLINE_WITH_BLOCK.format(hint=hint))
                    + "        out = self.twice(a, out)\n        out = self.twice(b, out)\n        return out\n")
    return load_program(path)


def test_a_block_inside_an_inline_function_is_outlined_in_the_caller_once_per_call(tmp_path):
    program = inline_program(tmp_path).surface()
    assert [k.name for k in program.kernels if k.name.startswith("main_")] == ["main_incore_0", "main_incore_1"]
    assert kernel_dirs(program, "main_incore_1") == [("b", ParamDir.In), ("out", ParamDir.InOut)]
    assert [s.kernel for s in program.orch.body if s._production == "Task"] == ["main_incore_0", "main_incore_1"]


def test_a_named_block_of_an_inline_function_called_twice_is_one_kernel(tmp_path):
    # the inlined copies outline to the same kernel up to their parameters' names: one kernel, two tasks
    program = inline_program(tmp_path, ", name_hint='adder'").surface()
    assert [k.name for k in program.kernels if k.name not in ("k",)] == ["adder"]
    assert kernel_dirs(program, "adder") == [("a", ParamDir.In), ("out", ParamDir.InOut)]
    tasks = [s for s in program.orch.body if s._production == "Task"]
    assert [t.kernel for t in tasks] == ["adder", "adder"]
    assert [[a.value.name for a in t.args] for t in tasks] == [["a", "out"], ["b", "out"]]


SCALED = """    @pl.function(type=pl.FunctionType.Inline)
    def scaled(self, a: pl.Tensor[[32, 64], pl.FP32], s: pl.Scalar[pl.FP32], out: pl.InOut[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale"):
            out = pl.assemble(out, pl.muls(a, s), [0, 0])
        return out

    @pl.function
    def main"""


def test_copies_of_a_named_block_that_differ_are_kernels_named_in_order_of_first_use(tmp_path):
    # a constant argument of the inline function is substituted into the block: another kernel body
    path = tmp_path / "prog.py"
    path.write_text(HEADER.replace("    def k(", "    def scale_2(").replace("    @pl.function\n    def main", SCALED)
                    + "        out = self.scaled(a, 2.0, out)\n        out = self.scaled(b, 0.5, out)\n"
                      "        out = self.scaled(b, 2.0, out)\n        for i in pl.unroll(2):\n"
                      "            out = self.scaled(a, 3.0, out)\n        out = self.scale_2(a, out)\n"
                      "        return out\n")
    result = nanopass.generate_orchestration(load_program(path))
    tasks = [s.kernel for s in load_program(path).surface().orch.body if s._production == "Task"]
    # the second shape is scale_1; the third would be scale_2, a kernel of the program already
    assert tasks == ["scale", "scale_1", "scale", "scale_3", "scale_3", "scale_2"]
    assert result.func_name_to_id == {"scale": 0, "scale_1": 1, "scale_3": 2, "scale_2": 3}


def test_two_blocks_with_one_name_hint_are_a_located_error(tmp_path):
    named = AT.replace("CORE_GROUP", "CORE_GROUP, name_hint='same'")
    assert error(tmp_path, named + "    out = pl.assemble(out, a, [0, 0])\n" + named
                 + "    out = pl.assemble(out, a, [0, 0])\n") == \
        "15:57: the outlined kernel's name 'same' is already a function of program 'P'"


@pytest.mark.parametrize("hint", ["", ", name_hint='rows'"], ids=["unnamed", "named"])
def test_a_block_in_an_unrolled_loop_takes_the_iterations_constant_as_its_scalar_argument(tmp_path, hint):
    code = nanopass.generate_orchestration(load_program(write(tmp_path, f"""
        for i in pl.unroll(2):
            with pl.at(level=pl.Level.CORE_GROUP{hint}):
                t = pl.load(a, [i * 16, 0], [16, 64])
                out = pl.store(t, [i * 16, 0], out)
    """))).code
    assert "add_scalar((uint64_t)0);" in code and "add_scalar((uint64_t)1);" in code
    assert code.count("rt_submit_aiv_task(0, ") == (2 if hint else 1)


# Out/InOut inference from loop-carried stores (reference-surface.md "Other behaviour")

CARRY = """with pl.at(level=pl.Level.CORE_GROUP):
    for i, (acc,) in pl.range(4, init_values=(out,)):
        row = pl.load(a, [i * 8, 0], [8, 64])
        acc = pl.store(row, [i * 8, 0], acc)
        filled = pl.yield_(acc)
"""


def kernel_dirs(program, name="main_incore_0"):
    [kernel] = [k for k in program.kernels if k.name == name]
    return [(p.name, p.dir) for p in kernel.params]


def test_a_store_into_a_loop_carry_writes_the_carrys_init_tensor(tmp_path):
    program = surface(tmp_path, CARRY)
    assert kernel_dirs(program) == [("a", ParamDir.In), ("out", ParamDir.InOut)]
    [task] = [s for s in program.orch.body if s._production == "Task"]
    assert [o.name for o in task.outs] == ["out"]


def test_a_carry_only_read_leaves_its_init_tensor_an_input(tmp_path):
    program = surface(tmp_path, """with pl.at(level=pl.Level.CORE_GROUP):
    for i, (acc,) in pl.range(4, init_values=(b,)):
        row = pl.load(acc, [i * 8, 0], [8, 64])
        out = pl.store(row, [i * 8, 0], out)
        acc2 = pl.yield_(acc)
""")
    assert kernel_dirs(program) == [("b", ParamDir.In), ("out", ParamDir.InOut)]


def test_a_copy_of_an_outer_tensor_written_in_the_block_writes_it(tmp_path):
    program = surface(tmp_path, AT + "    view = out\n    view = pl.assemble(view, pl.add(a, b), [0, 0])\n")
    assert kernel_dirs(program) == [("a", ParamDir.In), ("b", ParamDir.In), ("out", ParamDir.InOut)]


def test_the_loop_result_used_after_the_block_is_the_carried_tensor(tmp_path):
    code = nanopass.generate_orchestration(load_program(write(tmp_path, CARRY + "out = self.k(filled, out)\n"))).code
    assert "alloc_tensors" not in code  # no new result buffer: filled is out
    assert "params_t0.add_input(ext_a);\n        params_t0.add_inout(ext_out);\n" in code
    assert "params_t1.add_input(ext_out);\n        params_t1.add_inout(ext_out);\n" in code


@pytest.mark.parametrize("body, message", [
    (AT + "    for i, (acc,) in pl.range(4, init_values=(out,)):\n        acc = pl.store(pl.load(a, [0, 0], [8, 64]), "
     "[0, 0], acc)\n        r = pl.yield_(b)\n",
     "16:31: the loop carry 'acc' starts as 'out' and is yielded 'b', another tensor: outlined into a kernel, "
     "the carry would not be one buffer"),
    (AT + "    for i, (acc,) in pl.range(4, init_values=(out,)):\n        t = pl.add(a, b)\n        r = pl.yield_(t)\n",
     "16:31: the loop carry 'acc' starts as 'out' and is yielded 't', a tensor of the block: outlined into a "
     "kernel, the carry would not be one buffer"),
    (AT + "    if n > 0:\n        v = out\n    else:\n        v = a\n    v = pl.assemble(v, b, [0, 0])\n",
     "18:17: 'pl.assemble(v, b, [0, 0])' writes a tensor the branches of an if in this pl.at block bind to "
     "different buffers: the kernel's parameter would not be one buffer"),
])
def test_a_carry_or_alias_that_is_not_one_buffer_is_a_located_error(tmp_path, body, message):
    assert error(tmp_path, body) == message


def test_the_uses_after_blocks_come_from_one_walk_of_the_function(tmp_path, monkeypatch):
    # Each block asks which of its names code after it reads (``_escaping``): from one walk of the
    # function (``_LiveReads``), not one per block (quadratic in the blocks: 420 -> 1,640 walks
    # of the function's uses at 20 -> 40 blocks before one walk answered every block).
    from nanopass.passes.frontend.ops import outlining

    def walks(blocks: int) -> int:
        body = "".join(AT + f"    t{k} = pl.add(a, b)\n    out = pl.assemble(out, t{k}, [0, 0])\n" for k in range(blocks))
        calls = []

        class Counted(outlining._LiveReads):
            def __init__(self, *args, **kwargs):
                calls.append(args)
                super().__init__(*args, **kwargs)

        with monkeypatch.context() as patch:
            patch.setattr(outlining, "_LiveReads", Counted)
            program = surface(tmp_path, body)
        assert sum(1 for s in program.orch.body if s._production == "Task") == blocks
        return len(calls)

    small, large = walks(20), walks(40)
    assert small == large == 1, (small, large)


@pytest.mark.parametrize("after, results", [
    ("for i in pl.range(n):\n    t = self.k(a, out)\nout = self.k(t, out)\n", 1),  # the loop may run no iteration
    ("if n > 0:\n    t = self.k(a, out)\nelse:\n    out = self.k(t, out)\n", 1),  # the else branch reads it
    ("for i in pl.range(n):\n    t = self.k(a, out)\n    out = self.k(t, out)\n", 0),  # read after the rebind only
])
def test_a_block_result_rebound_on_some_paths_only_leaves_the_block(tmp_path, after, results):
    # t's first use after the block rebinds it; a later read on a path that skipped the rebind
    # still sees the block's value: t is the kernel's result (was: closed, "not visible" at the read)
    body = AT + "    t = pl.add(a, b)\n" + after
    [kernel] = [k for k in surface(tmp_path, body).kernels if k.name == "main_incore_0"]
    assert len(kernel.results) == results


@pytest.mark.parametrize("other, results", [
    ("out = self.k(t, out)\n", 0),  # reads the t from before the if: the block's t is on no path to it
    ("pass\nout = self.k(t, out)\n", 1),  # after the if: on the then-branch's path
])
def test_a_read_in_the_other_branch_of_the_if_holding_a_block_is_not_after_it(tmp_path, other, results):
    # s57700000781: the first use after the block in the text was in the else-branch, and the
    # kernel kept an Out nothing reads
    body = ("t = self.k(a, out)\nif n > 0:\n" + textwrap.indent(AT + "    t = pl.add(a, b)\n", "    ")
            + "else:\n    " + other)
    [kernel] = [k for k in surface(tmp_path, body).kernels if k.name == "main_incore_0"]
    assert len(kernel.results) == results


@pytest.mark.parametrize("spmd_body, results", [
    ("    t = pl.add(a, b)\n", 0),  # rebinds t on every path: the first block's t is read by no one
    ("    if n > 0:\n        t = pl.add(a, b)\n    else:\n        t = pl.mul(a, b)\n", 0),  # on both paths
    ("    u = pl.add(t, b)\n", 1),  # reads it, binds another: the read after reads the first block's
])
def test_a_pl_spmd_block_rebinding_a_name_ends_it_as_a_block_does(tmp_path, spmd_body, results):
    # s58210000035: a `for bi in pl.spmd(...)` block was taken for a host loop that may run no
    # iteration, so the name it rebinds stayed live and the block before it kept an Out
    body = (AT + "    t = pl.add(a, b)\n" + "for bi in pl.spmd(2, name_hint='s'):\n" + spmd_body
            + "out = self.k(t, out)\n")
    [kernel] = [k for k in surface(tmp_path, body).kernels if k.name == "main_incore_0"]
    assert len(kernel.results) == results
