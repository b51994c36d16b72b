//===- LargeStack.h - run a tool's work on a large stack -------*- C++ -*-===//
//
// The IR bounds the nesting of a kernel (KernelTree.h, kMaxScopeDepth), and
// the importer and the verifier reject deeper kernels with a located error.
// MLIR's own parser, though, recurses once per nested region before any
// verifier runs, and a failed module is destroyed recursively too: on the
// default 8 MiB stack, MLIR text nesting `dojo.scope` about 4,000 deep
// crashes before the error can be reported. The tools therefore do their
// work on a large stack (address space only: pages are committed as they
// are touched), which moves that point far beyond any plausible input
// (docs/ir.md, "Bounds").
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_LARGESTACK_H
#define PERFDOJO_SUPPORT_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace perfdojo {

/// The stack of a tool's main work: 512 MiB.
constexpr size_t kToolStackBytes = size_t(512) << 20;

/// Runs `work` on a stack of `stackBytes` and returns its result. The stack
/// is switched on the calling thread (ucontext), not given to a new thread:
/// process-directed signals, such as the SIGALRM that
/// llvm::sys::ExecuteAndWait's time limit relies on, keep reaching the
/// thread that waits for them. The lowest page is a guard, so an overflow
/// still faults. When the stack cannot be mapped (an address-space limit
/// smaller than it, say), `work` runs on the current stack instead: deep
/// MLIR text may then crash the parser, everything else is unchanged.
inline int runOnLargeStack(llvm::function_ref<int()> work,
                           size_t stackBytes = kToolStackBytes) {
  struct Call {
    llvm::function_ref<int()> work;
    int result = 0;
    ucontext_t caller, callee;
  };
  static thread_local Call *current = nullptr;
  void *stack = mmap(nullptr, stackBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                     -1, 0);
  if (stack == MAP_FAILED)
    return work();
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  Call call{work, 0, {}, {}};
  if (mprotect(stack, page, PROT_NONE) != 0 || getcontext(&call.callee) != 0) {
    munmap(stack, stackBytes);
    return work();
  }
  call.callee.uc_stack.ss_sp = static_cast<char *>(stack) + page;
  call.callee.uc_stack.ss_size = stackBytes - page;
  call.callee.uc_link = &call.caller;
  Call *outer = current;
  current = &call;
  makecontext(&call.callee, [] { current->result = current->work(); }, 0);
  int switched = swapcontext(&call.caller, &call.callee);
  current = outer;
  munmap(stack, stackBytes);
  return switched == 0 ? call.result : work();
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_LARGESTACK_H
