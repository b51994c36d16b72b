//===- CodegenBenchmark.cpp - compiled kernels against libtorch ----------===//
//
// For every kernel file of a directory (default kernels/bench, the reduced
// shapes; `--kernels=kernels` for the paper shapes) and 1 and 2 threads:
//
//   naive/<kernel>/threads:T   the untransformed kernel, JIT-compiled at -O3
//   moves/<kernel>/threads:T   after kernels/scripts/<kernel>.moves, if any
//   torch/<kernel>/threads:T   the same operator in libtorch (ATen)
//
// All three run on the same seeded inputs; before registering, the moved
// kernel and libtorch are validated against the naive kernel's outputs.
// Each iteration rotates through copies of the arguments spanning twice the
// last-level cache (perfdojo/ExecutionEngine/Timer.h), so small kernels do
// not run on data they just touched. Counters: GFLOP/s and compulsory GB/s.
//
//===----------------------------------------------------------------------===//

#include "KernelFiles.h"

#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/ExecutionEngine/Timer.h"
#include "perfdojo/Moves/Game.h"
#include "perfdojo/Moves/Selector.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/TorchReference/TorchOperators.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <iostream>
#include <memory>

using namespace perfdojo;

namespace {

/// Everything one kernel file's benchmarks share; lives until exit.
struct KernelCase {
  std::string name;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  dojo::KernelOp kernel;
  WorkCounts counts;
  std::vector<HostBuffer> inputs;
  std::unique_ptr<JitKernel> naive, moved;
  std::unique_ptr<ArgumentRotation> rotation;
};

std::vector<std::unique_ptr<KernelCase>> cases;

void setCounters(benchmark::State &state, const WorkCounts &counts) {
  state.counters["GFLOP/s"] = benchmark::Counter(
      double(counts.flops) * state.iterations() / 1e9,
      benchmark::Counter::kIsRate);
  state.counters["GB/s"] = benchmark::Counter(
      double(counts.compulsoryBytes) * state.iterations() / 1e9,
      benchmark::Counter::kIsRate);
}

void runJit(benchmark::State &state, KernelCase &c, JitKernel &kernel,
            unsigned threads) {
  setJitThreads(threads);
  for (auto _ : state)
    kernel.call(c.rotation->next());
  setCounters(state, c.counts);
}

void runTorch(benchmark::State &state, KernelCase &c, unsigned threads) {
  at::set_num_threads(threads);
  // Each rotation copy's buffers as tensors over its memory; operators
  // with out= variants write into the copy's outputs, as the kernels do.
  std::vector<Tensors> sets, outputSets;
  for (unsigned i = 0; i < c.rotation->size(); ++i) {
    sets.push_back(viewArguments(c.kernel, c.rotation->getSet(i)));
    outputSets.push_back(
        viewArguments(c.kernel, c.rotation->getSet(i), /*outputs=*/true));
  }
  const TorchOperator &op = *lookupTorchOperator(c.name);
  size_t next = 0;
  for (auto _ : state) {
    Tensors out = op.call(sets[next], outputSets[next]);
    benchmark::DoNotOptimize(out);
    next = (next + 1) % sets.size();
  }
  setCounters(state, c.counts);
}

/// `kernel` after the move script at `path`.
llvm::Expected<mlir::OwningOpRef<dojo::KernelOp>>
applyScript(dojo::KernelOp kernel, const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read " + path);
  std::string script;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (llvm::StringRef line : lines)
    script += stripScriptComment(line).str() + ";";
  auto moves = parseMoveScript(script);
  if (!moves)
    return moves.takeError();
  Game game(kernel);
  for (const MoveRequest &move : *moves)
    if (llvm::Error error = game.apply(move))
      return llvm::createStringError(path + ": " + move.str() + ": " +
                                     llvm::toString(std::move(error)));
  // The game plays on its own copy of the kernel.
  return mlir::OwningOpRef<dojo::KernelOp>(
      llvm::cast<dojo::KernelOp>(game.getKernel()->clone()));
}

/// Runs `kernel` on a copy of the inputs and returns the arguments after.
std::vector<HostBuffer> runOnce(JitKernel &kernel,
                                const std::vector<HostBuffer> &inputs) {
  std::vector<HostBuffer> args = inputs;
  if (llvm::Error error = kernel.run(args))
    llvm::report_fatal_error(std::move(error));
  return args;
}

/// Prints and returns false if any output of `actual` differs from `expected`.
bool validate(KernelCase &c, llvm::StringRef what,
              llvm::ArrayRef<HostBuffer> actual,
              llvm::ArrayRef<HostBuffer> expected) {
  bool ok = true;
  int64_t length = getMaxReductionLength(c.kernel);
  for (size_t i = 0; i < actual.size(); ++i) {
    dojo::BufferOp buffer = c.kernel.lookupArray(actual[i].getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    Comparison cmp = compareBuffers(
        actual[i], expected[i],
        2 * getRelativeTolerance(buffer.getElementType(), length));
    if (!cmp.passed()) {
      std::cerr << c.name << ": " << what.str() << " output "
                << actual[i].getName() << ": " << describe(cmp) << "\n";
      ok = false;
    }
  }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> rest;
  std::string dir = takeKernelDir(
      argc, argv, std::string(PERFDOJO_KERNELS_DIR) + "/bench", rest);
  std::string scriptDir = std::string(PERFDOJO_KERNELS_DIR) + "/scripts";
  int restArgc = rest.size();
  benchmark::Initialize(&restArgc, rest.data());

  static mlir::MLIRContext context;
  context.printOpOnDiagnostic(false);
  mlir::ScopedDiagnosticHandler handler(&context, [](mlir::Diagnostic &d) {
    std::cerr << d.str() << "\n";
    return mlir::success();
  });
  bool allValid = true;
  for (const std::string &path : listKernelFiles(dir)) {
    auto c = std::make_unique<KernelCase>();
    c->name = llvm::sys::path::stem(path).str();
    c->module = loadKernelFile(path, &context);
    if (!c->module || !(c->kernel = getSingleKernel(*c->module)))
      return 1;
    c->counts = countWork(c->kernel);
    c->inputs = allocateArguments(c->kernel);
    fillInputs(c->kernel, c->inputs, /*seed=*/0);
    auto naive = JitKernel::compile(c->kernel);
    if (!naive) {
      std::cerr << c->name << ": " << llvm::toString(naive.takeError()) << "\n";
      return 1;
    }
    c->naive = std::move(*naive);
    std::vector<HostBuffer> expected = runOnce(*c->naive, c->inputs);

    std::string script = scriptDir + "/" + c->name + ".moves";
    if (llvm::sys::fs::exists(script)) {
      auto moved = applyScript(c->kernel, script);
      if (!moved) {
        std::cerr << c->name << ": " << llvm::toString(moved.takeError())
                  << "\n";
        return 1;
      }
      auto jit = JitKernel::compile(**moved);
      if (!jit) {
        std::cerr << c->name << ": " << llvm::toString(jit.takeError())
                  << "\n";
        return 1;
      }
      c->moved = std::move(*jit);
      allValid &= validate(*c, "moved kernel", runOnce(*c->moved, c->inputs),
                           expected);
    }
    if (const TorchOperator *op = lookupTorchOperator(c->name)) {
      // Validated as it is timed: written into the outputs where it can.
      std::vector<HostBuffer> args = c->inputs;
      Tensors outputs = viewArguments(c->kernel, args, /*outputs=*/true);
      Tensors out = op->call(viewArguments(c->kernel, args), outputs);
      std::vector<HostBuffer> torchArgs;
      for (HostBuffer &buffer : expected) {
        auto it = out.find(buffer.getName());
        torchArgs.push_back(it == out.end()
                                ? buffer
                                : toHostBuffer(buffer.getName(), it->second));
      }
      std::vector<HostBuffer> expected64;
      for (const HostBuffer &buffer : expected) {
        HostBuffer wide(buffer.getName(), ScalarType::f64, buffer.size());
        wide.assign(buffer);
        expected64.push_back(std::move(wide));
      }
      allValid &= validate(*c, "libtorch", torchArgs, expected64);
    }
    c->rotation =
        std::make_unique<ArgumentRotation>(c->inputs, TimingOptions());
    cases.push_back(std::move(c));
  }
  if (!allValid) {
    std::cerr << "validation failed; no benchmark run\n";
    return 1;
  }

  for (std::unique_ptr<KernelCase> &c : cases) {
    KernelCase *k = c.get();
    for (unsigned threads : {1u, 2u}) {
      std::string suffix = "/" + k->name + "/threads:" + std::to_string(threads);
      benchmark::RegisterBenchmark(
          ("naive" + suffix).c_str(),
          [k, threads](benchmark::State &s) { runJit(s, *k, *k->naive, threads); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      if (k->moved)
        benchmark::RegisterBenchmark(("moves" + suffix).c_str(),
                                     [k, threads](benchmark::State &s) {
                                       runJit(s, *k, *k->moved, threads);
                                     })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      if (lookupTorchOperator(k->name))
        benchmark::RegisterBenchmark(
            ("torch" + suffix).c_str(),
            [k, threads](benchmark::State &s) { runTorch(s, *k, threads); })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // JIT engines must be destroyed before static destructors run.
  cases.clear();
  return 0;
}
