//===- CudaDriver.h - the CUDA driver API, loaded at run time --*- C++ -*-===//
//
// The runtime reaches the GPU through the CUDA driver library, opened with
// dlopen when a plan runs, so that nothing here needs the CUDA toolkit to
// build and a machine without a GPU still builds and runs everything else.
// The few driver types and enum values used are declared below with the
// numbers documented in cuda.h (CUDA 12/13); they are part of the driver's
// stable ABI.
//
// Where the driver exports a versioned entry point (cuMemAlloc_v2, ...) that
// is the one resolved: the unversioned names are the pre-CUDA-4 ABI, kept
// only for old binaries.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_GPURUNTIME_CUDADRIVER_H
#define PERFDOJO_GPURUNTIME_CUDADRIVER_H

#include <cstddef>
#include <memory>
#include <string>

namespace perfdojo::gpu::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUevent = struct CUevent_st *;
using CUstream = struct CUstream_st *;
/// The enum parameters (CUdevice_attribute, CUfunction_attribute,
/// CUjit_option) are C enums: passed as int.
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUjit_option = int;

// CUresult values the runtime and its test driver name.
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
constexpr CUresult CUDA_ERROR_NOT_SUPPORTED = 801;
constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

// CUdevice_attribute.
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK =
    8;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute.
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES =
    8;

// CUjit_option.
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr CUjit_option CU_JIT_LOG_VERBOSE = 12;

constexpr unsigned CU_EVENT_DEFAULT = 0;

/// The driver library's path: $PERFDOJO_CUDA_DRIVER when set (tests point it
/// at a recording stand-in), else "libcuda.so.1".
std::string getDriverLibraryPath();

/// The entry points of one opened driver library. The library stays loaded
/// for the life of the process: unloading libcuda while its atexit handlers
/// are registered crashes at exit.
class CudaDriver {
public:
  /// Opens getDriverLibraryPath() and resolves every entry point. On
  /// failure, null and `error` says what is missing ("no CUDA driver: cannot
  /// load libcuda.so.1 (...)").
  static std::unique_ptr<CudaDriver> load(std::string &error);

  const std::string &getPath() const { return path; }

  /// "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)".
  std::string describe(CUresult result) const;
  /// True for CUDA_SUCCESS; otherwise false and `error` is
  /// "<call> failed: <describe(result)>".
  bool check(CUresult result, const std::string &call,
             std::string &error) const;

  CUresult (*init)(unsigned flags) = nullptr;
  CUresult (*driverGetVersion)(int *version) = nullptr;
  CUresult (*getErrorName)(CUresult error, const char **name) = nullptr;
  CUresult (*getErrorString)(CUresult error, const char **text) = nullptr;

  CUresult (*deviceGetCount)(int *count) = nullptr;
  CUresult (*deviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*deviceGetName)(char *name, int length, CUdevice device) = nullptr;
  CUresult (*deviceGetAttribute)(int *value, CUdevice_attribute attribute,
                                 CUdevice device) = nullptr;
  CUresult (*devicePrimaryCtxRetain)(CUcontext *context,
                                     CUdevice device) = nullptr;
  CUresult (*devicePrimaryCtxRelease)(CUdevice device) = nullptr;
  CUresult (*ctxSetCurrent)(CUcontext context) = nullptr;
  CUresult (*ctxSynchronize)() = nullptr;

  CUresult (*moduleLoadDataEx)(CUmodule *module, const void *image,
                               unsigned numOptions, CUjit_option *options,
                               void **optionValues) = nullptr;
  CUresult (*moduleUnload)(CUmodule module) = nullptr;
  CUresult (*moduleGetFunction)(CUfunction *function, CUmodule module,
                                const char *name) = nullptr;
  CUresult (*funcGetAttribute)(int *value, CUfunction_attribute attribute,
                               CUfunction function) = nullptr;
  CUresult (*funcSetAttribute)(CUfunction function,
                               CUfunction_attribute attribute,
                               int value) = nullptr;
  /// Optional (drivers of CUDA 12.4 and later): null where missing.
  CUresult (*funcGetParamInfo)(CUfunction function, size_t index,
                               size_t *offset, size_t *bytes) = nullptr;

  CUresult (*memAlloc)(CUdeviceptr *pointer, size_t bytes) = nullptr;
  CUresult (*memFree)(CUdeviceptr pointer) = nullptr;
  CUresult (*memcpyHtoD)(CUdeviceptr destination, const void *source,
                         size_t bytes) = nullptr;
  CUresult (*memcpyDtoH)(void *destination, CUdeviceptr source,
                         size_t bytes) = nullptr;
  CUresult (*memsetD8)(CUdeviceptr destination, unsigned char value,
                       size_t count) = nullptr;

  CUresult (*launchKernel)(CUfunction function, unsigned gridX, unsigned gridY,
                           unsigned gridZ, unsigned blockX, unsigned blockY,
                           unsigned blockZ, unsigned sharedBytes,
                           CUstream stream, void **kernelParams,
                           void **extra) = nullptr;

  CUresult (*eventCreate)(CUevent *event, unsigned flags) = nullptr;
  CUresult (*eventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*eventSynchronize)(CUevent event) = nullptr;
  CUresult (*eventElapsedTime)(float *milliseconds, CUevent start,
                               CUevent end) = nullptr;
  CUresult (*eventDestroy)(CUevent event) = nullptr;

private:
  CudaDriver() = default;
  std::string path;
};

} // namespace perfdojo::gpu::cuda

#endif // PERFDOJO_GPURUNTIME_CUDADRIVER_H
