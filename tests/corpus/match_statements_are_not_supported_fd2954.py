# fuzz: tid_sources: unsupported: insert 'match n:'
# expect: 10:9: error: match statements are not supported
import nanopass.dsl as pl

@pl.program
class TidSources:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tids(self) -> pl.Tensor[[16, 16], pl.FP32]:
        match n:
            case 1:
                pass
