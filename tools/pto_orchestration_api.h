// Stand-in for the PTO2 orchestration runtime header, written for this project from the
// declarations summarised in shared/spec/runtime-api.md. Generated orchestration code compiles
// against it (g++ -std=c++17); tools/recording_runtime.cpp implements the runtime operations and
// records what the code does. Where the real header is lax (it lets temporaries reach add_input
// and friends), this one is strict: tensors and create-infos must be lvalues.
#ifndef NANOPASS_PTO_ORCHESTRATION_API_H
#define NANOPASS_PTO_ORCHESTRATION_API_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>  // std::min in clamped view extents (clamp=True; every slice under --abi l2)
#include <string>
#include <type_traits>

// ---------------------------------------------------------------------------------------------
// Limits (runtime-api.md section 1)

constexpr int MAX_TENSOR_DIMS = 5;
constexpr int CORE_MAX_TENSOR_ARGS = 32;
constexpr int CORE_MAX_SCALAR_ARGS = 16;
constexpr int MAX_TENSOR_ARGS = CORE_MAX_TENSOR_ARGS;
constexpr int MAX_SCALAR_ARGS = CORE_MAX_SCALAR_ARGS;
constexpr int CHIP_MAX_TENSOR_ARGS = 128;
constexpr int CHIP_MAX_SCALAR_ARGS = 128;
inline constexpr int32_t INVALID_KERNEL_ID = -1;
inline constexpr int32_t PTO2_SUBTASK_SLOT_COUNT = 3;

#define PTO2_ERROR_NONE 0
#define PTO2_ERROR_SCOPE_DEADLOCK 1
#define PTO2_ERROR_HEAP_RING_DEADLOCK 2
#define PTO2_ERROR_FLOW_CONTROL_DEADLOCK 3
#define PTO2_ERROR_DEP_POOL_OVERFLOW 4
#define PTO2_ERROR_INVALID_ARGS 5
#define PTO2_ERROR_DEPENDENCY_OVERFLOW 6
#define PTO2_ERROR_REQUIRE_SYNC_START_INVALID 7
#define PTO2_ERROR_TENSOR_WAIT_TIMEOUT 8
#define PTO2_ERROR_EXPLICIT_ORCH_FATAL 9
#define PTO2_ERROR_SCOPE_TASKS_OVERFLOW 10

// ---------------------------------------------------------------------------------------------
// DataType and scalar packing (section 2)

enum class DataType : uint8_t {
    FLOAT32, FLOAT16, INT32, INT16, INT8, UINT8, BFLOAT16, INT64, UINT64, UINT16, UINT32, BOOL,
    DATA_TYPE_NUM
};

inline uint64_t get_element_size(DataType dtype) {
    static const uint64_t sizes[] = {4, 2, 4, 2, 1, 1, 2, 8, 8, 2, 4, 1};
    return static_cast<uint8_t>(dtype) < 12 ? sizes[static_cast<uint8_t>(dtype)] : 0;
}

inline const char *get_dtype_name(DataType dtype) {
    static const char *names[] = {"FLOAT32", "FLOAT16", "INT32", "INT16", "INT8", "UINT8",
                                  "BFLOAT16", "INT64", "UINT64", "UINT16", "UINT32", "BOOL"};
    return static_cast<uint8_t>(dtype) < 12 ? names[static_cast<uint8_t>(dtype)] : "UNKNOWN";
}

template <typename T>
inline constexpr bool is_supported_scalar_arg_v =
    std::is_arithmetic_v<std::remove_cv_t<std::remove_reference_t<T>>> ||
    std::is_enum_v<std::remove_cv_t<std::remove_reference_t<T>>>;

#define PTO_DEVICE_FUNC

template <typename T>
PTO_DEVICE_FUNC inline uint64_t to_u64(T value) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "to_u64 needs a small trivially copyable type");
    uint64_t bits = 0;
    memcpy(&bits, &value, sizeof(T));
    return bits;
}

template <typename T>
PTO_DEVICE_FUNC inline T from_u64(uint64_t bits) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "from_u64 needs a small trivially copyable type");
    T value;
    memcpy(&value, &bits, sizeof(T));
    return value;
}

// ---------------------------------------------------------------------------------------------
// PTO2TaskId (section 3)

struct PTO2TaskId {
    uint64_t raw;
    static constexpr PTO2TaskId make(uint8_t ring_id, uint32_t local_id) {
        return PTO2TaskId{(static_cast<uint64_t>(ring_id) << 32) | local_id};
    }
    static constexpr PTO2TaskId invalid() { return PTO2TaskId{UINT64_MAX}; }
    constexpr uint8_t ring() const { return static_cast<uint8_t>(raw >> 32); }
    constexpr uint32_t local() const { return static_cast<uint32_t>(raw); }
    constexpr bool is_valid() const { return raw != UINT64_MAX; }
    constexpr bool is_invalid() const { return raw == UINT64_MAX; }
    constexpr bool operator==(const PTO2TaskId &o) const { return raw == o.raw; }
    constexpr bool operator!=(const PTO2TaskId &o) const { return raw != o.raw; }
};

// ---------------------------------------------------------------------------------------------
// Tensor (section 4)

struct PTOBufferHandle {
    uint64_t addr;
    uint64_t size;
};

enum class TensorArgType : int32_t { INPUT = 0, OUTPUT = 1, INOUT = 2, OUTPUT_EXISTING = 3, NO_DEP = 4 };

struct alignas(64) Tensor {
    PTOBufferHandle buffer;
    PTO2TaskId owner_task_id;
    uint64_t start_offset;
    int32_t version;
    uint32_t ndims;
    DataType dtype;
    bool manual_dep;
    bool is_contiguous;
    uint8_t child_memory;
    uint32_t shapes[MAX_TENSOR_DIMS];
    uint64_t extent_elem_cache;
    uint32_t strides[MAX_TENSOR_DIMS];
    uint8_t _pad_cl2[36];

    Tensor() = default;

    uint64_t numel() const {
        uint64_t n = 1;
        for (uint32_t i = 0; i < ndims; ++i) n *= shapes[i];
        return n;
    }
    uint64_t extent_elem() const {
        uint64_t e = 1;
        for (uint32_t i = 0; i < ndims; ++i) e += static_cast<uint64_t>(shapes[i] - 1) * strides[i];
        return e;
    }
    [[nodiscard]] bool is_child_memory() const { return child_memory != 0; }
    [[nodiscard]] uint64_t nbytes() const { return numel() * get_element_size(dtype); }
    template <typename T>
    T *data_as() const {
        return reinterpret_cast<T *>(static_cast<uintptr_t>(buffer.addr));
    }
    void init_external(void *addr, uint64_t buffer_size_bytes, const uint32_t in_shapes[], uint32_t in_ndims,
                       DataType in_dtype, int32_t in_version, bool in_manual_dep = false, uint8_t in_child_memory = 0) {
        memset(this, 0, sizeof(Tensor));
        buffer.addr = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(addr));
        buffer.size = buffer_size_bytes;
        owner_task_id = PTO2TaskId::invalid();
        version = in_version;
        ndims = in_ndims;
        dtype = in_dtype;
        manual_dep = in_manual_dep;
        is_contiguous = true;
        child_memory = in_child_memory;
        uint32_t stride = 1;
        for (int i = static_cast<int>(in_ndims) - 1; i >= 0; --i) {
            shapes[i] = in_shapes[i];
            strides[i] = stride;
            stride *= in_shapes[i];
        }
        extent_elem_cache = extent_elem();
    }
    void init_from(const Tensor &other) { memcpy(this, &other, sizeof(Tensor)); }
    void init_from_line1(const Tensor &other) { memcpy(this, &other, 64); }
    void copy(const Tensor &other) { init_from(other); }
    uint64_t compute_flat_offset(const uint32_t indices[], uint32_t in_ndims) const {
        uint64_t off = start_offset;
        for (uint32_t i = 0; i < in_ndims; ++i) off += static_cast<uint64_t>(indices[i]) * strides[i];
        return off;
    }
    Tensor view(const uint32_t view_shapes[], const uint32_t view_offsets[], bool in_manual_dep = false) const {
        Tensor t = *this;
        for (uint32_t i = 0; i < ndims; ++i) {
            t.start_offset += static_cast<uint64_t>(view_offsets[i]) * strides[i];
            t.shapes[i] = view_shapes[i];
        }
        t.manual_dep = in_manual_dep;
        t.extent_elem_cache = t.extent_elem();
        return t;
    }
    bool valid_transpose(uint32_t x, uint32_t y) const { return x < ndims && y < ndims; }
    Tensor transpose(uint32_t x, uint32_t y, bool in_manual_dep = false) const {
        Tensor t = *this;
        uint32_t s = t.shapes[x];
        t.shapes[x] = t.shapes[y];
        t.shapes[y] = s;
        s = t.strides[x];
        t.strides[x] = t.strides[y];
        t.strides[y] = s;
        t.is_contiguous = x == y && is_contiguous;
        t.manual_dep = in_manual_dep;
        return t;
    }
    Tensor permute(const uint32_t order[], bool in_manual_dep = false) const {
        Tensor t = *this;
        for (uint32_t i = 0; i < ndims; ++i) {
            t.shapes[i] = shapes[order[i]];
            t.strides[i] = strides[order[i]];
        }
        t.manual_dep = in_manual_dep;
        return t;
    }
    Tensor slice(uint32_t dim, uint32_t start, uint32_t end, uint32_t step = 1, bool in_manual_dep = false) const {
        Tensor t = *this;
        t.start_offset += static_cast<uint64_t>(start) * strides[dim];
        t.shapes[dim] = (end - start + step - 1) / step;
        t.strides[dim] = strides[dim] * step;
        t.manual_dep = in_manual_dep;
        return t;
    }
    bool valid_reshape(const uint32_t new_shapes[], uint32_t new_ndims) const {
        uint64_t n = 1;
        for (uint32_t i = 0; i < new_ndims; ++i) n *= new_shapes[i];
        return is_contiguous && n == numel();
    }
    Tensor reshape(const uint32_t new_shapes[], uint32_t new_ndims, bool in_manual_dep = false) const {
        Tensor t = *this;
        t.ndims = new_ndims;
        uint32_t stride = 1;
        for (int i = static_cast<int>(new_ndims) - 1; i >= 0; --i) {
            t.shapes[i] = new_shapes[i];
            t.strides[i] = stride;
            stride *= new_shapes[i];
        }
        t.manual_dep = in_manual_dep;
        return t;
    }
    std::string dump() const { return std::string("Tensor(") + get_dtype_name(dtype) + ")"; }
};

static_assert(sizeof(Tensor) == 128, "Tensor is two cache lines");
static_assert(std::is_trivially_copyable_v<Tensor>, "Tensor is trivially copyable");

inline Tensor make_tensor_external(void *addr, const uint32_t shapes[], uint32_t ndims,
                                   DataType dtype = DataType::FLOAT32, bool manual_dep = false,
                                   int32_t version = 0, uint8_t child_memory = 0) {
    Tensor t;
    uint64_t n = 1;
    for (uint32_t i = 0; i < ndims; ++i) n *= shapes[i];
    t.init_external(addr, n * get_element_size(dtype), shapes, ndims, dtype, version, manual_dep, child_memory);
    return t;
}

// ---------------------------------------------------------------------------------------------
// TensorCreateInfo (section 5)

class alignas(64) TensorCreateInfo {
public:
    TensorCreateInfo(const uint32_t shapes_in[], uint32_t ndims_in, DataType dtype_in = DataType::FLOAT32,
                     bool manual_dep_in = false)
        : initial_value(0), has_initial_value(false), __pad1__{}, __pad2__(0), start_offset(0), version(0),
          ndims(ndims_in), dtype(dtype_in), manual_dep(manual_dep_in), is_contiguous(true), __pad_flags__(0),
          shapes{} {
        for (uint32_t i = 0; i < ndims_in && i < static_cast<uint32_t>(MAX_TENSOR_DIMS); ++i) shapes[i] = shapes_in[i];
    }
    TensorCreateInfo() = default;
    void copy(const TensorCreateInfo &other) { *this = other; }
    template <typename T = uint64_t>
    void set_initial_value(T value) {
        initial_value = to_u64(value);
        has_initial_value = true;
    }
    uint64_t buffer_size_bytes() const {
        uint64_t n = get_element_size(dtype);
        for (uint32_t i = 0; i < ndims; ++i) n *= shapes[i];
        return n;
    }
    uint64_t initial_value;
    bool has_initial_value;
    uint8_t __pad1__[7];
    uint64_t __pad2__;
    uint64_t start_offset;
    int32_t version;
    uint32_t ndims;
    DataType dtype;
    bool manual_dep;
    bool is_contiguous;
    uint8_t __pad_flags__;
    uint32_t shapes[MAX_TENSOR_DIMS];
    friend struct Arg;
};

// ---------------------------------------------------------------------------------------------
// Argument containers (sections 6 and 7)

template <typename T, typename S, size_t MaxT, size_t MaxS, typename TensorTag = void>
struct TaskArgsTpl {
    T tensors_[MaxT > 0 ? MaxT : 1];
    S scalars_[MaxS > 0 ? MaxS : 1];
    int32_t tensor_count_{0};
    int32_t scalar_count_{0};

    void add_tensor(const T &t) { tensors_[tensor_count_++] = t; }
    void add_scalar(S s) { scalars_[scalar_count_++] = s; }
    const T &tensor(int32_t i) const { return tensors_[i]; }
    T &tensor(int32_t i) { return tensors_[i]; }
    S scalar(int32_t i) const { return scalars_[i]; }
    S &scalar(int32_t i) { return scalars_[i]; }
    const S *scalars() const { return scalars_; }
    const T *tensor_data() const { return tensors_; }
    const S *scalar_data() const { return scalars_; }
    int32_t tensor_count() const { return tensor_count_; }
    int32_t scalar_count() const { return scalar_count_; }
    void clear() {
        tensor_count_ = 0;
        scalar_count_ = 0;
    }
};

using ChipStorageTaskArgs = TaskArgsTpl<Tensor, uint64_t, CHIP_MAX_TENSOR_ARGS, CHIP_MAX_SCALAR_ARGS>;

union TensorRef {
    const Tensor *ptr;
    const TensorCreateInfo *create_info;
    TensorRef() : ptr(nullptr) {}
};

class PTO2LaunchSpec {
public:
    constexpr PTO2LaunchSpec() : block_num_(1), require_sync_start_(false) {}
    int16_t block_num() const { return block_num_; }
    void set_block_num(int16_t n) { block_num_ = n; }
    void set_core_num(int16_t n) { block_num_ = n; }  // the Ascend950 runtime's name for set_block_num
    bool require_sync_start() const { return require_sync_start_; }
    void set_require_sync_start(bool v) { require_sync_start_ = v; }

private:
    int16_t block_num_;
    bool require_sync_start_;
};

struct Arg {
    TensorRef tensors_[MAX_TENSOR_ARGS];
    TensorArgType tags_[MAX_TENSOR_ARGS];
    uint64_t scalars_[MAX_SCALAR_ARGS];
    int32_t tensor_count_{0};
    int32_t scalar_count_{0};
    const PTO2TaskId *deps_{nullptr};
    uint32_t dep_count_{0};
    bool has_error{false};
    const char *error_msg{nullptr};
    PTO2LaunchSpec launch_spec;
    bool allow_early_resolve_{false};

    void set_allow_early_resolve(bool v = true) { allow_early_resolve_ = v; }
    bool allow_early_resolve() const { return allow_early_resolve_; }
    void clear() {
        tensor_count_ = 0;
        scalar_count_ = 0;
        deps_ = nullptr;
        dep_count_ = 0;
        allow_early_resolve_ = false;
    }
    void reset() {
        clear();
        has_error = false;
        error_msg = nullptr;
    }
    void set_error(const char *msg) {
        if (!has_error) {
            has_error = true;
            error_msg = msg;
        }
    }

    template <typename... Args>
    void add_input(Args &&...args) {
        (push_tensor<Args>(args, TensorArgType::INPUT), ...);
    }
    template <typename... Args>
    void add_output(Args &&...args) {
        (push_output<Args>(args), ...);
    }
    template <typename... Args>
    void add_inout(Args &&...args) {
        (push_tensor<Args>(args, TensorArgType::INOUT), ...);
    }
    template <typename... Args>
    void add_no_dep(Args &&...args) {
        (push_tensor<Args>(args, TensorArgType::NO_DEP), ...);
    }
    void set_dependencies(const PTO2TaskId *deps, uint32_t count) {
        if (count == 0) {
            deps_ = nullptr;
            dep_count_ = 0;
            return;
        }
        if (deps == nullptr) return set_error("set_dependencies: null array");
        if (dep_count_ != 0) return set_error("set_dependencies called twice");
        deps_ = deps;
        dep_count_ = count;
    }
    uint32_t explicit_dep_count() const { return dep_count_; }
    PTO2TaskId explicit_dep(uint32_t index) const { return deps_[index]; }
    const PTO2TaskId *explicit_deps_data() const { return deps_; }

    template <typename... Args>
    void add_scalar(Args &&...args) {
        static_assert(sizeof...(Args) >= 1, "add_scalar needs a value");
        static_assert((is_supported_scalar_arg_v<Args> && ...), "add_scalar takes arithmetic or enum values");
        (push_scalar(to_u64(args)), ...);
    }
    void add_scalars(const uint64_t *values, int count) {
        for (int i = 0; i < count; ++i) push_scalar(values[i]);
    }

    // mark tensors already added to this Arg for the runtime's tensor dump (none: every tensor)
    template <typename... Args>
    void dump(Args &&...args) {
        static_assert((std::is_same_v<std::decay_t<Args>, Tensor> && ...), "dump takes Tensors of this Arg");
        (mark_dump(args), ...);
    }

    int32_t tensor_count() const { return tensor_count_; }
    int32_t scalar_count() const { return scalar_count_; }
    TensorRef tensor(int32_t i) const { return tensors_[i]; }
    TensorArgType tag(int32_t i) const { return tags_[i]; }
    uint64_t scalar(int32_t i) const { return scalars_[i]; }

private:
    template <typename A>
    void push_tensor(const Tensor &t, TensorArgType tag) {
        static_assert(std::is_lvalue_reference_v<A>, "temporaries are not allowed: name the tensor first");
        static_assert(std::is_same_v<std::decay_t<A>, Tensor>, "expected a Tensor");
        if (scalar_count_ > 0) return set_error("tensor added after add_scalar");
        if (tensor_count_ >= MAX_TENSOR_ARGS) return set_error("too many tensors");
        tensors_[tensor_count_].ptr = &t;
        tags_[tensor_count_++] = tag;
    }
    template <typename A>
    void push_output(const std::decay_t<A> &value) {
        static_assert(std::is_lvalue_reference_v<A>, "temporaries are not allowed: name the tensor or create-info first");
        using V = std::decay_t<A>;
        static_assert(std::is_same_v<V, Tensor> || std::is_same_v<V, TensorCreateInfo>,
                      "add_output takes Tensors or TensorCreateInfos");
        if (scalar_count_ > 0) return set_error("tensor added after add_scalar");
        if (tensor_count_ >= MAX_TENSOR_ARGS) return set_error("too many tensors");
        if constexpr (std::is_same_v<V, Tensor>) {
            tensors_[tensor_count_].ptr = &value;
            tags_[tensor_count_++] = TensorArgType::OUTPUT_EXISTING;
        } else {
            tensors_[tensor_count_].create_info = &value;
            tags_[tensor_count_++] = TensorArgType::OUTPUT;
        }
    }
    void push_scalar(uint64_t bits) {
        if (scalar_count_ >= MAX_SCALAR_ARGS) return set_error("too many scalars");
        scalars_[scalar_count_++] = bits;
    }
    void mark_dump(const Tensor &t) {
        for (int32_t i = 0; i < tensor_count_; ++i) {
            if (tags_[i] != TensorArgType::OUTPUT && tensors_[i].ptr == &t) {
                dump_mask_ |= uint64_t{1} << i;
                return;
            }
        }
        set_error("dump: the tensor is not an argument of this task");
    }
    uint64_t dump_mask_{0};

public:
    uint64_t dump_arg_mask() const { return dump_mask_; }
};

// ---------------------------------------------------------------------------------------------
// Submit types (sections 8 and 9)

enum class PTO2ScopeMode : uint8_t { AUTO = 0, MANUAL = 1 };

struct MixedKernels {
    int32_t aic_kernel_id{INVALID_KERNEL_ID};
    int32_t aiv0_kernel_id{INVALID_KERNEL_ID};
    int32_t aiv1_kernel_id{INVALID_KERNEL_ID};
};

class TaskOutputTensors {
public:
    TaskOutputTensors() : task_id_(PTO2TaskId::invalid()), output_count_(0), tensors_{} {}
    bool empty() const { return output_count_ == 0; }
    uint32_t size() const { return output_count_; }
    const Tensor &get_ref(uint32_t index) const & { return *tensors_[index]; }
    const Tensor &get_ref(uint32_t index) const && = delete;
    void materialize_output(const Tensor &tensor) {
        if (output_count_ < static_cast<uint32_t>(MAX_TENSOR_ARGS)) tensors_[output_count_++] = &tensor;
    }
    void set_task_id(PTO2TaskId id) { task_id_ = id; }
    PTO2TaskId task_id() const { return task_id_; }

private:
    PTO2TaskId task_id_;
    uint32_t output_count_;
    const Tensor *tensors_[MAX_TENSOR_ARGS];
};
using TaskSubmitResult = TaskOutputTensors;

// ---------------------------------------------------------------------------------------------
// Runtime operations and the API (section 10)

#ifndef PTO2_ORCHESTRATION_CONFIG_DEFINED
#define PTO2_ORCHESTRATION_CONFIG_DEFINED
struct PTO2OrchestrationConfig {
    int expected_arg_count;
};
#endif

inline Tensor from_tensor_arg(const Tensor &t, bool manual_dep = false, int32_t version = 0) {
    Tensor copy = t;
    copy.manual_dep = manual_dep;
    copy.version = version;
    return copy;
}

// The newer runtime release's spellings (decisions.md D1, `nanopass run --abi l2`): the entry's
// arguments are L2TaskArgs, whose tensor(i) is an argument record handing out the Tensor by
// .ref(), and a task's builder is L0TaskArgs.
struct L2TensorArg {
    Tensor tensor_;
    const Tensor &ref() const { return tensor_; }
};
using L2TaskArgs = TaskArgsTpl<L2TensorArg, uint64_t, CHIP_MAX_TENSOR_ARGS, CHIP_MAX_SCALAR_ARGS>;
using L0TaskArgs = Arg;

typedef struct PTO2Runtime PTO2Runtime;
extern "C" PTO2Runtime *framework_current_runtime(void);
extern "C" void framework_bind_runtime(PTO2Runtime *rt);

typedef struct PTO2RuntimeOps {
    TaskOutputTensors (*submit_task)(PTO2Runtime *, const MixedKernels &, const Arg &);
    void (*scope_begin)(PTO2Runtime *);
    void (*scope_end)(PTO2Runtime *);
    void (*orchestration_done)(PTO2Runtime *);
    bool (*is_fatal)(PTO2Runtime *);
    void (*report_fatal)(PTO2Runtime *, int32_t error_code, const char *func, const char *fmt, ...);
    void (*log_error)(const char *func, const char *fmt, ...);
    void (*log_warn)(const char *func, const char *fmt, ...);
    void (*log_debug)(const char *func, const char *fmt, ...);
    void (*log_info_v)(const char *func, int v, const char *fmt, ...);
    uint64_t (*get_tensor_data)(PTO2Runtime *, const Tensor &, uint32_t ndims, const uint32_t indices[]);
    void (*set_tensor_data)(PTO2Runtime *, const Tensor &, uint32_t ndims, const uint32_t indices[], uint64_t value);
    TaskOutputTensors (*alloc_tensors)(PTO2Runtime *, const Arg &);
    TaskOutputTensors (*submit_dummy_task)(PTO2Runtime *, const Arg &);
    void (*scope_set_site)(const char *file, int line);
} PTO2RuntimeOps;

struct PTO2Runtime {
    const PTO2RuntimeOps *ops;
    PTO2ScopeMode pending_scope_mode;
};

static inline PTO2Runtime *current_runtime() { return framework_current_runtime(); }

static inline bool rt_is_fatal() {
    PTO2Runtime *rt = current_runtime();
    return rt->ops->is_fatal(rt);
}

static inline TaskOutputTensors alloc_tensors(const Arg &args) {
    PTO2Runtime *rt = current_runtime();
    if (rt->ops->is_fatal(rt)) return TaskOutputTensors{};
    return rt->ops->alloc_tensors(rt, args);
}

static inline TaskOutputTensors alloc_tensors(const TensorCreateInfo create_infos[], uint32_t count) {
    Arg args;
    for (uint32_t i = 0; i < count; ++i) args.add_output(create_infos[i]);
    return alloc_tensors(args);
}

template <typename... CIs>
static inline TaskOutputTensors alloc_tensors(const CIs &...cis) {
    static_assert(sizeof...(CIs) >= 1, "alloc_tensors needs at least one TensorCreateInfo");
    static_assert((std::is_same_v<CIs, TensorCreateInfo> && ...), "alloc_tensors takes TensorCreateInfos");
    Arg args;
    args.add_output(cis...);
    return alloc_tensors(args);
}

static inline TaskOutputTensors rt_submit_task(const MixedKernels &mixed_kernels, const Arg &args) {
    PTO2Runtime *rt = current_runtime();
    if (rt->ops->is_fatal(rt)) return TaskOutputTensors{};
    return rt->ops->submit_task(rt, mixed_kernels, args);
}

static inline TaskOutputTensors rt_submit_aic_task(int32_t kernel_id, const Arg &args) {
    MixedKernels mk;
    mk.aic_kernel_id = kernel_id;
    return rt_submit_task(mk, args);
}

static inline TaskOutputTensors rt_submit_aiv_task(int32_t kernel_id, const Arg &args) {
    MixedKernels mk;
    mk.aiv0_kernel_id = kernel_id;
    return rt_submit_task(mk, args);
}

static inline TaskOutputTensors rt_submit_dummy_task(const Arg &args) {
    PTO2Runtime *rt = current_runtime();
    if (rt->ops->is_fatal(rt)) return TaskOutputTensors{};
    return rt->ops->submit_dummy_task(rt, args);
}

static inline void rt_scope_begin(PTO2ScopeMode mode = PTO2ScopeMode::AUTO) {
    PTO2Runtime *rt = current_runtime();
    if (rt->ops->is_fatal(rt)) return;
    rt->pending_scope_mode = mode;
    rt->ops->scope_begin(rt);
}

static inline void rt_scope_end() {
    PTO2Runtime *rt = current_runtime();
    if (rt->ops->is_fatal(rt)) return;
    rt->ops->scope_end(rt);
}

static inline void rt_orchestration_done() {
    PTO2Runtime *rt = current_runtime();
    rt->ops->orchestration_done(rt);
}

template <typename T = uint64_t>
static inline T get_tensor_data(const Tensor &tensor, uint32_t ndims, const uint32_t indices[]) {
    PTO2Runtime *rt = current_runtime();
    if (rt->ops->is_fatal(rt)) return from_u64<T>(0);
    return from_u64<T>(rt->ops->get_tensor_data(rt, tensor, ndims, indices));
}

template <typename T = uint64_t>
static inline void set_tensor_data(const Tensor &tensor, uint32_t ndims, const uint32_t indices[], T value) {
    PTO2Runtime *rt = current_runtime();
    if (rt->ops->is_fatal(rt)) return;
    rt->ops->set_tensor_data(rt, tensor, ndims, indices, to_u64(value));
}

class PTO2ScopeGuard {
public:
    explicit PTO2ScopeGuard(PTO2ScopeMode mode = PTO2ScopeMode::AUTO, const char *file = __builtin_FILE(),
                            int line = __builtin_LINE()) {
        PTO2Runtime *rt = current_runtime();
        if (rt->ops->scope_set_site) rt->ops->scope_set_site(file, line);
        rt_scope_begin(mode);
    }
    ~PTO2ScopeGuard() { rt_scope_end(); }
    PTO2ScopeGuard(const PTO2ScopeGuard &) = delete;
    PTO2ScopeGuard &operator=(const PTO2ScopeGuard &) = delete;
};

#define PTO2_SCOPE_CAT2(a, b) a##b
#define PTO2_SCOPE_CAT(a, b) PTO2_SCOPE_CAT2(a, b)
#define PTO2_SCOPE_GUARD() [[maybe_unused]] PTO2ScopeGuard PTO2_SCOPE_CAT(scope_guard_, __LINE__)
#define PTO2_SCOPE(...) if (PTO2ScopeGuard PTO2_SCOPE_CAT(scope_guard_, __LINE__){__VA_ARGS__}; true)

#define rt_report_fatal(code, fmt, ...) \
    current_runtime()->ops->report_fatal(current_runtime(), code, __FUNCTION__, fmt, ##__VA_ARGS__)
#define LOG_ERROR(fmt, ...) current_runtime()->ops->log_error(__FUNCTION__, fmt, ##__VA_ARGS__)
#define LOG_WARN(fmt, ...) current_runtime()->ops->log_warn(__FUNCTION__, fmt, ##__VA_ARGS__)
#define LOG_DEBUG(fmt, ...) current_runtime()->ops->log_debug(__FUNCTION__, fmt, ##__VA_ARGS__)

#endif  // NANOPASS_PTO_ORCHESTRATION_API_H
