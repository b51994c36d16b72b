//===- CodeGen.cpp - dojo kernels to machine code -------------------------===//

#include "perfdojo/Target/LLVM/CodeGen.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <mutex>

using namespace mlir;
using llvm::createStringError;

namespace {

struct TargetSpec {
  llvm::StringRef name, triple, cpu, features;
  /// Bytes of one vector register (RV64GC: one FP register; the V
  /// extension's fixed-length minimum, VLEN >= 128).
  int64_t vectorBytes;
};

/// Explicit targets; `host` is resolved from the running CPU.
constexpr TargetSpec kTargets[] = {
    {"x86_64", "x86_64-unknown-linux-gnu", "x86-64", "", 16},
    {"x86_64-avx2", "x86_64-unknown-linux-gnu", "haswell", "", 32},
    {"x86_64-avx512", "x86_64-unknown-linux-gnu", "skylake-avx512", "", 64},
    {"aarch64", "aarch64-unknown-linux-gnu", "generic", "+neon", 16},
    {"riscv64", "riscv64-unknown-linux-gnu", "generic-rv64", "+m,+a,+f,+d,+c",
     8},
    {"riscv64-v", "riscv64-unknown-linux-gnu", "generic-rv64",
     "+m,+a,+f,+d,+c,+v", 16},
};

const TargetSpec *findTarget(llvm::StringRef name) {
  const TargetSpec *spec = llvm::find_if(
      kTargets, [&](const TargetSpec &s) { return s.name == name; });
  return spec == std::end(kTargets) ? nullptr : spec;
}

llvm::Error unknownTarget(llvm::StringRef target) {
  return createStringError("unknown target '%s' (expected one of: %s)",
                           target.str().c_str(),
                           perfdojo::getSupportedTargetsHelp().str().c_str());
}

void initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
  });
}

llvm::CodeGenOptLevel toCodeGenOptLevel(unsigned level) {
  switch (level) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

/// Widest vector type (in bits) that `function` computes with.
unsigned getWidestVectorBits(llvm::Function &function) {
  unsigned widest = 0;
  auto visit = [&](llvm::Type *type) {
    if (auto *vec = llvm::dyn_cast<llvm::FixedVectorType>(type))
      widest = std::max<unsigned>(
          widest, vec->getNumElements() *
                      vec->getElementType()->getPrimitiveSizeInBits());
  };
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    visit(inst.getType());
    for (llvm::Value *operand : inst.operands())
      visit(operand->getType());
  }
  return widest;
}

} // namespace

llvm::StringRef perfdojo::getSupportedTargetsHelp() {
  return "host, x86_64, x86_64-avx2, x86_64-avx512, aarch64, riscv64, "
         "riscv64-v";
}

llvm::Expected<perfdojo::TargetDescription>
perfdojo::getCpuTargetDescription(llvm::StringRef target) {
  if (target == "host")
    return TargetDescription::getHost();
  const TargetSpec *spec = findTarget(target);
  if (!spec)
    return unknownTarget(target);
  return TargetDescription::getCpu(spec->vectorBytes);
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
perfdojo::createTargetMachine(llvm::StringRef target, unsigned optLevel) {
  initializeTargets();
  std::string triple, cpu, features;
  if (target == "host") {
    triple = llvm::sys::getProcessTriple();
    cpu = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures hostFeatures;
    for (const auto &[feature, enabled] : llvm::sys::getHostCPUFeatures())
      hostFeatures.AddFeature(feature, enabled);
    features = hostFeatures.getString();
  } else {
    const TargetSpec *spec = findTarget(target);
    if (!spec)
      return unknownTarget(target);
    triple = spec->triple.str();
    cpu = spec->cpu.str();
    features = spec->features.str();
  }
  llvm::Triple parsed(triple);
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(parsed, error);
  if (!llvmTarget)
    return createStringError("target '%s' is not available in this LLVM: %s",
                             target.str().c_str(), error.c_str());
  llvm::TargetOptions options;
  // Position-independent code: objects link into PIE executables and
  // shared libraries alike.
  std::unique_ptr<llvm::TargetMachine> machine(
      llvmTarget->createTargetMachine(parsed, cpu, features, options,
                                      llvm::Reloc::PIC_, std::nullopt,
                                      toCodeGenOptLevel(optLevel)));
  if (!machine)
    return createStringError("cannot create a target machine for '%s'",
                             target.str().c_str());
  return machine;
}

llvm::Error perfdojo::lowerToLLVMDialect(ModuleOp module,
                                         const DojoToLLVMOptions &options) {
  PassManager pm(module->getContext());
  buildDojoToLLVMPipeline(pm, options);
  if (failed(pm.run(module)))
    return createStringError("lowering to the LLVM dialect failed");
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<llvm::Module>>
perfdojo::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                            llvm::TargetMachine &machine) {
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return createStringError("translation to LLVM IR failed");
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());
  for (llvm::Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", machine.getTargetCPU());
    if (!machine.getTargetFeatureString().empty())
      function.addFnAttr("target-features", machine.getTargetFeatureString());
    if (unsigned bits = getWidestVectorBits(function))
      function.addFnAttr("min-legal-vector-width", std::to_string(bits));
  }
  return llvmModule;
}

llvm::Error perfdojo::optimizeModule(llvm::Module &module, unsigned optLevel,
                                     llvm::TargetMachine &machine) {
  auto transformer =
      makeOptimizingTransformer(std::min(optLevel, 3u), 0, &machine);
  return transformer(&module);
}

llvm::Error perfdojo::emitMachineCode(llvm::Module &module,
                                      llvm::TargetMachine &machine,
                                      OutputKind kind,
                                      llvm::raw_pwrite_stream &os) {
  llvm::legacy::PassManager pm;
  auto fileType = kind == OutputKind::Assembly
                      ? llvm::CodeGenFileType::AssemblyFile
                      : llvm::CodeGenFileType::ObjectFile;
  if (machine.addPassesToEmitFile(pm, os, nullptr, fileType))
    return createStringError("the target cannot emit this file type");
  pm.run(module);
  return llvm::Error::success();
}
