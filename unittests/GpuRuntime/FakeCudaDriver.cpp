//===- FakeCudaDriver.cpp - a recording stand-in for libcuda --------------===//
//
// libperfdojo-fake-cuda.so exports the driver entry points the runtime
// resolves (CudaDriver.cpp) and behaves like an H100 with nothing on it:
// memory is host memory, copies are memcpy, a launch is checked the way the
// driver checks it and recorded, but NO KERNEL CODE RUNS. Tests built on it
// (unittests/GpuRuntime, test/GpuRuntime) check the runtime's plumbing: the
// sequence of driver calls, the arguments of each launch, the copies, the
// timing protocol and every error path. They say nothing about whether
// generated kernels compute the right values on a GPU.
//
// Controlled by the environment, read at each call:
//   PERFDOJO_FAKE_CUDA_LOG=FILE    appends one line per call to FILE;
//   PERFDOJO_FAKE_CUDA_FAIL=ENTRY[@N]  makes entry point ENTRY (e.g.
//       cuLaunchKernel) fail, every time or only its N-th call since the
//       last cuInit, with the error the real driver gives for the usual
//       cause (cuModuleLoadDataEx also writes a ptxas-like error log);
//   PERFDOJO_FAKE_CUDA_DEVICES=N   the device count (default 1);
//   PERFDOJO_FAKE_CUDA_TIMES=A,B,..  the times cuEventElapsedTime returns,
//       in turn (default 0.25 ms per launch between the two events).
//
// The "PTX" it loads is scanned for `.entry NAME(.param ...)` only, which
// gives each function's parameters (their number, and their width from the
// type: `.u32` is 4 bytes); a comment line
// `// fake-function NAME regs=R shared=S local=L` sets its attributes.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/GpuRuntime/CudaDriver.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace perfdojo::gpu::cuda;

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// H100 SXM facts (cuDeviceGetAttribute on a real one).
constexpr int kMaxThreads = 1024;
constexpr int kSharedDefault = 48 * 1024;
constexpr int kSharedOptin = 227 * 1024;
constexpr int kRegistersPerBlock = 65536;
/// Fake device addresses: allocation k lives at kBase + k * kStride, far
/// from any small integer so a pointer parameter is recognizable.
constexpr uint64_t kBase = 0x7f0000000000ull;
constexpr uint64_t kStride = 1ull << 32;
constexpr size_t kMaxAllocation = size_t(1) << 36;

struct Function {
  std::string name;
  int module = 0;
  std::vector<size_t> paramBytes;
  int registers = 32;
  int staticShared = 0;
  int local = 0;
  int maxDynamicShared = kSharedDefault;

  int getMaxThreads() const {
    // Registers are granted per warp of 32 threads.
    int warps = kRegistersPerBlock / (std::max(registers, 1) * 32);
    return std::min(kMaxThreads, warps * 32);
  }
};

struct Module {
  bool live = false;
  std::vector<std::unique_ptr<Function>> functions;
};

struct Event {
  bool live = false;
  bool recorded = false;
  uint64_t launches = 0;
};

struct State {
  bool initialized = false;
  bool contextCurrent = false;
  std::vector<void *> allocations; // by slot; null when free
  std::vector<size_t> sizes;
  std::vector<Module> modules;
  std::vector<Event> events;
  std::map<std::string, int> calls; // per entry point since cuInit
  uint64_t launches = 0;
  size_t timesServed = 0;
};

State &state() {
  static State s;
  return s;
}

void log(const std::string &line) {
  const char *path = std::getenv("PERFDOJO_FAKE_CUDA_LOG");
  if (!path || !*path)
    return;
  if (FILE *f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
}

const char *errorName(CUresult r) {
  switch (r) {
  case CUDA_SUCCESS:
    return "CUDA_SUCCESS";
  case CUDA_ERROR_INVALID_VALUE:
    return "CUDA_ERROR_INVALID_VALUE";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  case CUDA_ERROR_INVALID_DEVICE:
    return "CUDA_ERROR_INVALID_DEVICE";
  case CUDA_ERROR_INVALID_CONTEXT:
    return "CUDA_ERROR_INVALID_CONTEXT";
  case CUDA_ERROR_INVALID_PTX:
    return "CUDA_ERROR_INVALID_PTX";
  case CUDA_ERROR_INVALID_HANDLE:
    return "CUDA_ERROR_INVALID_HANDLE";
  case CUDA_ERROR_NOT_FOUND:
    return "CUDA_ERROR_NOT_FOUND";
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  case CUDA_ERROR_LAUNCH_FAILED:
    return "CUDA_ERROR_LAUNCH_FAILED";
  case CUDA_ERROR_NOT_SUPPORTED:
    return "CUDA_ERROR_NOT_SUPPORTED";
  case CUDA_ERROR_UNKNOWN:
    return "CUDA_ERROR_UNKNOWN";
  }
  return nullptr;
}

/// The real driver's cuGetErrorString texts.
const char *errorString(CUresult r) {
  switch (r) {
  case CUDA_SUCCESS:
    return "no error";
  case CUDA_ERROR_INVALID_VALUE:
    return "invalid argument";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "initialization error";
  case CUDA_ERROR_NO_DEVICE:
    return "no CUDA-capable device is detected";
  case CUDA_ERROR_INVALID_DEVICE:
    return "invalid device ordinal";
  case CUDA_ERROR_INVALID_CONTEXT:
    return "invalid device context";
  case CUDA_ERROR_INVALID_PTX:
    return "a PTX JIT compilation failed";
  case CUDA_ERROR_INVALID_HANDLE:
    return "invalid resource handle";
  case CUDA_ERROR_NOT_FOUND:
    return "named symbol not found";
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    return "an illegal memory access was encountered";
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return "too many resources requested for launch";
  case CUDA_ERROR_LAUNCH_FAILED:
    return "unspecified launch failure";
  case CUDA_ERROR_NOT_SUPPORTED:
    return "operation not supported";
  case CUDA_ERROR_UNKNOWN:
    return "unknown error";
  }
  return nullptr;
}

/// The error the real driver gives for the usual failure of `entry`.
CUresult failureOf(const std::string &entry) {
  if (entry == "cuInit")
    return CUDA_ERROR_NO_DEVICE;
  if (entry == "cuModuleLoadDataEx")
    return CUDA_ERROR_INVALID_PTX;
  if (entry == "cuModuleGetFunction")
    return CUDA_ERROR_NOT_FOUND;
  if (entry == "cuMemAlloc_v2")
    return CUDA_ERROR_OUT_OF_MEMORY;
  if (entry == "cuLaunchKernel")
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  if (entry == "cuFuncGetParamInfo")
    return CUDA_ERROR_NOT_SUPPORTED;
  if (entry == "cuEventSynchronize" || entry == "cuCtxSynchronize" ||
      entry == "cuMemcpyDtoH_v2")
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  return CUDA_ERROR_INVALID_VALUE;
}

/// Counts the call and says whether PERFDOJO_FAKE_CUDA_FAIL picks it.
bool injected(const std::string &entry) {
  int count = ++state().calls[entry];
  const char *spec = std::getenv("PERFDOJO_FAKE_CUDA_FAIL");
  if (!spec || !*spec)
    return false;
  std::string s = spec;
  size_t at = s.find('@');
  if (s.substr(0, at) != entry)
    return false;
  return at == std::string::npos || std::atoi(s.c_str() + at + 1) == count;
}

/// Logs `line`, with the result when it is an error, and returns it.
CUresult finish(const std::string &line, CUresult result) {
  if (result == CUDA_SUCCESS)
    log(line);
  else
    log(line + " -> " + errorName(result));
  return result;
}

/// The common preconditions: an injected failure, cuInit, a context.
bool precheck(const std::string &entry, bool needsContext, CUresult &result) {
  if (injected(entry))
    result = failureOf(entry);
  else if (!state().initialized)
    result = CUDA_ERROR_NOT_INITIALIZED;
  else if (needsContext && !state().contextCurrent)
    result = CUDA_ERROR_INVALID_CONTEXT;
  else
    return true;
  return false;
}

/// The allocation holding [address, address + bytes), as slot and offset.
bool findMemory(CUdeviceptr address, size_t bytes, size_t &slot,
                size_t &offset) {
  if (address < kBase)
    return false;
  slot = size_t((address - kBase) / kStride);
  offset = size_t((address - kBase) % kStride);
  State &s = state();
  return slot < s.allocations.size() && s.allocations[slot] &&
         offset <= s.sizes[slot] && bytes <= s.sizes[slot] - offset;
}

std::string memName(CUdeviceptr address) {
  size_t slot, offset;
  if (!findMemory(address, 0, slot, offset))
    return "?" + std::to_string(address);
  std::string name = "mem#" + std::to_string(slot);
  return offset ? name + "+" + std::to_string(offset) : name;
}

/// A parameter's value: an allocation's name when it points into one.
std::string paramText(uint64_t value) {
  size_t slot, offset;
  if (findMemory(value, 0, slot, offset))
    return memName(value);
  return std::to_string(int64_t(value));
}

/// The bytes of each `.param` of the entry whose name ends at `from`: its
/// type's width (`.u32` is 4), 8 for anything else.
std::vector<size_t> readParams(const std::string &ptx, size_t from) {
  std::vector<size_t> bytes;
  size_t open = ptx.find('(', from);
  size_t brace = ptx.find('{', from);
  if (open == std::string::npos || (brace != std::string::npos && brace < open))
    return bytes;
  size_t close = ptx.find(')', open);
  for (size_t p = ptx.find(".param", open); p != std::string::npos && p < close;
       p = ptx.find(".param", p + 1)) {
    std::string type = ptx.substr(p + 6, 6);
    size_t width = 8;
    for (auto [suffix, size] : {std::pair<const char *, size_t>{"8 ", 1},
                                {"8,", 1},
                                {"16", 2},
                                {"32", 4}})
      if (type.find(suffix) == 3)
        width = size;
    bytes.push_back(width);
  }
  return bytes;
}

/// Reads `key=N` from a fake-function directive.
void readFact(const std::string &line, const char *key, int &value) {
  std::string needle = std::string(" ") + key + "=";
  size_t p = line.find(needle);
  if (p != std::string::npos)
    value = std::atoi(line.c_str() + p + needle.size());
}

Module scanModule(const std::string &ptx, int moduleIndex) {
  Module m;
  m.live = true;
  for (size_t p = ptx.find(".entry"); p != std::string::npos;
       p = ptx.find(".entry", p + 1)) {
    size_t start = p + 6;
    while (start < ptx.size() && std::isspace((unsigned char)ptx[start]))
      ++start;
    size_t end = start;
    while (end < ptx.size() && (std::isalnum((unsigned char)ptx[end]) ||
                                ptx[end] == '_' || ptx[end] == '$'))
      ++end;
    auto f = std::make_unique<Function>();
    f->name = ptx.substr(start, end - start);
    f->module = moduleIndex;
    f->paramBytes = readParams(ptx, end);
    m.functions.push_back(std::move(f));
  }
  std::istringstream lines(ptx);
  std::string line;
  while (std::getline(lines, line)) {
    const char *directive = "// fake-function ";
    if (line.rfind(directive, 0) != 0)
      continue;
    std::istringstream words(line.substr(std::strlen(directive)));
    std::string name;
    words >> name;
    for (auto &f : m.functions)
      if (f->name == name) {
        readFact(line, "regs", f->registers);
        readFact(line, "shared", f->staticShared);
        readFact(line, "local", f->local);
        f->maxDynamicShared = kSharedDefault - f->staticShared;
      }
  }
  return m;
}

Function *findFunction(CUfunction handle) {
  for (Module &m : state().modules)
    for (auto &f : m.functions)
      if (m.live && reinterpret_cast<CUfunction>(f.get()) == handle)
        return f.get();
  return nullptr;
}

Event *findEvent(CUevent handle) {
  size_t slot = size_t(reinterpret_cast<uintptr_t>(handle)) - 1;
  State &s = state();
  if (slot < s.events.size() && s.events[slot].live)
    return &s.events[slot];
  return nullptr;
}

std::string eventName(CUevent handle) {
  return "event#" + std::to_string(reinterpret_cast<uintptr_t>(handle) - 1);
}

/// The lowest free slot of a table, so numbering restarts for every run
/// that releases what it created.
template <typename T, typename IsFree>
size_t freeSlot(std::vector<T> &table, IsFree isFree) {
  for (size_t i = 0; i < table.size(); ++i)
    if (isFree(table[i]))
      return i;
  table.emplace_back();
  return table.size() - 1;
}

int deviceCount() {
  const char *n = std::getenv("PERFDOJO_FAKE_CUDA_DEVICES");
  return n && *n ? std::atoi(n) : 1;
}

} // namespace

//===----------------------------------------------------------------------===//
// Initialization, errors, devices, contexts.
//===----------------------------------------------------------------------===//

FAKE_EXPORT CUresult cuInit(unsigned flags) {
  State &s = state();
  s.calls.clear();
  s.timesServed = 0;
  std::string line = "cuInit flags=" + std::to_string(flags);
  if (injected("cuInit"))
    return finish(line, failureOf("cuInit"));
  s.initialized = true;
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuDriverGetVersion(int *version) {
  if (!version)
    return finish("cuDriverGetVersion", CUDA_ERROR_INVALID_VALUE);
  *version = 12080;
  return finish("cuDriverGetVersion -> 12080", CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = errorName(error);
  return *name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = errorString(error);
  return *text ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *count) {
  CUresult r;
  if (!precheck("cuDeviceGetCount", false, r))
    return finish("cuDeviceGetCount", r);
  *count = deviceCount();
  return finish("cuDeviceGetCount -> " + std::to_string(*count), CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  std::string line = "cuDeviceGet ordinal=" + std::to_string(ordinal);
  CUresult r;
  if (!precheck("cuDeviceGet", false, r))
    return finish(line, r);
  if (ordinal < 0 || ordinal >= deviceCount())
    return finish(line, CUDA_ERROR_INVALID_DEVICE);
  *device = ordinal;
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  CUresult r;
  if (!precheck("cuDeviceGetName", false, r))
    return finish("cuDeviceGetName", r);
  std::snprintf(name, size_t(std::max(length, 0)), "%s",
                "Fake H100 (perfdojo-fake-cuda)");
  (void)device;
  return finish("cuDeviceGetName", CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuDeviceGetAttribute(int *value,
                                          CUdevice_attribute attribute,
                                          CUdevice device) {
  std::string line = "cuDeviceGetAttribute " + std::to_string(attribute);
  CUresult r;
  if (!precheck("cuDeviceGetAttribute", false, r))
    return finish(line, r);
  static const std::map<int, int> h100 = {
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kMaxThreads},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, kSharedDefault},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, kRegistersPerBlock},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, kSharedOptin},
  };
  auto it = h100.find(attribute);
  if (it == h100.end() || device < 0 || device >= deviceCount())
    return finish(line, CUDA_ERROR_INVALID_VALUE);
  *value = it->second;
  return finish(line + " -> " + std::to_string(*value), CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *context,
                                              CUdevice device) {
  std::string line =
      "cuDevicePrimaryCtxRetain device=" + std::to_string(device);
  CUresult r;
  if (!precheck("cuDevicePrimaryCtxRetain", false, r))
    return finish(line, r);
  if (device < 0 || device >= deviceCount())
    return finish(line, CUDA_ERROR_INVALID_DEVICE);
  *context = reinterpret_cast<CUcontext>(uintptr_t(0xc0000 + device));
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  std::string line =
      "cuDevicePrimaryCtxRelease_v2 device=" + std::to_string(device);
  CUresult r;
  if (!precheck("cuDevicePrimaryCtxRelease_v2", false, r))
    return finish(line, r);
  state().contextCurrent = false;
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuCtxSetCurrent(CUcontext context) {
  CUresult r;
  if (!precheck("cuCtxSetCurrent", false, r))
    return finish("cuCtxSetCurrent", r);
  state().contextCurrent = context != nullptr;
  return finish("cuCtxSetCurrent", CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuCtxSynchronize() {
  CUresult r;
  if (!precheck("cuCtxSynchronize", true, r))
    return finish("cuCtxSynchronize", r);
  return finish("cuCtxSynchronize", CUDA_SUCCESS);
}

//===----------------------------------------------------------------------===//
// Modules and functions.
//===----------------------------------------------------------------------===//

FAKE_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                        unsigned numOptions,
                                        CUjit_option *options,
                                        void **optionValues) {
  std::string ptx = image ? static_cast<const char *>(image) : "";
  std::string line =
      "cuModuleLoadDataEx ptx_bytes=" + std::to_string(ptx.size()) +
      " options=" + std::to_string(numOptions);
  CUresult r;
  bool ok = precheck("cuModuleLoadDataEx", true, r);
  // The logs, as ptxas writes them: sizes are in/out option values.
  char *infoLog = nullptr, *errorLog = nullptr;
  size_t infoSize = 0, errorSize = 0;
  int infoSizeAt = -1, errorSizeAt = -1;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == CU_JIT_INFO_LOG_BUFFER)
      infoLog = static_cast<char *>(optionValues[i]);
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      errorLog = static_cast<char *>(optionValues[i]);
    if (options[i] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES) {
      infoSize = reinterpret_cast<uintptr_t>(optionValues[i]);
      infoSizeAt = int(i);
    }
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) {
      errorSize = reinterpret_cast<uintptr_t>(optionValues[i]);
      errorSizeAt = int(i);
    }
  }
  auto write = [&](char *buffer, size_t size, int sizeAt,
                   const std::string &text) {
    if (!buffer || size == 0)
      return;
    size_t n = std::snprintf(buffer, size, "%s", text.c_str());
    if (sizeAt >= 0)
      optionValues[sizeAt] =
          reinterpret_cast<void *>(uintptr_t(std::min(n + 1, size)));
  };
  if (!ok) {
    if (r == CUDA_ERROR_INVALID_PTX)
      write(errorLog, errorSize, errorSizeAt,
            "ptxas application ptx input, line 1; fatal   : fake JIT "
            "failure (PERFDOJO_FAKE_CUDA_FAIL)");
    return finish(line, r);
  }
  State &s = state();
  size_t slot = freeSlot(s.modules, [](const Module &m) { return !m.live; });
  s.modules[slot] = scanModule(ptx, int(slot));
  std::string info = "ptxas info    : fake module (perfdojo-fake-cuda)";
  for (auto &f : s.modules[slot].functions)
    info += "\nptxas info    : Function properties for " + f->name +
            "\nptxas info    : Used " + std::to_string(f->registers) +
            " registers";
  write(infoLog, infoSize, infoSizeAt, info);
  *module = reinterpret_cast<CUmodule>(uintptr_t(slot + 1));
  return finish(line + " -> module#" + std::to_string(slot), CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuModuleUnload(CUmodule module) {
  size_t slot = size_t(reinterpret_cast<uintptr_t>(module)) - 1;
  std::string line = "cuModuleUnload module#" + std::to_string(slot);
  CUresult r;
  if (!precheck("cuModuleUnload", true, r))
    return finish(line, r);
  State &s = state();
  if (slot >= s.modules.size() || !s.modules[slot].live)
    return finish(line, CUDA_ERROR_INVALID_HANDLE);
  s.modules[slot] = Module();
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                                         const char *name) {
  std::string line = std::string("cuModuleGetFunction ") + name;
  CUresult r;
  if (!precheck("cuModuleGetFunction", true, r))
    return finish(line, r);
  size_t slot = size_t(reinterpret_cast<uintptr_t>(module)) - 1;
  State &s = state();
  if (slot >= s.modules.size() || !s.modules[slot].live)
    return finish(line, CUDA_ERROR_INVALID_HANDLE);
  for (auto &f : s.modules[slot].functions)
    if (f->name == name) {
      *function = reinterpret_cast<CUfunction>(f.get());
      return finish(line + " -> params=" + std::to_string(f->paramBytes.size()),
                    CUDA_SUCCESS);
    }
  return finish(line, CUDA_ERROR_NOT_FOUND);
}

FAKE_EXPORT CUresult cuFuncGetAttribute(int *value,
                                        CUfunction_attribute attribute,
                                        CUfunction function) {
  Function *f = findFunction(function);
  std::string line = "cuFuncGetAttribute " + (f ? f->name : "?") + " " +
                     std::to_string(attribute);
  CUresult r;
  if (!precheck("cuFuncGetAttribute", true, r))
    return finish(line, r);
  if (!f)
    return finish(line, CUDA_ERROR_INVALID_HANDLE);
  switch (attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = f->getMaxThreads();
    break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = f->staticShared;
    break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *value = f->local;
    break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *value = f->registers;
    break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *value = f->maxDynamicShared;
    break;
  default:
    return finish(line, CUDA_ERROR_INVALID_VALUE);
  }
  return finish(line + " -> " + std::to_string(*value), CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuFuncSetAttribute(CUfunction function,
                                        CUfunction_attribute attribute,
                                        int value) {
  Function *f = findFunction(function);
  std::string line = "cuFuncSetAttribute " + (f ? f->name : "?") + " " +
                     std::to_string(attribute) + " " + std::to_string(value);
  CUresult r;
  if (!precheck("cuFuncSetAttribute", true, r))
    return finish(line, r);
  if (!f)
    return finish(line, CUDA_ERROR_INVALID_HANDLE);
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ||
      value < 0 || value > kSharedOptin - f->staticShared)
    return finish(line, CUDA_ERROR_INVALID_VALUE);
  f->maxDynamicShared = value;
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuFuncGetParamInfo(CUfunction function, size_t index,
                                        size_t *offset, size_t *bytes) {
  Function *f = findFunction(function);
  std::string line =
      "cuFuncGetParamInfo " + (f ? f->name : "?") + " " + std::to_string(index);
  CUresult r;
  if (!precheck("cuFuncGetParamInfo", true, r))
    return finish(line, r);
  if (!f || index >= f->paramBytes.size())
    return finish(line,
                  f ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_INVALID_HANDLE);
  *offset = 0;
  for (size_t i = 0; i < index; ++i)
    *offset += f->paramBytes[i];
  if (bytes)
    *bytes = f->paramBytes[index];
  return finish(line + " -> " + std::to_string(f->paramBytes[index]),
                CUDA_SUCCESS);
}

//===----------------------------------------------------------------------===//
// Memory.
//===----------------------------------------------------------------------===//

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  std::string line = "cuMemAlloc_v2 bytes=" + std::to_string(bytes);
  CUresult r;
  if (!precheck("cuMemAlloc_v2", true, r))
    return finish(line, r);
  if (bytes == 0)
    return finish(line, CUDA_ERROR_INVALID_VALUE);
  void *memory = bytes <= kMaxAllocation ? std::malloc(bytes) : nullptr;
  if (!memory)
    return finish(line, CUDA_ERROR_OUT_OF_MEMORY);
  State &s = state();
  size_t slot = freeSlot(s.allocations, [](void *p) { return !p; });
  s.sizes.resize(s.allocations.size());
  s.allocations[slot] = memory;
  s.sizes[slot] = bytes;
  *pointer = kBase + slot * kStride;
  return finish(line + " -> " + memName(*pointer), CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr pointer) {
  std::string line = "cuMemFree_v2 " + memName(pointer);
  CUresult r;
  if (!precheck("cuMemFree_v2", true, r))
    return finish(line, r);
  size_t slot, offset;
  if (!findMemory(pointer, 0, slot, offset) || offset != 0)
    return finish(line, CUDA_ERROR_INVALID_VALUE);
  std::free(state().allocations[slot]);
  state().allocations[slot] = nullptr;
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr destination,
                                     const void *source, size_t bytes) {
  std::string line = "cuMemcpyHtoD_v2 " + memName(destination) +
                     " bytes=" + std::to_string(bytes);
  CUresult r;
  if (!precheck("cuMemcpyHtoD_v2", true, r))
    return finish(line, r);
  size_t slot, offset;
  if (!findMemory(destination, bytes, slot, offset) || (bytes && !source))
    return finish(line, CUDA_ERROR_INVALID_VALUE);
  std::memcpy(static_cast<char *>(state().allocations[slot]) + offset, source,
              bytes);
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuMemcpyDtoH_v2(void *destination, CUdeviceptr source,
                                     size_t bytes) {
  std::string line =
      "cuMemcpyDtoH_v2 " + memName(source) + " bytes=" + std::to_string(bytes);
  CUresult r;
  if (!precheck("cuMemcpyDtoH_v2", true, r))
    return finish(line, r);
  size_t slot, offset;
  if (!findMemory(source, bytes, slot, offset) || (bytes && !destination))
    return finish(line, CUDA_ERROR_INVALID_VALUE);
  std::memcpy(destination,
              static_cast<char *>(state().allocations[slot]) + offset, bytes);
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr destination, unsigned char value,
                                   size_t count) {
  std::string line = "cuMemsetD8_v2 " + memName(destination) +
                     " value=" + std::to_string(value) +
                     " bytes=" + std::to_string(count);
  CUresult r;
  if (!precheck("cuMemsetD8_v2", true, r))
    return finish(line, r);
  size_t slot, offset;
  if (!findMemory(destination, count, slot, offset))
    return finish(line, CUDA_ERROR_INVALID_VALUE);
  std::memset(static_cast<char *>(state().allocations[slot]) + offset, value,
              count);
  return finish(line, CUDA_SUCCESS);
}

//===----------------------------------------------------------------------===//
// Launches and events.
//===----------------------------------------------------------------------===//

FAKE_EXPORT CUresult cuLaunchKernel(CUfunction function, unsigned gridX,
                                    unsigned gridY, unsigned gridZ,
                                    unsigned blockX, unsigned blockY,
                                    unsigned blockZ, unsigned sharedBytes,
                                    CUstream stream, void **kernelParams,
                                    void **extra) {
  Function *f = findFunction(function);
  std::ostringstream line;
  line << "cuLaunchKernel " << (f ? f->name : "?") << " grid=" << gridX << ","
       << gridY << "," << gridZ << " block=" << blockX << "," << blockY << ","
       << blockZ << " shared=" << sharedBytes;
  CUresult r;
  if (!precheck("cuLaunchKernel", true, r))
    return finish(line.str(), r);
  if (!f || stream || extra)
    return finish(line.str(), CUDA_ERROR_INVALID_HANDLE);
  line << " params=" << f->paramBytes.size() << ":";
  if (!f->paramBytes.empty() && !kernelParams)
    return finish(line.str(), CUDA_ERROR_INVALID_VALUE);
  // Like the driver, read each parameter with the size the entry declares.
  for (size_t i = 0; i < f->paramBytes.size(); ++i) {
    uint64_t value = 0;
    std::memcpy(&value, kernelParams[i], f->paramBytes[i]);
    line << " " << paramText(value);
  }
  uint64_t threads = uint64_t(blockX) * blockY * blockZ;
  bool fits = gridX && gridY && gridZ && threads &&
              threads <= uint64_t(f->getMaxThreads()) && blockX <= 1024 &&
              blockY <= 1024 && blockZ <= 64 && gridX <= 2147483647u &&
              gridY <= 65535 && gridZ <= 65535;
  if (!fits || sharedBytes > unsigned(f->maxDynamicShared))
    return finish(line.str(), CUDA_ERROR_INVALID_VALUE);
  ++state().launches;
  return finish(line.str(), CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuEventCreate(CUevent *event, unsigned flags) {
  std::string line = "cuEventCreate flags=" + std::to_string(flags);
  CUresult r;
  if (!precheck("cuEventCreate", true, r))
    return finish(line, r);
  State &s = state();
  size_t slot = freeSlot(s.events, [](const Event &e) { return !e.live; });
  s.events[slot] = Event();
  s.events[slot].live = true;
  *event = reinterpret_cast<CUevent>(uintptr_t(slot + 1));
  return finish(line + " -> " + eventName(*event), CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuEventRecord(CUevent event, CUstream stream) {
  std::string line = "cuEventRecord " + eventName(event);
  CUresult r;
  if (!precheck("cuEventRecord", true, r))
    return finish(line, r);
  Event *e = findEvent(event);
  if (!e || stream)
    return finish(line, CUDA_ERROR_INVALID_HANDLE);
  e->recorded = true;
  e->launches = state().launches;
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuEventSynchronize(CUevent event) {
  std::string line = "cuEventSynchronize " + eventName(event);
  CUresult r;
  if (!precheck("cuEventSynchronize", true, r))
    return finish(line, r);
  if (!findEvent(event))
    return finish(line, CUDA_ERROR_INVALID_HANDLE);
  return finish(line, CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuEventElapsedTime(float *milliseconds, CUevent start,
                                        CUevent end) {
  std::string line =
      "cuEventElapsedTime " + eventName(start) + " " + eventName(end);
  CUresult r;
  if (!precheck("cuEventElapsedTime", true, r))
    return finish(line, r);
  Event *a = findEvent(start), *b = findEvent(end);
  if (!a || !b || !a->recorded || !b->recorded)
    return finish(line, CUDA_ERROR_INVALID_HANDLE);
  std::vector<float> times;
  if (const char *list = std::getenv("PERFDOJO_FAKE_CUDA_TIMES")) {
    std::istringstream in(list);
    std::string item;
    while (std::getline(in, item, ','))
      times.push_back(std::strtof(item.c_str(), nullptr));
  }
  State &s = state();
  *milliseconds = times.empty() ? float(b->launches - a->launches) * 0.25f
                                : times[s.timesServed++ % times.size()];
  std::ostringstream result;
  result << line << " -> " << *milliseconds;
  return finish(result.str(), CUDA_SUCCESS);
}

FAKE_EXPORT CUresult cuEventDestroy_v2(CUevent event) {
  std::string line = "cuEventDestroy_v2 " + eventName(event);
  CUresult r;
  if (!precheck("cuEventDestroy_v2", true, r))
    return finish(line, r);
  Event *e = findEvent(event);
  if (!e)
    return finish(line, CUDA_ERROR_INVALID_HANDLE);
  *e = Event();
  return finish(line, CUDA_SUCCESS);
}
