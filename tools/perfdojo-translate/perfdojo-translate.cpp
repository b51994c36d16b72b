//===- perfdojo-translate.cpp - `.dojo` <-> MLIR, and kernels to code -----===//
//
// Two modes:
//  * mlir-translate with the dojo translations (`--import-dojo`,
//    `--export-dojo`, the move-script translations, `--snitch-to-asm`);
//  * with `--emit=llvm|asm|obj|c-header` (or `snitch-asm`, RISC-V
//    assembly for a Snitch core), the ahead-of-time compiler: it
//    reads one or more `.dojo` or MLIR files, gathers their kernels into one
//    library (loadKernelLibrary, Target/DojoText), and writes LLVM IR,
//    assembly, an object file or the C header declaring the kernels, for
//    `--target` (emitKernelLibrary, Target/LLVM).
//
// `--emit` is a plain option rather than more mlir-translate registrations:
// it takes `.dojo` text as well as MLIR, several inputs at once, and
// options (`--target`, `-O`) that mean nothing to the other translations.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Support/LargeStack.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/LLVM/CodeGen.h"
#include "perfdojo/Target/LLVM/Emit.h"
#include "perfdojo/Target/MoveScript/MoveScript.h"
#include "perfdojo/Target/SnitchAssembly/SnitchAssembly.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace perfdojo;
namespace cl = llvm::cl;

namespace {

/// Whether the command line asks for ahead-of-time emission.
bool hasEmitOption(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--")
      return false;
    llvm::StringRef name = arg.ltrim('-');
    if (arg.size() - name.size() >= 1 && arg.size() - name.size() <= 2 &&
        (name == "emit" || name.starts_with("emit=")))
      return true;
  }
  return false;
}

int fail(const llvm::Twine &message) {
  llvm::errs() << "perfdojo-translate: " << message << "\n";
  return 1;
}

int aotMain(int argc, char **argv) {
  cl::OptionCategory category("perfdojo-translate --emit options");
  cl::list<std::string> inputs(cl::Positional, cl::ZeroOrMore,
                               cl::desc("<kernel.dojo|kernels.mlir>..."),
                               cl::cat(category));
  cl::opt<std::string> output("o", cl::init("-"),
                              cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::cat(category));
  cl::opt<std::string> emit(
      "emit", cl::Required,
      cl::desc("What to write: llvm (optimized LLVM IR), asm, obj, c-header "
               "(prototypes of the kernels), or snitch-asm (RISC-V assembly "
               "for one Snitch core, for llvm-mc; --target and -O do not "
               "apply)"),
      cl::cat(category));
  std::string targetHelp =
      ("Target: " + getSupportedTargetsHelp() + " (default: host)").str();
  cl::opt<std::string> target("target", cl::init("host"), cl::desc(targetHelp),
                              cl::cat(category));
  cl::opt<unsigned> optLevel("O", cl::init(3), cl::Prefix,
                             cl::desc("Optimization level 0-3 (default 3)"),
                             cl::cat(category));
  cl::opt<bool> approximateMath(
      "approximate-math", cl::init(true),
      cl::desc("Polynomial f32 exp/log/tanh (off: libm calls)"),
      cl::cat(category));
  cl::opt<std::string> kernelName(
      "kernel-name", cl::init(""),
      cl::desc("Name of the kernel of a single .dojo input (default: the "
               "file's stem)"),
      cl::cat(category));
  cl::opt<std::string> headerGuard(
      "header-guard", cl::init(""),
      cl::desc("c-header: include guard (default: from the output file's "
               "name)"),
      cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "PerfDojo ahead-of-time compiler: kernels to LLVM IR, assembly, "
      "objects and C headers\n");

  bool snitchAssembly = emit == "snitch-asm";
  std::optional<EmitKind> kind = parseEmitKind(emit);
  if (!kind && !snitchAssembly)
    return fail("unknown --emit kind '" + emit +
                "' (expected one of: " + getEmitKindsHelp() + ", snitch-asm)");
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel.getValue()) +
                ": the optimization level is 0-3");
  std::vector<std::string> paths(inputs.begin(), inputs.end());
  if (paths.empty())
    paths.push_back("-");
  if (!kernelName.empty() &&
      (paths.size() != 1 || !llvm::StringRef(paths[0]).ends_with(".dojo")))
    return fail("--kernel-name names the kernel of a single .dojo input");

  MLIRContext context;
  context.printOpOnDiagnostic(false);
  context.loadDialect<dojo::DojoDialect>();
  // Later diagnostics (lowering) load the file they point into on demand.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> library =
      loadKernelLibrary(paths, &context, kernelName);
  if (!library)
    return 1;

  if (snitchAssembly) {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output, &error);
    if (!file)
      return fail("cannot open '" + output + "': " + error);
    if (failed(emitKernelsAsSnitchAssembly(*library, file->os())))
      return 1;
    file->keep();
    return 0;
  }

  EmitOptions options;
  options.kind = *kind;
  options.target = target;
  options.optLevel = optLevel;
  options.approximateMath = approximateMath;
  options.headerGuard = headerGuard;
  if (options.headerGuard.empty() && output != "-")
    options.headerGuard =
        ("PERFDOJO_" + llvm::sys::path::filename(output)).str();

  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
  if (!file)
    return fail("cannot open '" + output + "': " + error);
  if (llvm::Error err = emitKernelLibrary(*library, options, file->os()))
    return fail(llvm::toString(std::move(err)));
  file->os().flush();
  if (file->os().has_error())
    return fail("cannot write '" + output +
                "': " + file->os().error().message());
  file->keep();
  return 0;
}

} // namespace

static int toolMain(int argc, char **argv) {
  if (hasEmitOption(argc, argv)) {
    llvm::InitLLVM init(argc, argv);
    return aotMain(argc, argv);
  }
  registerDojoTranslations();
  registerMoveScriptTranslations();
  registerSnitchTranslations();
  return failed(mlirTranslateMain(
      argc, argv,
      "PerfDojo translation driver\n\n"
      "  With --emit=llvm|asm|obj|c-header it compiles kernels ahead of "
      "time instead:\n"
      "  perfdojo-translate --emit=obj [--target=T] [-O N] "
      "[--approximate-math=BOOL] -o OUT INPUT...\n"
      "  (perfdojo-translate --emit=obj --help lists its options)\n"));
}

int main(int argc, char **argv) {
  // Deep MLIR text must reach the nesting bound's error instead of
  // overflowing the parser's stack (Support/LargeStack.h).
  return perfdojo::runOnLargeStack([&] { return toolMain(argc, argv); });
}
