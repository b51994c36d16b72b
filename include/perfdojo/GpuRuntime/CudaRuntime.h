//===- CudaRuntime.h - run a launch plan on a CUDA device ------*- C++ -*-===//
//
// Executes a launch plan and its PTX module through the CUDA driver
// (CudaDriver.h): load and JIT the module, check every launch against the
// device's and the function's limits before anything runs, allocate the
// buffers, copy the inputs in, run the steps, time them with CUDA events and
// copy the outputs back. docs/gpu-runtime.md describes the protocol.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_GPURUNTIME_CUDARUNTIME_H
#define PERFDOJO_GPURUNTIME_CUDARUNTIME_H

#include "perfdojo/GpuRuntime/LaunchLimits.h"
#include "perfdojo/GpuRuntime/LaunchPlan.h"

#include <string>
#include <vector>

namespace perfdojo::gpu {

struct GpuRunOptions {
  /// Untimed executions of the whole plan before the timed ones.
  int warmup = 1;
  /// Timed executions (at least 1); the outputs are the last one's.
  int reps = 10;
  /// The CUDA device ordinal.
  int device = 0;
};

struct GpuRunResult {
  /// One entry per argument buffer (in, out, inout), in plan order: the
  /// final contents of out and inout buffers; empty for in buffers.
  std::vector<std::vector<char>> outputs;
  /// Each timed execution's time in milliseconds, in order.
  std::vector<double> timesMs;
  double medianMs = 0;
  double minMs = 0;
  /// The JIT's info and error logs (ptxas output), also on failure.
  std::string jitLog;
  /// Every function the plan launches, in order of first launch.
  std::vector<FunctionInfo> functions;
  DeviceInfo device;
};

/// The byte pattern out buffers hold before every execution: each f16, f32
/// and f64 element reads as a NaN, each integer as -1, so an element the
/// kernel never writes is visible.
constexpr unsigned char kUnwrittenByte = 0xFF;

/// Runs `plan` with the module `binary` (PTX text). `arguments` holds one
/// entry per argument buffer in plan order: the contents of in and inout
/// buffers (exactly their bytes), nothing (or the right size, ignored) for
/// out buffers. On failure, false, `error` says which step failed and why,
/// and `result` keeps what was learned before (device, JIT log, functions).
/// Nothing is launched unless every launch of the plan passes checkLaunch.
bool runPlan(const LaunchPlan &plan, const std::string &binary,
             const std::vector<std::vector<char>> &arguments,
             const GpuRunOptions &options, GpuRunResult &result,
             std::string &error);

/// Queries device `ordinal` without running anything.
bool queryDevice(int ordinal, DeviceInfo &info, std::string &error);

/// The median (the mean of the middle two for an even count) and minimum
/// of `times`; zero for none.
void summarizeTimes(const std::vector<double> &times, double &medianMs,
                    double &minMs);

} // namespace perfdojo::gpu

#endif // PERFDOJO_GPURUNTIME_CUDARUNTIME_H
