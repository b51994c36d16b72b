//===- KernelLibraryTest.cpp - kernel files gathered into a library ------===//
//
// loadKernelLibrary (Target/DojoText/DojoText.h), the input side of
// `perfdojo-translate --emit`: kernels of several files in one module, in
// order, and one name defined twice refused.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;

namespace {
constexpr const char *kScale = "x f32 [4] heap in\n"
                               "y f32 [4] heap out\n"
                               "4 y[{0}] = x[{0}] * 2\n";

/// A temporary directory with kernel files, removed at the end.
struct Files {
  llvm::SmallString<128> dir;
  std::vector<std::string> written;
  Files() {
    EXPECT_FALSE(
        llvm::sys::fs::createUniqueDirectory("kernel-library", dir).value());
  }
  ~Files() {
    for (const std::string &path : written)
      llvm::sys::fs::remove(path);
    llvm::sys::fs::remove(dir);
  }
  std::string write(llvm::StringRef name, llvm::StringRef text) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    EXPECT_FALSE(ec);
    os << text;
    written.push_back(path.str().str());
    return written.back();
  }
};

struct Context {
  MLIRContext context;
  Context() { context.printOpOnDiagnostic(false); }
  std::string diagnostics;
  ScopedDiagnosticHandler handler{&context, [this](Diagnostic &d) {
                                    diagnostics += d.str() + "\n";
                                    for (Diagnostic &note : d.getNotes())
                                      diagnostics +=
                                          "note: " + note.str() + "\n";
                                    return success();
                                  }};
};

std::vector<std::string> kernelNames(ModuleOp module) {
  std::vector<std::string> names;
  for (dojo::KernelOp kernel : module.getOps<dojo::KernelOp>())
    names.push_back(kernel.getSymName().str());
  return names;
}

TEST(KernelLibrary, GathersTheKernelsOfEveryFileInOrder) {
  Files files;
  std::string b = files.write("scale_b.dojo", kScale);
  std::string a = files.write("scale_a.dojo", kScale);
  Context c;
  OwningOpRef<ModuleOp> library = loadKernelLibrary({b, a}, &c.context);
  ASSERT_TRUE(library) << c.diagnostics;
  EXPECT_EQ(kernelNames(*library),
            (std::vector<std::string>{"scale_b", "scale_a"}));
}

TEST(KernelLibrary, NamesTheKernelOfASingleDojoFile) {
  Files files;
  std::string path = files.write("scale.dojo", kScale);
  Context c;
  OwningOpRef<ModuleOp> library =
      loadKernelLibrary({path}, &c.context, "twice");
  ASSERT_TRUE(library) << c.diagnostics;
  EXPECT_EQ(kernelNames(*library), std::vector<std::string>{"twice"});
}

TEST(KernelLibrary, RefusesAKernelDefinedTwice) {
  Files files;
  std::string path = files.write("scale.dojo", kScale);
  Context c;
  OwningOpRef<ModuleOp> library = loadKernelLibrary({path, path}, &c.context);
  EXPECT_FALSE(library);
  EXPECT_EQ(c.diagnostics,
            "kernel 'scale' is defined twice in the library\n"
            "note: first defined here\n");
}

TEST(KernelLibrary, FailsOnAMissingFile) {
  Files files;
  std::string path = files.write("scale.dojo", kScale);
  Context c;
  OwningOpRef<ModuleOp> library = loadKernelLibrary(
      {path, (files.dir + "/missing.dojo").str()}, &c.context);
  // The error is the file loader's (printed by its own handler).
  EXPECT_FALSE(library);
}
} // namespace
