// An independent recording runtime for nanopass's adversarial tester (tools/attack). It
// implements the runtime operations declared by the stand-in header tools/pto_orchestration_api.h
// from shared/spec/runtime-api.md (sections 7-11) and records every call as one JSON object per
// line on stdout. It decides no dependency: the Python runtime model (rtmodel.py) reads the log.
//
// Usage: recorder T:<d0>x<d1>... [T:...] S:<u64> [S:...]
//   Each T is one orchestration tensor argument (FLOAT32, row-major, start_offset 0), in order;
//   each S one scalar argument (raw 64 bits). The program runs as the executor runs it: config,
//   then an outer AUTO scope around the entry.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "pto_orchestration_api.h"

extern "C" PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs &orch_args);
extern "C" void aicpu_orchestration_entry(const ChipStorageTaskArgs &orch_args);

namespace {

struct ScopeRec {
    int uid;
    PTO2ScopeMode mode;
};

struct State {
    PTO2Runtime rt;
    bool fatal = false;
    uint32_t next_local = 0;
    uint64_t next_addr = 0x10000000ull;
    int next_scope_uid = 0;
    std::vector<ScopeRec> scopes;
    std::deque<Tensor> output_tensors;  // get_ref targets; never freed while the program runs
    std::vector<uint64_t> known_ids;
};

State g;

uint64_t fresh_addr(uint64_t bytes) {
    uint64_t a = g.next_addr;
    g.next_addr += ((bytes + 0xfffff) & ~0xfffffull) + 0x100000ull;
    return a;
}

void emit_raw(const char *s) { fputs(s, stdout); }

std::string u64s(uint64_t v) { return std::to_string(v); }

std::string tensor_json(const Tensor &t) {
    std::string s = "{\"addr\":" + u64s(t.buffer.addr) + ",\"size\":" + u64s(t.buffer.size) +
                    ",\"owner\":" + u64s(t.owner_task_id.raw) + ",\"off\":" + u64s(t.start_offset) +
                    ",\"version\":" + std::to_string(t.version) + ",\"ndims\":" + std::to_string(t.ndims) +
                    ",\"dtype\":" + std::to_string(static_cast<int>(t.dtype)) +
                    ",\"manual_dep\":" + (t.manual_dep ? "true" : "false") + ",\"shapes\":[";
    for (uint32_t i = 0; i < t.ndims && i < static_cast<uint32_t>(MAX_TENSOR_DIMS); ++i)
        s += (i ? "," : "") + std::to_string(t.shapes[i]);
    s += "],\"strides\":[";
    for (uint32_t i = 0; i < t.ndims && i < static_cast<uint32_t>(MAX_TENSOR_DIMS); ++i)
        s += (i ? "," : "") + std::to_string(t.strides[i]);
    return s + "]}";
}

void record(const std::string &line) {
    fputs(line.c_str(), stdout);
    fputc('\n', stdout);
}

void go_fatal(int code, const std::string &why) {
    if (!g.fatal) record("{\"ev\":\"fatal\",\"code\":" + std::to_string(code) + ",\"why\":\"" + why + "\"}");
    g.fatal = true;
}

PTO2ScopeMode current_mode() { return g.scopes.empty() ? PTO2ScopeMode::AUTO : g.scopes.back().mode; }

int current_scope_uid() { return g.scopes.empty() ? -1 : g.scopes.back().uid; }

PTO2TaskId fresh_task_id() {
    uint32_t depth = static_cast<uint32_t>(g.scopes.size());
    uint8_t ring = static_cast<uint8_t>(depth == 0 ? 0 : (depth - 1 < 3 ? depth - 1 : 3));
    PTO2TaskId id = PTO2TaskId::make(ring, g.next_local++);
    g.known_ids.push_back(id.raw);
    return id;
}

bool known(uint64_t raw) {
    for (uint64_t k : g.known_ids)
        if (k == raw) return true;
    return false;
}

// Materialises OUTPUT create-infos of `args` as fresh buffers owned by `owner`; returns their JSON.
std::string materialize(const Arg &args, PTO2TaskId owner, TaskOutputTensors &result, std::string &outs_json) {
    std::string tensors = "[";
    outs_json = "[";
    int outs = 0;
    for (int32_t i = 0; i < args.tensor_count(); ++i) {
        TensorArgType tag = args.tag(i);
        if (i) tensors += ",";
        if (tag == TensorArgType::OUTPUT) {
            const TensorCreateInfo &ci = *args.tensor(i).create_info;
            Tensor t;
            uint64_t bytes = ci.buffer_size_bytes();
            void *addr = reinterpret_cast<void *>(static_cast<uintptr_t>(fresh_addr(bytes)));
            t.init_external(addr, bytes, ci.shapes, ci.ndims, ci.dtype, ci.version, ci.manual_dep);
            t.owner_task_id = owner;
            g.output_tensors.push_back(t);
            result.materialize_output(g.output_tensors.back());
            std::string tj = tensor_json(t);
            tj.pop_back();
            tj += std::string(",\"init\":") + (ci.has_initial_value ? u64s(ci.initial_value) : "null") + "}";
            tensors += "{\"tag\":1,\"t\":" + tj + "}";
            outs_json += (outs++ ? "," : "") + tj;
        } else {
            tensors += "{\"tag\":" + std::to_string(static_cast<int>(tag)) + ",\"t\":" + tensor_json(*args.tensor(i).ptr) + "}";
        }
    }
    outs_json += "]";
    return tensors + "]";
}

std::string deps_json(const Arg &args, bool &bad) {
    std::string s = "[";
    bad = false;
    for (uint32_t i = 0; i < args.explicit_dep_count(); ++i) {
        uint64_t raw = args.explicit_dep(i).raw;
        if (raw == PTO2TaskId::invalid().raw || !known(raw)) bad = true;
        s += (i ? "," : "") + u64s(raw);
    }
    return s + "]";
}

std::string scalars_json(const Arg &args) {
    std::string s = "[";
    for (int32_t i = 0; i < args.scalar_count(); ++i) s += (i ? "," : "") + u64s(args.scalar(i));
    return s + "]";
}

TaskOutputTensors submit_common(const char *kind, const MixedKernels *mk, const Arg &args) {
    TaskOutputTensors result;
    if (g.fatal) return result;
    if (args.has_error) {
        go_fatal(PTO2_ERROR_INVALID_ARGS, std::string("arg error: ") + (args.error_msg ? args.error_msg : "?"));
        return result;
    }
    bool bad = false;
    std::string deps = deps_json(args, bad);
    if (bad) {
        go_fatal(PTO2_ERROR_INVALID_ARGS, "invalid or unknown explicit dependency id");
        return result;
    }
    PTO2TaskId id = fresh_task_id();
    result.set_task_id(id);
    std::string outs;
    std::string tensors = materialize(args, id, result, outs);
    std::string line = std::string("{\"ev\":\"") + kind + "\",\"id\":" + u64s(id.raw) +
                       ",\"scope\":" + std::to_string(current_scope_uid()) +
                       ",\"mode\":" + std::to_string(static_cast<int>(current_mode()));
    if (mk)
        line += ",\"kernels\":[" + std::to_string(mk->aic_kernel_id) + "," + std::to_string(mk->aiv0_kernel_id) +
                "," + std::to_string(mk->aiv1_kernel_id) + "]";
    line += ",\"tensors\":" + tensors + ",\"scalars\":" + scalars_json(args) + ",\"deps\":" + deps + "}";
    record(line);
    return result;
}

TaskOutputTensors op_submit_task(PTO2Runtime *, const MixedKernels &mk, const Arg &args) {
    if (mk.aic_kernel_id == INVALID_KERNEL_ID && mk.aiv0_kernel_id == INVALID_KERNEL_ID &&
        mk.aiv1_kernel_id == INVALID_KERNEL_ID) {
        go_fatal(PTO2_ERROR_INVALID_ARGS, "MixedKernels with no valid slot");
        return TaskOutputTensors{};
    }
    return submit_common("submit", &mk, args);
}

TaskOutputTensors op_submit_dummy(PTO2Runtime *, const Arg &args) { return submit_common("dummy", nullptr, args); }

TaskOutputTensors op_alloc(PTO2Runtime *, const Arg &args) {
    TaskOutputTensors result;
    if (g.fatal) return result;
    if (args.has_error) {
        go_fatal(PTO2_ERROR_INVALID_ARGS, "alloc_tensors arg error");
        return result;
    }
    for (int32_t i = 0; i < args.tensor_count(); ++i)
        if (args.tag(i) != TensorArgType::OUTPUT) {
            go_fatal(PTO2_ERROR_INVALID_ARGS, "alloc_tensors with a non-OUTPUT slot");
            return result;
        }
    if (args.scalar_count() != 0 || args.explicit_dep_count() != 0) {
        go_fatal(PTO2_ERROR_INVALID_ARGS, "alloc_tensors with scalars or deps");
        return result;
    }
    PTO2TaskId id = fresh_task_id();
    result.set_task_id(id);
    std::string outs;
    materialize(args, id, result, outs);
    record("{\"ev\":\"alloc\",\"id\":" + u64s(id.raw) + ",\"scope\":" + std::to_string(current_scope_uid()) +
           ",\"outs\":" + outs + "}");
    return result;
}

void op_scope_begin(PTO2Runtime *rt) {
    if (g.fatal) return;
    PTO2ScopeMode mode = rt->pending_scope_mode;
    if (mode == PTO2ScopeMode::AUTO && current_mode() == PTO2ScopeMode::MANUAL && !g.scopes.empty()) {
        go_fatal(PTO2_ERROR_INVALID_ARGS, "AUTO scope inside a MANUAL scope");
        return;
    }
    if (g.scopes.size() >= 64) {
        go_fatal(PTO2_ERROR_INVALID_ARGS, "scope depth over 64");
        return;
    }
    int uid = g.next_scope_uid++;
    record("{\"ev\":\"scope_begin\",\"scope\":" + std::to_string(uid) + ",\"parent\":" +
           std::to_string(current_scope_uid()) + ",\"mode\":" + std::to_string(static_cast<int>(mode)) + "}");
    g.scopes.push_back(ScopeRec{uid, mode});
    rt->pending_scope_mode = PTO2ScopeMode::AUTO;
}

void op_scope_end(PTO2Runtime *) {
    if (g.fatal) return;
    if (g.scopes.empty()) {
        go_fatal(PTO2_ERROR_INVALID_ARGS, "scope_end without scope");
        return;
    }
    record("{\"ev\":\"scope_end\",\"scope\":" + std::to_string(g.scopes.back().uid) + "}");
    g.scopes.pop_back();
}

void op_orchestration_done(PTO2Runtime *) { record("{\"ev\":\"orchestration_done\"}"); }

bool op_is_fatal(PTO2Runtime *) { return g.fatal; }

void op_report_fatal(PTO2Runtime *, int32_t code, const char *func, const char *fmt, ...) {
    (void)fmt;
    go_fatal(code, std::string("report_fatal from ") + (func ? func : "?"));
}

void op_log(const char *, const char *, ...) {}
void op_log_v(const char *, int, const char *, ...) {}

std::string access_json(const char *kind, const Tensor &t, uint32_t ndims, const uint32_t indices[]) {
    std::string s = std::string("{\"ev\":\"") + kind + "\",\"scope\":" + std::to_string(current_scope_uid()) +
                    ",\"mode\":" + std::to_string(static_cast<int>(current_mode())) + ",\"t\":" + tensor_json(t) +
                    ",\"idx\":[";
    for (uint32_t i = 0; i < ndims; ++i) s += (i ? "," : "") + std::to_string(indices[i]);
    return s + "]";
}

// The value lane: a host read returns the bits of the last host write to the same element (0 when
// none); kernels write nothing here (the tester's semantics models the same lane).
std::map<std::pair<uint64_t, uint64_t>, uint64_t> host_values;

std::pair<uint64_t, uint64_t> element_key(const Tensor &t, uint32_t ndims, const uint32_t indices[]) {
    uint64_t flat = t.start_offset;
    for (uint32_t i = 0; i < ndims; ++i) flat += static_cast<uint64_t>(indices[i]) * t.strides[i];
    return {t.buffer.addr, flat};
}

uint64_t op_get(PTO2Runtime *, const Tensor &t, uint32_t ndims, const uint32_t indices[]) {
    if (g.fatal) return 0;
    record(access_json("get", t, ndims, indices) + "}");
    auto it = host_values.find(element_key(t, ndims, indices));
    return it == host_values.end() ? 0 : it->second;
}

void op_set(PTO2Runtime *, const Tensor &t, uint32_t ndims, const uint32_t indices[], uint64_t value) {
    if (g.fatal) return;
    record(access_json("set", t, ndims, indices) + ",\"value\":" + u64s(value) + "}");
    host_values[element_key(t, ndims, indices)] = value;
}

const PTO2RuntimeOps kOps = {
    op_submit_task, op_scope_begin, op_scope_end, op_orchestration_done, op_is_fatal, op_report_fatal,
    op_log, op_log, op_log, op_log_v, op_get, op_set, op_alloc, op_submit_dummy, nullptr,
};

PTO2Runtime *g_bound = nullptr;

}  // namespace

extern "C" PTO2Runtime *framework_current_runtime(void) { return g_bound; }
extern "C" void framework_bind_runtime(PTO2Runtime *rt) { g_bound = rt; }

int main(int argc, char **argv) {
    static ChipStorageTaskArgs orch_args;
    std::vector<std::vector<uint32_t>> shapes;
    for (int a = 1; a < argc; ++a) {
        const char *s = argv[a];
        if (s[0] == 'T' && s[1] == ':') {
            std::vector<uint32_t> dims;
            const char *p = s + 2;
            while (*p) {
                dims.push_back(static_cast<uint32_t>(strtoul(p, const_cast<char **>(&p), 10)));
                if (*p == 'x') ++p;
            }
            shapes.push_back(dims);
            uint64_t n = 4;
            for (uint32_t d : dims) n *= d;
            void *addr = reinterpret_cast<void *>(static_cast<uintptr_t>(fresh_addr(n)));
            Tensor t = make_tensor_external(addr, dims.data(), static_cast<uint32_t>(dims.size()), DataType::FLOAT32);
            orch_args.add_tensor(t);
            record("{\"ev\":\"arg\",\"slot\":" + std::to_string(orch_args.tensor_count() - 1) + ",\"t\":" + tensor_json(t) + "}");
        } else if (s[0] == 'S' && s[1] == ':') {
            orch_args.add_scalar(static_cast<uint64_t>(strtoull(s + 2, nullptr, 10)));
        } else {
            fprintf(stderr, "bad argument %s\n", s);
            return 2;
        }
    }
    g.rt.ops = &kOps;
    g.rt.pending_scope_mode = PTO2ScopeMode::AUTO;
    framework_bind_runtime(&g.rt);
    PTO2OrchestrationConfig cfg = aicpu_orchestration_config(orch_args);
    record("{\"ev\":\"config\",\"expected_arg_count\":" + std::to_string(cfg.expected_arg_count) + "}");
    rt_scope_begin(PTO2ScopeMode::AUTO);
    aicpu_orchestration_entry(orch_args);
    rt_scope_end();
    if (!g.scopes.empty()) record("{\"ev\":\"unbalanced_scopes\",\"open\":" + std::to_string(g.scopes.size()) + "}");
    record("{\"ev\":\"end\"}");
    fflush(stdout);
    return 0;
}
