//===- LargeStack.h - run a tool's work on a large stack -------*- C++ -*-===//
//
// The IR bounds the nesting of a kernel (KernelTree.h, kMaxScopeDepth), and
// the importer and the verifier reject deeper kernels with a located error.
// MLIR's own parser, though, recurses once per nested region before any
// verifier runs, and a failed module is destroyed recursively too: on the
// default 8 MiB stack, MLIR text nesting `dojo.scope` about 4,000 deep
// crashes before the error can be reported. The tools therefore do their
// work on a thread with a large stack (address space only: pages are
// committed as they are touched), which moves that point to about a
// quarter of a million levels (docs/ir.md, "Bounds").
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_LARGESTACK_H
#define PERFDOJO_SUPPORT_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <pthread.h>

namespace perfdojo {

/// The stack of a tool's main work: 512 MiB.
constexpr size_t kToolStackBytes = size_t(512) << 20;

/// Runs `work` on a new thread with a stack of `stackBytes` and returns its
/// result. When no such thread can be made (an address-space limit smaller
/// than the stack, say), `work` runs on the calling thread instead: deep
/// MLIR text may then crash the parser, everything else is unchanged.
inline int runOnLargeStack(llvm::function_ref<int()> work,
                           size_t stackBytes = kToolStackBytes) {
  struct Call {
    llvm::function_ref<int()> work;
    int result = 0;
  } call{work};
  auto entry = [](void *arg) -> void * {
    auto *c = static_cast<Call *>(arg);
    c->result = c->work();
    return nullptr;
  };
  pthread_attr_t attributes;
  if (pthread_attr_init(&attributes) != 0)
    return work();
  pthread_t thread;
  bool started =
      pthread_attr_setstacksize(&attributes, stackBytes) == 0 &&
      pthread_create(&thread, &attributes, entry, &call) == 0;
  pthread_attr_destroy(&attributes);
  if (!started)
    return work();
  pthread_join(thread, nullptr);
  return call.result;
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_LARGESTACK_H
