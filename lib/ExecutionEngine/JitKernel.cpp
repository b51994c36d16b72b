//===- JitKernel.cpp - compile and call a dojo kernel in-process ----------===//

#include "perfdojo/ExecutionEngine/JitKernel.h"
#include "perfdojo/Target/LLVM/CodeGen.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <chrono>

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

JitKernel::~JitKernel() = default;

llvm::Expected<std::unique_ptr<JitKernel>>
JitKernel::compile(dojo::KernelOp kernel, const JitOptions &options) {
  std::unique_ptr<JitKernel> jit(new JitKernel());
  for (dojo::BufferOp buffer : kernel.getBuffers()) {
    if (!buffer.isArgument())
      continue;
    std::optional<ScalarType> type = getScalarType(buffer.getElementType());
    if (!type) {
      std::string typeName;
      llvm::raw_string_ostream(typeName) << buffer.getElementType();
      return llvm::createStringError(
          "argument '%s' has element type %s; the JIT runner passes f32 and "
          "f64 buffers",
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
