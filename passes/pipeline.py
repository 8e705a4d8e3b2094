"""The pipeline: the one ordered list of passes from the surface language to emission."""

from __future__ import annotations

from nanopass.pipeline import Pipeline

from .place_loop_allocations_before_scopes import PlaceLoopAllocationsBeforeScopes
from .place_returned_creates_in_output_params import PlaceReturnedCreatesInOutputParams
from .place_scope_escaping_outputs import PlaceScopeEscapingOutputs
from .assign_kernel_ids import AssignKernelIds
from .batch_tensor_creates import BatchTensorCreates
from .bind_task_ids import BindTaskIds
from .check_manual_deps_on_submit_only import CheckManualDepsOnSubmitOnly
from .check_output_params_written import CheckOutputParamsWritten
from .check_reshape_sources_contiguous import CheckReshapeSourcesContiguous
from .classify_iter_arg_carry import ClassifyIterArgCarry
from .classify_tensors import ClassifyTensors
from .clear_cells_after_waiters import ClearCellsAfterWaiters
from .clear_edges_where_implied import ClearEdgesWhereImplied
from .convert_printed_ssa import ConvertPrintedSsa
from .convert_to_ssa import ConvertToSsa
from .materialize_result_buffers import MaterializeResultBuffers
from .decide_view_tracking import DecideViewTracking
from .define_dynamic_dim_symbols import DefineDynamicDimSymbols
from .derive_auto_scope_dependencies import DeriveAutoScopeDependencies
from .derive_call_directions import DeriveCallDirections
from .drop_cells_implied_through_edges import DropCellsImpliedThroughEdges
from .drop_chained_join_barriers import DropChainedJoinBarriers
from .drop_edges_after_first_run import DropEdgesAfterFirstRun
from .drop_implied_dependencies import DropImpliedDependencies
from .drop_latest_runs_from_joins import DropLatestRunsFromJoins
from .drop_overwritten_cell_stores import DropOverwrittenCellStores
from .drop_unwaited_dummies import DropUnwaitedDummies
from .encode_scalars import EncodeScalars
from .expand_manual_phase_fence import ExpandManualPhaseFence
from .fuse_create_assemble_to_slice import FuseCreateAssembleToSlice
from .hoist_scope_escapes import HoistScopeEscapes
from .infer_core_types import InferCoreTypes
from .insert_parallel_carry_joins import InsertParallelCarryJoins
from .lower_to_emission import LowerToEmission
from .materialize_runtime_scopes import MaterializeRuntimeScopes
from .merge_cells_into_chains import MergeCellsIntoChains
from .normalize_return_order import NormalizeReturnOrder
from .order_write_after_read import OrderWriteAfterRead
from .remap_output_aliases import RemapOutputAliases
from .remove_dead_values import RemoveDeadValues
from .resolve_dep_edges import ResolveDepEdges
from .split_joins_by_iteration import SplitJoinsByIteration

PASSES = [
    ConvertToSsa,  # surface -> ssa
    CheckReshapeSourcesContiguous,  # ssa (a check)
    NormalizeReturnOrder,  # ssa
    MaterializeResultBuffers,  # ssa
    PlaceReturnedCreatesInOutputParams,  # ssa
    FuseCreateAssembleToSlice,  # ssa
    PlaceScopeEscapingOutputs,  # ssa
    PlaceLoopAllocationsBeforeScopes,  # ssa
    DecideViewTracking,  # ssa
    DeriveCallDirections,  # ssa -> directed
    CheckManualDepsOnSubmitOnly,  # directed
    CheckOutputParamsWritten,  # directed (warnings only)
    InsertParallelCarryJoins,  # directed
    OrderWriteAfterRead,  # directed
    DeriveAutoScopeDependencies,  # directed (opt-in: analyze_auto_scopes_for_deps)
    ExpandManualPhaseFence,  # directed
    DropChainedJoinBarriers,  # directed
    DropImpliedDependencies,  # directed
    DropLatestRunsFromJoins,  # directed
    MergeCellsIntoChains,  # directed
    DropEdgesAfterFirstRun,  # directed
    ClearCellsAfterWaiters,  # directed
    ClearEdgesWhereImplied,  # directed
    DropUnwaitedDummies,  # directed
    SplitJoinsByIteration,  # directed
    DropCellsImpliedThroughEdges,  # directed
    DropOverwrittenCellStores,  # directed
    RemoveDeadValues,  # directed
    MaterializeRuntimeScopes,  # directed -> scoped
    ClassifyIterArgCarry,  # scoped -> carried
    InferCoreTypes,  # carried -> core-typed
    AssignKernelIds,  # core-typed -> numbered
    ClassifyTensors,  # numbered -> slotted
    BindTaskIds,  # slotted -> tid-bound
    ResolveDepEdges,  # tid-bound -> dep-annotated
    BatchTensorCreates,  # dep-annotated -> batched
    HoistScopeEscapes,  # batched -> hoisted
    RemapOutputAliases,  # hoisted -> named
    DefineDynamicDimSymbols,  # named -> dimmed
    EncodeScalars,  # dimmed -> encoded
    LowerToEmission,  # encoded -> emission
]

PIPELINE = Pipeline(PASSES)

# Passes that are not in the list but run in place of one of it for some inputs (each maps to
# the pass it stands in for): convert_printed_ssa takes a printed program's SSA form as it is.
# `nanopass opt` and `nanopass explain` know them by name as they know the pipeline's.
STAND_INS = {ConvertPrintedSsa: ConvertToSsa}
