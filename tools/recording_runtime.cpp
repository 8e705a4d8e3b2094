// The recording runtime (see recording_runtime.h). It mirrors tools/sim_runtime.py call for call:
// ids count allocs and submits together from 0; OUTPUT slots and alloc_tensors make fresh
// zero-filled buffers (or filled with the create-info's initial value) whose Tensors carry their
// creator as owner; get/set_tensor_data read and write those buffers (kernels never run); the
// first fatal error ends the trace. The fatal messages are the ones sim_runtime.py records.
#include "recording_runtime.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

struct BufferRec {
    std::string name;
    std::vector<uint32_t> shape;
    DataType dtype;
    const char *origin;
    int slot;
    bool manual_dep;
    bool has_init;
    uint64_t init;
    std::string label;
    uint64_t numel;
};

struct Recorder {
    std::string output_path;
    std::vector<BufferRec> buffers;
    std::map<uint64_t, size_t> by_addr;
    std::vector<std::string> events;
    std::vector<PTO2ScopeMode> scopes;
    std::set<uint64_t> issued;
    std::deque<Tensor> made;
    uint32_t next_id = 0;
    int entries = 0;
    bool fatal = false;
    int site_line = -1;
};

Recorder &rec() {
    static Recorder r;
    return r;
}

std::string quote(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string u64(uint64_t v) { return std::to_string(v); }

template <typename T>
std::string list(const T *values, uint32_t n) {
    std::string out = "[";
    for (uint32_t i = 0; i < n; ++i) out += (i ? "," : "") + std::to_string(values[i]);
    return out + "]";
}

const char *tag_name(TensorArgType tag) {
    switch (tag) {
        case TensorArgType::INPUT: return "INPUT";
        case TensorArgType::OUTPUT: return "OUTPUT";
        case TensorArgType::INOUT: return "INOUT";
        case TensorArgType::OUTPUT_EXISTING: return "OUTPUT_EXISTING";
        case TensorArgType::NO_DEP: return "NO_DEP";
    }
    return "?";
}

void write_trace() {
    Recorder &r = rec();
    FILE *out = r.output_path.empty() ? stdout : fopen(r.output_path.c_str(), "w");
    if (out == nullptr) {
        fprintf(stderr, "recording runtime: cannot write %s\n", r.output_path.c_str());
        exit(2);
    }
    fputs("{\"buffers\":[", out);
    for (size_t i = 0; i < r.buffers.size(); ++i) {
        const BufferRec &b = r.buffers[i];
        fprintf(out, "%s{\"name\":%s,\"shape\":%s,\"dtype\":\"%s\",\"origin\":\"%s\",\"slot\":%s,\"manual_dep\":%s,"
                     "\"init\":%s,\"label\":%s}",
                i ? "," : "", quote(b.name).c_str(), list(b.shape.data(), b.shape.size()).c_str(),
                get_dtype_name(b.dtype), b.origin, b.slot >= 0 ? std::to_string(b.slot).c_str() : "null",
                b.manual_dep ? "true" : "false", b.has_init ? u64(b.init).c_str() : "null", quote(b.label).c_str());
    }
    fputs("],\"events\":[", out);
    for (size_t i = 0; i < r.events.size(); ++i) fprintf(out, "%s%s", i ? "," : "", r.events[i].c_str());
    fputs("]}\n", out);
    if (out != stdout) fclose(out);
}

void fail(const std::string &message) {
    Recorder &r = rec();
    if (!r.fatal) r.events.push_back("{\"op\":\"fatal\",\"message\":" + quote(message) + "}");
    r.fatal = true;
    write_trace();
    exit(0);
}

const char *mode_name(PTO2ScopeMode mode) { return mode == PTO2ScopeMode::MANUAL ? "manual" : "auto"; }

const char *current_mode() {
    for (PTO2ScopeMode m : rec().scopes)
        if (m == PTO2ScopeMode::MANUAL) return "manual";
    return "auto";
}

uint64_t numel_of(const uint32_t shape[], uint32_t ndims) {
    uint64_t n = 1;
    for (uint32_t i = 0; i < ndims; ++i) n *= shape[i];
    return n;
}

size_t buffer_index(const Tensor &t) {
    auto found = rec().by_addr.find(t.buffer.addr);
    if (found == rec().by_addr.end()) fail("submit: tensor of an unknown buffer");
    return found->second;
}

std::string view_json(const Tensor &t) {
    const BufferRec &b = rec().buffers[buffer_index(t)];
    return "\"buffer\":" + quote(b.name) + ",\"offset\":" + u64(t.start_offset) + ",\"shape\":" +
           list(t.shapes, t.ndims) + ",\"strides\":" + list(t.strides, t.ndims);
}

std::string owner_json(PTO2TaskId id) { return id.is_valid() ? std::to_string(id.local()) : "null"; }

PTO2TaskId fresh_id() {
    Recorder &r = rec();
    size_t depth = r.scopes.size();
    uint8_t ring = static_cast<uint8_t>(depth == 0 ? 0 : (depth - 1 < 3 ? depth - 1 : 3));
    PTO2TaskId id = PTO2TaskId::make(ring, r.next_id++);
    r.issued.insert(id.raw);
    return id;
}

bool valid_info(const TensorCreateInfo &ci) {
    if (ci.ndims < 1 || ci.ndims > static_cast<uint32_t>(MAX_TENSOR_DIMS)) {
        fail("TensorCreateInfo: ndims must be 1..5");
        return false;
    }
    return true;
}

// A fresh buffer for a create-info, filled with its initial value; its Tensor is owned by `owner`.
const Tensor &make_buffer(const TensorCreateInfo &ci, const char *origin, PTO2TaskId owner, const std::string &label) {
    Recorder &r = rec();
    uint64_t numel = numel_of(ci.shapes, ci.ndims);
    uint64_t elem = get_element_size(ci.dtype);
    uint8_t *data = static_cast<uint8_t *>(calloc(numel ? numel * elem : 1, 1));
    if (ci.has_initial_value)
        for (uint64_t i = 0; i < numel; ++i) memcpy(data + i * elem, &ci.initial_value, elem);
    BufferRec b;
    b.name = "b" + std::to_string(r.buffers.size() - r.entries);
    b.shape.assign(ci.shapes, ci.shapes + ci.ndims);
    b.dtype = ci.dtype;
    b.origin = origin;
    b.slot = -1;
    b.manual_dep = ci.manual_dep;
    b.has_init = ci.has_initial_value;
    b.init = ci.initial_value;
    b.label = label;
    b.numel = numel;
    r.by_addr[reinterpret_cast<uint64_t>(data)] = r.buffers.size();
    r.buffers.push_back(b);
    Tensor t = make_tensor_external(data, ci.shapes, ci.ndims, ci.dtype, ci.manual_dep);
    t.owner_task_id = owner;
    r.made.push_back(t);
    return r.made.back();
}

// Every element of the view lies in its buffer (sim_runtime.py's SimRuntime.inside).
bool inside(const Tensor &t) {
    const BufferRec &b = rec().buffers[buffer_index(t)];
    uint64_t last = t.start_offset;
    for (uint32_t i = 0; i < t.ndims; ++i) {
        if (t.shapes[i] == 0) return true;
        last += static_cast<uint64_t>(t.shapes[i] - 1) * t.strides[i];
    }
    return last < b.numel;
}

std::string launch_json(const MixedKernels *mk) {
    if (mk == nullptr) return "null";
    return "[" + std::to_string(mk->aic_kernel_id) + "," + std::to_string(mk->aiv0_kernel_id) + "," +
           std::to_string(mk->aiv1_kernel_id) + "]";
}

TaskOutputTensors submit(const MixedKernels *mk, const Arg &args) {
    Recorder &r = rec();
    if (args.has_error) fail(std::string("submit: Arg has an error: ") + (args.error_msg ? args.error_msg : ""));
    if (args.launch_spec.block_num() < 1)  // the runtime requires at least one block
        fail("submit: Arg has an error: launch_spec.set_block_num(" + std::to_string(args.launch_spec.block_num()) + ")");
    if (mk != nullptr && mk->aic_kernel_id < 0 && mk->aiv0_kernel_id < 0 && mk->aiv1_kernel_id < 0)
        fail("submit: MixedKernels has no valid kernel");
    if (args.tensor_count() > MAX_TENSOR_ARGS || args.scalar_count() > MAX_SCALAR_ARGS)
        fail("submit: too many arguments");
    std::string deps = "[";
    for (uint32_t i = 0; i < args.explicit_dep_count(); ++i) {
        PTO2TaskId dep = args.explicit_dep(i);
        if (!dep.is_valid() || r.issued.count(dep.raw) == 0) fail("submit: invalid explicit dependency");
        deps += (i ? "," : "") + std::to_string(dep.local());
    }
    deps += "]";
    for (int32_t i = 0; i < args.tensor_count(); ++i) {
        if (args.tag(i) == TensorArgType::OUTPUT) {
            valid_info(*args.tensor(i).create_info);
        } else if (!inside(*args.tensor(i).ptr)) {
            fail("submit: a tensor view lies outside its buffer");
        }
    }
    PTO2TaskId id = fresh_id();
    TaskOutputTensors outs;
    outs.set_task_id(id);
    std::string tensors = "[", outputs = "[";
    for (int32_t i = 0; i < args.tensor_count(); ++i) {
        TensorArgType tag = args.tag(i);
        const Tensor *t;
        if (tag == TensorArgType::OUTPUT) {
            t = &make_buffer(*args.tensor(i).create_info, "output", id, "");
            outs.materialize_output(*t);
            outputs += (outputs.size() > 1 ? "," : "") + quote(r.buffers[buffer_index(*t)].name);
        } else {
            t = args.tensor(i).ptr;
        }
        tensors += std::string(i ? "," : "") + "{" + view_json(*t) + ",\"tag\":\"" + tag_name(tag) +
                   "\",\"manual_dep\":" + (t->manual_dep ? "true" : "false") + ",\"owner\":" + owner_json(t->owner_task_id) +
                   "}";
    }
    tensors += "]";
    outputs += "]";
    r.events.push_back("{\"op\":\"task\",\"id\":" + std::to_string(id.local()) + ",\"kind\":\"" +
                       (mk ? "kernel" : "dummy") + "\",\"launch\":" + launch_json(mk) + ",\"tensors\":" + tensors +
                       ",\"scalars\":" + list(args.scalars_, static_cast<uint32_t>(args.scalar_count())) +
                       ",\"deps\":" + deps + ",\"mode\":\"" + current_mode() + "\",\"outputs\":" + outputs +
                       ",\"kernel\":null,\"line\":null,\"par\":[]}");
    return outs;
}

// -- the operations ---------------------------------------------------------------------------------

TaskOutputTensors op_submit_task(PTO2Runtime *, const MixedKernels &mk, const Arg &args) { return submit(&mk, args); }

TaskOutputTensors op_submit_dummy_task(PTO2Runtime *, const Arg &args) { return submit(nullptr, args); }

TaskOutputTensors op_alloc_tensors(PTO2Runtime *, const Arg &args) {
    Recorder &r = rec();
    if (args.tensor_count() < 1 || args.tensor_count() > MAX_TENSOR_ARGS) fail("alloc_tensors: needs 1..32 create-infos");
    if (args.scalar_count() != 0) fail("alloc_tensors: takes OUTPUT create-infos only");
    for (int32_t i = 0; i < args.tensor_count(); ++i) {
        if (args.tag(i) != TensorArgType::OUTPUT) fail("alloc_tensors: takes OUTPUT create-infos only");
        valid_info(*args.tensor(i).create_info);
    }
    PTO2TaskId id = fresh_id();
    TaskOutputTensors outs;
    outs.set_task_id(id);
    std::string names = "[";
    for (int32_t i = 0; i < args.tensor_count(); ++i) {
        const Tensor &t = make_buffer(*args.tensor(i).create_info, "alloc", id, "");
        outs.materialize_output(t);
        names += (i ? "," : "") + quote(r.buffers[buffer_index(t)].name);
    }
    r.events.push_back("{\"op\":\"alloc\",\"id\":" + std::to_string(id.local()) + ",\"outputs\":" + names +
                       "],\"line\":null}");
    return outs;
}

void op_scope_begin(PTO2Runtime *rt) {
    Recorder &r = rec();
    PTO2ScopeMode mode = rt->pending_scope_mode;
    if (mode == PTO2ScopeMode::AUTO && std::string(current_mode()) == "manual")
        fail("rt_scope_begin: AUTO scope inside a MANUAL scope");
    r.scopes.push_back(mode);
    std::string line = r.site_line >= 0 ? std::to_string(r.site_line) : "null";
    r.site_line = -1;
    r.events.push_back(std::string("{\"op\":\"scope_begin\",\"mode\":\"") + mode_name(mode) + "\",\"line\":" + line + "}");
}

void op_scope_end(PTO2Runtime *) {
    Recorder &r = rec();
    if (r.scopes.empty()) fail("rt_scope_end: no open scope");
    r.scopes.pop_back();
    r.events.push_back("{\"op\":\"scope_end\"}");
}

void op_scope_set_site(const char *, int line) { rec().site_line = line; }

void op_orchestration_done(PTO2Runtime *) {}

bool op_is_fatal(PTO2Runtime *) { return rec().fatal; }

void op_report_fatal(PTO2Runtime *, int32_t code, const char *func, const char *fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fail(std::string("report_fatal(") + std::to_string(code) + ") in " + func + ": " + text);
}

void op_log(const char *, const char *, ...) {}
void op_log_v(const char *, int, const char *, ...) {}

// The flat element index `indices` names in tensor `t`, or fails (sim_runtime.py's SimRuntime.flat).
uint64_t element(const Tensor &t, uint32_t ndims, const uint32_t indices[], const BufferRec &b) {
    if (ndims != t.ndims) fail("tensor data access: index out of bounds");
    for (uint32_t i = 0; i < ndims; ++i)
        if (indices[i] >= t.shapes[i]) fail("tensor data access: index out of bounds");
    uint64_t flat = t.compute_flat_offset(indices, ndims);
    if (flat >= b.numel) fail("tensor data access: index out of bounds");
    return flat;
}

std::string access_json(const char *op, const Tensor &t, uint32_t ndims, const uint32_t indices[], uint64_t value) {
    return std::string("{\"op\":\"") + op + "\",\"tensor\":{" + view_json(t) + "},\"index\":" + list(indices, ndims) +
           ",\"value\":" + u64(value) + ",\"manual_dep\":" + (t.manual_dep ? "true" : "false") +
           ",\"owner\":" + owner_json(t.owner_task_id) + ",\"line\":null,\"par\":[]}";
}

uint64_t op_get_tensor_data(PTO2Runtime *, const Tensor &t, uint32_t ndims, const uint32_t indices[]) {
    Recorder &r = rec();
    const BufferRec &b = r.buffers[buffer_index(t)];
    uint64_t flat = element(t, ndims, indices, b);
    uint64_t elem = get_element_size(b.dtype), value = 0;
    memcpy(&value, reinterpret_cast<uint8_t *>(t.buffer.addr) + flat * elem, elem);
    r.events.push_back(access_json("get", t, ndims, indices, value));
    return value;
}

void op_set_tensor_data(PTO2Runtime *, const Tensor &t, uint32_t ndims, const uint32_t indices[], uint64_t value) {
    Recorder &r = rec();
    const BufferRec &b = r.buffers[buffer_index(t)];
    uint64_t flat = element(t, ndims, indices, b);
    uint64_t elem = get_element_size(b.dtype);
    uint64_t stored = elem == 8 ? value : value & ((uint64_t{1} << (8 * elem)) - 1);
    memcpy(reinterpret_cast<uint8_t *>(t.buffer.addr) + flat * elem, &stored, elem);
    r.events.push_back(access_json("set", t, ndims, indices, stored));
}

const PTO2RuntimeOps kOps = {
    op_submit_task, op_scope_begin,     op_scope_end,       op_orchestration_done, op_is_fatal,
    op_report_fatal, op_log,            op_log,             op_log,                op_log_v,
    op_get_tensor_data, op_set_tensor_data, op_alloc_tensors, op_submit_dummy_task, op_scope_set_site,
};

PTO2Runtime g_runtime = {&kOps, PTO2ScopeMode::AUTO};
PTO2Runtime *g_bound = &g_runtime;

}  // namespace

extern "C" PTO2Runtime *framework_current_runtime(void) { return g_bound; }

extern "C" void framework_bind_runtime(PTO2Runtime *rt) { g_bound = rt ? rt : &g_runtime; }

void recorder_set_output(const char *path) { rec().output_path = path ? path : ""; }

void recorder_add_entry(void *addr, const uint32_t shape[], uint32_t ndims, DataType dtype, const char *label) {
    Recorder &r = rec();
    BufferRec b;
    b.name = "in" + std::to_string(r.entries);
    b.shape.assign(shape, shape + ndims);
    b.dtype = dtype;
    b.origin = "entry";
    b.slot = r.entries++;
    b.manual_dep = false;
    b.has_init = false;
    b.init = 0;
    b.label = label ? label : "";
    b.numel = numel_of(shape, ndims);
    r.by_addr[reinterpret_cast<uint64_t>(addr)] = r.buffers.size();
    r.buffers.push_back(b);
}

void recorder_fatal(const char *message) { fail(message); }

void recorder_finish() { write_trace(); }
