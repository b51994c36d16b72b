//===- perfdojo-run-torch.cpp - time a kernel's libtorch operator --------===//
//
// Times the libtorch (ATen) operator of a library kernel on that kernel's
// shapes and seeded inputs, the reference point of perfdojo-search's
// "speedup over libtorch". Before timing, libtorch's outputs are validated
// against the kernel itself (JIT-compiled as given), so a kernel that only
// shares its name with an operator (a softmax over another axis) is refused
// instead of being compared with the wrong computation. Timing follows
// perfdojo-run: a warm-up pass over every argument copy, then repetitions
// that each take the next copy (ArgumentRotation).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/ExecutionEngine/Timer.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Support/ToolFlags.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/DojoText/KernelFile.h"
#include "perfdojo/TorchReference/TorchOperators.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

using namespace mlir;
using namespace perfdojo;
namespace cl = llvm::cl;

static cl::OptionCategory torchCategory("perfdojo-run-torch options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<kernel.dojo|kernel.mlir>"),
                                      cl::cat(torchCategory));
static cl::opt<std::string> operatorName(
    "operator", cl::init(""),
    cl::desc("libtorch operator to time (default: the kernel's name, else "
             "the file stem)"),
    cl::cat(torchCategory));
// `--threads` is spelled `num-threads` for llvm::cl: a library linked into
// this tool already registers an option named `threads`. main() rewrites
// `--threads` to it before parsing.
static cl::opt<unsigned> threads("num-threads", cl::init(1),
                                 cl::desc("libtorch intra-op threads "
                                          "(at::set_num_threads), also "
                                          "spelled --threads"),
                                 cl::cat(torchCategory));
static cl::opt<unsigned> reps("reps", cl::init(10),
                              cl::desc("Timed repetitions, median and min "
                                       "reported"),
                              cl::cat(torchCategory));
static cl::opt<unsigned> warmup("warmup", cl::init(1),
                                cl::desc("Untimed calls before timing (at "
                                         "least one per argument copy)"),
                                cl::cat(torchCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the input generator (the "
                                       "same data as perfdojo-run's)"),
                              cl::cat(torchCategory));
static cl::opt<bool> json("json", cl::init(false),
                          cl::desc("Print one JSON object instead of text"),
                          cl::cat(torchCategory));

namespace {
constexpr llvm::StringLiteral kTool = "perfdojo-run-torch: ";

std::string availableOperators() {
  std::string list;
  llvm::raw_string_ostream os(list);
  llvm::interleaveComma(getTorchOperatorNames(), os);
  return list;
}

/// Tensors viewing the `in` and `inout` buffers of `args` (no copies, so
/// each rotation copy is its own memory). The buffers' own element type
/// keeps the views zero-copy.
Tensors inputTensors(dojo::KernelOp kernel, std::vector<HostBuffer> &args) {
  Tensors tensors;
  for (HostBuffer &buffer : args) {
    if (kernel.lookupArray(buffer.getName()).getRole() == dojo::Role::out)
      continue;
    at::ScalarType dtype =
        buffer.getType() == ScalarType::f32 ? at::kFloat : at::kDouble;
    tensors[buffer.getName()] = toTensor(kernel, buffer, dtype, /*share=*/true);
  }
  return tensors;
}

std::string shapeString(llvm::ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

/// Exit codes: 1 for unusable input (unknown operator, shapes libtorch
/// rejects), 2 when the operator does not compute this kernel.
enum ExitCode { kOk = 0, kError = 1, kMismatch = 2 };

/// Calls `op`, turning ATen's exceptions into messages and an exit code
/// (the operator table is written with `Tensors::at`, so an operator that
/// reads a buffer the kernel does not have throws std::out_of_range).
ExitCode callOperator(const TorchOperator &op, const Tensors &in,
                      llvm::StringRef name, Tensors &out) {
  try {
    out = op(in);
    return kOk;
  } catch (const c10::Error &error) {
    llvm::errs() << kTool << "libtorch rejects operator '" << name
                 << "' on this kernel's shapes: "
                 << error.what_without_backtrace() << "\n";
    return kError;
  } catch (const std::out_of_range &) {
    std::string inputs;
    llvm::raw_string_ostream os(inputs);
    llvm::interleaveComma(llvm::make_first_range(in), os);
    llvm::errs() << kTool << "operator '" << name
                 << "' does not compute this kernel: it reads a buffer the "
                    "kernel does not have (kernel inputs: "
                 << inputs << ")\n";
    return kMismatch;
  } catch (const std::exception &error) {
    llvm::errs() << kTool << "operator '" << name
                 << "' failed: " << error.what() << "\n";
    return kError;
  }
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  parseToolCommandLine(argc, argv, torchCategory, "num-threads",
                       "PerfDojo libtorch baseline: validate and time "
                       "a kernel's libtorch operator\n");
  if (threads == 0) {
    llvm::errs() << kTool << "--threads must be at least 1\n";
    return kError;
  }

  KernelFile input;
  dojo::KernelOp kernel = input.load(inputFile);
  if (!kernel)
    return kError;

  // The operator: given, or the kernel's name (the .dojo importer names a
  // kernel after its file), or the file stem for MLIR kernels named
  // otherwise.
  std::string name = operatorName;
  const TorchOperator *op = nullptr;
  if (!name.empty()) {
    if (!(op = lookupTorchOperator(name))) {
      llvm::errs() << kTool << "no libtorch operator named '" << name
                   << "'; available: " << availableOperators() << "\n";
      return kError;
    }
  } else {
    std::string stem = llvm::sys::path::stem(inputFile).str();
    for (const std::string &candidate : {kernel.getSymName().str(), stem})
      if ((op = lookupTorchOperator(candidate))) {
        name = candidate;
        break;
      }
    if (!op) {
      llvm::errs() << kTool << "no libtorch operator for kernel '"
                   << kernel.getSymName() << "' (file stem '" << stem
                   << "'); pass --operator=NAME, one of: "
                   << availableOperators() << "\n";
      return kError;
    }
  }

  if (failed(checkArgumentSizes(kernel, "perfdojo-run-torch")))
    return kError;

  // The trusted outputs: the kernel as given, compiled like perfdojo-run's
  // default (-O3) on the same seeded inputs.
  setJitThreads(threads);
  auto jit = JitKernel::compile(kernel, JitOptions{});
  if (!jit) {
    llvm::errs() << kTool << llvm::toString(jit.takeError()) << "\n";
    return kError;
  }
  std::vector<HostBuffer> inputs = allocateArguments(kernel);
  fillInputs(kernel, inputs, seed);
  std::vector<HostBuffer> expected = inputs;
  if (llvm::Error error = (*jit)->run(expected)) {
    llvm::errs() << kTool << llvm::toString(std::move(error)) << "\n";
    return kError;
  }

  at::set_num_threads(threads);
  // Validation: every output buffer must come back from libtorch with the
  // kernel's shape and match under perfdojo-run's rule for a JIT baseline
  // (both sides round, so twice the tolerance).
  std::vector<HostBuffer> validationArgs = inputs;
  Tensors out;
  if (ExitCode code = callOperator(
          *op, inputTensors(kernel, validationArgs), name, out))
    return code;
  int64_t reductionLength = getMaxReductionLength(kernel);
  double maxScaledError = 0;
  std::string validation;
  llvm::raw_string_ostream vs(validation);
  for (const HostBuffer &reference : expected) {
    dojo::BufferOp buffer = kernel.lookupArray(reference.getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    auto it = out.find(reference.getName());
    if (it == out.end()) {
      llvm::errs() << kTool << "operator '" << name
                   << "' does not compute this kernel: it has no output '"
                   << reference.getName() << "'\n";
      return kMismatch;
    }
    llvm::ArrayRef<int64_t> shape = buffer.getShape();
    at::IntArrayRef sizes = it->second.sizes();
    if (!llvm::equal(shape, llvm::ArrayRef<int64_t>(sizes.data(),
                                                    sizes.size()))) {
      llvm::errs() << kTool << "operator '" << name
                   << "' does not compute this kernel: output '"
                   << reference.getName() << "' has shape "
                   << shapeString({sizes.data(), sizes.size()})
                   << ", the kernel's is " << shapeString(shape) << "\n";
      return kMismatch;
    }
    Comparison cmp = compareBuffers(
        toHostBuffer(reference.getName(), it->second), reference,
        2 * getRelativeTolerance(buffer.getElementType(), reductionLength));
    if (!cmp.passed()) {
      llvm::errs() << kTool << "operator '" << name
                   << "' does not compute this kernel: output '"
                   << reference.getName() << "' differs from the kernel's: "
                   << describe(cmp) << "\n";
      return kMismatch;
    }
    maxScaledError = std::max(maxScaledError, cmp.maxScaledError);
    vs << "output " << reference.getName() << ": matches the kernel (JIT): "
       << describe(cmp) << "\n";
  }
  out.clear();

  // Timing: the inputs of each rotation copy as tensors over its memory.
  // The operator allocates its outputs, so only inputs rotate.
  TimingOptions options;
  ArgumentRotation rotation(inputs, options.rotationBytes, options.maxCopies);
  std::vector<Tensors> sets;
  for (unsigned i = 0; i < rotation.size(); ++i)
    sets.push_back(inputTensors(kernel, rotation.getSet(i)));
  // One call per copy; the outputs are released inside, as in
  // perfdojo-codegen-bench's loop.
  options.warmup = warmup;
  options.repetitions = reps;
  ExitCode failure = kOk;
  std::optional<TimingResult> timing = timeRotatingCalls(
      sets.size(),
      [&](unsigned copy) {
        Tensors result;
        failure = callOperator(*op, sets[copy], name, result);
        return failure == kOk;
      },
      options);
  if (!timing)
    return failure;
  double med = timing->medianSeconds;
  double best = timing->minSeconds;

  if (json) {
    llvm::json::Object result{{"operator", name},
                              {"kernel", kernel.getSymName()},
                              {"threads", int64_t(threads)},
                              {"time_median_s", med},
                              {"time_min_s", best},
                              {"repetitions", int64_t(timing->repetitions)},
                              {"input_copies", int64_t(rotation.size())},
                              {"valid", true},
                              {"max_scaled_error", maxScaledError}};
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(result)))
                 << "\n";
    return kOk;
  }
  llvm::outs() << "libtorch operator " << name << " on kernel "
               << kernel.getSymName() << ", " << threads << " thread(s)\n"
               << validation << "time: median " << formatSeconds(med)
               << ", min " << formatSeconds(best) << " over "
               << timing->repetitions << " run(s)";
  if (rotation.size() > 1)
    llvm::outs() << " rotating " << rotation.size() << " input copies";
  llvm::outs() << "\n";
  return kOk;
}
