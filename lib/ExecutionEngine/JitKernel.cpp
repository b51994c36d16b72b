//===- JitKernel.cpp - compile and call a dojo kernel in-process ----------===//

#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/Support/Float16.h"
#include "perfdojo/Target/LLVM/CodeGen.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/DynamicLibrary.h"

#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <mutex>

extern "C" void omp_set_num_threads(int);

using namespace mlir;
using namespace perfdojo;
using Clock = std::chrono::steady_clock;

static double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

void perfdojo::setJitThreads(unsigned threads) {
  if (threads > 0)
    omp_set_num_threads(static_cast<int>(threads));
}

/// Makes the OpenMP runtime that `:p` scopes call (__kmpc_*) visible to the
/// JIT's symbol lookup, which searches the process's global scope. An
/// executable links it globally; a host that loads us with RTLD_LOCAL
/// (Python's extension modules, plugins) does not, so it is reopened
/// globally, found from a function of it that this library calls.
static void exposeOpenMPRuntime() {
  static std::once_flag once;
  std::call_once(once, [] {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&omp_set_num_threads), &info) &&
        info.dli_fname)
      llvm::sys::DynamicLibrary::LoadLibraryPermanently(info.dli_fname);
  });
}

//===----------------------------------------------------------------------===//
// The f16 and bf16 conversions LLVM calls where the target has no
// instruction for them (compiler-rt's names and ABI: the 16-bit value in an
// SSE register). The JIT resolves symbols from this process, which links
// no compiler-rt, so bf16 kernels would not link without these.
//===----------------------------------------------------------------------===//

#if defined(__x86_64__) && (defined(__clang__) || __GNUC__ >= 13)
#define PERFDOJO_HAS_FLOAT16_RUNTIME 1
static _Float16 asHalf(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, sizeof(h));
  return h;
}
static __bf16 asBFloat16(uint16_t bits) {
  __bf16 h;
  std::memcpy(&h, &bits, sizeof(h));
  return h;
}
static _Float16 truncsfhf2(float x) { return asHalf(floatToHalf(x)); }
static _Float16 truncdfhf2(double x) { return asHalf(doubleToHalf(x)); }
static float extendhfsf2(_Float16 x) {
  uint16_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return halfToFloat(bits);
}
static __bf16 truncsfbf2(float x) { return asBFloat16(floatToBFloat16(x)); }
static __bf16 truncdfbf2(double x) { return asBFloat16(doubleToBFloat16(x)); }
#endif

/// Defines the conversions above in the JIT's symbol table.
static void registerFloat16Runtime(ExecutionEngine &engine) {
#ifdef PERFDOJO_HAS_FLOAT16_RUNTIME
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    auto add = [&](llvm::StringRef name, auto *function) {
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                             llvm::JITSymbolFlags::Exported};
    };
    add("__truncsfhf2", &truncsfhf2);
    add("__gnu_f2h_ieee", &truncsfhf2);
    add("__truncdfhf2", &truncdfhf2);
    add("__extendhfsf2", &extendhfsf2);
    add("__gnu_h2f_ieee", &extendhfsf2);
    add("__truncsfbf2", &truncsfbf2);
    add("__truncdfbf2", &truncdfbf2);
    return map;
  });
#else
  (void)engine;
#endif
}

JitKernel::~JitKernel() = default;

llvm::Expected<std::unique_ptr<JitKernel>>
JitKernel::compile(dojo::KernelOp kernel, const JitOptions &options) {
  exposeOpenMPRuntime();
  std::unique_ptr<JitKernel> jit(new JitKernel());
  for (dojo::BufferOp buffer : kernel.getBuffers()) {
    if (!buffer.isArgument())
      continue;
    std::optional<ScalarType> type = getScalarType(buffer.getElementType());
    if (!type) {
      std::string typeName;
      llvm::raw_string_ostream(typeName) << buffer.getElementType();
      return llvm::createStringError(
          "argument '%s' has element type %s, which is no element type of "
          "the IR",
          buffer.getName().str().c_str(), typeName.c_str());
    }
    jit->argumentTypes.push_back(*type);
  }

  // Lower a copy in a module of its own; the caller's kernel stays intact.
  auto start = Clock::now();
  OpBuilder builder(kernel.getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernel.getLoc());
  builder.setInsertionPointToEnd(module->getBody());
  builder.clone(*kernel);
  DojoToLLVMOptions lowering;
  lowering.approximateMath = options.approximateMath;
  lowering.vectorBytes = TargetDescription::getHost().vectorBytes;
  if (llvm::Error error = lowerToLLVMDialect(*module, lowering))
    return std::move(error);
  jit->times.lowerMs = millisecondsSince(start);

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine("host", options.optLevel);
  if (!machine)
    return machine.takeError();

  // The engine calls back into us to build the LLVM module so that the
  // vector-width attributes and the host CPU are set exactly as for AOT.
  double translateMs = 0;
  llvm::Error translateError = llvm::Error::success();
  auto buildModule = [&](Operation *op, llvm::LLVMContext &context)
      -> std::unique_ptr<llvm::Module> {
    auto t = Clock::now();
    auto llvmModule =
        translateToLLVMIR(cast<ModuleOp>(op), context, **machine);
    translateMs = millisecondsSince(t);
    if (!llvmModule) {
      translateError = llvmModule.takeError();
      return nullptr;
    }
    return std::move(*llvmModule);
  };
  auto optimize = [&](llvm::Module *m) {
    return optimizeModule(*m, options.optLevel, **machine);
  };
  ExecutionEngineOptions engineOptions;
  engineOptions.llvmModuleBuilder = buildModule;
  engineOptions.transformer = optimize;
  engineOptions.jitCodeGenOptLevel = (*machine)->getOptLevel();
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;

  start = Clock::now();
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine) {
    llvm::consumeError(std::move(translateError));
    return engine.takeError();
  }
  if (translateError)
    return std::move(translateError);
  jit->engine = std::move(*engine);
  registerFloat16Runtime(*jit->engine);
  // Machine code is generated lazily at the first lookup: time it here.
  auto entry = jit->engine->lookupPacked(kernel.getSymName());
  if (!entry)
    return entry.takeError();
  jit->entry = *entry;
  jit->times.translateMs = translateMs;
  jit->times.codegenMs = millisecondsSince(start) - translateMs;
  return std::move(jit);
}

void JitKernel::call(void **pointers) const {
  // The packed entry takes the address of each (pointer) argument.
  llvm::SmallVector<void *, 8> slots;
  for (unsigned i = 0, e = argumentTypes.size(); i < e; ++i)
    slots.push_back(&pointers[i]);
  entry(slots.data());
}

llvm::Error JitKernel::run(llvm::MutableArrayRef<HostBuffer> args) {
  if (args.size() != argumentTypes.size())
    return llvm::createStringError("the kernel takes %zu arguments, got %zu",
                                   argumentTypes.size(), args.size());
  llvm::SmallVector<void *, 8> pointers;
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (arg.getType() != argumentTypes[i])
      return llvm::createStringError(
          "argument %zu ('%s') is %s, the kernel expects %s", i,
          arg.getName().c_str(), stringifyScalarType(arg.getType()).str().c_str(),
          stringifyScalarType(argumentTypes[i]).str().c_str());
    pointers.push_back(arg.data());
  }
  call(pointers.data());
  return llvm::Error::success();
}
