//===- KernelBindings.cpp - perfdojo.Kernel -------------------------------===//

#include "PythonSupport.h"

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Runtime/WorkCounts.h"
#include "perfdojo/Search/ProgramFeatures.h"
#include "perfdojo/Support/FileIO.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <pybind11/stl.h>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::python;

static KernelRef fromFile(const std::string &path, const std::string &name) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!file) {
    // OSError(errno, ...) is the matching subclass (FileNotFoundError...).
    std::error_code ec = file.getError();
    py::object error = py::reinterpret_borrow<py::object>(PyExc_OSError)(
        ec.value(), ec.message(), path);
    PyErr_SetObject(error.get_type().ptr(), error.ptr());
    throw py::error_already_set();
  }
  bool isDojo = llvm::StringRef(path).ends_with(".dojo");
  std::string kernelName =
      !name.empty() || !isDojo ? name : llvm::sys::path::stem(path).str();
  KernelRef handle =
      parseKernel((*file)->getBuffer(), path, !isDojo, kernelName);
  handle->path = path;
  return handle;
}

static py::dict describeBuffer(dojo::BufferOp buffer) {
  py::dict out;
  out["name"] = buffer.getName().str();
  out["dtype"] = getElementTypeName(buffer.getElementType());
  out["shape"] = py::tuple(py::cast(getShape(buffer)));
  out["padding"] = py::tuple(py::cast(std::vector<int64_t>(
      buffer.getPadding().begin(), buffer.getPadding().end())));
  out["location"] = dojo::stringifyBufferLocation(buffer.getLocation()).str();
  out["role"] = dojo::stringifyRole(buffer.getRole()).str();
  std::vector<std::string> arrays;
  for (StringRef array : buffer.getArrayNames())
    arrays.push_back(array.str());
  out["arrays"] = arrays;
  return out;
}

static py::array_t<float> getFeatures(KernelHandle &k) {
  std::vector<float> features =
      computeProgramFeatures(k.kernel, printDojo(k.kernel));
  py::array_t<float> out(features.size());
  std::copy(features.begin(), features.end(), out.mutable_data());
  return out;
}

void python::bindKernel(py::module_ &m) {
  py::class_<KernelHandle, KernelRef>(m, "Kernel", R"(
A dojo kernel: the scope tree of one ML operator, with its buffers.

Create one with Kernel.parse(text) (`.dojo` text, or MLIR with mlir=True)
or Kernel.from_file(path) (`*.dojo` files are .dojo text, anything else
MLIR). Malformed text raises ParseError with the file, line and column.
str(kernel) is its canonical .dojo text.)")
      .def_static(
          "parse",
          [](const std::string &text, const std::string &name, bool mlir,
             const std::string &filename) {
            // Text of no file is named `kernel` unless named otherwise.
            std::string kernelName =
                name.empty() && !mlir && filename == "<string>" ? "kernel"
                                                               : name;
            return parseKernel(text, filename, mlir, kernelName);
          },
          py::arg("text"), py::arg("name") = "", py::arg("mlir") = false,
          py::arg("filename") = "<string>",
          "Parses .dojo text (or MLIR with mlir=True) holding one kernel. "
          "`name` names the kernel (default: the stem of `filename`, or "
          "'kernel'); `filename` "
          "is the file name errors are located in.")
      .def_static("from_file", &fromFile, py::arg("path"), py::arg("name") = "",
                  "Loads a kernel file: .dojo text for *.dojo, else MLIR. "
                  "A .dojo kernel is named after the file's stem unless "
                  "`name` is given.")
      .def_property_readonly(
          "name", [](KernelHandle &k) { return k.kernel.getSymName().str(); },
          "The kernel's symbol name.")
      .def_property_readonly(
          "path", [](KernelHandle &k) { return k.path; },
          "The file the kernel was loaded from ('' for parsed text).")
      .def_property_readonly(
          "text", [](KernelHandle &k) { return printDojo(k.kernel); },
          "The canonical .dojo text.")
      .def_property_readonly(
          "mlir",
          [](KernelHandle &k) {
            std::string text;
            llvm::raw_string_ostream os(text);
            k.kernel->print(os);
            return text;
          },
          "The kernel as `dojo` dialect MLIR.")
      .def("__str__", [](KernelHandle &k) { return printDojo(k.kernel); })
      .def("__repr__",
           [](KernelHandle &k) {
             return "<perfdojo.Kernel '" + k.kernel.getSymName().str() + "'>";
           })
      .def(
          "verify",
          [](KernelHandle &k) {
            DiagnosticCapture capture(k.context.get());
            if (failed(mlir::verify(k.kernel)))
              raise(ErrorKind::Verify, capture, "the kernel does not verify",
                    k.source);
          },
          "Runs the verifier; raises VerifyError with the reason.")
      .def_property_readonly(
          "buffers",
          [](KernelHandle &k) {
            py::list out;
            for (dojo::BufferOp buffer : k.kernel.getBuffers())
              out.append(describeBuffer(buffer));
            return out;
          },
          "Every buffer, in declaration order: dicts with name, dtype, "
          "shape, padding, location, role (in, out, inout, internal) and "
          "arrays (the arrays that share it).")
      .def_property_readonly(
          "arguments",
          [](KernelHandle &k) {
            py::list out;
            for (dojo::BufferOp buffer : k.kernel.getBuffers())
              if (buffer.isArgument())
                out.append(describeBuffer(buffer));
            return out;
          },
          "The argument buffers (role in, out or inout), in call order.")
      .def_property_readonly(
          "work",
          [](KernelHandle &k) {
            WorkCounts counts = countWork(k.kernel);
            py::dict out;
            out["leaf_evaluations"] = counts.leafEvaluations;
            out["flops"] = counts.flops;
            out["compulsory_bytes"] = counts.compulsoryBytes;
            return out;
          },
          "Work counts: leaf evaluations, flops, compulsory bytes.")
      .def("features", &getFeatures,
           "The program feature vector (float32; docs/search.md, 'Program "
           "features').")
      .def(
          "copy",
          [](KernelHandle &k) {
            return copyKernel(k.kernel, k.path, k.source);
          },
          "An independent copy.");

  m.def(
      "feature_names",
      [] {
        auto names = getProgramFeatureNames();
        return std::vector<std::string>(names.begin(), names.end());
      },
      "The name of every entry of Kernel.features().");
  m.attr("FEATURE_VERSION") = kProgramFeatureVersion;
}
