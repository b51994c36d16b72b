//===- InterpreterBenchmark.cpp - reference interpreter throughput --------===//
//
// Runs the interpreter on every small-shape library kernel (or the kernels
// given with --kernels=DIR) and reports leaf evaluations per second as the
// benchmark's items/s.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Path.h"

#include "KernelFiles.h"

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

using namespace perfdojo;

namespace {

void runKernel(benchmark::State &state, std::string path, bool reference) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = loadKernelFile(path, &context);
  dojo::KernelOp kernel = module ? getSingleKernel(*module) : nullptr;
  if (!kernel) {
    state.SkipWithError("cannot load kernel");
    return;
  }
  auto interp = Interpreter::create(kernel, InterpreterOptions{reference});
  if (mlir::failed(interp)) {
    state.SkipWithError("cannot interpret kernel");
    return;
  }
  std::optional<ScalarType> type;
  if (reference)
    type = ScalarType::f64;
  std::vector<HostBuffer> args = allocateArguments(kernel, type);
  fillInputs(kernel, args, /*seed=*/0);
  for (auto _ : state) {
    if (llvm::Error err = interp->run(args)) {
      state.SkipWithError(llvm::toString(std::move(err)).c_str());
      return;
    }
    benchmark::DoNotOptimize(args.front().data());
  }
  state.SetItemsProcessed(state.iterations() * interp->getLeafEvaluations());
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> rest;
  std::string dir = takeKernelDir(argc, argv, PERFDOJO_KERNELS_DIR "/small", rest);
  std::vector<std::string> files = listKernelFiles(dir);
  for (const std::string &file : files) {
    std::string name = llvm::sys::path::stem(file).str();
    benchmark::RegisterBenchmark(("interp/" + name).c_str(), runKernel, file,
                                 false)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("interp-f64ref/" + name).c_str(), runKernel,
                                 file, true)
        ->Unit(benchmark::kMillisecond);
  }
  int n = rest.size();
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
