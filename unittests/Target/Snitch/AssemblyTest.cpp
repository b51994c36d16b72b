//===- AssemblyTest.cpp - parsing Snitch assembly text --------------------===//

#include "SnitchTestSupport.h"

#include "perfdojo/Target/Snitch/Assembly.h"

#include "gtest/gtest.h"

using namespace perfdojo::snitch;
using namespace perfdojo::snitch::testing;

namespace {

Program parseOk(llvm::StringRef text) {
  llvm::Expected<Program> program = parseAssembly(text);
  if (!program) {
    ADD_FAILURE() << llvm::toString(program.takeError());
    return {};
  }
  return std::move(*program);
}

TEST(SnitchAssembly, LabelsCommentsAndDirectives) {
  Program program = parseOk(R"(
    .text
    .globl k            # a comment
    .p2align 2
    .type k,@function
k:  addi a0, a0, 1      # after an instruction
.Lloop: bnez a0, .Lloop
    .cfi_startproc
end:
    ret
    .size k, .-k
  )");
  ASSERT_EQ(program.instructions.size(), 3u);
  EXPECT_EQ(*program.lookupLabel("k"), 0u);
  EXPECT_EQ(*program.lookupLabel(".Lloop"), 1u);
  EXPECT_EQ(*program.lookupLabel("end"), 2u);
  EXPECT_FALSE(program.lookupLabel("missing"));
  const Instruction &addi = program.instructions[0];
  EXPECT_EQ(addi.getOpcode(), Opcode::Addi);
  EXPECT_EQ(addi.line, 6u);
  EXPECT_EQ(*addi.getRegister(RegisterSlot::Rd), 10u);
  EXPECT_EQ(addi.getImmediate(), 1);
  const Instruction &bne = program.instructions[1];
  EXPECT_EQ(bne.getOpcode(), Opcode::Bne);
  EXPECT_EQ(bne.operands[2].kind, OperandKind::Label);
  EXPECT_EQ(bne.operands[2].target, 1u);
}

TEST(SnitchAssembly, RegisterNames) {
  EXPECT_EQ(*parseIntegerRegister("zero"), 0u);
  EXPECT_EQ(*parseIntegerRegister("fp"), 8u);
  EXPECT_EQ(*parseIntegerRegister("s0"), 8u);
  EXPECT_EQ(*parseIntegerRegister("a7"), 17u);
  EXPECT_EQ(*parseIntegerRegister("s11"), 27u);
  EXPECT_EQ(*parseIntegerRegister("t6"), 31u);
  EXPECT_EQ(*parseIntegerRegister("x31"), 31u);
  EXPECT_FALSE(parseIntegerRegister("x32"));
  EXPECT_FALSE(parseIntegerRegister("ft0"));
  EXPECT_EQ(*parseFpRegister("ft0"), 0u);
  EXPECT_EQ(*parseFpRegister("fs1"), 9u);
  EXPECT_EQ(*parseFpRegister("fa0"), 10u);
  EXPECT_EQ(*parseFpRegister("fs2"), 18u);
  EXPECT_EQ(*parseFpRegister("ft11"), 31u);
  EXPECT_EQ(*parseFpRegister("f7"), 7u);
  EXPECT_FALSE(parseFpRegister("fp"));
  EXPECT_FALSE(parseFpRegister("a0"));
  EXPECT_EQ(getFpRegisterName(3), "ft3");
  EXPECT_EQ(getIntegerRegisterName(10), "a0");
}

TEST(SnitchAssembly, OperandForms) {
  Program program = parseOk(R"(
    lw t0, -4(sp)
    fld ft3, (a1)
    fsd fa0, 8(a2)
    fmadd.d ft3, ft0, ft1, ft3
    jalr ra, 4(t0)
    jalr t1
    jal helper
helper:
    li a0, 0x7ff
  )");
  ASSERT_EQ(program.instructions.size(), 8u);
  const Instruction &lw = program.instructions[0];
  EXPECT_EQ(lw.operands[1].kind, OperandKind::Memory);
  EXPECT_EQ(lw.operands[1].imm, -4);
  EXPECT_EQ(*lw.getRegister(RegisterSlot::Rs1), 2u);
  EXPECT_EQ(program.instructions[1].getImmediate(), 0);
  const Instruction &fsd = program.instructions[2];
  EXPECT_EQ(*fsd.getRegister(RegisterSlot::Rs2), 10u);
  const Instruction &fmadd = program.instructions[3];
  EXPECT_EQ(*fmadd.getRegister(RegisterSlot::Rs3), 3u);
  const Instruction &jalr = program.instructions[4];
  EXPECT_EQ(*jalr.getRegister(RegisterSlot::Rs1), 5u);
  EXPECT_EQ(jalr.getImmediate(), 4);
  EXPECT_EQ(*program.instructions[5].getRegister(RegisterSlot::Rd), 1u);
  EXPECT_EQ(*program.instructions[6].getRegister(RegisterSlot::Rd), 1u);
  EXPECT_EQ(program.instructions[6].operands[1].target, 7u);
}

TEST(SnitchAssembly, PseudoInstructionsExpand) {
  Program program = parseOk(R"(
    li a0, 0x12345fff
    li a1, -5
    li a2, 0x1000
    mv a3, a4
    not a3, a4
    neg a3, a4
    nop
    bgt a0, a1, done
    bleu a0, a1, done
    blez a0, done
    fmv.d fa0, fa1
    fneg.s fa0, fa1
    fabs.d fa0, fa1
done:
    ret
  )");
  std::vector<Opcode> opcodes;
  for (const Instruction &inst : program.instructions)
    opcodes.push_back(inst.getOpcode());
  std::vector<Opcode> expected = {
      Opcode::Lui,     Opcode::Addi,    Opcode::Addi, Opcode::Lui,
      Opcode::Addi,    Opcode::Xori,    Opcode::Sub,  Opcode::Addi,
      Opcode::Blt,     Opcode::Bgeu,    Opcode::Bge,  Opcode::FsgnjD,
      Opcode::FsgnjnS, Opcode::FsgnjxD, Opcode::Jalr};
  EXPECT_EQ(opcodes, expected);
  // 0x12345fff = (0x12346 << 12) - 1.
  EXPECT_EQ(program.instructions[0].getImmediate(), 0x12346);
  EXPECT_EQ(program.instructions[1].getImmediate(), -1);
  EXPECT_EQ(program.instructions[2].getImmediate(), -5);
  EXPECT_EQ(program.instructions[3].getImmediate(), 1); // li 0x1000: lui only
  // bgt a0, a1 -> blt a1, a0.
  EXPECT_EQ(*program.instructions[8].getRegister(RegisterSlot::Rs1), 11u);
  EXPECT_EQ(*program.instructions[8].getRegister(RegisterSlot::Rs2), 10u);
  // fmv.d fa0, fa1 -> fsgnj.d fa0, fa1, fa1.
  EXPECT_EQ(*program.instructions[11].getRegister(RegisterSlot::Rs2), 11u);
  // ret -> jalr zero, 0(ra).
  EXPECT_EQ(*program.instructions[14].getRegister(RegisterSlot::Rs1), 1u);
  EXPECT_EQ(*program.instructions[14].getRegister(RegisterSlot::Rd), 0u);
  for (const Instruction &inst : program.instructions)
    EXPECT_FALSE(inst.info->pseudo);
}

TEST(SnitchAssembly, InsnLinesDecodeToCustomInstructions) {
  Program program = parseOk(R"(
    .insn i 0x0b, 0, x1, t0, 3
    .insn i 0x0b, 3, x19, t0, 0
    .insn i CUSTOM_0, 2, x8, t0, 1
    .insn i 0x2b, 2, x0, a0, 768
    .insn i CUSTOM_1, 1, a0, x0, 0
    .insn r 0x2b, 2, 0, x1, t1, t0
    .insn r CUSTOM_1, 1, 0, t0, x1, t0
    frep.o t2, 4, 0, 0
    scfgwi a4, 64
  )");
  ASSERT_EQ(program.instructions.size(), 9u);
  auto imms = [&](size_t i) {
    std::vector<int64_t> values;
    for (const Operand &op : program.instructions[i].operands)
      values.push_back(op.kind == OperandKind::Immediate ? op.imm : -1);
    return values;
  };
  EXPECT_EQ(program.instructions[0].getOpcode(), Opcode::FrepO);
  EXPECT_EQ(imms(0), (std::vector<int64_t>{-1, 4, 0, 0}));
  EXPECT_EQ(program.instructions[1].getOpcode(), Opcode::FrepO);
  EXPECT_EQ(imms(1), (std::vector<int64_t>{-1, 1, 3, 9}));
  EXPECT_EQ(program.instructions[2].getOpcode(), Opcode::FrepI);
  EXPECT_EQ(imms(2), (std::vector<int64_t>{-1, 2, 2, 4}));
  EXPECT_EQ(program.instructions[3].getOpcode(), Opcode::Scfgwi);
  EXPECT_EQ(*program.instructions[3].getRegister(RegisterSlot::Rs1), 10u);
  EXPECT_EQ(program.instructions[3].getImmediate(), 768);
  EXPECT_EQ(program.instructions[4].getOpcode(), Opcode::Scfgri);
  EXPECT_EQ(*program.instructions[4].getRegister(RegisterSlot::Rd), 10u);
  EXPECT_EQ(program.instructions[5].getOpcode(), Opcode::Scfgw);
  EXPECT_EQ(*program.instructions[5].getRegister(RegisterSlot::Rs1), 6u);
  EXPECT_EQ(*program.instructions[5].getRegister(RegisterSlot::Rs2), 5u);
  EXPECT_EQ(program.instructions[6].getOpcode(), Opcode::Scfgr);
  EXPECT_EQ(*program.instructions[6].getRegister(RegisterSlot::Rd), 5u);
  EXPECT_EQ(*program.instructions[6].getRegister(RegisterSlot::Rs2), 5u);
  EXPECT_EQ(program.instructions[7].getOpcode(), Opcode::FrepO);
  EXPECT_EQ(program.instructions[8].getImmediate(), 64);
}

TEST(SnitchAssembly, ErrorsNameTheLine) {
  EXPECT_EQ(parseError("nop\n  foo a0, a1\n"),
            "line 2: unknown mnemonic 'foo'");
  EXPECT_EQ(parseError("addi a0, ft0, 1"),
            "line 1: operand 2 of 'addi': expected an integer register, got "
            "'ft0'");
  EXPECT_EQ(parseError("\n\nfadd.d fa0, fa1"),
            "line 3: 'fadd.d' takes 3 operands, got 2");
  EXPECT_EQ(parseError("lw a0, 4[a1]"),
            "line 1: operand 2 of 'lw': expected a memory operand "
            "'offset(register)', got '4[a1]'");
  EXPECT_EQ(parseError("nop\nj nowhere\n"), "line 2: unknown label 'nowhere'");
  EXPECT_EQ(parseError("a:\nnop\na: nop\n"),
            "line 3: duplicate label 'a' (first defined on line 1)");
  EXPECT_EQ(parseError("addi a0, a0, 4096"),
            "line 1: 'addi' immediate 4096 out of range [-2048, 2047]");
  EXPECT_EQ(parseError("slli a0, a0, 32"),
            "line 1: 'slli' shift amount 32 out of range [0, 31]");
  EXPECT_EQ(parseError("csrsi 0x7c0, 32"),
            "line 1: 'csrsi' immediate 32 out of range [0, 31]");
  EXPECT_EQ(parseError("frep.o t0, 1, 8, 0"),
            "line 1: 'frep.o' stagger count 8 out of range [0, 7]");
  EXPECT_EQ(parseError("  .data\n"), "line 1: unsupported directive '.data'");
  EXPECT_EQ(parseError("addi a0, a0, abc"),
            "line 1: operand 3 of 'addi': expected an integer, got 'abc'");
}

TEST(SnitchAssembly, OnlySnitchInsnLinesAreAccepted) {
  for (const char *line :
       {".insn i 0x13, 0, a0, a0, 1",     // OP-IMM: not a Snitch instruction
        ".insn r 0x2b, 0, 2, a2, a0, x2", // DMCPYI: Xdma is not modelled
        ".insn i 0x2b, 2, a0, a0, 64",    // scfgwi needs rd = x0
        ".insn r 0x2b, 2, 0, x2, t1, t0", // scfgw needs rd = x1
        ".insn i 0x0b, 0, x1, t0, -1",    // negative FREP count
        ".insn 4, 0x0000152b",            // raw words are not decoded
        ".insn i 0x2b, 2, x0, a0"})       // missing field
    EXPECT_EQ(parseError(std::string("nop\n") + line).rfind("line 2: ", 0), 0u)
        << line;
}

TEST(SnitchAssembly, CalibrationKernelsParse) {
  for (const char *name : {"loop", "frep1", "frep4"}) {
    std::string path =
        std::string("test/Target/Snitch/Inputs/ddot-") + name + ".s";
    llvm::Expected<Program> program = parseAssemblyFile(path);
    ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
    EXPECT_TRUE(program->lookupLabel("ddot")) << path;
  }
  llvm::Expected<Program> missing = parseAssemblyFile("no/such/file.s");
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("no/such/file.s"),
            std::string::npos);
}

} // namespace
