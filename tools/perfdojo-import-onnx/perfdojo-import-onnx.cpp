//===- perfdojo-import-onnx.cpp - an ONNX model as a dojo kernel ----------===//
//
//   perfdojo-import-onnx MODEL.onnx [-o OUT.dojo] [--emit=dojo|mlir]
//                        [--kernel-name=NAME] [--initializers=FILE]
//                        [--constant=INPUT=TENSOR.pb ...]
//
// Prints the kernel as `.dojo` text (or MLIR); `--initializers` writes the
// model's initializers in the `perfdojo-run --inputs` format; `--constant`
// fixes a graph input's value where an operator needs it at import (axes,
// shapes), specializing the kernel. Exit status 3
// for an unsupported model ("unsupported: why"), 1 for other errors.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/Onnx/OnnxImport.h"
#include "perfdojo/Target/Onnx/OnnxInputs.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<model.onnx>"));
static cl::opt<std::string> outputFile("o", cl::init("-"),
                                       cl::desc("Output file (default stdout)"));
static cl::opt<std::string> emit("emit", cl::init("dojo"),
                                 cl::desc("dojo (text) or mlir"));
static cl::opt<std::string>
    kernelName("kernel-name", cl::init(""),
               cl::desc("The kernel's name (default: the file's stem, or "
                        "its directory's for model.onnx)"));
static cl::opt<std::string> initializersFile(
    "initializers", cl::init(""),
    cl::desc("Write the initializers' values to this file, in the "
             "perfdojo-run --inputs format"));

static cl::list<std::string> constants(
    "constant",
    cl::desc("INPUT=TENSOR.pb: fix graph input INPUT to this TensorProto's "
             "value where an operator needs it at import (axes, shapes)"));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "ONNX model to dojo kernel\n");
  if (emit != "dojo" && emit != "mlir") {
    errs() << "perfdojo-import-onnx: --emit must be dojo or mlir\n";
    return 1;
  }
  Expected<perfdojo::onnx::Model> model = perfdojo::onnx::readModel(inputFile);
  if (!model) {
    errs() << "perfdojo-import-onnx: " << toString(model.takeError()) << "\n";
    return 1;
  }
  for (const std::string &spec : constants) {
    auto [input, path] = StringRef(spec).split('=');
    if (path.empty() || !llvm::is_contained(model->inputs, input)) {
      errs() << "perfdojo-import-onnx: --constant=" << spec
             << ": expected INPUT=TENSOR.pb for a graph input\n";
      return 1;
    }
    Expected<perfdojo::onnx::Tensor> tensor = perfdojo::onnx::readTensor(path);
    if (!tensor) {
      errs() << "perfdojo-import-onnx: " << toString(tensor.takeError()) << "\n";
      return 1;
    }
    model->constants[input] = std::move(*tensor);
  }
  std::string name = kernelName.empty()
                         ? perfdojo::onnx::getDefaultKernelName(inputFile)
                         : kernelName.getValue();
  mlir::MLIRContext context;
  perfdojo::onnx::ImportError why;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      perfdojo::onnx::importModel(*model, name, &context, why);
  if (!module) {
    errs() << inputFile << ": " << (why.unsupported ? "unsupported: " : "error: ")
           << why.message << "\n";
    return why.unsupported ? 3 : 1;
  }
  if (!initializersFile.empty())
    if (Error error = perfdojo::onnx::writeInitializers(*model, initializersFile)) {
      errs() << "perfdojo-import-onnx: " << toString(std::move(error)) << "\n";
      return 1;
    }
  std::string error;
  std::unique_ptr<ToolOutputFile> output = mlir::openOutputFile(outputFile, &error);
  if (!output) {
    errs() << "perfdojo-import-onnx: " << error << "\n";
    return 1;
  }
  if (emit == "mlir")
    module->print(output->os());
  else
    perfdojo::exportDojo(*module->getOps<perfdojo::dojo::KernelOp>().begin(),
                         output->os());
  output->keep();
  return 0;
}
