# fuzz: scope_escape: block: wrap 2 statement(s) in 'with pl.manual_scope():'
# expect: 11:13: error: an AUTO scope may not be nested inside a manual scope
import nanopass.dsl as pl

@pl.program
class ScopeEscape:

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def orch_escape(self) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            with pl.scope():
                pass
