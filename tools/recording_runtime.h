// The recording runtime: an implementation of the stand-in runtime's operations
// (pto_orchestration_api.h's PTO2RuntimeOps) that runs no kernel and records every call the
// orchestration code makes, as the JSON trace that tools/trace.py reads (Trace.from_json).
//
// Contract with the driver (tools/record_main.cpp):
//   1. recorder_set_output(path) names the file the trace is written to;
//   2. recorder_add_entry(...) registers each entry tensor's buffer, in entry-slot order;
//   3. the driver calls the orchestration through the header API (framework_current_runtime()
//      returns the recording runtime), then recorder_finish().
// When the runtime goes fatal the trace is written at once and the process exits with status 0:
// the orchestration would otherwise go on with empty TaskOutputTensors.
#ifndef NANOPASS_RECORDING_RUNTIME_H
#define NANOPASS_RECORDING_RUNTIME_H

#include "pto_orchestration_api.h"

void recorder_set_output(const char *path);
void recorder_add_entry(void *addr, const uint32_t shape[], uint32_t ndims, DataType dtype, const char *label);
void recorder_fatal(const char *message);
void recorder_finish();

#endif  // NANOPASS_RECORDING_RUNTIME_H
