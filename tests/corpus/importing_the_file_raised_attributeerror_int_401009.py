# fuzz: fence_array_updated: swap: swap arguments 0 and 1 of 'pl.array.create(pl.TASK_ID, 8)'; module: module constant K_NEW = 0, used in orch_updated
# expect: 7:31: error: importing the file raised AttributeError: 'int' object has no attribute 'Tensor'
K_NEW = 0

class FenceArrayUpdated:

    def orch_updated(self) -> K_NEW.Tensor[[16, 16], pl.FP32]:
        pass
