// The recording driver: runs a compiled orchestration function as the executor would and writes
// its trace.
//
//   record INPUTS.json TRACE.json
//
// INPUTS.json (tools/sim_runtime.py Inputs.to_json):
//   {"tensors": [{"shape": [16, 16], "dtype": "FLOAT32", "label": "a"}, ...], "scalars": [1069547520, ...]}
// Each tensor becomes a zero-filled host buffer wrapped with make_tensor_external (entry slot =
// position); each scalar is a uint64 slot (the bits the entry's union decodes). Like the executor,
// the driver checks the config's expected_arg_count, opens the outer AUTO scope, calls the entry
// and closes the scope.
#include <stdio.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "recording_runtime.h"

extern "C" PTO2OrchestrationConfig aicpu_orchestration_config(const ChipStorageTaskArgs &orch_args);
extern "C" void aicpu_orchestration_entry(const ChipStorageTaskArgs &orch_args);

namespace {

// A JSON value of the small subset INPUTS.json uses: objects, arrays, unsigned integers, strings.
struct Json {
    enum Kind { NUMBER, STRING, ARRAY, OBJECT } kind = NUMBER;
    uint64_t number = 0;
    std::string text;
    std::vector<Json> items;
    std::vector<std::string> keys;

    const Json &at(const std::string &key) const {
        for (size_t i = 0; i < keys.size(); ++i)
            if (keys[i] == key) return items[i];
        fprintf(stderr, "record: inputs lack \"%s\"\n", key.c_str());
        exit(2);
    }
};

struct Parser {
    const std::string &s;
    size_t i = 0;

    [[noreturn]] void bad() {
        fprintf(stderr, "record: malformed inputs JSON at offset %zu\n", i);
        exit(2);
    }
    void skip() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
    }
    void expect(char c) {
        skip();
        if (i >= s.size() || s[i] != c) bad();
        ++i;
    }
    std::string string() {
        expect('"');
        std::string out;
        while (i < s.size() && s[i] != '"') {
            if (s[i] == '\\' && i + 1 < s.size()) ++i;
            out += s[i++];
        }
        expect('"');
        return out;
    }
    Json value() {
        skip();
        Json v;
        if (i >= s.size()) bad();
        if (s[i] == '{') {
            v.kind = Json::OBJECT;
            ++i;
            skip();
            if (s[i] == '}') return ++i, v;
            while (true) {
                v.keys.push_back(string());
                expect(':');
                v.items.push_back(value());
                skip();
                if (s[i] == ',') { ++i; continue; }
                expect('}');
                return v;
            }
        }
        if (s[i] == '[') {
            v.kind = Json::ARRAY;
            ++i;
            skip();
            if (s[i] == ']') return ++i, v;
            while (true) {
                v.items.push_back(value());
                skip();
                if (s[i] == ',') { ++i; continue; }
                expect(']');
                return v;
            }
        }
        if (s[i] == '"') {
            v.kind = Json::STRING;
            v.text = string();
            return v;
        }
        if (s[i] < '0' || s[i] > '9') bad();
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') v.number = v.number * 10 + static_cast<uint64_t>(s[i++] - '0');
        return v;
    }
};

DataType dtype_named(const std::string &name) {
    for (int d = 0; d < static_cast<int>(DataType::DATA_TYPE_NUM); ++d)
        if (name == get_dtype_name(static_cast<DataType>(d))) return static_cast<DataType>(d);
    fprintf(stderr, "record: unknown dtype %s\n", name.c_str());
    exit(2);
}

std::string read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == nullptr) {
        fprintf(stderr, "record: cannot read %s\n", path);
        exit(2);
    }
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    fclose(f);
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUTS.json TRACE.json\n", argv[0]);
        return 2;
    }
    std::string text = read_file(argv[1]);
    Parser parser{text};
    Json inputs = parser.value();
    recorder_set_output(argv[2]);

    static ChipStorageTaskArgs args;
    const Json &tensors = inputs.at("tensors");
    for (const Json &t : tensors.items) {
        const Json &shape = t.at("shape");
        uint32_t dims[MAX_TENSOR_DIMS] = {};
        uint32_t ndims = static_cast<uint32_t>(shape.items.size());
        if (ndims < 1 || ndims > static_cast<uint32_t>(MAX_TENSOR_DIMS)) {
            fprintf(stderr, "record: an entry tensor needs 1..5 dimensions\n");
            return 2;
        }
        uint64_t numel = 1;
        for (uint32_t d = 0; d < ndims; ++d) numel *= dims[d] = static_cast<uint32_t>(shape.items[d].number);
        DataType dtype = dtype_named(t.at("dtype").text);
        void *data = calloc(numel ? numel * get_element_size(dtype) : 1, 1);
        Tensor tensor = make_tensor_external(data, dims, ndims, dtype);
        args.add_tensor(tensor);
        recorder_add_entry(data, dims, ndims, dtype, t.at("label").text.c_str());
    }
    for (const Json &s : inputs.at("scalars").items) args.add_scalar(s.number);

    PTO2OrchestrationConfig config = aicpu_orchestration_config(args);
    int32_t given = args.tensor_count() + args.scalar_count();
    if (config.expected_arg_count > 0 && given < config.expected_arg_count) {
        recorder_fatal(("config: expected_arg_count " + std::to_string(config.expected_arg_count) + " > " +
                        std::to_string(given) + " arguments")
                           .c_str());
    }
    rt_scope_begin(PTO2ScopeMode::AUTO);
    aicpu_orchestration_entry(args);
    rt_scope_end();
    recorder_finish();
    return 0;
}
