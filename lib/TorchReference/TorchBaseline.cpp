//===- TorchBaseline.cpp - a kernel's libtorch operator, validated and timed ===//
//
// The operator table (TorchOperators.cpp) is written with `Tensors::at`, so
// an operator that reads a buffer the kernel does not have throws
// std::out_of_range: that is a mismatch, not an unusable input. ATen's own
// exceptions (c10::Error) mean libtorch rejects the kernel's shapes.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/TorchReference/TorchBaseline.h"
#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Support/ToolFlags.h"
#include "perfdojo/TorchReference/LibtorchThreads.h"
#include "perfdojo/TorchReference/TorchOperators.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <stdexcept>

using namespace mlir;
using namespace perfdojo;

char TorchBaselineError::ID = 0;

namespace {
llvm::Error fail(TorchBaselineFailure kind, const llvm::Twine &message) {
  return llvm::make_error<TorchBaselineError>(kind, message.str());
}

std::string availableOperators() {
  std::string list;
  llvm::raw_string_ostream os(list);
  llvm::interleaveComma(getTorchOperatorNames(), os);
  return list;
}

std::string shapeString(llvm::ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

/// Calls `op` on the tensors of one argument set (written into `outputs`
/// where it can), turning its exceptions into a TorchBaselineError.
llvm::Error callOperator(const TorchOperator &op, const Tensors &in,
                         Tensors &outputs, llvm::StringRef name,
                         Tensors &out) {
  try {
    out = op.call(in, outputs);
    return llvm::Error::success();
  } catch (const c10::Error &error) {
    return fail(TorchBaselineFailure::Unusable,
                "libtorch rejects operator '" + name +
                    "' on this kernel's shapes: " +
                    error.what_without_backtrace());
  } catch (const std::out_of_range &) {
    std::string inputs;
    llvm::raw_string_ostream os(inputs);
    llvm::interleaveComma(llvm::make_first_range(in), os);
    return fail(TorchBaselineFailure::Mismatch,
                "operator '" + name +
                    "' does not compute this kernel: it reads a buffer the "
                    "kernel does not have (kernel inputs: " +
                    inputs + ")");
  } catch (const std::exception &error) {
    return fail(TorchBaselineFailure::Unusable,
                "operator '" + name + "' failed: " + error.what());
  }
}

/// Compares every output of `out` with the kernel's `expected` one, under
/// perfdojo-run's rule for a JIT baseline (both sides round, so twice the
/// tolerance).
llvm::Error validate(dojo::KernelOp kernel, llvm::StringRef name,
                     const Tensors &out,
                     llvm::ArrayRef<HostBuffer> expected,
                     TorchBaselineResult &result) {
  int64_t reductionLength = getMaxReductionLength(kernel);
  for (const HostBuffer &reference : expected) {
    dojo::BufferOp buffer = kernel.lookupArray(reference.getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    std::string prefix = ("operator '" + name +
                          "' does not compute this kernel: ")
                             .str();
    auto it = out.find(reference.getName());
    if (it == out.end())
      return fail(TorchBaselineFailure::Mismatch,
                  prefix + "it has no output '" + reference.getName() + "'");
    llvm::ArrayRef<int64_t> shape = buffer.getShape();
    at::IntArrayRef sizes = it->second.sizes();
    if (!llvm::equal(shape,
                     llvm::ArrayRef<int64_t>(sizes.data(), sizes.size())))
      return fail(TorchBaselineFailure::Mismatch,
                  prefix + "output '" + reference.getName() + "' has shape " +
                      shapeString({sizes.data(), sizes.size()}) +
                      ", the kernel's is " + shapeString(shape));
    Comparison cmp = compareBuffers(
        toHostBuffer(reference.getName(), it->second), reference,
        2 * getOutputTolerance(kernel, buffer.getElementType(),
                               reductionLength));
    if (!cmp.passed())
      return fail(TorchBaselineFailure::Mismatch,
                  prefix + "output '" + reference.getName() +
                      "' differs from the kernel's: " + describe(cmp));
    result.maxScaledError = std::max(result.maxScaledError, cmp.maxScaledError);
    result.outputs.emplace_back(reference.getName(), cmp);
  }
  return llvm::Error::success();
}
} // namespace

llvm::Expected<std::string> perfdojo::selectTorchOperator(
    dojo::KernelOp kernel, llvm::StringRef requested, llvm::StringRef path) {
  if (!requested.empty()) {
    if (!lookupTorchOperator(requested))
      return fail(TorchBaselineFailure::Unusable,
                  "no libtorch operator named '" + requested +
                      "'; available: " + availableOperators());
    return requested.str();
  }
  std::string stem = llvm::sys::path::stem(path).str();
  for (const std::string &candidate : {kernel.getSymName().str(), stem})
    if (lookupTorchOperator(candidate))
      return candidate;
  return fail(TorchBaselineFailure::Unusable,
              "no libtorch operator for kernel '" + kernel.getSymName() +
                  "' (file stem '" + stem + "'); pass --operator=NAME, one "
                  "of: " + availableOperators());
}

llvm::Expected<TorchBaselineResult>
perfdojo::runTorchBaseline(dojo::KernelOp kernel, llvm::StringRef name,
                           const TorchBaselineOptions &options) {
  const TorchOperator *op = lookupTorchOperator(name);
  if (!op)
    return fail(TorchBaselineFailure::Unusable,
                "no libtorch operator named '" + name +
                    "'; available: " + availableOperators());
  if (failed(checkArgumentSizes(kernel, "perfdojo-run-torch")))
    return fail(TorchBaselineFailure::Unusable, "");

  // The trusted outputs: the kernel as given, compiled like perfdojo-run's
  // default (-O3) on the same seeded inputs.
  setJitThreads(options.threads);
  auto jit = JitKernel::compile(kernel, JitOptions{});
  if (!jit)
    return fail(TorchBaselineFailure::Unusable,
                llvm::toString(jit.takeError()));
  std::vector<HostBuffer> inputs = allocateArguments(kernel);
  fillInputs(kernel, inputs, options.seed);
  std::vector<HostBuffer> expected = inputs;
  if (llvm::Error error = (*jit)->run(expected))
    return fail(TorchBaselineFailure::Unusable,
                llvm::toString(std::move(error)));

  TorchBaselineResult result;
  result.operatorName = name.str();
  result.kernelName = kernel.getSymName().str();
  result.threads = options.threads;
  setLibtorchThreads(options.threads);
  result.writesIntoOutputs = bool(op->computeInto);
  {
    std::vector<HostBuffer> validationArgs = inputs;
    Tensors outputs = viewArguments(kernel, validationArgs, /*outputs=*/true);
    Tensors out;
    if (llvm::Error error =
            callOperator(*op, viewArguments(kernel, validationArgs), outputs,
                         name, out))
      return std::move(error);
    if (llvm::Error error = validate(kernel, name, out, expected, result))
      return std::move(error);
  }

  // Timing: each rotation copy's buffers as tensors over its memory. An
  // operator with out= variants writes into the copy's outputs, as the
  // compiled kernels do; one without allocates them, and they are released
  // inside each call.
  TimingOptions timingOptions;
  timingOptions.cache = options.cache;
  ArgumentRotation rotation(inputs, timingOptions);
  std::vector<Tensors> sets, outputSets;
  for (unsigned i = 0; i < rotation.size(); ++i) {
    sets.push_back(viewArguments(kernel, rotation.getSet(i)));
    outputSets.push_back(
        viewArguments(kernel, rotation.getSet(i), /*outputs=*/true));
  }
  timingOptions.warmup = options.warmup;
  timingOptions.repetitions = options.repetitions;
  // The first failing call's error; the timer stops there.
  std::optional<llvm::Error> callError;
  std::optional<TimingResult> timing = timeRotatingCalls(
      sets.size(),
      [&](unsigned copy) {
        Tensors out;
        if (llvm::Error error = callOperator(*op, sets[copy],
                                             outputSets[copy], name, out)) {
          callError = std::move(error);
          return false;
        }
        return true;
      },
      timingOptions);
  if (!timing)
    return std::move(*callError);
  result.timing = *timing;
  result.inputCopies = rotation.size();
  result.cache = options.cache;
  return result;
}

void TorchBaselineResult::print(llvm::raw_ostream &os) const {
  os << "libtorch operator " << operatorName << " on kernel " << kernelName
     << ", " << threads << " thread(s)\n";
  for (const auto &[name, cmp] : outputs)
    os << "output " << name << ": matches the kernel (JIT): " << describe(cmp)
       << "\n";
  printTimeLine(os, timing.medianSeconds, timing.minSeconds,
                timing.repetitions, inputCopies, cache);
  os << (writesIntoOutputs ? ", writing into each copy's outputs"
                           : ", allocating its outputs")
     << "\n";
}

llvm::json::Object TorchBaselineResult::toJSON() const {
  return llvm::json::Object{{"operator", operatorName},
                            {"kernel", kernelName},
                            {"threads", int64_t(threads)},
                            {"time_median_s", timing.medianSeconds},
                            {"time_min_s", timing.minSeconds},
                            {"repetitions", int64_t(timing.repetitions)},
                            {"input_copies", int64_t(inputCopies)},
                            {"cache_state", getCacheStateName(cache)},
                            {"writes_into_outputs", writesIntoOutputs},
                            {"valid", true},
                            {"max_scaled_error", maxScaledError}};
}
