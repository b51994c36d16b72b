//===- MoveEngineBenchmark.cpp - move engine throughput -------------------===//
//
// For every library kernel (kernels/*.dojo, the paper shapes, or --kernels=
// DIR): the time to list all legal moves, and the time of one apply + undo
// averaged over every legal move of the kernel. Targets (issue "Moves"):
// listing under 20 ms, apply + undo under 100 us.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Moves/Move.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Path.h"

#include "KernelFiles.h"

#include <benchmark/benchmark.h>


using namespace perfdojo;

namespace {
struct Loaded {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  dojo::KernelOp kernel;
};

std::unique_ptr<Loaded> load(const std::string &path) {
  auto loaded = std::make_unique<Loaded>();
  loaded->module = loadKernelFile(path, &loaded->context);
  if (loaded->module)
    loaded->kernel = getSingleKernel(*loaded->module);
  return loaded;
}

void listMoves(benchmark::State &state, std::string path) {
  std::unique_ptr<Loaded> k = load(path);
  if (!k->kernel) {
    state.SkipWithError("cannot load kernel");
    return;
  }
  size_t count = 0;
  for (auto _ : state) {
    MoveState moves(k->kernel);
    count = enumerateLegalMoves(moves).size();
    benchmark::DoNotOptimize(count);
  }
  state.counters["legal_moves"] = count;
}

void applyUndo(benchmark::State &state, std::string path) {
  std::unique_ptr<Loaded> k = load(path);
  if (!k->kernel) {
    state.SkipWithError("cannot load kernel");
    return;
  }
  MoveState moves(k->kernel);
  llvm::SmallVector<MoveRequest> legal = enumerateLegalMoves(moves);
  if (legal.empty()) {
    state.SkipWithError("no legal move");
    return;
  }
  mlir::Location loc = k->kernel.getLoc();
  size_t i = 0;
  for (auto _ : state) {
    const MoveRequest &move = legal[i++ % legal.size()];
    mlir::FailureOr<MoveRequest> inverse = applyMove(moves, move, loc);
    if (failed(inverse) || failed(applyMove(moves, *inverse, loc))) {
      state.SkipWithError(("apply/undo failed: " + move.str()).c_str());
      return;
    }
  }
}
} // namespace

int main(int argc, char **argv) {
  std::vector<char *> rest;
  std::string dir = takeKernelDir(argc, argv, PERFDOJO_KERNELS_DIR, rest);
  std::vector<std::string> files = listKernelFiles(dir);
  for (const std::string &file : files) {
    std::string name = llvm::sys::path::stem(file).str();
    benchmark::RegisterBenchmark(("list_moves/" + name).c_str(), listMoves,
                                 file)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("apply_undo/" + name).c_str(), applyUndo,
                                 file)
        ->Unit(benchmark::kMicrosecond);
  }
  int n = rest.size();
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
