//===- perfdojo-run.cpp - execute, validate and time a dojo kernel -------===//
//
// Loads a kernel (`.dojo` text or MLIR), fills its inputs deterministically,
// runs it, validates the outputs against the interpreter's f64 reference,
// and prints per-output checksums and the run time.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir;
using namespace perfdojo;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("perfdojo-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<kernel.dojo|kernel.mlir>"),
                                      cl::cat(runCategory));
static cl::opt<std::string>
    engine("engine", cl::init("interp"),
           cl::desc("Execution engine: interp (the reference interpreter)"),
           cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the input generator"),
                              cl::cat(runCategory));
static cl::opt<unsigned> reps("reps", cl::init(3),
                              cl::desc("Timed repetitions (median and min "
                                       "are reported)"),
                              cl::cat(runCategory));
static cl::opt<bool>
    validate("validate", cl::init(true),
             cl::desc("Compare outputs with the f64 reference interpreter"),
             cl::cat(runCategory));
static cl::opt<bool> reference("reference", cl::init(false),
                               cl::desc("Run the f64 reference mode itself"),
                               cl::cat(runCategory));
static cl::opt<bool> printKernel("print-kernel", cl::init(false),
                                 cl::desc("Print the kernel as .dojo text"),
                                 cl::cat(runCategory));
static cl::opt<bool> json("json", cl::init(false),
                          cl::desc("Print one JSON object instead of text"),
                          cl::cat(runCategory));
static cl::opt<std::string>
    dumpOutputs("dump-outputs", cl::init(""),
                cl::desc("Write every output element as text to this file"),
                cl::cat(runCategory));

namespace {
struct Checksum {
  double sum = 0, l2 = 0;
};

/// A JSON number, or the string "inf", "-inf" or "nan": JSON has no
/// spelling for non-finite numbers, and printing them raw makes the whole
/// document unparsable.
llvm::json::Value jsonNumber(double v) {
  if (std::isfinite(v))
    return v;
  if (std::isnan(v))
    return "nan";
  return v < 0 ? "-inf" : "inf";
}

Checksum checksum(const HostBuffer &buffer) {
  Checksum c;
  for (int64_t i = 0; i < buffer.size(); ++i) {
    double v = buffer.get(i);
    c.sum += v;
    c.l2 += v * v;
  }
  c.l2 = std::sqrt(c.l2);
  return c;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string shapeOf(dojo::BufferOp buffer) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << buffer.getElementType() << " [";
  llvm::interleaveComma(buffer.getShape(), os);
  os << "]";
  return s;
}

LogicalResult writeOutputs(dojo::KernelOp kernel,
                           llvm::ArrayRef<HostBuffer> args) {
  std::string error;
  auto file = openOutputFile(dumpOutputs, &error);
  if (!file) {
    llvm::errs() << "perfdojo-run: cannot write '" << dumpOutputs
                 << "': " << error << "\n";
    return failure();
  }
  llvm::raw_ostream &os = file->os();
  for (const HostBuffer &arg : args) {
    dojo::BufferOp buffer = kernel.lookupArray(arg.getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    os << "# " << arg.getName() << " " << shapeOf(buffer) << "\n";
    const char *fmt = arg.getType() == ScalarType::f32 ? "%.9g\n" : "%.17g\n";
    for (int64_t i = 0; i < arg.size(); ++i)
      os << llvm::format(fmt, arg.get(i));
  }
  file->keep();
  return success();
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "PerfDojo kernel runner: execute, validate, "
                              "time\n");
  if (engine != "interp") {
    llvm::errs() << "perfdojo-run: unknown engine '" << engine
                 << "'; available: interp\n";
    return 1;
  }
  MLIRContext context;
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = loadKernelFile(sourceMgr, inputFile, &context);
  if (!module)
    return 1;
  dojo::KernelOp kernel = getSingleKernel(*module);
  if (!kernel)
    return 1;
  if (printKernel && !json)
    exportDojo(kernel, llvm::outs());

  auto interp = Interpreter::create(kernel, InterpreterOptions{reference});
  if (failed(interp))
    return 1;
  std::optional<ScalarType> argType;
  if (reference)
    argType = ScalarType::f64;
  std::vector<HostBuffer> args = allocateArguments(kernel, argType);
  fillInputs(kernel, args, seed);
  std::vector<HostBuffer> inputs = args;

  // Every repetition starts from the same inputs (inout buffers included).
  std::vector<double> times;
  for (unsigned r = 0; r < std::max(1u, reps.getValue()); ++r) {
    for (size_t i = 0; i < args.size(); ++i)
      args[i].assign(inputs[i]);
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error err = interp->run(args)) {
      llvm::errs() << "perfdojo-run: " << llvm::toString(std::move(err))
                   << "\n";
      return 1;
    }
    times.push_back(std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  double med = median(times);
  double best = *std::min_element(times.begin(), times.end());
  int64_t evals = interp->getLeafEvaluations();

  // Validation against the f64 reference on the same inputs.
  std::vector<HostBuffer> refArgs;
  int64_t reductionLength = getMaxReductionLength(kernel);
  if (validate && !reference) {
    auto ref = Interpreter::create(kernel, InterpreterOptions{true});
    if (failed(ref))
      return 1;
    refArgs = allocateArguments(kernel, ScalarType::f64);
    for (size_t i = 0; i < args.size(); ++i)
      refArgs[i].assign(inputs[i]);
    if (llvm::Error err = ref->run(refArgs)) {
      llvm::errs() << "perfdojo-run: " << llvm::toString(std::move(err))
                   << "\n";
      return 1;
    }
  }

  bool allPassed = true;
  llvm::json::Array outputs;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "kernel " << kernel.getSymName() << ": " << args.size()
     << " argument(s), " << evals << " leaf evaluations, engine " << engine
     << (reference ? " (f64 reference mode)" : "") << "\n";
  for (size_t i = 0; i < args.size(); ++i) {
    dojo::BufferOp buffer = kernel.lookupArray(args[i].getName());
    if (buffer.getRole() == dojo::Role::in)
      continue;
    Checksum c = checksum(args[i]);
    llvm::json::Object out{{"name", args[i].getName()},
                           {"type", shapeOf(buffer)},
                           {"sum", jsonNumber(c.sum)},
                           {"l2", jsonNumber(c.l2)}};
    os << "output " << args[i].getName() << " " << shapeOf(buffer)
       << ": sum " << llvm::format("%.9g", c.sum) << ", l2 "
       << llvm::format("%.9g", c.l2) << "\n";
    if (!refArgs.empty()) {
      double tol =
          getRelativeTolerance(buffer.getElementType(), reductionLength);
      Comparison cmp = compareBuffers(args[i], refArgs[i], tol);
      allPassed &= cmp.passed();
      out["valid"] = cmp.passed();
      out["max_scaled_error"] = jsonNumber(cmp.maxScaledError);
      os << "  " << (cmp.passed() ? "matches" : "MISMATCH against")
         << " the f64 reference: " << describe(cmp) << "\n";
    }
    outputs.push_back(std::move(out));
  }
  os << "time: median " << llvm::format("%.3f", med * 1e3) << " ms, min "
     << llvm::format("%.3f", best * 1e3) << " ms over " << times.size()
     << " run(s); " << llvm::format("%.1f", evals / best / 1e6)
     << " M leaf evaluations/s\n";

  if (json) {
    llvm::json::Object result{{"kernel", kernel.getSymName()},
                              {"engine", engine.getValue()},
                              {"reference_mode", reference.getValue()},
                              {"leaf_evaluations", evals},
                              {"time_median_s", med},
                              {"time_min_s", best},
                              {"outputs", std::move(outputs)}};
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(result)))
                 << "\n";
  } else {
    llvm::outs() << text;
  }
  if (!dumpOutputs.empty() && failed(writeOutputs(kernel, args)))
    return 1;
  if (!allPassed) {
    llvm::errs() << "perfdojo-run: outputs do not match the f64 reference\n";
    return 2;
  }
  return 0;
}
