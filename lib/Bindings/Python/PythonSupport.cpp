//===- PythonSupport.cpp - handles, errors and arrays for the bindings ----===//

#include "PythonSupport.h"

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::python;

KernelHandle::KernelHandle()
    : context(std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED)) {
  context->loadDialect<dojo::DojoDialect>();
  context->printOpOnDiagnostic(false);
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

static Located locate(Location loc, StringRef message) {
  Located out;
  out.message = message.str();
  if (auto file = loc->findInstanceOf<FileLineColLoc>()) {
    out.file = file.getFilename().str();
    out.line = file.getLine();
    out.column = file.getColumn();
  }
  return out;
}

DiagnosticCapture::DiagnosticCapture(MLIRContext *context) : context(context) {
  id = context->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && !hasError()) {
      error = locate(diag.getLocation(), diag.str());
      for (Diagnostic &note : diag.getNotes())
        notes.push_back(locate(note.getLocation(), note.str()));
    }
    return success();
  });
}

DiagnosticCapture::~DiagnosticCapture() {
  context->getDiagEngine().eraseHandler(id);
}

//===----------------------------------------------------------------------===//
// Exceptions
//===----------------------------------------------------------------------===//

static PyObject *errorTypes[5];

void python::registerErrors(py::module_ &m) {
  auto make = [&](ErrorKind kind, const char *name, PyObject *base,
                  const char *doc) {
    std::string qualified = "perfdojo._perfdojo." + std::string(name);
    PyObject *type =
        PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
    if (!type)
      throw py::error_already_set();
    errorTypes[static_cast<int>(kind)] = type;
    m.add_object(name, py::handle(type));
  };
  make(ErrorKind::Dojo, "DojoError", PyExc_ValueError,
       "A PerfDojo error. Attributes: message (the error alone), file, "
       "line, column (0 where unknown) and notes (a list of (file, line, "
       "column, message) tuples).");
  PyObject *base = errorTypes[0];
  make(ErrorKind::Parse, "ParseError", base,
       "Malformed .dojo or MLIR text, at file:line:column.");
  make(ErrorKind::Verify, "VerifyError", base,
       "A kernel the verifier rejects.");
  make(ErrorKind::IllegalMove, "IllegalMoveError", base,
       "A move that is unknown, malformed or not legal in this state; the "
       "message names the violated condition.");
  make(ErrorKind::Run, "RunError", base,
       "A kernel that cannot be compiled, run or searched.");
}

/// The source line `line` (1-based) of `source` with a caret at `column`.
static std::string excerpt(StringRef source, unsigned line, unsigned column) {
  if (source.empty() || line == 0)
    return "";
  SmallVector<StringRef> lines;
  source.split(lines, '\n');
  if (line > lines.size())
    return "";
  // A window of a long line around the column (generated kernels have
  // lines of thousands of characters).
  constexpr size_t kWindow = 80;
  StringRef text = lines[line - 1];
  size_t caret = column ? column - 1 : 0;
  std::string prefix;
  if (caret > kWindow) {
    text = text.drop_front(caret - kWindow);
    caret = kWindow + 3;
    prefix = "...";
  }
  std::string suffix = text.size() > 2 * kWindow ? "..." : "";
  return "\n" + prefix + text.take_front(2 * kWindow).str() + suffix + "\n" +
         std::string(caret, ' ') + "^";
}

/// `file:line:col: kind: message`, or the message alone where there is no
/// location (an illegal move, an unknown option).
static std::string formatLocated(const Located &at, StringRef kind) {
  if (at.file.empty())
    return at.message;
  return at.file + ":" + std::to_string(at.line) + ":" +
         std::to_string(at.column) + ": " + kind.str() + ": " + at.message;
}

[[noreturn]] static void raiseLocated(ErrorKind kind, const Located &error,
                                      llvm::ArrayRef<Located> notes,
                                      StringRef source) {
  std::string text = formatLocated(error, "error") +
                     excerpt(source, error.line, error.column);
  for (const Located &note : notes)
    text += "\n" + formatLocated(note, "note");
  py::object type = py::reinterpret_borrow<py::object>(
      errorTypes[static_cast<int>(kind)]);
  py::object exception = type(text);
  exception.attr("message") = error.message;
  exception.attr("file") = error.file;
  exception.attr("line") = error.line;
  exception.attr("column") = error.column;
  py::list pyNotes;
  for (const Located &note : notes)
    pyNotes.append(py::make_tuple(note.file, note.line, note.column,
                                  note.message));
  exception.attr("notes") = pyNotes;
  PyErr_SetObject(type.ptr(), exception.ptr());
  throw py::error_already_set();
}

void python::raise(ErrorKind kind, const DiagnosticCapture &capture,
                   StringRef fallback, StringRef source) {
  if (capture.hasError())
    raiseLocated(kind, capture.getError(), capture.getNotes(), source);
  raise(kind, fallback);
}

void python::raise(ErrorKind kind, const DiagnosticCapture &capture,
                   llvm::Error error, StringRef source) {
  std::string message = llvm::toString(std::move(error));
  if (capture.hasError()) {
    Located located = capture.getError();
    // The error message says which step failed; the diagnostic says why.
    if (!message.empty() && message != located.message)
      located.message = message + ": " + located.message;
    raiseLocated(kind, located, capture.getNotes(), source);
  }
  raise(kind, message);
}

void python::raise(ErrorKind kind, StringRef message) {
  raiseLocated(kind, Located{"", message.str()}, {}, "");
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

KernelRef python::parseKernel(StringRef text, StringRef name, bool isMLIR,
                              StringRef kernelName) {
  auto handle = std::make_shared<KernelHandle>();
  handle->source = text.str();
  DiagnosticCapture capture(handle->context.get());
  if (isMLIR) {
    // MLIR's parser recurses per bracket: refuse text nested beyond any
    // kernel the IR allows before it runs (DojoText.h).
    if (std::optional<size_t> offset = findExcessiveBraceNesting(text)) {
      StringRef before = text.take_front(*offset);
      unsigned line = before.count('\n') + 1;
      unsigned column = *offset - (before.rfind('\n') + 1) + 1;
      emitError(FileLineColLoc::get(handle->context.get(), name, line, column))
          << "brackets nest deeper than any kernel the IR allows";
      raise(ErrorKind::Parse, capture, "invalid MLIR", handle->source);
    }
    ParserConfig config(handle->context.get());
    handle->module = parseSourceString<ModuleOp>(text, config, name);
  } else {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                                 llvm::SMLoc());
    handle->module = importDojo(sourceMgr, handle->context.get(), kernelName);
  }
  if (!handle->module)
    raise(ErrorKind::Parse, capture, "cannot parse '" + name.str() + "'",
          handle->source);
  handle->kernel = getSingleKernel(*handle->module);
  if (!handle->kernel)
    raise(ErrorKind::Parse, capture, "no single kernel", handle->source);
  if (isMLIR && !kernelName.empty())
    handle->kernel.setSymName(kernelName);
  if (failed(verify(*handle->module)))
    raise(ErrorKind::Verify, capture, "the kernel does not verify",
          handle->source);
  return handle;
}

OwningOpRef<ModuleOp> python::copyInto(dojo::KernelOp kernel,
                                       MLIRContext *context) {
  // Printed as a module of its own, so that location aliases are defined
  // at the top level where the parser expects them.
  OwningOpRef<ModuleOp> wrapper = ModuleOp::create(kernel.getLoc());
  wrapper->getBody()->push_back(kernel->clone());
  std::string text;
  llvm::raw_string_ostream os(text);
  wrapper->print(os, OpPrintingFlags().enableDebugInfo());
  return parseSourceString<ModuleOp>(text, ParserConfig(context));
}

KernelRef python::copyKernel(dojo::KernelOp kernel, StringRef path,
                             StringRef source) {
  auto handle = std::make_shared<KernelHandle>();
  DiagnosticCapture capture(handle->context.get());
  handle->module = copyInto(kernel, handle->context.get());
  if (!handle->module)
    raise(ErrorKind::Dojo, capture, "cannot copy the kernel");
  handle->kernel = getSingleKernel(*handle->module);
  handle->path = path.str();
  handle->source = source.str();
  return handle;
}

std::string python::printDojo(dojo::KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(kernel, os);
  return text;
}

KernelRef python::toKernel(const py::handle &kernelOrPath) {
  if (py::isinstance<KernelHandle>(kernelOrPath))
    return kernelOrPath.cast<KernelRef>();
  py::object kernelClass =
      py::module_::import("perfdojo._perfdojo").attr("Kernel");
  return kernelClass.attr("from_file")(kernelOrPath).cast<KernelRef>();
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

py::dtype python::getDtype(ScalarType type) {
  switch (type) {
  case ScalarType::f16:
    return py::dtype("float16");
  case ScalarType::bf16:
    return py::dtype("uint16");
  case ScalarType::f32:
    return py::dtype("float32");
  case ScalarType::f64:
    return py::dtype("float64");
  case ScalarType::i1:
    return py::dtype("bool");
  case ScalarType::i8:
    return py::dtype("int8");
  case ScalarType::i16:
    return py::dtype("int16");
  case ScalarType::i32:
    return py::dtype("int32");
  case ScalarType::i64:
    return py::dtype("int64");
  }
  llvm_unreachable("unknown scalar type");
}

std::optional<ScalarType> python::getScalarType(const py::dtype &dtype) {
  for (ScalarType type :
       {ScalarType::f16, ScalarType::f32, ScalarType::f64, ScalarType::i1,
        ScalarType::i8, ScalarType::i16, ScalarType::i32, ScalarType::i64})
    if (dtype.equal(getDtype(type)))
      return type;
  return std::nullopt;
}

std::vector<py::ssize_t> python::getShape(dojo::BufferOp buffer) {
  return std::vector<py::ssize_t>(buffer.getShape().begin(),
                                  buffer.getShape().end());
}

py::array python::toArray(const HostBuffer &buffer,
                          llvm::ArrayRef<py::ssize_t> shape) {
  py::array array(getDtype(buffer.getType()),
                  std::vector<py::ssize_t>(shape.begin(), shape.end()));
  std::memcpy(array.mutable_data(), buffer.data(),
              buffer.size() * buffer.getElementBytes());
  return array;
}

HostBuffer python::fromArray(dojo::BufferOp buffer, const py::handle &value) {
  std::string name = buffer.getName().str();
  std::optional<ScalarType> declared =
      perfdojo::getScalarType(buffer.getElementType());
  if (!declared)
    raise(ErrorKind::Run, "argument '" + name + "' has no runtime type");
  py::array array = py::array::ensure(value);
  if (!array)
    throw py::type_error("argument '" + name + "' is not array-like");
  // bf16 bit patterns come as uint16; other arrays convert by value.
  std::optional<ScalarType> given = *declared == ScalarType::bf16 &&
                                            array.dtype().equal(
                                                py::dtype("uint16"))
                                        ? ScalarType::bf16
                                        : getScalarType(array.dtype());
  if (!given) {
    array = py::array::ensure(array.attr("astype")(getDtype(*declared)));
    given = *declared;
  }
  std::vector<py::ssize_t> shape = getShape(buffer);
  std::vector<py::ssize_t> actual(array.shape(), array.shape() + array.ndim());
  if (actual != shape) {
    auto str = [](llvm::ArrayRef<py::ssize_t> dims) {
      return "[" + llvm::join(llvm::map_range(dims, [](py::ssize_t d) {
               return std::to_string(d);
             }), ", ") + "]";
    };
    throw py::value_error("argument '" + name + "' has shape " + str(shape) +
                          ", the array " + str(actual));
  }
  int64_t elements = 1;
  for (py::ssize_t extent : shape)
    elements *= extent;
  HostBuffer out(name, *given, elements);
  py::array contiguous = py::array::ensure(
      array, py::array::c_style | py::array::forcecast);
  std::memcpy(out.data(), contiguous.data(),
              out.size() * out.getElementBytes());
  return out;
}
