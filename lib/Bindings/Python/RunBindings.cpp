//===- RunBindings.cpp - running kernels on NumPy arrays ------------------===//
//
// perfdojo.run is perfdojo-run as a function (KernelRun.h: validated
// against the f64 reference, timed); perfdojo.interpret runs the reference
// interpreter alone; perfdojo.compile JIT-compiles a kernel into a callable
// that works on the caller's arrays in place; perfdojo.emit writes
// ahead-of-time objects and headers (Emit.h).
//
// Calls hold the GIL while they use a kernel's MLIR context (contexts are
// not thread-safe; the GIL serializes every use of them); only a compiled
// kernel's call and emission into a context of its own release it.
//
//===----------------------------------------------------------------------===//

#include "PythonSupport.h"

#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/ExecutionEngine/KernelRun.h"
#include "perfdojo/Runtime/Interpreter.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/LLVM/Emit.h"

#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

#include <pybind11/stl.h>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::python;

namespace {
/// What perfdojo.run returns.
struct PyRunResult {
  py::dict outputs, report;
  std::string text;
  bool passed = true;
  double seconds = 0;
};

/// A JIT-compiled kernel, callable on arrays.
struct PyCompiledKernel {
  KernelRef kernel;
  std::unique_ptr<JitKernel> jit;
  unsigned threads = 0;
};
} // namespace

/// The arguments' initial contents: `inputs` (name -> array) for the `in`
/// and `inout` arguments, the seeded generator's when `inputs` is None.
static std::optional<std::vector<HostBuffer>>
getInitialContents(KernelHandle &k, const py::object &inputs) {
  if (inputs.is_none())
    return std::nullopt;
  py::dict given = inputs.cast<py::dict>();
  // `out` arguments start undefined: any buffer of their size stands in.
  std::vector<HostBuffer> initial, fresh = allocateArguments(k.kernel);
  llvm::StringSet<> known;
  for (dojo::BufferOp buffer : k.kernel.getBuffers()) {
    if (!buffer.isArgument())
      continue;
    std::string name = buffer.getName().str();
    known.insert(name);
    if (given.contains(name)) {
      if (buffer.getRole() == dojo::Role::out)
        throw py::value_error("'" + name +
                              "' is an `out` argument: it is not an input");
      initial.push_back(fromArray(buffer, given[name.c_str()]));
      continue;
    }
    if (buffer.getRole() != dojo::Role::out)
      throw py::value_error("no input for argument '" + name + "'");
    initial.push_back(std::move(fresh[initial.size()]));
  }
  for (auto item : given)
    if (!known.contains(item.first.cast<std::string>()))
      throw py::value_error("kernel '" + k.kernel.getSymName().str() +
                            "' has no argument '" +
                            item.first.cast<std::string>() + "'");
  return initial;
}

/// The `out` and `inout` arguments of `args` as arrays, by name.
static py::dict getOutputs(KernelHandle &k, llvm::ArrayRef<HostBuffer> args) {
  py::dict out;
  for (const HostBuffer &arg : args) {
    dojo::BufferOp buffer = k.kernel.lookupArray(arg.getName());
    if (buffer.getRole() != dojo::Role::in)
      out[arg.getName().c_str()] = toArray(arg, getShape(buffer));
  }
  return out;
}

static py::dict parseJson(const llvm::json::Value &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return py::module_::import("json").attr("loads")(text);
}

static PyRunResult run(const py::object &kernel, const py::object &inputs,
                       const std::string &engine, bool validate,
                       const py::object &baseline, uint64_t seed,
                       unsigned threads, unsigned repetitions,
                       unsigned optLevel, bool approximateMath,
                       const std::string &reference, const std::string &chip) {
  KernelRef k = toKernel(kernel);
  KernelRef base = baseline.is_none() ? nullptr : toKernel(baseline);
  RunOptions options;
  llvm::Expected<RunEngine> runEngine = parseRunEngine(engine);
  if (!runEngine)
    throw py::value_error(llvm::toString(runEngine.takeError()));
  llvm::Expected<ReferenceEngine> referenceEngine =
      parseReferenceEngine(reference);
  if (!referenceEngine)
    throw py::value_error(llvm::toString(referenceEngine.takeError()));
  options.engine = *runEngine;
  options.referenceEngine = *referenceEngine;
  options.validate = validate;
  options.seed = seed;
  options.threads = threads;
  options.repetitions = repetitions;
  options.optLevel = optLevel;
  options.approximateMath = approximateMath;
  options.gpuChip = chip;
  std::optional<std::vector<HostBuffer>> initial =
      getInitialContents(*k, inputs);

  // A baseline in another context is printed into this kernel's: the run
  // compares the two.
  DiagnosticCapture capture(k->context.get());
  OwningOpRef<ModuleOp> baselineCopy;
  dojo::KernelOp baselineKernel;
  if (base) {
    baselineCopy = copyInto(base->kernel, k->context.get());
    if (!baselineCopy)
      raise(ErrorKind::Run, capture, "cannot copy the baseline");
    baselineKernel = getSingleKernel(*baselineCopy);
  }
  if (failed(checkArgumentSizes(k->kernel, "perfdojo.run")))
    raise(ErrorKind::Run, capture, "arguments too large", k->source);
  llvm::Expected<KernelRun> ran =
      initial ? runKernel(k->kernel, baselineKernel, options, *initial)
              : runKernel(k->kernel, baselineKernel, options);
  if (!ran)
    raise(ErrorKind::Run, capture, ran.takeError(), k->source);
  PyRunResult result;
  result.outputs = getOutputs(*k, ran->args);
  result.report = parseJson(toJSON(ran->report));
  llvm::raw_string_ostream os(result.text);
  printRunReport(ran->report, os);
  result.passed = ran->report.passed();
  result.seconds = ran->report.medianSeconds;
  return result;
}

static py::dict interpret(const py::object &kernel, const py::object &inputs,
                          uint64_t seed, bool reference) {
  KernelRef k = toKernel(kernel);
  DiagnosticCapture capture(k->context.get());
  if (failed(checkArgumentSizes(k->kernel, "perfdojo.interpret")))
    raise(ErrorKind::Run, capture, "arguments too large", k->source);
  FailureOr<Interpreter> interpreter =
      Interpreter::create(k->kernel, InterpreterOptions{reference});
  if (failed(interpreter))
    raise(ErrorKind::Run, capture, "the interpreter refuses the kernel",
          k->source);
  std::optional<ScalarType> type;
  if (reference)
    type = ScalarType::f64;
  std::vector<HostBuffer> args = allocateArguments(k->kernel, type);
  std::optional<std::vector<HostBuffer>> initial =
      getInitialContents(*k, inputs);
  if (llvm::Error error = fillArguments(
          k->kernel, args,
          initial ? std::optional<llvm::ArrayRef<HostBuffer>>(*initial)
                  : std::nullopt,
          seed))
    raise(ErrorKind::Run, capture, std::move(error), k->source);
  if (llvm::Error error = interpreter->run(args))
    raise(ErrorKind::Run, capture, std::move(error), k->source);
  return getOutputs(*k, args);
}

static py::dict generateInputs(const py::object &kernel, uint64_t seed) {
  KernelRef k = toKernel(kernel);
  DiagnosticCapture capture(k->context.get());
  if (failed(checkArgumentSizes(k->kernel, "perfdojo.generate_inputs")))
    raise(ErrorKind::Run, capture, "arguments too large", k->source);
  std::vector<HostBuffer> args = allocateArguments(k->kernel);
  fillInputs(k->kernel, args, seed);
  py::dict out;
  for (const HostBuffer &arg : args) {
    dojo::BufferOp buffer = k->kernel.lookupArray(arg.getName());
    if (buffer.getRole() != dojo::Role::out)
      out[arg.getName().c_str()] = toArray(arg, getShape(buffer));
  }
  return out;
}

/// Calls `c` on the arrays of `given`: in place where an array is
/// C-contiguous with the argument's dtype, through a converted copy for
/// other `in` arrays; `out` arguments not given are allocated.
static py::dict callCompiled(PyCompiledKernel &c, const py::kwargs &given) {
  KernelHandle &k = *c.kernel;
  std::vector<py::array> arrays;
  std::vector<void *> pointers;
  py::dict outputs;
  size_t used = 0;
  for (dojo::BufferOp buffer : k.kernel.getBuffers()) {
    if (!buffer.isArgument())
      continue;
    std::string name = buffer.getName().str();
    ScalarType type = *perfdojo::getScalarType(buffer.getElementType());
    py::dtype dtype = getDtype(type);
    std::vector<py::ssize_t> shape = getShape(buffer);
    py::array array;
    if (!given.contains(name)) {
      if (buffer.getRole() != dojo::Role::out)
        throw py::value_error("no array for argument '" + name + "'");
      array = py::array(dtype, shape);
    } else {
      ++used;
      py::array value = py::array::ensure(given[name.c_str()]);
      if (!value)
        throw py::type_error("argument '" + name + "' is not array-like");
      std::vector<py::ssize_t> actual(value.shape(),
                                      value.shape() + value.ndim());
      bool exact = value.dtype().equal(dtype) &&
                   (value.flags() & py::array::c_style);
      if (buffer.getRole() != dojo::Role::in && !exact)
        throw py::type_error("argument '" + name +
                             "' is written: it must be a C-contiguous " +
                             py::str(dtype).cast<std::string>() + " array");
      if (buffer.getRole() != dojo::Role::in && !value.writeable())
        throw py::value_error("argument '" + name +
                              "' is written: its array is read-only");
      if (actual != shape)
        throw py::value_error("argument '" + name + "' has the wrong shape");
      array = exact ? value
                    : py::array::ensure(value.attr("astype")(dtype),
                                        py::array::c_style);
    }
    if (buffer.getRole() != dojo::Role::in)
      outputs[name.c_str()] = array;
    pointers.push_back(array.mutable_data());
    arrays.push_back(array);
  }
  if (used != given.size())
    for (auto item : given)
      if (!k.kernel.lookupArray(item.first.cast<std::string>()))
        throw py::value_error("kernel '" + k.kernel.getSymName().str() +
                              "' has no argument '" +
                              item.first.cast<std::string>() + "'");
  {
    // The compiled code touches no MLIR state: other Python threads run.
    py::gil_scoped_release release;
    setJitThreads(c.threads);
    c.jit->call(pointers.data());
  }
  return outputs;
}

static PyCompiledKernel compileKernel(const py::object &kernel,
                                      unsigned optLevel, bool approximateMath,
                                      unsigned threads) {
  KernelRef k = toKernel(kernel);
  DiagnosticCapture capture(k->context.get());
  if (failed(checkArgumentSizes(k->kernel, "perfdojo.compile")))
    raise(ErrorKind::Run, capture, "arguments too large", k->source);
  llvm::Expected<std::unique_ptr<JitKernel>> jit = JitKernel::compile(
      k->kernel, JitOptions{std::min(optLevel, 3u), approximateMath});
  if (!jit)
    raise(ErrorKind::Run, capture, jit.takeError(), k->source);
  return PyCompiledKernel{k, std::move(*jit), threads};
}

static void emit(const py::object &kernels, const std::string &path,
                 const std::string &kind, const std::string &target,
                 unsigned optLevel, bool approximateMath) {
  std::optional<EmitKind> emitKind = parseEmitKind(kind);
  if (!emitKind)
    throw py::value_error("unknown kind '" + kind + "' (" +
                          getEmitKindsHelp().str() + ")");
  std::vector<KernelRef> handles;
  if (py::isinstance<py::list>(kernels) || py::isinstance<py::tuple>(kernels))
    for (py::handle kernel : kernels)
      handles.push_back(toKernel(kernel));
  else
    handles.push_back(toKernel(kernels));
  if (handles.empty())
    throw py::value_error("no kernel to emit");
  // One module, in a context of its own, holding every kernel: emission
  // lowers it in place.
  KernelHandle library;
  library.module = ModuleOp::create(UnknownLoc::get(library.context.get()));
  DiagnosticCapture capture(library.context.get());
  for (const KernelRef &k : handles) {
    OwningOpRef<ModuleOp> copy = copyInto(k->kernel, library.context.get());
    if (!copy)
      raise(ErrorKind::Run, capture, "cannot copy the kernel");
    dojo::KernelOp kernel = getSingleKernel(*copy);
    if (library.module->lookupSymbol(kernel.getSymName()))
      raise(ErrorKind::Run, "two kernels are named '" +
                                kernel.getSymName().str() + "'");
    kernel->moveBefore(library.module->getBody(),
                       library.module->getBody()->end());
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file =
      mlir::openOutputFile(path, &error);
  if (!file)
    raise(ErrorKind::Run, error);
  EmitOptions options;
  options.kind = *emitKind;
  options.target = target;
  options.optLevel = std::min(optLevel, 3u);
  options.approximateMath = approximateMath;
  if (*emitKind == EmitKind::CHeader) {
    if (failed(emitCHeader(*library.module, file->os())))
      raise(ErrorKind::Run, capture, "cannot write the header");
  } else if (llvm::Error failure = [&] {
               // A context of its own: other Python threads run meanwhile.
               py::gil_scoped_release release;
               return emitKernelLibrary(*library.module, options, file->os());
             }()) {
    raise(ErrorKind::Run, capture, std::move(failure));
  }
  file->keep();
}

void python::bindRun(py::module_ &m) {
  py::class_<PyRunResult>(m, "RunResult",
                          "What perfdojo.run measured: the outputs, the "
                          "report (docs/run-report.md) and its text.")
      .def_readonly("outputs", &PyRunResult::outputs,
                    "The `out` and `inout` arguments after the run, by "
                    "name (NumPy arrays).")
      .def_readonly("report", &PyRunResult::report,
                    "The run report as a dict (perfdojo-run --json's "
                    "schema, docs/run-report.md).")
      .def_readonly("text", &PyRunResult::text,
                    "The report as perfdojo-run prints it.")
      .def_readonly("passed", &PyRunResult::passed,
                    "Whether every output matched the reference (True "
                    "when not validated).")
      .def_readonly("seconds", &PyRunResult::seconds,
                    "The median run time in seconds.")
      .def("__repr__", [](const PyRunResult &r) { return r.text; });

  m.def("run", &run, py::arg("kernel"), py::arg("inputs") = py::none(),
        py::kw_only(), py::arg("engine") = "jit", py::arg("validate") = true,
        py::arg("baseline") = py::none(), py::arg("seed") = 0,
        py::arg("threads") = 0, py::arg("repetitions") = 0,
        py::arg("opt_level") = 3, py::arg("approximate_math") = true,
        py::arg("reference") = "auto", py::arg("chip") = "",
        R"(Runs a kernel as perfdojo-run does: compiles it (engine 'jit',
'interp', 'cuda' or 'snitch'), runs and times it, and validates every
output against the f64 reference (reference 'auto', 'interp' or
'compiled'). `inputs` maps the `in` and `inout` arguments' names to arrays
(converted to the kernel's element types); without it, the deterministic
generator fills them from `seed`. `baseline` is the untransformed kernel
a transformed one is validated against. Returns a RunResult; a run whose
outputs do not match is still returned (passed is False). Raises RunError
when the kernel cannot be compiled or run.)");

  m.def("interpret", &interpret, py::arg("kernel"),
        py::arg("inputs") = py::none(), py::kw_only(), py::arg("seed") = 0,
        py::arg("reference") = false,
        "Runs the reference interpreter once and returns the `out` and "
        "`inout` arguments by name. reference=True computes every float in "
        "f64 (the trusted reference); inputs as for run().");

  m.def("generate_inputs", &generateInputs, py::arg("kernel"),
        py::kw_only(), py::arg("seed") = 0,
        "The deterministic generator's `in` and `inout` arguments, by name, "
        "as every run and search fills them for `seed`.");

  py::class_<PyCompiledKernel>(m, "CompiledKernel", R"(
A kernel JIT-compiled for this CPU. Call it with the arguments by name:
written arguments (`out`, `inout`) must be C-contiguous arrays of the
kernel's dtype and are updated in place (no copy); `in` arrays of another
dtype or layout are converted first; `out` arguments left out are
allocated. Returns the written arguments by name.)")
      .def("__call__", &callCompiled)
      .def_property_readonly(
          "compile_ms",
          [](PyCompiledKernel &c) { return c.jit->getCompileTimes().totalMs(); },
          "Compilation time in milliseconds.")
      .def_property_readonly(
          "kernel", [](PyCompiledKernel &c) { return c.kernel; },
          "The kernel compiled.");

  m.def("compile", &compileKernel, py::arg("kernel"), py::kw_only(),
        py::arg("opt_level") = 3, py::arg("approximate_math") = true,
        py::arg("threads") = 0,
        "JIT-compiles a kernel for this CPU; `threads` is the OpenMP "
        "thread count of its `:p` scopes (0: the runtime's default).");

  m.def("emit", &emit, py::arg("kernels"), py::arg("path"), py::kw_only(),
        py::arg("kind") = "obj", py::arg("target") = "host",
        py::arg("opt_level") = 3, py::arg("approximate_math") = true,
        "Compiles one kernel or a list of kernels ahead of time and writes "
        "`kind` ('obj', 'asm', 'llvm', 'c-header', or a GPU kind) for "
        "`target` (perfdojo-translate --emit's names) to `path`.");
}
