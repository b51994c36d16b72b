//===- LibtorchThreads.h - libtorch's threads and its BLAS's ----*- C++ -*-===//
//
// Debian's libtorch multiplies matrices with OpenBLAS, whose thread pool
// at::set_num_threads does not size: without setting it too, a matmul "on 1
// thread" ran on every core, and the agent's "single-threaded" training had
// BLAS threads spinning beside the candidates it timed. Where the BLAS is not
// OpenBLAS there is no such entry point and nothing more to hold.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TORCHREFERENCE_LIBTORCHTHREADS_H
#define PERFDOJO_TORCHREFERENCE_LIBTORCHTHREADS_H

#include <ATen/Parallel.h>

#include <dlfcn.h>

namespace perfdojo {

/// Runs libtorch, and the BLAS under it, on `threads` threads.
inline void setLibtorchThreads(unsigned threads) {
  at::set_num_threads(int(threads));
  if (auto setBlasThreads = reinterpret_cast<void (*)(int)>(
          dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    setBlasThreads(int(threads));
}

} // namespace perfdojo

#endif // PERFDOJO_TORCHREFERENCE_LIBTORCHTHREADS_H
