//===- PythonSupport.h - what every binding file shares ---------*- C++ -*-===//
//
// The Python objects own their MLIR state through KernelHandle: a context of
// its own per parsed kernel (contexts are not shared across Python objects,
// so their lifetimes are independent), the module, and the source text for
// error excerpts. Errors become `perfdojo.DojoError` (or a subclass) whose
// attributes carry the file, line, column, message and notes of the first
// error diagnostic; captureDiagnostics collects them while C++ runs.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_BINDINGS_PYTHON_PYTHONSUPPORT_H
#define PERFDOJO_BINDINGS_PYTHON_PYTHONSUPPORT_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Runtime/HostBuffer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

namespace perfdojo::python {

namespace py = pybind11;

/// One kernel and the context that owns it.
struct KernelHandle {
  KernelHandle();
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  dojo::KernelOp kernel;
  /// Where the kernel came from ("" for text given in memory) and that
  /// text, for excerpts in later errors.
  std::string path, source;
};
using KernelRef = std::shared_ptr<KernelHandle>;

/// A located diagnostic, as Python sees it.
struct Located {
  std::string file, message;
  unsigned line = 0, column = 0;
};

/// Collects the diagnostics emitted on a context while it lives, instead
/// of printing them.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(mlir::MLIRContext *context);
  ~DiagnosticCapture();
  /// The first error and the notes attached to it (empty message when no
  /// error was emitted).
  const Located &getError() const { return error; }
  const std::vector<Located> &getNotes() const { return notes; }
  bool hasError() const { return !error.message.empty(); }

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID id;
  Located error;
  std::vector<Located> notes;
};

/// The Python exception classes: DojoError and its subclasses ParseError,
/// VerifyError, IllegalMoveError and RunError (registered by the module).
enum class ErrorKind { Dojo, Parse, Verify, IllegalMove, Run };
void registerErrors(py::module_ &m);

/// Raises `kind` with `capture`'s first error (its location and notes,
/// with an excerpt of `source` when the error is in it) or, when nothing
/// was captured, with `fallback`.
[[noreturn]] void raise(ErrorKind kind, const DiagnosticCapture &capture,
                        llvm::StringRef fallback,
                        llvm::StringRef source = "");
/// Raises `kind` with the message of `error` and what `capture` holds.
[[noreturn]] void raise(ErrorKind kind, const DiagnosticCapture &capture,
                        llvm::Error error, llvm::StringRef source = "");
/// Raises `kind` with `message` and no location.
[[noreturn]] void raise(ErrorKind kind, llvm::StringRef message);

/// Parses `text` (`.dojo`, or MLIR when `isMLIR`) named `name` in
/// locations into a new handle; raises ParseError on any error.
KernelRef parseKernel(llvm::StringRef text, llvm::StringRef name, bool isMLIR,
                      llvm::StringRef kernelName = "");
/// A module in `context` holding a copy of `kernel` (ops cannot move
/// between contexts: it is printed and parsed back, locations included);
/// null after a diagnostic on `context`.
mlir::OwningOpRef<mlir::ModuleOp> copyInto(dojo::KernelOp kernel,
                                           mlir::MLIRContext *context);
/// A new handle holding a copy of `kernel` (its own context).
KernelRef copyKernel(dojo::KernelOp kernel, llvm::StringRef path,
                     llvm::StringRef source);
/// The canonical `.dojo` text of `kernel`.
std::string printDojo(dojo::KernelOp kernel);

/// NumPy's dtype of a runtime element type (bf16: its uint16 bit patterns).
py::dtype getDtype(ScalarType type);
/// The runtime type of a NumPy dtype, or nullopt.
std::optional<ScalarType> getScalarType(const py::dtype &dtype);
/// The logical shape of an argument buffer.
std::vector<py::ssize_t> getShape(dojo::BufferOp buffer);
/// A new NumPy array of `shape` holding a copy of `buffer`.
py::array toArray(const HostBuffer &buffer, llvm::ArrayRef<py::ssize_t> shape);
/// `array` as the argument `buffer` (shape checked, element values
/// converted to its element type when the dtypes differ); raises
/// ValueError or TypeError naming the argument.
HostBuffer fromArray(dojo::BufferOp buffer, const py::handle &array);

/// The handle of a `perfdojo.Kernel` or of the kernel a path names.
KernelRef toKernel(const py::handle &kernelOrPath);

void bindKernel(py::module_ &m);
void bindGame(py::module_ &m);
void bindRun(py::module_ &m);
void bindSearch(py::module_ &m);

} // namespace perfdojo::python

#endif // PERFDOJO_BINDINGS_PYTHON_PYTHONSUPPORT_H
