//===- Assembly.cpp - parse Snitch assembly text --------------------------===//
//
// A line-oriented parser: labels, then one statement (an instruction, an
// ignored layout directive, or a `.insn` line). Operands are parsed against
// the instruction table's operand lists, immediates are range-checked against
// their RISC-V encoding fields, pseudo-instructions are expanded, and label
// references are resolved once the whole text is read.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Target/Snitch/Assembly.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>

using namespace perfdojo::snitch;
using llvm::StringRef;
using llvm::Twine;

namespace {
const llvm::StringLiteral kIntegerNames[32] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
const llvm::StringLiteral kFpNames[32] = {
    "ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",
    "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
    "fa6", "fa7", "fs2",  "fs3",  "fs4", "fs5", "fs6",  "fs7",
    "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

/// An inclusive range an immediate must lie in. These are the widths of
/// RISC-V encoding fields, not Snitch hardware parameters (the model checks
/// those against SnitchCore).
struct Range {
  int64_t lo, hi;
};
constexpr Range kSimm12{-2048, 2047};
constexpr Range kShamt{0, 31};
constexpr Range kUimm20{0, 0xfffff};
constexpr Range kCsrNumber{0, 4095};
constexpr Range kUimm5{0, 31};
/// `li` takes any value that fits 32 bits, signed or unsigned.
constexpr Range kLiValue{INT32_MIN, UINT32_MAX};
/// frep encodes the instruction count N as N-1 in a simm12 whose sign bit
/// the classic sequencer reuses (snitch-target.md §3.2).
constexpr Range kFrepCount{1, 2048};
constexpr Range kStaggerCount{0, 7}; ///< the 3-bit funct3 field
constexpr Range kStaggerMask{0, 15}; ///< the 4-bit half of the rd field
/// scfg immediates: `word << 5 | dm`, a non-negative simm12.
constexpr Range kScfgAddress{0, 2047};
constexpr Range kFunct3{0, 7};
constexpr Range kFunct7{0, 127};

/// The two custom major opcodes the Snitch extensions use (§4).
constexpr int64_t kCustom0 = 0x0b;
constexpr int64_t kCustom1 = 0x2b;
/// Register field values with a fixed meaning in the scfg encodings.
constexpr unsigned kZeroRegister = 0;
constexpr unsigned kReturnAddressRegister = 1;

const char *const kIgnoredDirectives[] = {
    ".text",  ".globl",     ".global",  ".p2align", ".align",
    ".type",  ".size",      ".section", ".option",  ".file",
    ".ident", ".attribute", ".addrsig"};

llvm::Error lineError(unsigned line, const Twine &message) {
  return llvm::make_error<llvm::StringError>(
      ("line " + Twine(line) + ": " + message).str(),
      llvm::inconvertibleErrorCode());
}

bool isIdentifierStart(char c) {
  return llvm::isAlpha(c) || c == '_' || c == '.' || c == '$';
}
bool isIdentifierChar(char c) {
  return isIdentifierStart(c) || llvm::isDigit(c);
}

bool isIdentifier(StringRef text) {
  return !text.empty() && isIdentifierStart(text.front()) &&
         llvm::all_of(text, isIdentifierChar);
}

std::optional<int64_t> parseInteger(StringRef text) {
  int64_t value;
  // getAsInteger understands a sign and the 0x/0b/0 radix prefixes.
  if (text.empty() || text.getAsInteger(0, value))
    return std::nullopt;
  return value;
}

/// The first whitespace-separated word of `text` and the trimmed rest.
std::pair<StringRef, StringRef> splitFirstWord(StringRef text) {
  StringRef word = text.take_until([](char c) { return llvm::isSpace(c); });
  return {word, text.drop_front(word.size()).trim()};
}

/// Splits the operand text at commas; an empty text has no operands.
llvm::SmallVector<StringRef, 6> splitOperands(StringRef text) {
  llvm::SmallVector<StringRef, 6> parts;
  if (text.trim().empty())
    return parts;
  text.split(parts, ',');
  for (StringRef &part : parts)
    part = part.trim();
  return parts;
}

class Parser {
public:
  llvm::Expected<Program> run(StringRef text);

private:
  llvm::Error parseLine(StringRef text);
  llvm::Error parseInstruction(const InstructionInfo &info, StringRef rest);
  llvm::Error parseInsn(StringRef rest);
  llvm::Expected<Operand> parseOperand(StringRef text, OperandKind kind,
                                       StringRef mnemonic, unsigned index);
  llvm::Error checkRange(int64_t value, Range range, StringRef mnemonic,
                         StringRef what);
  llvm::Error checkImmediates(const InstructionInfo &info,
                              llvm::ArrayRef<Operand> ops);
  void expandAndEmit(Opcode opcode, llvm::ArrayRef<Operand> ops);
  void emit(Opcode opcode, llvm::ArrayRef<Operand> ops);
  llvm::Error resolveLabels();

  Program program;
  llvm::StringMap<unsigned> labelLines;
  unsigned line = 0;
};
} // namespace

Operand Operand::integerRegister(unsigned reg) {
  Operand op;
  op.kind = OperandKind::IntegerRegister;
  op.reg = reg;
  return op;
}

Operand Operand::fpRegister(unsigned reg) {
  Operand op;
  op.kind = OperandKind::FpRegister;
  op.reg = reg;
  return op;
}

Operand Operand::immediate(int64_t value) {
  Operand op;
  op.kind = OperandKind::Immediate;
  op.imm = value;
  return op;
}

Operand Operand::memory(int64_t offset, unsigned base) {
  Operand op;
  op.kind = OperandKind::Memory;
  op.reg = base;
  op.imm = offset;
  return op;
}

Operand Operand::labelRef(StringRef name) {
  Operand op;
  op.kind = OperandKind::Label;
  op.label = name.str();
  return op;
}

std::optional<unsigned> Instruction::getRegister(RegisterSlot slot) const {
  for (auto [spec, op] : llvm::zip(info->operands, operands))
    if (spec.slot == slot)
      return op.reg;
  return std::nullopt;
}

int64_t Instruction::getImmediate() const {
  for (const Operand &op : operands)
    if (op.kind == OperandKind::Immediate || op.kind == OperandKind::Memory)
      return op.imm;
  return 0;
}

std::optional<size_t> Program::lookupLabel(StringRef name) const {
  auto it = labels.find(name);
  if (it == labels.end())
    return std::nullopt;
  return it->second;
}

std::optional<unsigned> perfdojo::snitch::parseIntegerRegister(StringRef name) {
  unsigned number;
  StringRef digits = name;
  if (digits.consume_front("x") && !digits.empty() &&
      llvm::isDigit(digits.front()) && !digits.getAsInteger(10, number) &&
      number < 32)
    return number;
  if (name == "fp")
    return 8;
  for (unsigned i = 0; i < 32; ++i)
    if (name == kIntegerNames[i])
      return i;
  return std::nullopt;
}

std::optional<unsigned> perfdojo::snitch::parseFpRegister(StringRef name) {
  unsigned number;
  StringRef digits = name;
  if (digits.consume_front("f") && !digits.empty() &&
      llvm::isDigit(digits.front()) && !digits.getAsInteger(10, number) &&
      number < 32)
    return number;
  for (unsigned i = 0; i < 32; ++i)
    if (name == kFpNames[i])
      return i;
  return std::nullopt;
}

StringRef perfdojo::snitch::getIntegerRegisterName(unsigned reg) {
  return reg < 32 ? StringRef(kIntegerNames[reg]) : StringRef("x?");
}

StringRef perfdojo::snitch::getFpRegisterName(unsigned reg) {
  return reg < 32 ? StringRef(kFpNames[reg]) : StringRef("f?");
}

llvm::Expected<Program> Parser::run(StringRef text) {
  llvm::SmallVector<StringRef, 0> lines;
  text.split(lines, '\n');
  for (StringRef lineText : lines) {
    ++line;
    if (llvm::Error err = parseLine(lineText))
      return std::move(err);
  }
  if (llvm::Error err = resolveLabels())
    return std::move(err);
  return std::move(program);
}

llvm::Error Parser::parseLine(StringRef text) {
  text = text.take_until([](char c) { return c == '#'; }).trim();
  // Leading `name:` labels, possibly followed by a statement.
  while (!text.empty() && isIdentifierStart(text.front())) {
    size_t end = 1;
    while (end < text.size() && isIdentifierChar(text[end]))
      ++end;
    if (end >= text.size() || text[end] != ':')
      break;
    StringRef name = text.take_front(end);
    auto [it, inserted] = labelLines.try_emplace(name, line);
    if (!inserted)
      return lineError(line, "duplicate label '" + name +
                                 "' (first defined on line " +
                                 Twine(it->second) + ")");
    program.labels[name] = program.instructions.size();
    text = text.drop_front(end + 1).trim();
  }
  if (text.empty())
    return llvm::Error::success();

  auto [mnemonic, rest] = splitFirstWord(text);
  std::string lower = mnemonic.lower();

  if (lower.front() == '.') {
    if (lower == ".insn")
      return parseInsn(rest);
    if (llvm::is_contained(kIgnoredDirectives, lower) ||
        StringRef(lower).starts_with(".cfi_"))
      return llvm::Error::success();
    return lineError(line, "unsupported directive '" + mnemonic + "'");
  }
  const InstructionInfo *info = lookupInstruction(lower);
  if (!info)
    return lineError(line, "unknown mnemonic '" + mnemonic + "'");
  return parseInstruction(*info, rest);
}

std::optional<Operand> perfdojo::snitch::parseOperandText(StringRef text,
                                                         OperandKind kind) {
  switch (kind) {
  case OperandKind::IntegerRegister:
    if (auto reg = parseIntegerRegister(text.lower()))
      return Operand::integerRegister(*reg);
    return std::nullopt;
  case OperandKind::FpRegister:
    if (auto reg = parseFpRegister(text.lower()))
      return Operand::fpRegister(*reg);
    return std::nullopt;
  case OperandKind::Immediate:
    if (auto value = parseInteger(text))
      return Operand::immediate(*value);
    return std::nullopt;
  case OperandKind::Memory: {
    // `offset(base)` or `(base)`.
    size_t open = text.find('(');
    if (open == StringRef::npos || !text.ends_with(")"))
      return std::nullopt;
    StringRef offsetText = text.take_front(open).trim();
    StringRef baseText = text.slice(open + 1, text.size() - 1).trim();
    std::optional<int64_t> offset = offsetText.empty()
                                        ? std::optional<int64_t>(0)
                                        : parseInteger(offsetText);
    std::optional<unsigned> base = parseIntegerRegister(baseText.lower());
    if (!offset || !base)
      return std::nullopt;
    return Operand::memory(*offset, *base);
  }
  case OperandKind::Label:
    if (isIdentifier(text))
      return Operand::labelRef(text);
    return std::nullopt;
  }
  return std::nullopt;
}

llvm::StringRef perfdojo::snitch::describeOperandKind(OperandKind kind) {
  switch (kind) {
  case OperandKind::IntegerRegister:
    return "an integer register";
  case OperandKind::FpRegister:
    return "an FP register";
  case OperandKind::Immediate:
    return "an integer";
  case OperandKind::Memory:
    return "a memory operand 'offset(register)'";
  case OperandKind::Label:
    return "a label";
  }
  return "an operand";
}

llvm::Expected<Operand> Parser::parseOperand(StringRef text, OperandKind kind,
                                             StringRef mnemonic,
                                             unsigned index) {
  if (std::optional<Operand> operand = parseOperandText(text, kind))
    return *operand;
  return lineError(line, "operand " + Twine(index + 1) + " of '" + mnemonic +
                             "': expected " + describeOperandKind(kind) +
                             ", got '" + text + "'");
}

llvm::Error Parser::checkRange(int64_t value, Range range, StringRef mnemonic,
                               StringRef what) {
  if (value >= range.lo && value <= range.hi)
    return llvm::Error::success();
  return lineError(line, "'" + mnemonic + "' " + what + " " + Twine(value) +
                             " out of range [" + Twine(range.lo) + ", " +
                             Twine(range.hi) + "]");
}

llvm::Error Parser::checkImmediates(const InstructionInfo &info,
                                    llvm::ArrayRef<Operand> ops) {
  StringRef name = info.mnemonic;
  switch (info.opcode) {
  case Opcode::Slli:
  case Opcode::Srli:
  case Opcode::Srai:
    return checkRange(ops[2].imm, kShamt, name, "shift amount");
  case Opcode::Lui:
  case Opcode::Auipc:
    return checkRange(ops[1].imm, kUimm20, name, "immediate");
  case Opcode::Li:
    return checkRange(ops[1].imm, kLiValue, name, "immediate");
  case Opcode::Csrsi:
  case Opcode::Csrci:
    if (llvm::Error err = checkRange(ops[0].imm, kCsrNumber, name, "CSR"))
      return err;
    return checkRange(ops[1].imm, kUimm5, name, "immediate");
  case Opcode::FrepO:
  case Opcode::FrepI:
    if (llvm::Error err =
            checkRange(ops[1].imm, kFrepCount, name, "instruction count"))
      return err;
    if (llvm::Error err =
            checkRange(ops[2].imm, kStaggerCount, name, "stagger count"))
      return err;
    return checkRange(ops[3].imm, kStaggerMask, name, "stagger mask");
  case Opcode::Scfgwi:
  case Opcode::Scfgri:
    return checkRange(ops[1].imm, kScfgAddress, name, "configuration address");
  default:
    break;
  }
  // Every other immediate or memory offset is a signed 12-bit field.
  for (const Operand &op : ops)
    if (op.kind == OperandKind::Immediate || op.kind == OperandKind::Memory)
      if (llvm::Error err = checkRange(op.imm, kSimm12, name, "immediate"))
        return err;
  return llvm::Error::success();
}

llvm::Error Parser::parseInstruction(const InstructionInfo &info,
                                     StringRef rest) {
  llvm::SmallVector<StringRef, 6> texts = splitOperands(rest);
  llvm::SmallVector<Operand, 4> ops;
  // The short forms `jal label`, `jalr rs` and `jalr rd, offset(rs)`.
  if (info.opcode == Opcode::Jal && texts.size() == 1)
    ops.push_back(Operand::integerRegister(kReturnAddressRegister));
  if (info.opcode == Opcode::Jalr && texts.size() == 1) {
    auto rs =
        parseOperand(texts[0], OperandKind::IntegerRegister, info.mnemonic, 0);
    if (!rs)
      return rs.takeError();
    Operand ops3[] = {Operand::integerRegister(kReturnAddressRegister), *rs,
                      Operand::immediate(0)};
    emit(Opcode::Jalr, ops3);
    return llvm::Error::success();
  }
  if (info.opcode == Opcode::Jalr && texts.size() == 2 &&
      texts[1].contains('(')) {
    auto rd =
        parseOperand(texts[0], OperandKind::IntegerRegister, info.mnemonic, 0);
    if (!rd)
      return rd.takeError();
    auto mem = parseOperand(texts[1], OperandKind::Memory, info.mnemonic, 1);
    if (!mem)
      return mem.takeError();
    Operand ops3[] = {*rd, Operand::integerRegister(mem->reg),
                      Operand::immediate(mem->imm)};
    if (llvm::Error err = checkImmediates(info, ops3))
      return err;
    emit(Opcode::Jalr, ops3);
    return llvm::Error::success();
  }

  size_t expected = info.operands.size() - ops.size();
  if (texts.size() != expected)
    return lineError(line, "'" + info.mnemonic + "' takes " +
                               Twine(info.operands.size()) + " operands, got " +
                               Twine(texts.size()));
  for (StringRef text : texts) {
    unsigned position = ops.size();
    auto op = parseOperand(text, info.operands[position].kind, info.mnemonic,
                           position);
    if (!op)
      return op.takeError();
    ops.push_back(std::move(*op));
  }
  if (llvm::Error err = checkImmediates(info, ops))
    return err;
  expandAndEmit(info.opcode, ops);
  return llvm::Error::success();
}

void Parser::emit(Opcode opcode, llvm::ArrayRef<Operand> ops) {
  Instruction inst;
  inst.info = &getInstructionInfo(opcode);
  inst.operands.assign(ops.begin(), ops.end());
  inst.line = line;
  program.instructions.push_back(std::move(inst));
}

void Parser::expandAndEmit(Opcode opcode, llvm::ArrayRef<Operand> ops) {
  using O = Opcode;
  const Operand zero = Operand::integerRegister(kZeroRegister);
  const Operand ra = Operand::integerRegister(kReturnAddressRegister);
  auto imm = [](int64_t value) { return Operand::immediate(value); };
  auto emit2 = [&](O op, Operand a, Operand b) {
    Operand list[] = {a, b};
    emit(op, list);
  };
  auto emit3 = [&](O op, Operand a, Operand b, Operand c) {
    Operand list[] = {a, b, c};
    emit(op, list);
  };
  switch (opcode) {
  case O::Li: {
    // As the assembler does: one addi when the value fits 12 bits, else lui
    // of the rounded upper part plus addi of the signed low part.
    int64_t value = ops[1].imm;
    if (value >= kSimm12.lo && value <= kSimm12.hi)
      return emit3(O::Addi, ops[0], zero, imm(value));
    uint32_t bits = static_cast<uint32_t>(value);
    int64_t low = static_cast<int64_t>(bits & 0xfff);
    if (low >= 2048)
      low -= 4096;
    int64_t high = ((static_cast<int64_t>(bits) - low) >> 12) & 0xfffff;
    emit2(O::Lui, ops[0], imm(high));
    if (low != 0)
      emit3(O::Addi, ops[0], ops[0], imm(low));
    return;
  }
  case O::Mv:
    return emit3(O::Addi, ops[0], ops[1], imm(0));
  case O::Not:
    return emit3(O::Xori, ops[0], ops[1], imm(-1));
  case O::Neg:
    return emit3(O::Sub, ops[0], zero, ops[1]);
  case O::Nop:
    return emit3(O::Addi, zero, zero, imm(0));
  case O::J:
    return emit2(O::Jal, zero, ops[0]);
  case O::Jr:
    return emit3(O::Jalr, zero, ops[0], imm(0));
  case O::Ret:
    return emit3(O::Jalr, zero, ra, imm(0));
  case O::Beqz:
    return emit3(O::Beq, ops[0], zero, ops[1]);
  case O::Bnez:
    return emit3(O::Bne, ops[0], zero, ops[1]);
  case O::Blez:
    return emit3(O::Bge, zero, ops[0], ops[1]);
  case O::Bgez:
    return emit3(O::Bge, ops[0], zero, ops[1]);
  case O::Bltz:
    return emit3(O::Blt, ops[0], zero, ops[1]);
  case O::Bgtz:
    return emit3(O::Blt, zero, ops[0], ops[1]);
  case O::Bgt:
    return emit3(O::Blt, ops[1], ops[0], ops[2]);
  case O::Ble:
    return emit3(O::Bge, ops[1], ops[0], ops[2]);
  case O::Bgtu:
    return emit3(O::Bltu, ops[1], ops[0], ops[2]);
  case O::Bleu:
    return emit3(O::Bgeu, ops[1], ops[0], ops[2]);
  case O::FmvS:
    return emit3(O::FsgnjS, ops[0], ops[1], ops[1]);
  case O::FmvD:
    return emit3(O::FsgnjD, ops[0], ops[1], ops[1]);
  case O::FnegS:
    return emit3(O::FsgnjnS, ops[0], ops[1], ops[1]);
  case O::FnegD:
    return emit3(O::FsgnjnD, ops[0], ops[1], ops[1]);
  case O::FabsS:
    return emit3(O::FsgnjxS, ops[0], ops[1], ops[1]);
  case O::FabsD:
    return emit3(O::FsgnjxD, ops[0], ops[1], ops[1]);
  default:
    return emit(opcode, ops);
  }
}

llvm::Error Parser::parseInsn(StringRef rest) {
  auto unsupported = [&](const Twine &why) {
    return lineError(line, "unsupported .insn '" + rest + "': " + why);
  };
  auto [format, argText] = splitFirstWord(rest);
  llvm::SmallVector<StringRef, 6> args = splitOperands(argText);
  bool isI = format.equals_insensitive("i");
  bool isR = format.equals_insensitive("r");
  if (!isI && !isR)
    return unsupported("only the i and r formats of the Snitch custom "
                       "instructions are known");
  if (args.size() != (isI ? 5u : 6u))
    return unsupported("expected " + Twine(isI ? 5 : 6) + " fields");

  std::optional<int64_t> opcode;
  if (args[0].equals_insensitive("CUSTOM_0"))
    opcode = kCustom0;
  else if (args[0].equals_insensitive("CUSTOM_1"))
    opcode = kCustom1;
  else
    opcode = parseInteger(args[0]);
  if (!opcode || (*opcode != kCustom0 && *opcode != kCustom1))
    return unsupported("opcode '" + args[0] +
                       "' is neither CUSTOM_0 (0x0b) nor CUSTOM_1 (0x2b)");
  std::optional<int64_t> funct3 = parseInteger(args[1]);
  if (!funct3 || *funct3 < kFunct3.lo || *funct3 > kFunct3.hi)
    return unsupported("bad funct3 '" + args[1] + "'");

  auto reg = [&](StringRef text) { return parseIntegerRegister(text.lower()); };
  if (isI) {
    std::optional<unsigned> rd = reg(args[2]), rs1 = reg(args[3]);
    std::optional<int64_t> immValue = parseInteger(args[4]);
    if (!rd || !rs1 || !immValue)
      return unsupported("expected 'opcode, funct3, rd, rs1, imm'");
    if (llvm::Error err = checkRange(*immValue, kSimm12, ".insn", "immediate"))
      return err;
    if (*opcode == kCustom0) {
      // rd carries {stagger_mask, is_outer}, funct3 the stagger count, and
      // the immediate the instruction count minus one (§3.2, §4).
      bool isOuter = *rd & 1;
      int64_t mask = *rd >> 1;
      if (*immValue < 0)
        return unsupported("negative FREP instruction count");
      Operand ops[] = {Operand::integerRegister(*rs1),
                       Operand::immediate(*immValue + 1),
                       Operand::immediate(*funct3), Operand::immediate(mask)};
      emit(isOuter ? Opcode::FrepO : Opcode::FrepI, ops);
      return llvm::Error::success();
    }
    if (*immValue < 0)
      return unsupported("negative SSR configuration address");
    if (*funct3 == 2 && *rd == kZeroRegister) {
      Operand ops[] = {Operand::integerRegister(*rs1),
                       Operand::immediate(*immValue)};
      emit(Opcode::Scfgwi, ops);
      return llvm::Error::success();
    }
    if (*funct3 == 1 && *rs1 == kZeroRegister) {
      Operand ops[] = {Operand::integerRegister(*rd),
                       Operand::immediate(*immValue)};
      emit(Opcode::Scfgri, ops);
      return llvm::Error::success();
    }
    return unsupported("not scfgwi (funct3 2, rd x0) or scfgri (funct3 1, "
                       "rs1 x0)");
  }

  std::optional<int64_t> funct7 = parseInteger(args[2]);
  std::optional<unsigned> rd = reg(args[3]), rs1 = reg(args[4]),
                          rs2 = reg(args[5]);
  if (!funct7 || *funct7 < kFunct7.lo || *funct7 > kFunct7.hi || !rd || !rs1 ||
      !rs2)
    return unsupported("expected 'opcode, funct3, funct7, rd, rs1, rs2'");
  if (*opcode != kCustom1)
    return unsupported("no R-type instruction on CUSTOM_0");
  if (*funct3 == 0)
    return unsupported("the Xdma instructions are not modelled");
  if (*funct7 == 0 && *funct3 == 2 && *rd == kReturnAddressRegister) {
    Operand ops[] = {Operand::integerRegister(*rs1),
                     Operand::integerRegister(*rs2)};
    emit(Opcode::Scfgw, ops);
    return llvm::Error::success();
  }
  if (*funct7 == 0 && *funct3 == 1 && *rs1 == kReturnAddressRegister) {
    Operand ops[] = {Operand::integerRegister(*rd),
                     Operand::integerRegister(*rs2)};
    emit(Opcode::Scfgr, ops);
    return llvm::Error::success();
  }
  return unsupported("not scfgw (funct3 2, rd x1) or scfgr (funct3 1, "
                     "rs1 x1)");
}

llvm::Error Parser::resolveLabels() {
  for (Instruction &inst : program.instructions) {
    for (Operand &op : inst.operands) {
      if (op.kind != OperandKind::Label)
        continue;
      std::optional<size_t> target = program.lookupLabel(op.label);
      if (!target)
        return lineError(inst.line, "unknown label '" + op.label + "'");
      op.target = *target;
    }
  }
  return llvm::Error::success();
}

llvm::Expected<Program> perfdojo::snitch::parseAssembly(StringRef text) {
  return Parser().run(text);
}

llvm::Expected<Program> perfdojo::snitch::parseAssemblyFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::make_error<llvm::StringError>(
        ("cannot read '" + path + "': " + buffer.getError().message()).str(),
        llvm::inconvertibleErrorCode());
  return parseAssembly((*buffer)->getBuffer());
}
