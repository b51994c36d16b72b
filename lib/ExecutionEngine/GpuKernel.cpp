//===- GpuKernel.cpp - a dojo kernel compiled for a GPU -------------------===//

#include "perfdojo/ExecutionEngine/GpuKernel.h"
#include "perfdojo/Conversion/GpuLaunchPlan.h"
#include "perfdojo/Conversion/GpuPipeline.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Dialect/Dojo/IR/TargetDescription.h"
#include "perfdojo/GpuRuntime/InputRecipe.h"
#include "perfdojo/Runtime/Validation.h"
#include "perfdojo/Support/FileIO.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>

using namespace mlir;
using namespace perfdojo;
namespace rt = perfdojo::gpu;

std::optional<std::string> perfdojo::chooseCudaChip(int major, int minor) {
  int capability = major * 10 + minor;
  std::optional<std::string> best;
  int bestCapability = -1;
  for (llvm::StringRef chip : TargetDescription::getGpuChips()) {
    // NVIDIA chips are named by compute capability: sm_<major><minor>.
    int value;
    if (TargetDescription::getGpu(chip)->vendor != "NVIDIA" ||
        !chip.consume_front("sm_") || chip.getAsInteger(10, value))
      continue;
    if (value <= capability && value > bestCapability) {
      bestCapability = value;
      best = ("sm_" + chip).str();
    }
  }
  return best;
}

llvm::Expected<std::unique_ptr<GpuKernel>>
GpuKernel::compile(dojo::KernelOp kernel, const GpuCompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<GpuVendor> vendor = GpuVendor::get(options.chip);
  if (!vendor)
    return llvm::createStringError(
        "unknown GPU chip '" + options.chip + "' (expected one of: " +
        llvm::join(TargetDescription::getGpuChips(), ", ") + ")");
  MLIRContext *ctx = kernel.getContext();
  DialectRegistry registry;
  registerGpuLowering(registry);
  ctx->appendDialectRegistry(registry);
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernel.getLoc());
  OpBuilder builder(module->getBodyRegion());
  builder.clone(*kernel);

  PassManager pm(ctx);
  DojoToGpuOptions pipeline;
  pipeline.chip = options.chip;
  pipeline.approximateMath = options.approximateMath;
  pipeline.format = vendor->getRuntimeFormat() == "ptx" ? "isa" : "bin";
  buildDojoToGpuPipeline(pm, pipeline);
  if (failed(pm.run(*module)))
    return llvm::createStringError("the GPU lowering for " + options.chip +
                                   " failed");
  std::unique_ptr<GpuKernel> result(new GpuKernel());
  llvm::StringRef name = kernel.getSymName();
  FailureOr<std::string> binary = getGpuBinary(*module, name);
  auto host = module->lookupSymbol<func::FuncOp>(name);
  if (failed(binary) || !host)
    return llvm::createStringError("the GPU lowering produced no module");
  FailureOr<rt::LaunchPlan> plan =
      extractLaunchPlan(host, options.chip, vendor->getRuntimeFormat());
  if (failed(plan))
    return llvm::createStringError("cannot read the launch plan");
  result->binary = std::move(*binary);
  result->plan = std::move(*plan);
  result->compileMs = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  return std::move(result);
}

llvm::Expected<std::vector<std::vector<char>>>
GpuKernel::packArguments(llvm::ArrayRef<HostBuffer> args) const {
  std::vector<std::vector<char>> packed;
  size_t next = 0;
  for (const rt::PlanBuffer &buffer : plan.buffers) {
    if (!buffer.isArgument())
      continue;
    if (next >= args.size() || args[next].getName() != buffer.name)
      return llvm::createStringError("argument '" + buffer.name +
                                     "' of the launch plan is missing");
    const HostBuffer &arg = args[next++];
    size_t bytes = arg.size() * arg.getElementBytes();
    if (int64_t(bytes) != buffer.getBytes())
      return llvm::createStringError(
          "argument '" + buffer.name + "' has " + std::to_string(bytes) +
          " bytes; the launch plan expects " +
          std::to_string(buffer.getBytes()));
    const char *data = static_cast<const char *>(arg.data());
    packed.emplace_back(data, data + bytes);
  }
  return packed;
}

llvm::Error
GpuKernel::unpackOutputs(const std::vector<std::vector<char>> &outputs,
                         llvm::MutableArrayRef<HostBuffer> args) const {
  size_t argument = 0;
  for (const rt::PlanBuffer &buffer : plan.buffers) {
    if (!buffer.isArgument())
      continue;
    size_t index = argument++;
    if (buffer.role == rt::PlanBuffer::Role::In)
      continue;
    if (index >= outputs.size() || index >= args.size() ||
        int64_t(outputs[index].size()) != buffer.getBytes())
      return llvm::createStringError("the GPU run returned no contents for "
                                     "output '" +
                                     buffer.name + "'");
    std::memcpy(args[index].data(), outputs[index].data(),
                outputs[index].size());
  }
  return llvm::Error::success();
}

llvm::Expected<rt::GpuRunResult>
GpuKernel::run(std::vector<HostBuffer> &args,
               const rt::GpuRunOptions &options) const {
  auto packed = packArguments(args);
  if (!packed)
    return packed.takeError();
  rt::GpuRunResult result;
  std::string error;
  if (!rt::runPlan(plan, binary, *packed, options, result, error))
    return llvm::createStringError(error);
  if (llvm::Error err = unpackOutputs(result.outputs, args))
    return std::move(err);
  return result;
}

llvm::Error GpuKernel::writeBundle(llvm::StringRef dir, dojo::KernelOp kernel,
                                   dojo::KernelOp operatorKernel,
                                   const GpuBundleOptions &options) const {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError("cannot create '" + dir +
                                   "': " + ec.message());
  auto path = [&](llvm::StringRef base, llvm::StringRef name) {
    llvm::SmallString<128> p(base);
    llvm::sys::path::append(p, name);
    return std::string(p);
  };
  if (llvm::Error err = writeFile(path(dir, plan.kernel + ".plan"),
                                  plan.print()))
    return err;
  if (llvm::Error err = writeFile(
          path(dir, plan.kernel + "." + plan.binaryFormat), binary))
    return err;

  rt::InputRecipe recipe;
  recipe.seed = options.seed;
  llvm::StringSet<> positive = findPositiveArrays(kernel);
  for (const rt::PlanBuffer &buffer : plan.buffers)
    if (buffer.isArgument() && buffer.role != rt::PlanBuffer::Role::Out &&
        positive.contains(buffer.name))
      recipe.positive.insert(buffer.name);
  if (llvm::Error err = writeFile(path(dir, "inputs.recipe"), recipe.print()))
    return err;

  // What a checker on the GPU machine needs to judge the outputs without
  // this library: shapes, types and Validation.h's tolerances.
  int64_t reductionLength = getMaxReductionLength(operatorKernel);
  llvm::json::Array buffers;
  for (dojo::BufferOp buffer : kernel.getBuffers()) {
    if (!buffer.isArgument())
      continue;
    llvm::json::Object entry{
        {"name", buffer.getName()},
        {"dtype", getElementTypeName(buffer.getElementType())},
        {"shape", llvm::json::Array(buffer.getShape())},
        {"role", dojo::stringifyRole(buffer.getRole())}};
    if (buffer.getRole() != dojo::Role::in)
      entry["relative_tolerance"] =
          getOutputTolerance(operatorKernel, buffer.getElementType(),
                             reductionLength);
    buffers.push_back(std::move(entry));
  }
  llvm::json::Object check{{"kernel", plan.kernel},
                           {"seed", int64_t(options.seed)},
                           {"max_reduction_length", reductionLength},
                           {"buffers", std::move(buffers)}};
  std::string checkText;
  llvm::raw_string_ostream checkStream(checkText);
  checkStream << llvm::formatv("{0:2}", llvm::json::Value(std::move(check)))
              << "\n";
  if (llvm::Error err = writeFile(path(dir, "check.json"), checkText))
    return err;

  if (!options.inputFiles)
    return llvm::Error::success();
  std::vector<HostBuffer> args = allocateArguments(kernel);
  fillInputs(kernel, args, options.seed);
  llvm::SmallString<128> inputs(dir);
  llvm::sys::path::append(inputs, "inputs");
  if (std::error_code ec = llvm::sys::fs::create_directories(inputs))
    return llvm::createStringError("cannot create '" + inputs +
                                   "': " + ec.message());
  auto packed = packArguments(args);
  if (!packed)
    return packed.takeError();
  size_t argument = 0;
  for (const rt::PlanBuffer &buffer : plan.buffers) {
    if (!buffer.isArgument())
      continue;
    const std::vector<char> &data = (*packed)[argument++];
    if (buffer.role == rt::PlanBuffer::Role::Out)
      continue;
    if (llvm::Error err =
            writeFile(path(inputs, buffer.name + ".bin"),
                      llvm::StringRef(data.data(), data.size())))
      return err;
  }
  return llvm::Error::success();
}

llvm::Expected<rt::GpuRunResult>
GpuKernel::readResults(llvm::StringRef dir,
                       std::vector<HostBuffer> &args) const {
  rt::GpuRunResult result;
  auto read = [&](llvm::StringRef name)
      -> llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    auto file = llvm::MemoryBuffer::getFile(p, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file)
      return llvm::createStringError("cannot read '" + p +
                                     "': " + file.getError().message());
    return std::move(*file);
  };
  for (const rt::PlanBuffer &buffer : plan.buffers) {
    if (!buffer.isArgument())
      continue;
    result.outputs.emplace_back();
    if (buffer.role == rt::PlanBuffer::Role::In)
      continue;
    auto file = read("outputs/" + buffer.name + ".bin");
    if (!file)
      return file.takeError();
    llvm::StringRef bytes = (*file)->getBuffer();
    result.outputs.back().assign(bytes.begin(), bytes.end());
  }
  if (llvm::Error err = unpackOutputs(result.outputs, args))
    return std::move(err);

  auto timing = read("timing.json");
  if (!timing)
    return timing.takeError();
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*timing)->getBuffer());
  if (!parsed)
    return llvm::createStringError("timing.json: " +
                                   llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *times = root ? root->getArray("timesMs") : nullptr;
  if (!times || times->empty())
    return llvm::createStringError("timing.json has no 'timesMs'");
  for (const llvm::json::Value &t : *times)
    if (std::optional<double> ms = t.getAsNumber())
      result.timesMs.push_back(*ms);
  rt::summarizeTimes(result.timesMs, result.medianMs, result.minMs);
  if (const llvm::json::Object *device = root->getObject("device"))
    if (std::optional<llvm::StringRef> name = device->getString("name"))
      result.device.name = name->str();
  return result;
}
