//===- CudaRuntime.cpp - run a launch plan on a CUDA device ---------------===//
//
// The order of a run (docs/gpu-runtime.md):
//  1. check the request without the driver: the plan, its format, the
//     options, the arguments' sizes;
//  2. open the driver, the device and its primary context;
//  3. load the module (PTX, JIT-compiled by the driver, logs kept), look up
//     every function the plan launches and its attributes;
//  4. check every launch against the device's and its function's limits,
//     and opt in to large shared memory where a launch needs it;
//  5. allocate every buffer; then per execution (warmup, then timed): reset
//     the inputs and the out buffers' sentinel, run the steps (timed with
//     events around the whole plan), synchronize;
//  6. copy the outputs back.
// A Session owns every driver object a run creates and releases them on
// every path, so a failed run leaves the device as it found it; a PlanRun
// does steps 3 to 6 on it.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/GpuRuntime/CudaRuntime.h"
#include "perfdojo/GpuRuntime/CudaDriver.h"
#include "perfdojo/Support/Statistics.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>

using namespace perfdojo::gpu;
using namespace perfdojo::gpu::cuda;

namespace {

/// Bytes of each JIT log buffer; ptxas's verbose report of a module with a
/// few kernels is a few hundred bytes.
constexpr unsigned kJitLogBytes = 64 * 1024;
/// More parameters than a launch can carry (32 KiB of 8-byte parameters).
constexpr size_t kMaxParameters = 4096;

/// The driver objects of one run, released in reverse order of creation.
class Session {
public:
  explicit Session(CudaDriver &driver) : d(driver) {}
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
  ~Session();

  bool open(int ordinal, DeviceInfo &info, std::string &error);
  bool loadModule(const std::string &ptx, std::string &jitLog,
                  std::string &error);
  bool getFunction(const std::string &name, CUfunction &function,
                   FunctionInfo &info, std::string &error);
  bool allocate(size_t bytes, CUdeviceptr &pointer, std::string &error);
  bool createEvent(CUevent &event, std::string &error);

  CudaDriver &d;

private:
  CUdevice device = 0;
  bool retained = false;
  CUmodule module = nullptr;
  std::vector<CUdeviceptr> allocations;
  std::vector<CUevent> events;
};

Session::~Session() {
  // Errors here are not reported: a run that got this far already has its
  // result or its error, and a sticky device error fails these too.
  for (CUevent event : events)
    d.eventDestroy(event);
  for (CUdeviceptr pointer : allocations)
    d.memFree(pointer);
  if (module)
    d.moduleUnload(module);
  if (retained)
    d.devicePrimaryCtxRelease(device);
}

bool Session::open(int ordinal, DeviceInfo &info, std::string &error) {
  CUresult initResult = d.init(0);
  if (!d.check(initResult, "cuInit", error)) {
    if (initResult == CUDA_ERROR_NO_DEVICE)
      error = "no CUDA device: " + error;
    return false;
  }
  if (!d.check(d.driverGetVersion(&info.driverVersion), "cuDriverGetVersion",
               error))
    return false;
  int count = 0;
  if (!d.check(d.deviceGetCount(&count), "cuDeviceGetCount", error))
    return false;
  if (count <= 0) {
    error = "no CUDA device: the driver " + d.getPath() + " reports none";
    return false;
  }
  if (ordinal < 0 || ordinal >= count) {
    error = "no CUDA device " + std::to_string(ordinal) + ": the driver " +
            "reports " + std::to_string(count) + " device(s)";
    return false;
  }
  if (!d.check(d.deviceGet(&device, ordinal), "cuDeviceGet", error))
    return false;
  info.ordinal = ordinal;

  char name[256] = {};
  if (!d.check(d.deviceGetName(name, sizeof(name) - 1, device),
               "cuDeviceGetName", error))
    return false;
  info.name = name;

  struct Attribute {
    CUdevice_attribute attribute;
    const char *name;
    int *field;
  } attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "COMPUTE_CAPABILITY_MAJOR",
       &info.computeMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "COMPUTE_CAPABILITY_MINOR",
       &info.computeMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "MULTIPROCESSOR_COUNT",
       &info.multiprocessors},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, "WARP_SIZE", &info.warpSize},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK",
       &info.maxThreadsPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, "MAX_BLOCK_DIM_X",
       &info.maxBlockDims[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, "MAX_BLOCK_DIM_Y",
       &info.maxBlockDims[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, "MAX_BLOCK_DIM_Z",
       &info.maxBlockDims[2]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, "MAX_GRID_DIM_X",
       &info.maxGridDims[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, "MAX_GRID_DIM_Y",
       &info.maxGridDims[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, "MAX_GRID_DIM_Z",
       &info.maxGridDims[2]},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
       "MAX_SHARED_MEMORY_PER_BLOCK", &info.sharedBytesPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", &info.sharedBytesPerBlockOptin},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "MAX_REGISTERS_PER_BLOCK",
       &info.registersPerBlock},
  };
  for (const Attribute &a : attributes)
    if (!d.check(d.deviceGetAttribute(a.field, a.attribute, device),
                 std::string("cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_") +
                     a.name + ")",
                 error))
      return false;

  // The primary context is the one the CUDA runtime API and other libraries
  // share: retaining it costs nothing when it already exists.
  CUcontext context = nullptr;
  if (!d.check(d.devicePrimaryCtxRetain(&context, device),
               "cuDevicePrimaryCtxRetain", error))
    return false;
  retained = true;
  return d.check(d.ctxSetCurrent(context), "cuCtxSetCurrent", error);
}

/// The text the driver wrote into a log buffer of `capacity` bytes, given
/// the size it reported back (the option value is in/out).
std::string readLog(const std::vector<char> &buffer, void *reported) {
  size_t size = std::min<size_t>(uintptr_t(reported), buffer.size() - 1);
  std::string log(buffer.data(), strnlen(buffer.data(), size));
  while (!log.empty() && (log.back() == '\n' || log.back() == ' '))
    log.pop_back();
  return log;
}

bool Session::loadModule(const std::string &ptx, std::string &jitLog,
                         std::string &error) {
  // One byte more than the driver is told, so the text always ends.
  std::vector<char> infoLog(kJitLogBytes + 1, 0);
  std::vector<char> errorLog(kJitLogBytes + 1, 0);
  CUjit_option options[] = {
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes)),
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes)),
      reinterpret_cast<void *>(uintptr_t(1))};
  CUmodule loaded = nullptr;
  CUresult result =
      d.moduleLoadDataEx(&loaded, ptx.c_str(), 5, options, values);
  std::string info = readLog(infoLog, values[1]);
  std::string errors = readLog(errorLog, values[3]);
  jitLog = info;
  if (!errors.empty())
    jitLog += (jitLog.empty() ? "" : "\n") + errors;
  if (!d.check(result, "cuModuleLoadDataEx", error)) {
    if (!errors.empty())
      error += "; JIT log: " + errors;
    return false;
  }
  module = loaded;
  return true;
}

bool Session::getFunction(const std::string &name, CUfunction &function,
                          FunctionInfo &info, std::string &error) {
  if (!d.check(d.moduleGetFunction(&function, module, name.c_str()),
               "cuModuleGetFunction(" + name + ")", error))
    return false;
  info.name = name;
  struct Attribute {
    CUfunction_attribute attribute;
    const char *name;
    int *field;
  } attributes[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS", &info.registers},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK",
       &info.maxThreadsPerBlock},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES",
       &info.staticSharedBytes},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "LOCAL_SIZE_BYTES",
       &info.localBytes},
  };
  for (const Attribute &a : attributes)
    if (!d.check(d.funcGetAttribute(a.field, a.attribute, function),
                 "cuFuncGetAttribute(" + name + ", CU_FUNC_ATTRIBUTE_" +
                     a.name + ")",
                 error))
      return false;
  // The parameter list ends at the first index the driver refuses as
  // invalid; any other answer leaves it unknown (and unchecked).
  if (!d.funcGetParamInfo)
    return true;
  for (size_t index = 0; index < kMaxParameters; ++index) {
    size_t offset = 0, bytes = 0;
    CUresult result = d.funcGetParamInfo(function, index, &offset, &bytes);
    if (result == CUDA_ERROR_INVALID_VALUE) {
      info.parametersKnown = true;
      return true;
    }
    if (result != CUDA_SUCCESS)
      break;
    info.parameterBytes.push_back(bytes);
  }
  info.parameterBytes.clear();
  return true;
}

bool Session::allocate(size_t bytes, CUdeviceptr &pointer, std::string &error) {
  if (!d.check(d.memAlloc(&pointer, bytes),
               "cuMemAlloc(" + std::to_string(bytes) + " bytes)", error))
    return false;
  allocations.push_back(pointer);
  return true;
}

bool Session::createEvent(CUevent &event, std::string &error) {
  if (!d.check(d.eventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate", error))
    return false;
  events.push_back(event);
  return true;
}

/// Runs the steps of a plan whose functions are loaded and buffers
/// allocated.
struct Executor {
  CudaDriver &d;
  const std::map<std::string, CUfunction> &functions;
  const std::vector<CUdeviceptr> &pointers;
  /// The current iteration of each enclosing host loop, outermost first.
  std::vector<int64_t> indices;

  bool launch(const PlanLaunch &l, std::string &error) {
    // Every parameter is 8 bytes: a CUdeviceptr or an i64.
    std::vector<uint64_t> values(l.arguments.size());
    std::vector<void *> params(l.arguments.size());
    for (size_t i = 0; i < l.arguments.size(); ++i) {
      const PlanArgument &arg = l.arguments[i];
      switch (arg.kind) {
      case PlanArgument::Kind::Buffer:
        values[i] = pointers[arg.index];
        break;
      case PlanArgument::Kind::LoopIndex:
        values[i] = uint64_t(indices[arg.index]);
        break;
      case PlanArgument::Kind::Constant:
        values[i] = uint64_t(arg.value);
        break;
      }
      params[i] = &values[i];
    }
    CUresult result = d.launchKernel(
        functions.at(l.function), l.grid[0], l.grid[1], l.grid[2], l.block[0],
        l.block[1], l.block[2], unsigned(l.sharedBytes), nullptr,
        params.empty() ? nullptr : params.data(), nullptr);
    if (d.check(result, "cuLaunchKernel", error))
      return true;
    error = "launch " + l.function + ": " + error;
    return false;
  }

  bool run(const std::vector<PlanStep> &steps, std::string &error) {
    for (const PlanStep &step : steps) {
      if (step.kind == PlanStep::Kind::Launch) {
        if (!launch(step.launch, error))
          return false;
        continue;
      }
      indices.push_back(0);
      for (int64_t i = 0; i < step.tripCount; ++i) {
        indices.back() = i;
        if (!run(step.body, error))
          return false;
      }
      indices.pop_back();
    }
    return true;
  }
};

/// The request's faults that need no driver.
bool checkRequest(const LaunchPlan &plan, const std::string &binary,
                  const std::vector<std::vector<char>> &arguments,
                  const GpuRunOptions &options, std::string &error) {
  if (!plan.verify(error)) {
    error = "invalid launch plan: " + error;
    return false;
  }
  if (plan.binaryFormat != "ptx") {
    error = "plan " + plan.kernel + " is a " + plan.binaryFormat +
            " module for " + plan.target +
            ": the CUDA runtime runs ptx modules only";
    return false;
  }
  if (binary.empty()) {
    error = "the PTX module is empty";
    return false;
  }
  if (size_t nul = binary.find('\0'); nul != std::string::npos) {
    error = "the PTX module has a NUL byte at offset " + std::to_string(nul) +
            " (PTX is text)";
    return false;
  }
  if (options.reps < 1 || options.warmup < 0) {
    error = "needs at least 1 timed repetition and no negative warmup "
            "(reps " +
            std::to_string(options.reps) + ", warmup " +
            std::to_string(options.warmup) + ")";
    return false;
  }
  size_t next = 0;
  for (const PlanBuffer &b : plan.buffers) {
    if (!b.isArgument())
      continue;
    if (next >= arguments.size())
      break;
    size_t size = arguments[next++].size();
    bool ignored = b.role == PlanBuffer::Role::Out && size == 0;
    if (!ignored && size != uint64_t(b.getBytes())) {
      error = "argument " + b.name + " has " + std::to_string(size) +
              " bytes, the plan's buffer (" + std::to_string(b.elements) +
              " x " + b.dtype + ") has " + std::to_string(b.getBytes());
      return false;
    }
  }
  size_t expected =
      size_t(std::count_if(plan.buffers.begin(), plan.buffers.end(),
                           [](const PlanBuffer &b) { return b.isArgument(); }));
  if (arguments.size() != expected) {
    error = "plan " + plan.kernel + " has " + std::to_string(expected) +
            " argument buffers, got " + std::to_string(arguments.size()) +
            " arguments";
    return false;
  }
  return true;
}

/// Steps 3 to 6 of one run, on an open session with the module loaded.
struct PlanRun {
  CudaDriver &d;
  Session &session;
  const LaunchPlan &plan;
  const std::vector<std::vector<char>> &arguments;
  GpuRunResult &result;
  std::map<std::string, CUfunction> functions;
  /// Each function's entry in result.functions.
  std::map<std::string, size_t> infoOf;
  std::vector<CUdeviceptr> pointers;

  /// Every launched function, in order of first launch, looked up once.
  bool getFunctions(std::string &error) {
    for (const PlanLaunch *l : plan.getLaunches()) {
      if (functions.count(l->function))
        continue;
      FunctionInfo info;
      CUfunction function = nullptr;
      if (!session.getFunction(l->function, function, info, error))
        return false;
      functions[l->function] = function;
      infoOf[l->function] = result.functions.size();
      result.functions.push_back(info);
    }
    return true;
  }

  /// Every launch is checked before any runs: a plan that fails halfway
  /// would leave partial outputs and a misleading time. Functions launched
  /// with more shared memory than the default opt in to their largest.
  bool checkLaunches(std::string &error) {
    std::map<std::string, uint64_t> optinBytes;
    for (const PlanLaunch *l : plan.getLaunches()) {
      const FunctionInfo &info = result.functions[infoOf[l->function]];
      if (!checkLaunch(*l, result.device, info, error))
        return false;
      if (needsSharedOptin(*l, result.device, info))
        optinBytes[l->function] =
            std::max(optinBytes[l->function], l->sharedBytes);
    }
    for (const auto &[name, bytes] : optinBytes)
      if (!d.check(d.funcSetAttribute(
                       functions[name],
                       CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                       int(bytes)),
                   "cuFuncSetAttribute(" + name +
                       ", CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                       std::to_string(bytes) + ")",
                   error))
        return false;
    return true;
  }

  /// Every buffer; scratch starts as the sentinel, so a read before a
  /// write is as visible as in the interpreter.
  bool allocate(std::string &error) {
    pointers.resize(plan.buffers.size());
    for (size_t i = 0; i < plan.buffers.size(); ++i) {
      size_t bytes = size_t(plan.buffers[i].getBytes());
      if (!session.allocate(bytes, pointers[i], error))
        return false;
      if (!plan.buffers[i].isArgument() &&
          !d.check(d.memsetD8(pointers[i], kUnwrittenByte, bytes), "cuMemsetD8",
                   error))
        return false;
    }
    return true;
  }

  /// Fresh inputs and sentinel outputs before every execution (outside the
  /// timed region): an inout buffer would otherwise start from the previous
  /// result, an out buffer hide the elements the kernel does not write.
  bool resetArguments(std::string &error) {
    size_t argument = 0;
    for (size_t i = 0; i < plan.buffers.size(); ++i) {
      const PlanBuffer &b = plan.buffers[i];
      if (!b.isArgument())
        continue;
      const std::vector<char> &data = arguments[argument++];
      bool ok =
          b.role == PlanBuffer::Role::Out
              ? d.check(d.memsetD8(pointers[i], kUnwrittenByte,
                                   size_t(b.getBytes())),
                        "cuMemsetD8", error)
              : d.check(d.memcpyHtoD(pointers[i], data.data(), data.size()),
                        "cuMemcpyHtoD(" + b.name + ")", error);
      if (!ok)
        return false;
    }
    return true;
  }

  /// One execution of the steps, timed between `start` and `stop` unless
  /// `start` is null.
  bool execute(CUevent start, CUevent stop, float &ms, std::string &error) {
    if (start &&
        !d.check(d.eventRecord(start, nullptr), "cuEventRecord", error))
      return false;
    Executor executor{d, functions, pointers, {}};
    if (!executor.run(plan.steps, error))
      return false;
    // A kernel that faults reports it here, at the first synchronization.
    std::string failure;
    bool ok = true;
    if (!start) {
      ok = d.check(d.ctxSynchronize(), "cuCtxSynchronize", failure);
    } else {
      if (!d.check(d.eventRecord(stop, nullptr), "cuEventRecord", error))
        return false;
      ok = d.check(d.eventSynchronize(stop), "cuEventSynchronize", failure);
    }
    if (!ok) {
      error = "while running the plan: " + failure;
      return false;
    }
    return !start || d.check(d.eventElapsedTime(&ms, start, stop),
                             "cuEventElapsedTime", error);
  }

  /// Out and inout buffers back to the host; in buffers get an empty entry.
  bool copyOutputs(std::string &error) {
    for (size_t i = 0; i < plan.buffers.size(); ++i) {
      const PlanBuffer &b = plan.buffers[i];
      if (!b.isArgument())
        continue;
      std::vector<char> &output = result.outputs.emplace_back();
      if (b.role == PlanBuffer::Role::In)
        continue;
      output.resize(size_t(b.getBytes()));
      if (!d.check(d.memcpyDtoH(output.data(), pointers[i], output.size()),
                   "cuMemcpyDtoH(" + b.name + ")", error))
        return false;
    }
    return true;
  }
};

} // namespace

void perfdojo::gpu::summarizeTimes(const std::vector<double> &times,
                                   double &medianMs, double &minMs) {
  MedianAndMin summary = getMedianAndMin(times);
  medianMs = summary.median;
  minMs = summary.min;
}

bool perfdojo::gpu::queryDevice(int ordinal, DeviceInfo &info,
                                std::string &error) {
  std::unique_ptr<CudaDriver> driver = CudaDriver::load(error);
  if (!driver)
    return false;
  Session session(*driver);
  return session.open(ordinal, info, error);
}

bool perfdojo::gpu::runPlan(const LaunchPlan &plan, const std::string &binary,
                            const std::vector<std::vector<char>> &arguments,
                            const GpuRunOptions &options, GpuRunResult &result,
                            std::string &error) {
  result = GpuRunResult();
  error.clear();
  if (!checkRequest(plan, binary, arguments, options, error))
    return false;
  std::unique_ptr<CudaDriver> driver = CudaDriver::load(error);
  if (!driver)
    return false;
  Session session(*driver);
  if (!session.open(options.device, result.device, error) ||
      !session.loadModule(binary, result.jitLog, error))
    return false;

  PlanRun run{*driver, session, plan, arguments, result, {}, {}, {}};
  if (!run.getFunctions(error) || !run.checkLaunches(error) ||
      !run.allocate(error))
    return false;
  CUevent start = nullptr, stop = nullptr;
  if (!session.createEvent(start, error) || !session.createEvent(stop, error))
    return false;
  // 64-bit: warmup + reps may exceed an int.
  int64_t executions = int64_t(options.warmup) + options.reps;
  for (int64_t execution = 0; execution < executions; ++execution) {
    float ms = 0;
    bool timed = execution >= options.warmup;
    if (!run.resetArguments(error) ||
        !run.execute(timed ? start : nullptr, stop, ms, error))
      return false;
    if (timed)
      result.timesMs.push_back(ms);
  }
  summarizeTimes(result.timesMs, result.medianMs, result.minMs);
  return run.copyOutputs(error);
}
