//===- OnnxNodeTest.cpp - one ONNX backend node test ----------------------===//

#include "perfdojo/Testing/OnnxNodeTest.h"

#include "perfdojo/ExecutionEngine/KernelRun.h"
#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Support/Float16.h"
#include "perfdojo/Target/Onnx/OnnxImport.h"
#include "perfdojo/Target/Onnx/OnnxInputs.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace perfdojo;
using namespace perfdojo::onnx;

llvm::StringRef perfdojo::onnx::stringifyStatus(NodeTestResult::Status status) {
  switch (status) {
  case NodeTestResult::Status::Pass:
    return "pass";
  case NodeTestResult::Status::Fail:
    return "fail";
  case NodeTestResult::Status::Unsupported:
    return "unsupported";
  }
  return "fail";
}

namespace {
/// The `.pb` files `prefix_0.pb`, `prefix_1.pb`, ... of a data set.
llvm::Expected<std::vector<Tensor>> readNumbered(llvm::StringRef dataSet,
                                                 llvm::StringRef prefix) {
  std::vector<Tensor> tensors;
  for (unsigned k = 0;; ++k) {
    std::string path = (dataSet + "/" + prefix + "_" + llvm::Twine(k) + ".pb").str();
    if (!llvm::sys::fs::exists(path))
      return tensors;
    llvm::Expected<Tensor> tensor = readTensor(path);
    if (!tensor)
      return tensor.takeError();
    tensors.push_back(std::move(*tensor));
  }
}
/// Element `i` of `tensor` as a value for a buffer of `type`. ONNX's node
/// tests of bfloat16 (Cast, CastLike) store bfloat16 data as its bit
/// patterns in UINT16 tensors; such a tensor for a bfloat16 buffer is read
/// as bfloat16.
double getValue(const Tensor &tensor, int64_t i, ScalarType type) {
  if (type == ScalarType::bf16 &&
      tensor.elementKind == int(ElementKind::UInt16))
    return bfloat16ToDouble(static_cast<uint16_t>(tensor.ints[i]));
  return tensor.isFloat() ? tensor.floats[i] : double(tensor.ints[i]);
}

/// `tensor` with UINT16 bit patterns of bfloat16 decoded (getValue).
Tensor decodeFor(const Tensor &tensor, ScalarType type) {
  if (type != ScalarType::bf16 ||
      tensor.elementKind != int(ElementKind::UInt16))
    return tensor;
  Tensor decoded = tensor;
  decoded.elementKind = int(ElementKind::BFloat16);
  decoded.ints.clear();
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
    decoded.floats.push_back(getValue(tensor, i, type));
  return decoded;
}
} // namespace

NodeTestResult perfdojo::onnx::runNodeTest(llvm::StringRef directory,
                                           const NodeTestOptions &options) {
  NodeTestResult result;
  result.name = llvm::sys::path::filename(directory.rtrim('/')).str();
  auto fail = [&](const llvm::Twine &message) {
    result.status = NodeTestResult::Status::Fail;
    result.message = message.str();
    return result;
  };
  auto unsupported = [&](const llvm::Twine &message) {
    result.status = NodeTestResult::Status::Unsupported;
    result.message = message.str();
    return result;
  };

  llvm::Expected<Model> model = readModel((directory + "/model.onnx").str());
  if (!model) {
    std::string message = llvm::toString(model.takeError());
    // A tensor of a type the importer cannot read is the IR's limit.
    if (llvm::StringRef(message).contains("which the importer cannot read"))
      return unsupported(message);
    return fail(message);
  }
  for (const Node &node : model->nodes)
    if (!llvm::is_contained(result.operators, node.opType))
      result.operators.push_back(node.opType);

  // Sequences, maps and optionals are outside the IR; their data files are
  // not TensorProtos either.
  for (const auto &entry : model->types)
    if (!entry.second.isTensor)
      return unsupported("value '" + entry.first() +
                         "' is a sequence, map or optional, not a tensor");
  for (const Node &node : model->nodes)
    if (!node.domain.empty() && node.domain != "ai.onnx")
      return unsupported("operator " + node.domain + "." + node.opType +
                         " is outside the default ONNX domain");

  std::string dataSet = (directory + "/test_data_set_0").str();
  auto readError = [&](llvm::Error error) {
    std::string message = llvm::toString(std::move(error));
    return llvm::StringRef(message).contains("which the importer cannot read")
               ? unsupported(message)
               : fail(message);
  };
  llvm::Expected<std::vector<Tensor>> inputs = readNumbered(dataSet, "input");
  if (!inputs)
    return readError(inputs.takeError());
  llvm::Expected<std::vector<Tensor>> expected = readNumbered(dataSet, "output");
  if (!expected)
    return readError(expected.takeError());
  if (inputs->size() != model->inputs.size())
    return fail("the data set has " + llvm::Twine(inputs->size()) +
                " input(s), the model " + llvm::Twine(model->inputs.size()));
  if (expected->size() != model->outputs.size())
    return fail("the data set has " + llvm::Twine(expected->size()) +
                " output(s), the model " + llvm::Twine(model->outputs.size()));
  // The test's inputs also fix what the IR needs as constants (axes,
  // shapes): a kernel is specialized to them.
  llvm::StringMap<const Tensor *> byName;
  for (auto [name, tensor] : llvm::zip(model->inputs, *inputs)) {
    model->constants[name] = tensor;
    byName[name] = &tensor;
  }
  for (const Tensor &init : model->initializers)
    byName[init.name] = &init;
  llvm::StringMap<const Tensor *> expectedByName;
  for (auto [name, tensor] : llvm::zip(model->outputs, *expected))
    expectedByName[name] = &tensor;

  mlir::MLIRContext context;
  ImportError why;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importModel(*model, getDefaultKernelName(directory.str() + "/model.onnx"),
                  &context, why);
  if (!module)
    return why.unsupported ? unsupported(why.message)
                           : fail("import: " + why.message);
  dojo::KernelOp kernel = *module->getOps<dojo::KernelOp>().begin();

  // Arguments by buffer name: graph inputs and initializers get data.
  llvm::StringMap<std::string> names = getBufferNames(*model);
  llvm::StringMap<std::string> valueOf;
  for (const auto &entry : names)
    valueOf[entry.second] = entry.first().str();
  std::vector<HostBuffer> args = allocateArguments(kernel);
  llvm::StringSet<> read;
  kernel.walk([&](dojo::LeafOp leaf) {
    for (mlir::Attribute input : leaf.getInputs())
      if (auto access = llvm::dyn_cast<dojo::AccessAttr>(input))
        read.insert(access.getArray().getValue());
  });
  for (HostBuffer &arg : args) {
    const Tensor *given = byName.lookup(valueOf.lookup(arg.getName()));
    if (!given)
      continue; // an output
    // An input the kernel never reads (CastLike's `like`, whose type alone
    // matters) needs no data; some tests give it another shape.
    if (!read.contains(arg.getName()) &&
        given->getNumElements() != arg.size())
      continue;
    if (llvm::Error error = copyTensor(decodeFor(*given, arg.getType()), arg))
      return fail(llvm::toString(std::move(error)));
  }

  double worst = 0;
  auto runOn = [&](RunEngine engine) -> std::optional<std::string> {
    RunOptions run;
    run.engine = engine;
    run.validate = false;
    run.warmup = 0;
    run.repetitions = 1;
    llvm::Expected<KernelRun> done = runKernel(kernel, nullptr, run, args);
    if (!done)
      return std::string(stringifyRunEngine(engine)) + ": " +
             llvm::toString(done.takeError());
    for (const HostBuffer &out : done->args) {
      const Tensor *want = expectedByName.lookup(valueOf.lookup(out.getName()));
      if (!want)
        continue;
      if (want->getNumElements() != out.size())
        return "output '" + out.getName() + "' has " +
               std::to_string(out.size()) + " element(s), expected " +
               std::to_string(want->getNumElements());
      for (int64_t i = 0; i < out.size(); ++i) {
        double got = out.get(i);
        double value = getValue(*want, i, out.getType());
        if (std::isnan(value) && std::isnan(got))
          continue;
        if (std::isinf(value) && got == value)
          continue;
        double error = std::fabs(got - value);
        double allowed = options.atol + options.rtol * std::fabs(value);
        worst = std::max(worst, error);
        if (!(error <= allowed))
          return llvm::formatv("{0}: max error {1:e} at element {2} of '{3}' "
                               "(got {4}, expected {5})",
                               stringifyRunEngine(engine), error, i,
                               out.getName(), got, value)
              .str();
      }
    }
    return std::nullopt;
  };
  if (options.jit)
    if (std::optional<std::string> bad = runOn(RunEngine::Jit))
      return fail(*bad);
  if (options.interpreter)
    if (std::optional<std::string> bad = runOn(RunEngine::Interp))
      return fail(*bad);
  result.status = NodeTestResult::Status::Pass;
  result.message = llvm::formatv("max error {0:e}", worst).str();
  return result;
}
