# class: refusal (docs/semantics.md "Still open" 9's family: no wrong code, a refusal a more
# precise analysis would avoid)
# A manual scope around a loop of constant trip count 2 (`pl.while_` with `pl.cond(i < 2)`; the
# same with `pl.range(2, init_values=...)`) whose carry is `b` in the first iteration and `a` in
# the second: each iteration host-writes a[5, 0], then a task writes the carry. The first
# iteration's task writes b; the second's writes a after that iteration's host write, and no
# iteration follows. No host access comes after a task of the scope that touches the same
# element, so nothing races; the compile refuses the host write as racing the task (the loop is
# analysed as if it could run a third time, or as if its carry could be `a` in the first one).
#
# found on branch attack4 by `python -m nanopass.tools.attack --surface --seed 3 --seconds 900
# --jobs 1 --out DIR` (program s30000…, a while loop in a manual scope yielding `a, a`), reduced
# by hand. reproduce: nanopass run tools/attack/found/22-host-write-before-the-carry-writer-of-the-last-iteration.py
#   -> 33:17: error: the host writes an element of 'a' in the manual scope where task ua (line 34) reads it: ...
# Second defect, same program: the message is not deterministic. It says "reads it" or "writes it"
# (ua's InOut argument does both) depending on PYTHONHASHSEED: `for s in 0 1 2 3; do
# PYTHONHASHSEED=$s nanopass run FILE 2>&1 | head -1; done` gives reads, writes, reads, writes.
# (Fixed: the first pair by site, a write before a read; test_issue21_regressions::
# test_a_refusal_names_the_same_pair_under_every_hash_seed.) (Fixed, the refusal too: a loop of known
# trip count whose carries differ by iteration is analysed iteration by iteration, hazards.trip_count
# and iteration_stores; test_found_22_compiles_to_the_same_cpp_under_every_hash_seed.)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def ua(self, p0: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            m = None
            for (i, p) in pl.while_(init_values=(0, b)):
                pl.cond(i < 2)
                pl.tensor.write(a, [5, 0], 4.0)
                p, m = pl.submit(self.ua, p, deps=[m])
                e, r = pl.yield_(i + 1, a)
        return a
