//===- SnitchAssembly.cpp - snitch functions to RISC-V assembly ----------===//
//
// One line per ISA-level op. Labels are printed as `.L<function>_<label>`
// so functions of one file never share a label; an instruction operand
// that names a label of its function is renamed the same way.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/SnitchAssembly/SnitchAssembly.h"
#include "perfdojo/Conversion/Passes.h"
#include "perfdojo/Dialect/Snitch/IR/Snitch.h"
#include "perfdojo/Dialect/Snitch/Transforms/Passes.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::snitch;

namespace {

class FunctionPrinter {
public:
  FunctionPrinter(FunctionOp function, llvm::raw_ostream &os)
      : function(function), os(os) {
    for (auto label : function.getBody().front().getOps<LabelOp>())
      labels.insert(label.getName());
  }

  LogicalResult print() {
    llvm::StringRef name = function.getSymName();
    os << "    .text\n    .globl " << name << "\n    .p2align 2\n    .type "
       << name << ",@function\n"
       << name << ":\n";
    for (Operation &op : function.getBody().front())
      if (failed(printOp(op)))
        return failure();
    os << "    ret\n    .size " << name << ", .-" << name << "\n";
    return success();
  }

private:
  std::string labelName(llvm::StringRef label) {
    return (".L" + function.getSymName() + "_" + label).str();
  }

  LogicalResult printOp(Operation &op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
        .Case([&](LabelOp label) {
          os << labelName(label.getName()) << ":\n";
          return success();
        })
        .Case([&](InsnOp insn) {
          os << "    " << insn.getMnemonic();
          llvm::StringRef separator = " ";
          for (llvm::StringRef operand :
               insn.getOperands().getAsValueRange<StringAttr>()) {
            os << separator
               << (labels.contains(operand) ? labelName(operand)
                                            : operand.str());
            separator = ", ";
          }
          os << "\n";
          return success();
        })
        .Case([&](ScfgwiOp write) {
          // scfgwi rs1, imm12: I-type on CUSTOM-1, funct3 2, rd x0.
          os << "    .insn i 0x2b, 2, x0, " << write.getValue() << ", "
             << write.getWord() * 32 + write.getDm() << "    # scfgwi "
             << write.getValue() << ", word " << write.getWord() << ", dm "
             << write.getDm() << "\n";
          return success();
        })
        .Case([&](ScfgriOp read) {
          // scfgri rd, imm12: I-type on CUSTOM-1, funct3 1, rs1 x0.
          os << "    .insn i 0x2b, 1, " << read.getResult() << ", x0, "
             << read.getWord() * 32 + read.getDm() << "    # scfgri "
             << read.getResult() << ", word " << read.getWord() << ", dm "
             << read.getDm() << "\n";
          return success();
        })
        .Case([&](SsrEnableOp) {
          os << "    csrsi 0x7c0, 1    # enable SSR\n";
          return success();
        })
        .Case([&](SsrDisableOp) {
          os << "    csrci 0x7c0, 1    # disable SSR\n";
          return success();
        })
        .Case([&](FrepOOp frep) {
          // frep.o rs1, N, smax, smask: I-type on CUSTOM-0, funct3 = the
          // stagger count, rd = {stagger mask, is_outer}, imm = N - 1.
          os << "    .insn i 0x0b, " << frep.getStaggerCount() << ", x"
             << 2 * frep.getStaggerMask() + 1 << ", " << frep.getMaxRep()
             << ", " << frep.getBody() - 1 << "    # frep.o "
             << frep.getMaxRep() << ", " << frep.getBody() << ", "
             << frep.getStaggerCount() << ", " << frep.getStaggerMask()
             << "\n";
          return success();
        })
        .Default([&](Operation *other) {
          return other->emitOpError()
                 << "is structured: run --snitch-lower-to-isa before "
                    "emitting assembly";
        });
  }

  FunctionOp function;
  llvm::raw_ostream &os;
  llvm::StringSet<> labels;
};

} // namespace

LogicalResult perfdojo::emitSnitchAssembly(Operation *root,
                                           llvm::raw_ostream &os) {
  SmallVector<FunctionOp> functions;
  if (auto function = dyn_cast<FunctionOp>(root))
    functions.push_back(function);
  else
    root->walk([&](FunctionOp function) { functions.push_back(function); });
  if (functions.empty())
    return root->emitError("no snitch.function to emit");
  for (FunctionOp function : functions)
    if (failed(FunctionPrinter(function, os).print()))
      return failure();
  return success();
}

LogicalResult perfdojo::lowerAndEmitSnitchAssembly(ModuleOp module,
                                                   llvm::raw_ostream &os) {
  PassManager pm(module.getContext());
  pm.addNestedPass<FunctionOp>(createSnitchLowerToIsaPass());
  if (failed(pm.run(module)))
    return failure();
  return emitSnitchAssembly(module, os);
}

LogicalResult perfdojo::emitKernelsAsSnitchAssembly(ModuleOp library,
                                                    llvm::raw_ostream &os) {
  PassManager pm(library.getContext());
  pm.addPass(createConvertDojoToSnitchPass());
  if (failed(pm.run(library)))
    return failure();
  return lowerAndEmitSnitchAssembly(library, os);
}

void perfdojo::registerSnitchTranslations() {
  registerCheckedTranslationFromMLIR(
      "snitch-to-asm",
      "Lower snitch functions to the ISA level and print them as RISC-V "
      "assembly for llvm-mc (rv32imafd, Xssr/Xfrep as .insn)",
      [](Operation *op, llvm::raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        return lowerAndEmitSnitchAssembly(module, os);
      },
      [](DialectRegistry &registry) { registry.insert<SnitchDialect>(); });
}
