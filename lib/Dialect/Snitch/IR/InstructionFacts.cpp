//===- InstructionFacts.cpp - what a snitch.insn does ---------------------===//

#include "perfdojo/Dialect/Snitch/IR/InstructionFacts.h"
#include "perfdojo/Target/Snitch/Assembly.h"
#include "perfdojo/Target/Snitch/Instructions.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::snitch;

bool snitch::isIntegerRegisterName(llvm::StringRef name) {
  return parseIntegerRegister(name).has_value();
}

bool snitch::isFloatRegisterName(llvm::StringRef name) {
  return parseFpRegister(name).has_value();
}

std::optional<std::string> snitch::findOperandError(InsnOp insn) {
  llvm::StringRef mnemonic = insn.getMnemonic();
  const InstructionInfo *info = lookupInstruction(mnemonic);
  if (!info)
    return ("unknown instruction '" + mnemonic + "'").str();
  switch (info->unit) {
  case UnitClass::StreamConfig:
    return ("'" + mnemonic +
            "' has its own operation: use snitch.scfgwi or snitch.scfgri")
        .str();
  case UnitClass::Frep:
    return ("'" + mnemonic + "' has its own operation: use snitch.frep_o")
        .str();
  case UnitClass::Csr:
    return ("'" + mnemonic +
            "' has its own operation: use snitch.ssr_enable or "
            "snitch.ssr_disable")
        .str();
  default:
    break;
  }
  auto operands = insn.getOperands().getAsValueRange<StringAttr>();
  size_t count = llvm::range_size(operands);
  if (count != info->operands.size())
    return ("'" + mnemonic + "' takes " + llvm::Twine(info->operands.size()) +
            " operands, got " + llvm::Twine(count))
        .str();
  for (auto [position, operand, spec] :
       llvm::enumerate(operands, info->operands)) {
    // The assembler's own reading of the operand (Assembly.h).
    if (parseOperandText(operand, spec.kind))
      continue;
    return ("operand " + llvm::Twine(position + 1) + " of '" + mnemonic +
            "' must be " + describeOperandKind(spec.kind) + ", got '" +
            operand + "'")
        .str();
  }
  return std::nullopt;
}

RegisterUses snitch::getRegisterUses(InsnOp insn) {
  RegisterUses uses;
  const InstructionInfo *info = lookupInstruction(insn.getMnemonic());
  if (!info)
    return uses;
  uses.isMemoryAccess = info->isMemoryAccess();
  for (auto [operand, spec] :
       llvm::zip(insn.getOperands().getAsValueRange<StringAttr>(),
                 info->operands)) {
    if (spec.kind != OperandKind::FpRegister)
      continue;
    if (spec.slot == RegisterSlot::Rd)
      uses.floatWrites.push_back(operand);
    else
      uses.floatReads.push_back(operand);
  }
  return uses;
}

llvm::SmallVector<llvm::StringRef, 1> snitch::getLabelOperands(InsnOp insn) {
  llvm::SmallVector<llvm::StringRef, 1> labels;
  const InstructionInfo *info = lookupInstruction(insn.getMnemonic());
  if (!info)
    return labels;
  for (auto [operand, spec] :
       llvm::zip(insn.getOperands().getAsValueRange<StringAttr>(),
                 info->operands))
    if (spec.kind == OperandKind::Label)
      labels.push_back(operand);
  return labels;
}

std::optional<std::string> snitch::findFrepObstacle(InsnOp insn) {
  const InstructionInfo *info = lookupInstruction(insn.getMnemonic());
  if (!info)
    return std::string("it is no known instruction");
  if (!info->fpSubsystem)
    return std::string("it is not executed by the FP subsystem");
  if (info->directPath)
    return std::string(
        "it exchanges data with the integer core (direct path)");
  if (info->isMemoryAccess())
    return std::string(
        "the sequencer replays loads and stores at one address");
  return std::nullopt;
}
