//===- CudaDriver.cpp - the CUDA driver API, loaded at run time -----------===//

#include "perfdojo/GpuRuntime/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>

using namespace perfdojo::gpu::cuda;

std::string perfdojo::gpu::cuda::getDriverLibraryPath() {
  const char *path = std::getenv("PERFDOJO_CUDA_DRIVER");
  return path && *path ? path : "libcuda.so.1";
}

namespace {
/// Resolves the first of `names` the library exports into `entry`.
template <typename Fn>
bool resolve(void *handle, Fn &entry, std::initializer_list<const char *> names,
             const std::string &path, std::string &error) {
  for (const char *name : names) {
    if (void *symbol = dlsym(handle, name)) {
      entry = reinterpret_cast<Fn>(symbol);
      return true;
    }
  }
  if (error.empty())
    error = "the CUDA driver " + path + " does not export " + *names.begin() +
            " (is it a CUDA driver library?)";
  return false;
}
} // namespace

std::unique_ptr<CudaDriver> CudaDriver::load(std::string &error) {
  std::string path = getDriverLibraryPath();
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    error = "no CUDA driver: cannot load " + path + " (" +
            (reason ? reason : "unknown reason") + ")";
    return nullptr;
  }
  std::unique_ptr<CudaDriver> d(new CudaDriver());
  d->path = path;
  error.clear();
  // Every entry point is resolved before any is used: a partial driver is
  // refused as a whole. `&=` keeps going so the first missing one is named.
  bool ok = true;
  ok &= resolve(handle, d->init, {"cuInit"}, path, error);
  ok &=
      resolve(handle, d->driverGetVersion, {"cuDriverGetVersion"}, path, error);
  ok &= resolve(handle, d->getErrorName, {"cuGetErrorName"}, path, error);
  ok &= resolve(handle, d->getErrorString, {"cuGetErrorString"}, path, error);
  ok &= resolve(handle, d->deviceGetCount, {"cuDeviceGetCount"}, path, error);
  ok &= resolve(handle, d->deviceGet, {"cuDeviceGet"}, path, error);
  ok &= resolve(handle, d->deviceGetName, {"cuDeviceGetName"}, path, error);
  ok &= resolve(handle, d->deviceGetAttribute, {"cuDeviceGetAttribute"}, path,
                error);
  ok &= resolve(handle, d->devicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"},
                path, error);
  ok &= resolve(handle, d->devicePrimaryCtxRelease,
                {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
                path, error);
  ok &= resolve(handle, d->ctxSetCurrent, {"cuCtxSetCurrent"}, path, error);
  ok &= resolve(handle, d->ctxSynchronize, {"cuCtxSynchronize"}, path, error);
  ok &=
      resolve(handle, d->moduleLoadDataEx, {"cuModuleLoadDataEx"}, path, error);
  ok &= resolve(handle, d->moduleUnload, {"cuModuleUnload"}, path, error);
  ok &= resolve(handle, d->moduleGetFunction, {"cuModuleGetFunction"}, path,
                error);
  ok &=
      resolve(handle, d->funcGetAttribute, {"cuFuncGetAttribute"}, path, error);
  ok &=
      resolve(handle, d->funcSetAttribute, {"cuFuncSetAttribute"}, path, error);
  ok &= resolve(handle, d->memAlloc, {"cuMemAlloc_v2"}, path, error);
  ok &= resolve(handle, d->memFree, {"cuMemFree_v2"}, path, error);
  ok &= resolve(handle, d->memcpyHtoD, {"cuMemcpyHtoD_v2"}, path, error);
  ok &= resolve(handle, d->memcpyDtoH, {"cuMemcpyDtoH_v2"}, path, error);
  ok &= resolve(handle, d->memsetD8, {"cuMemsetD8_v2"}, path, error);
  ok &= resolve(handle, d->launchKernel, {"cuLaunchKernel"}, path, error);
  ok &= resolve(handle, d->eventCreate, {"cuEventCreate"}, path, error);
  ok &= resolve(handle, d->eventRecord, {"cuEventRecord"}, path, error);
  ok &=
      resolve(handle, d->eventSynchronize, {"cuEventSynchronize"}, path, error);
  // Every driver exports the original cuEventElapsedTime (CUDA 12.8 added a
  // _v2 of the same signature, absent from older drivers).
  ok &=
      resolve(handle, d->eventElapsedTime, {"cuEventElapsedTime"}, path, error);
  ok &= resolve(handle, d->eventDestroy, {"cuEventDestroy_v2"}, path, error);
  // Optional: it lets the runtime check a plan's parameters against the
  // function's, and older drivers lack it.
  d->funcGetParamInfo = reinterpret_cast<decltype(d->funcGetParamInfo)>(
      dlsym(handle, "cuFuncGetParamInfo"));
  if (!ok) {
    // Nothing of this library was called yet: unloading it is safe.
    dlclose(handle);
    return nullptr;
  }
  return d;
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (getErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "CUDA error " + std::to_string(result);
  std::string description = name;
  if (getErrorString(result, &text) == CUDA_SUCCESS && text)
    description += std::string(" (") + text + ")";
  return description;
}

bool CudaDriver::check(CUresult result, const std::string &call,
                       std::string &error) const {
  if (result == CUDA_SUCCESS)
    return true;
  error = call + " failed: " + describe(result);
  return false;
}
