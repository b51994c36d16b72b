//===- OutlineKernels.cpp - converted ops become calls to their kernels ---===//
//
// The way back out of the dojo dialect for a compiler that converted some of
// its linalg ops (LinalgToDojo.cpp): the kernels, optimized in between, are
// lowered to functions and each converted op becomes a call, so the rest of
// the compiler's pipeline never sees a dojo op.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Conversion/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace perfdojo {
#define GEN_PASS_DEF_DOJOOUTLINEKERNELSPASS
#include "perfdojo/Conversion/Passes.h.inc"
} // namespace perfdojo

using namespace mlir;
using namespace perfdojo;

namespace {

class DojoOutlineKernelsPass
    : public perfdojo::impl::DojoOutlineKernelsPassBase<DojoOutlineKernelsPass> {
public:
  using DojoOutlineKernelsPassBase::DojoOutlineKernelsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The kernels' functions are the ones the lowering adds.
    llvm::SmallPtrSet<Operation *, 16> existing;
    for (func::FuncOp function : module.getOps<func::FuncOp>())
      existing.insert(function);
    OpPassManager lowering(ModuleOp::getOperationName());
    lowering.addPass(createConvertDojoToSCFPass());
    if (failed(runPipeline(lowering, module)))
      return signalPassFailure();
    if (approximateMath)
      for (func::FuncOp function : module.getOps<func::FuncOp>())
        if (!existing.contains(function) &&
            failed(perfdojo::approximateMath(function)))
          return signalPassFailure();

    SymbolTable symbols(module);
    SmallVector<Operation *> converted, folded;
    module.walk([&](Operation *op) {
      if (op->hasAttr(kOutlineAttrName))
        converted.push_back(op);
      else if (op->hasAttr(kFoldedIntoAttrName))
        folded.push_back(op);
    });
    for (Operation *op : converted)
      if (failed(replaceByCall(op, symbols)))
        return signalPassFailure();
    for (Operation *fill : folded)
      fill->erase();
  }

private:
  static LogicalResult replaceByCall(Operation *op, SymbolTable &symbols) {
    auto kernel = op->getAttrOfType<FlatSymbolRefAttr>(kOutlineAttrName);
    auto numbers = op->getAttrOfType<DenseI64ArrayAttr>(kOutlineOperandsAttrName);
    if (!kernel || !numbers)
      return op->emitError("'") << kOutlineAttrName << "' needs a symbol and '"
                                << kOutlineOperandsAttrName
                                << "' the operand numbers";
    auto callee = symbols.lookup<func::FuncOp>(kernel.getValue());
    if (!callee)
      return op->emitError("no kernel ") << kernel << " to call";
    SmallVector<Value> operands;
    for (int64_t number : numbers.asArrayRef()) {
      if (number < 0 || number >= op->getNumOperands())
        return op->emitError("'") << kOutlineOperandsAttrName
                                  << "' names operand " << number
                                  << " of an op with " << op->getNumOperands();
      operands.push_back(op->getOperand(number));
    }
    if (TypeRange(ValueRange(operands)) != callee.getFunctionType().getInputs())
      return op->emitError("kernel ")
             << kernel << " takes " << callee.getFunctionType().getInputs()
             << " but the op provides " << TypeRange(ValueRange(operands))
             << " (did a move change an argument buffer?)";
    OpBuilder builder(op);
    func::CallOp::create(builder, op->getLoc(), callee, operands);
    op->erase();
    return success();
  }
};

} // namespace
