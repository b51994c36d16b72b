//===- Emit.cpp - ahead-of-time emission of kernel libraries --------------===//

#include "perfdojo/Target/LLVM/Emit.h"
#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Target/LLVM/CodeGen.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace perfdojo;

std::optional<EmitKind> perfdojo::parseEmitKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<EmitKind>>(name)
      .Case("llvm", EmitKind::LLVMIR)
      .Case("asm", EmitKind::Assembly)
      .Case("obj", EmitKind::Object)
      .Case("c-header", EmitKind::CHeader)
      .Case("ptx", EmitKind::Ptx)
      .Case("gpu-asm", EmitKind::GpuAssembly)
      .Case("hsaco", EmitKind::Hsaco)
      .Case("launch-plan", EmitKind::LaunchPlan)
      .Default(std::nullopt);
}

llvm::StringRef perfdojo::getEmitKindsHelp() {
  return "llvm, asm, obj, c-header, ptx, gpu-asm, hsaco, launch-plan";
}

bool perfdojo::isGpuEmitKind(EmitKind kind) {
  return kind == EmitKind::Ptx || kind == EmitKind::GpuAssembly ||
         kind == EmitKind::Hsaco || kind == EmitKind::LaunchPlan;
}

//===----------------------------------------------------------------------===//
// C header
//===----------------------------------------------------------------------===//

namespace {

/// Words a C or C++ compiler will not accept as an identifier.
bool isCKeyword(llvm::StringRef word) {
  static const llvm::StringSet<> keywords = {
      // C23
      "alignas", "alignof", "auto", "bool", "break", "case", "char", "const",
      "constexpr", "continue", "default", "do", "double", "else", "enum",
      "extern", "false", "float", "for", "goto", "if", "inline", "int", "long",
      "nullptr", "register", "restrict", "return", "short", "signed", "sizeof",
      "static", "static_assert", "struct", "switch", "thread_local", "true",
      "typedef", "typeof", "typeof_unqual", "union", "unsigned", "void",
      "volatile", "while",
      // C++ (the header is also included from C++)
      "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t",
      "char32_t", "class", "compl", "concept", "consteval", "constinit",
      "const_cast", "co_await", "co_return", "co_yield", "decltype", "delete",
      "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace",
      "new", "noexcept", "not", "not_eq", "operator", "or", "or_eq", "private",
      "protected", "public", "reinterpret_cast", "requires", "static_cast",
      "template", "this", "throw", "try", "typeid", "typename", "using",
      "virtual", "wchar_t", "xor", "xor_eq",
      // Types and macros of the headers this one includes.
      "int8_t", "int32_t", "uint16_t", "NULL"};
  return keywords.contains(word);
}

bool isIdentifier(llvm::StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Identifiers that C reserves for the implementation.
bool isReserved(llvm::StringRef name) {
  return name.starts_with("__") ||
         (name.size() > 1 && name[0] == '_' && llvm::isUpper(name[1]));
}

/// The C spelling of a dojo element type.
llvm::StringRef getCType(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isF16() || type.isBF16())
    return "uint16_t";
  if (type.isInteger(1))
    return "uint8_t"; // bool: one byte, 0 or 1 (ElementTypes.h)
  if (type.isInteger(8))
    return "int8_t";
  if (type.isInteger(16))
    return "int16_t";
  if (type.isInteger(32))
    return "int32_t";
  if (type.isInteger(64))
    return "int64_t";
  return "";
}

/// A parameter name for buffer `name`: the name itself unless C would
/// reject or reserve it.
std::string getParameterName(llvm::StringRef name) {
  if (isIdentifier(name) && !isCKeyword(name) && !isReserved(name))
    return name.str();
  std::string result = "arg_";
  for (char c : name)
    result += llvm::isAlnum(c) ? c : '_';
  return result;
}

std::string makeGuard(llvm::StringRef text) {
  std::string guard;
  for (char c : text)
    guard += llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
  return guard;
}

} // namespace

LogicalResult perfdojo::emitCHeader(ModuleOp module, llvm::raw_ostream &os,
                                    llvm::StringRef guard) {
  SmallVector<dojo::KernelOp> kernels(module.getOps<dojo::KernelOp>());
  if (kernels.empty())
    return emitError(module.getLoc()) << "the input holds no dojo.kernel";
  bool ok = true;
  for (dojo::KernelOp kernel : kernels) {
    llvm::StringRef name = kernel.getSymName();
    if (!isIdentifier(name) || isCKeyword(name) || isReserved(name)) {
      kernel.emitError("kernel name '")
          << name
          << "' is not a C identifier a program can declare; rename the "
             "kernel (--kernel-name for a .dojo input)";
      ok = false;
    }
    for (dojo::BufferOp buffer : kernel.getBuffers())
      if (buffer.isArgument() && getCType(buffer.getElementType()).empty()) {
        buffer.emitError("argument '")
            << buffer.getName() << "' has element type "
            << buffer.getElementType() << ", which has no C spelling";
        ok = false;
      }
  }
  if (!ok)
    return failure();

  std::string guardName =
      guard.empty()
          ? "PERFDOJO_" + makeGuard(kernels.front().getSymName()) + "_H"
          : makeGuard(guard);
  os << "/* Generated by perfdojo-translate --emit=c-header. Do not edit.\n"
        " *\n"
        " * Each kernel takes one pointer per argument buffer, in declaration\n"
        " * order, to dense row-major storage of the buffer's logical shape.\n"
        " * Inputs are const; outputs need not be initialized. Kernels with\n"
        " * ':p' scopes call the LLVM OpenMP runtime: link with -lomp (or\n"
        " * -fopenmp=libomp). Element types without a C type are passed as\n"
        " * their bit patterns (f16, bf16: uint16_t). */\n"
        "#ifndef "
     << guardName << "\n#define " << guardName
     << "\n\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n"
        "#endif\n";
  for (dojo::KernelOp kernel : kernels) {
    SmallVector<dojo::BufferOp> args;
    for (dojo::BufferOp buffer : kernel.getBuffers())
      if (buffer.isArgument())
        args.push_back(buffer);
    bool parallel = false;
    kernel.walk([&](dojo::ScopeOp scope) {
      parallel |= scope.getMode() == dojo::Mode::parallel;
    });
    os << "\n/* " << kernel.getSymName() << ": " << args.size()
       << " argument(s)" << (parallel ? "; uses OpenMP (':p' scopes)" : "")
       << ". */\n";
    os << "void " << kernel.getSymName() << "(";
    if (args.empty())
      os << "void);\n";
    for (auto [i, buffer] : llvm::enumerate(args)) {
      bool last = i + 1 == args.size();
      std::string decl;
      llvm::raw_string_ostream declOs(decl);
      declOs << "    " << (buffer.getRole() == dojo::Role::in ? "const " : "")
             << getCType(buffer.getElementType()) << " *"
             << getParameterName(buffer.getName()) << (last ? ");" : ",");
      os << "\n" << decl;
      // Align the comments of one prototype.
      for (size_t pad = decl.size(); pad < 32; ++pad)
        os << ' ';
      os << " /* " << buffer.getName() << ": "
         << getElementTypeName(buffer.getElementType()) << " [";
      llvm::interleaveComma(buffer.getShape(), os);
      os << "] " << dojo::stringifyRole(buffer.getRole()) << " */";
    }
    if (!args.empty())
      os << "\n";
  }
  os << "\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* "
     << guardName << " */\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Machine code
//===----------------------------------------------------------------------===//

llvm::Error perfdojo::emitKernelLibrary(ModuleOp module,
                                        const EmitOptions &options,
                                        llvm::raw_ostream &os) {
  if (isGpuEmitKind(options.kind))
    return emitGpuKernel(module, options, os);
  // Check the target first, even for a header: a mistyped target should not
  // go unnoticed in a build that emits the header before the object.
  auto machine = createTargetMachine(options.target, options.optLevel);
  if (!machine)
    return machine.takeError();

  if (options.kind == EmitKind::CHeader) {
    if (failed(emitCHeader(module, os, options.headerGuard)))
      return llvm::createStringError("cannot emit a C header");
    return llvm::Error::success();
  }

  if (module.getOps<dojo::KernelOp>().empty())
    return llvm::createStringError("the input holds no dojo.kernel");
  llvm::Expected<TargetDescription> cpu =
      getCpuTargetDescription(options.target);
  if (!cpu)
    return cpu.takeError();
  DojoToLLVMOptions lowering;
  lowering.approximateMath = options.approximateMath;
  lowering.vectorBytes = cpu->vectorBytes;
  if (llvm::Error error = lowerToLLVMDialect(module, lowering))
    return error;

  llvm::LLVMContext context;
  auto llvmModule = translateToLLVMIR(module, context, **machine);
  if (!llvmModule)
    return llvmModule.takeError();
  if (llvm::Error error =
          optimizeModule(**llvmModule, options.optLevel, **machine))
    return error;

  if (options.kind == EmitKind::LLVMIR) {
    (*llvmModule)->print(os, nullptr);
    return llvm::Error::success();
  }
  // Object writers seek back to patch headers: emit into memory first so
  // that `os` may be a pipe.
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream bufferOs(buffer);
  if (llvm::Error error = emitMachineCode(**llvmModule, **machine,
                                          options.kind == EmitKind::Assembly
                                              ? OutputKind::Assembly
                                              : OutputKind::Object,
                                          bufferOs))
    return error;
  os << buffer;
  return llvm::Error::success();
}
