//===- ModelSemanticsTest.cpp - what the Snitch model computes ------------===//
//
// Integer, M, branch, F/D and memory semantics, and the run-level errors.
//
//===----------------------------------------------------------------------===//

#include "SnitchTestSupport.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace perfdojo::snitch;
using namespace perfdojo::snitch::testing;

namespace {

class SnitchModelSemantics : public ::testing::Test {
protected:
  SnitchCore core = SnitchCore::getDefault();
  Tcdm tcdm{core};
  uint32_t base() const { return tcdm.getBase(); }

  RunResult run(llvm::StringRef text, llvm::ArrayRef<uint32_t> args = {}) {
    return runOk(text, args, tcdm, core);
  }
  std::string fail(llvm::StringRef text, llvm::ArrayRef<uint32_t> args = {},
                   ModelOptions options = {}) {
    return runError(text, args, tcdm, core, options);
  }
  /// Stores doubles at TCDM offset `offset`.
  void putDoubles(uint32_t offset, llvm::ArrayRef<double> values) {
    ASSERT_FALSE(bool(tcdm.copyInArray(base() + offset, values)));
  }
};

constexpr unsigned a0 = 10, a1 = 11, a2 = 12, a3 = 13, a4 = 14, a5 = 15;
constexpr unsigned fa0 = 10, fa1 = 11, fa2 = 12;

TEST_F(SnitchModelSemantics, IntegerAlu) {
  RunResult r = run(R"(
k:  li   t0, -8
    li   t1, 3
    add  a0, t0, t1       # -5
    sub  a1, t1, t0       # 11
    sra  a2, t0, t1       # -1
    srl  a3, t0, t1       # 0x1fffffff
    sll  a4, t1, t1       # 24
    slt  a5, t0, t1       # 1
    sltu a6, t0, t1       # 0 (-8 is huge unsigned)
    xori a7, t1, -1       # ~3
    andi s2, t0, 0xf      # 8
    ori  s3, t1, 0x10     # 19
    slti s4, t0, -7       # 1
    sltiu s5, t1, -1      # 1 (3 < 0xffffffff)
    srai s6, t0, 2        # -2
    srli s7, t0, 28       # 0xf
    slli s8, t1, 4        # 48
    lui  s9, 0xfffff      # 0xfffff000
    addi zero, zero, 5    # x0 stays 0
    or   s10, zero, t1
    and  s11, t0, t1      # 0
    ret
  )");
  auto &x = r.integerRegisters;
  EXPECT_EQ(int32_t(x[a0]), -5);
  EXPECT_EQ(x[a1], 11u);
  EXPECT_EQ(int32_t(x[a2]), -1);
  EXPECT_EQ(x[a3], 0x1fffffffu);
  EXPECT_EQ(x[a4], 24u);
  EXPECT_EQ(x[a5], 1u);
  EXPECT_EQ(x[16], 0u);
  EXPECT_EQ(x[17], ~3u);
  EXPECT_EQ(x[18], 8u);
  EXPECT_EQ(x[19], 19u);
  EXPECT_EQ(x[20], 1u);
  EXPECT_EQ(x[21], 1u);
  EXPECT_EQ(int32_t(x[22]), -2);
  EXPECT_EQ(x[23], 0xfu);
  EXPECT_EQ(x[24], 48u);
  EXPECT_EQ(x[25], 0xfffff000u);
  EXPECT_EQ(x[0], 0u);
  EXPECT_EQ(x[26], 3u);
  EXPECT_EQ(x[27], 0u);
  EXPECT_EQ(r.integerInstructionsIssued, 22u);
}

TEST_F(SnitchModelSemantics, MultiplyAndDivide) {
  RunResult r = run(R"(
k:  li    t0, -7
    li    t1, 2
    li    t2, 0x80000000
    li    t3, -1
    mul   a0, t0, t1      # -14
    mulh  a1, t2, t2      # (2^31)^2 >> 32 = 2^30
    mulhu a2, t3, t3      # 0xfffffffe
    mulhsu a3, t3, t3     # -1 * 0xffffffff >> 32 = -1
    div   a4, t0, t1      # -3 (rounds toward zero)
    rem   a5, t0, t1      # -1
    divu  a6, t0, zero    # all ones
    remu  a7, t0, zero    # dividend
    div   s2, t0, zero    # -1
    rem   s3, t0, zero    # dividend
    div   s4, t2, t3      # overflow: INT_MIN
    rem   s5, t2, t3      # 0
    divu  s6, t3, t1      # 0x7fffffff
    ret
  )");
  auto &x = r.integerRegisters;
  EXPECT_EQ(int32_t(x[a0]), -14);
  EXPECT_EQ(x[a1], 0x40000000u);
  EXPECT_EQ(x[a2], 0xfffffffeu);
  EXPECT_EQ(int32_t(x[a3]), -1);
  EXPECT_EQ(int32_t(x[a4]), -3);
  EXPECT_EQ(int32_t(x[a5]), -1);
  EXPECT_EQ(x[16], 0xffffffffu);
  EXPECT_EQ(int32_t(x[17]), -7);
  EXPECT_EQ(int32_t(x[18]), -1);
  EXPECT_EQ(int32_t(x[19]), -7);
  EXPECT_EQ(x[20], 0x80000000u);
  EXPECT_EQ(x[21], 0u);
  EXPECT_EQ(x[22], 0x7fffffffu);
}

TEST_F(SnitchModelSemantics, BranchesLoopsAndCalls) {
  // Sums 1..a0 with a loop, calls a helper that doubles it, and exercises
  // every branch condition.
  RunResult r = run(R"(
k:  mv    s0, ra
    li    t0, 0
loop:
    add   t0, t0, a0
    addi  a0, a0, -1
    bgtz  a0, loop
    mv    a0, t0
    jal   double
    li    a1, 0
    li    t1, -1
    li    t2, 1
    blt   t1, t2, skip1
    addi  a1, a1, 100      # skipped
skip1:
    bltu  t1, t2, bad      # unsigned: -1 is large, not taken
    bge   t2, t1, ok1
    j     bad
ok1:
    bgeu  t1, t2, ok2
    j     bad
ok2:
    beq   t1, t1, ok3
    j     bad
ok3:
    bne   t1, t2, ok4
    j     bad
ok4:
    bleu  t2, t1, ok5
    j     bad
ok5:
    bgt   t2, t1, ok6
    j     bad
ok6:
    ble   t1, t2, ok7
bad:
    li    a1, 1
ok7:
    mv    ra, s0
    ret
double:
    add   a0, a0, a0
    ret
  )",
                    {10});
  EXPECT_EQ(r.integerRegisters[a0], 110u);
  EXPECT_EQ(r.integerRegisters[a1], 0u);
}

TEST_F(SnitchModelSemantics, IntegerLoadsAndStores) {
  RunResult r = run(R"(
k:  li   t0, 0x8081f2f3
    sw   t0, 0(a0)
    lw   a1, 0(a0)
    lh   a2, 0(a0)      # 0xf2f3 sign-extended
    lhu  a3, 2(a0)      # 0x8081
    lb   a4, 3(a0)      # 0x80 sign-extended
    lbu  a5, 1(a0)      # 0xf2
    sh   t0, 4(a0)
    sb   t0, 7(a0)
    lw   a6, 4(a0)
    auipc a7, 1         # this instruction's address + 0x1000
    ret
  )",
                    {base()});
  auto &x = r.integerRegisters;
  EXPECT_EQ(x[a1], 0x8081f2f3u);
  EXPECT_EQ(x[a2], 0xfffff2f3u);
  EXPECT_EQ(x[a3], 0x8081u);
  EXPECT_EQ(x[a4], 0xffffff80u);
  EXPECT_EQ(x[a5], 0xf2u);
  EXPECT_EQ(x[16], 0xf300f2f3u);
  // li of a 32-bit value is two instructions, so auipc is instruction 11.
  EXPECT_EQ(x[17], core.memory.textBase + 11 * 4 + 0x1000);
}

TEST_F(SnitchModelSemantics, DoubleArithmetic) {
  putDoubles(0, {1.5, -2.0, 0.25, 9.0});
  RunResult r = run(R"(
k:  fld     ft3, 0(a0)
    fld     ft4, 8(a0)
    fld     ft5, 16(a0)
    fld     ft6, 24(a0)
    fadd.d  fa0, ft3, ft4       # -0.5
    fsub.d  fa1, ft3, ft4       # 3.5
    fmul.d  fa2, ft3, ft4       # -3
    fdiv.d  fa3, ft3, ft5       # 6
    fsqrt.d fa4, ft6            # 3
    fmadd.d fa5, ft3, ft4, ft5  # -2.75
    fmsub.d fa6, ft3, ft4, ft5  # -3.25
    fnmadd.d fa7, ft3, ft4, ft5 # 2.75
    fnmsub.d fs2, ft3, ft4, ft5 # 3.25
    fmin.d  fs3, ft3, ft4       # -2
    fmax.d  fs4, ft3, ft4       # 1.5
    fsgnj.d fs5, ft3, ft4       # -1.5
    fsgnjn.d fs6, ft4, ft4      # 2
    fsgnjx.d fs7, ft4, ft4      # 2
    fmv.d   fs8, ft4
    fneg.d  fs9, ft3
    fabs.d  fs10, ft4
    fsd     fa5, 32(a0)
    ret
  )",
                    {base()});
  auto f = [&](unsigned reg) { return asDouble(r.fpRegisters[reg]); };
  EXPECT_EQ(f(10), -0.5);
  EXPECT_EQ(f(11), 3.5);
  EXPECT_EQ(f(12), -3.0);
  EXPECT_EQ(f(13), 6.0);
  EXPECT_EQ(f(14), 3.0);
  EXPECT_EQ(f(15), -2.75);
  EXPECT_EQ(f(16), -3.25);
  EXPECT_EQ(f(17), 2.75);
  EXPECT_EQ(f(18), 3.25);
  EXPECT_EQ(f(19), -2.0);
  EXPECT_EQ(f(20), 1.5);
  EXPECT_EQ(f(21), -1.5);
  EXPECT_EQ(f(22), 2.0);
  EXPECT_EQ(f(23), 2.0);
  EXPECT_EQ(f(24), -2.0);
  EXPECT_EQ(f(25), -1.5);
  EXPECT_EQ(f(26), 2.0);
  EXPECT_EQ(*tcdm.read<double>(base() + 32), -2.75);
  // 9 FMA-class or div/sqrt instructions of 17 FPU instructions; 5 loads
  // and stores.
  EXPECT_EQ(r.fpArithmeticOps, 9u);
  EXPECT_EQ(r.fpInstructionsIssued, 17u);
  EXPECT_EQ(r.fpLoadStoresIssued, 5u);
  EXPECT_EQ(r.fpInstructionsOffloaded, 22u);
}

TEST_F(SnitchModelSemantics, FusedMultiplyAddRoundsOnce) {
  // a*b+c with a = b = 1 + 2^-30, c = -(1 + 2^-29): the product's 2^-60
  // term survives only if the add is fused.
  double a = 1.0 + std::ldexp(1.0, -30), c = -(1.0 + std::ldexp(1.0, -29));
  putDoubles(0, {a, c});
  RunResult r = run(R"(
k:  fld ft3, 0(a0)
    fld ft4, 8(a0)
    fmadd.d fa0, ft3, ft3, ft4
    ret
  )",
                    {base()});
  EXPECT_EQ(asDouble(r.fpRegisters[fa0]), std::ldexp(1.0, -60));
}

TEST_F(SnitchModelSemantics, SinglePrecisionIsNanBoxed) {
  ASSERT_FALSE(bool(tcdm.write<float>(base(), 1.5f)));
  ASSERT_FALSE(bool(tcdm.write<float>(base() + 4, 2.25f)));
  putDoubles(8, {1.0});
  RunResult r = run(R"(
k:  flw     ft3, 0(a0)
    flw     ft4, 4(a0)
    fadd.s  fa0, ft3, ft4     # 3.75, boxed
    fmadd.s fa1, ft3, ft4, ft3
    fld     ft5, 8(a0)        # a double is not a boxed f32
    fadd.s  fa2, ft5, ft3     # so it reads as the canonical NaN
    fsw     fa0, 16(a0)
    fmv.x.w a1, fa0
    li      t0, 0x40400000    # 3.0f
    fmv.w.x fa3, t0
    fcvt.d.s fa4, fa3
    fcvt.s.d fa5, ft5
    fmin.s  fa6, ft3, fa2     # NaN operand ignored
    ret
  )",
                    {base()});
  uint64_t box = 0xffffffff00000000ull;
  EXPECT_EQ(r.fpRegisters[3], box | llvm::bit_cast<uint32_t>(1.5f));
  EXPECT_EQ(r.fpRegisters[fa0], box | llvm::bit_cast<uint32_t>(3.75f));
  EXPECT_EQ(r.fpRegisters[fa1], box | llvm::bit_cast<uint32_t>(4.875f));
  EXPECT_EQ(r.fpRegisters[fa2], box | 0x7fc00000u);
  EXPECT_EQ(*tcdm.read<float>(base() + 16), 3.75f);
  EXPECT_EQ(r.integerRegisters[a1], llvm::bit_cast<uint32_t>(3.75f));
  EXPECT_EQ(r.fpRegisters[13], box | 0x40400000u);
  EXPECT_EQ(asDouble(r.fpRegisters[14]), 3.0);
  EXPECT_EQ(r.fpRegisters[15], box | llvm::bit_cast<uint32_t>(1.0f));
  EXPECT_EQ(r.fpRegisters[16], box | llvm::bit_cast<uint32_t>(1.5f));
}

TEST_F(SnitchModelSemantics, ConversionsAndComparisons) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  putDoubles(0, {2.5, 3.5, -2.5, 1e10, nan, -0.0, -1e10, 0.0});
  RunResult r = run(R"(
k:  fld      ft3, 0(a0)
    fld      ft4, 8(a0)
    fld      ft5, 16(a0)
    fld      ft6, 24(a0)
    fld      ft7, 32(a0)
    fld      fs0, 40(a0)
    fld      fs1, 48(a0)
    fld      fs2, 56(a0)
    fcvt.w.d a1, ft3        # 2 (ties to even)
    fcvt.w.d a2, ft4        # 4
    fcvt.w.d a3, ft5        # -2
    fcvt.w.d a4, ft6        # saturates to INT_MAX
    fcvt.w.d a5, ft7        # NaN -> INT_MAX
    fcvt.w.d a6, fs1        # saturates to INT_MIN
    fcvt.wu.d a7, ft5       # negative -> 0
    li       t0, -3
    fcvt.d.w fa0, t0
    fcvt.d.wu fa1, t0       # 4294967293
    feq.d    s2, ft3, ft3
    feq.d    s3, ft7, ft7   # NaN != NaN
    flt.d    s4, ft5, ft3
    fle.d    s5, ft3, ft5
    feq.d    s6, fs0, fs2   # -0 == +0
    fclass.d s7, fs0        # -0: bit 3
    fclass.d s8, ft7        # quiet NaN: bit 9
    fclass.d s9, ft5        # negative normal: bit 1
    fmin.d   fa2, fs0, fs2  # -0 is below +0
    fmax.d   fa3, fs0, fs2
    fmax.d   fa4, ft7, ft3  # NaN ignored
    fadd.d   fa5, ft7, ft3  # canonical NaN
    ret
  )",
                    {base()});
  auto &x = r.integerRegisters;
  EXPECT_EQ(int32_t(x[a1]), 2);
  EXPECT_EQ(int32_t(x[a2]), 4);
  EXPECT_EQ(int32_t(x[a3]), -2);
  EXPECT_EQ(int32_t(x[a4]), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(int32_t(x[a5]), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(int32_t(x[16]), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(x[17], 0u);
  EXPECT_EQ(asDouble(r.fpRegisters[fa0]), -3.0);
  EXPECT_EQ(asDouble(r.fpRegisters[fa1]), 4294967293.0);
  EXPECT_EQ(x[18], 1u);
  EXPECT_EQ(x[19], 0u);
  EXPECT_EQ(x[20], 1u);
  EXPECT_EQ(x[21], 0u);
  EXPECT_EQ(x[22], 1u);
  EXPECT_EQ(x[23], 1u << 3);
  EXPECT_EQ(x[24], 1u << 9);
  EXPECT_EQ(x[25], 1u << 1);
  EXPECT_EQ(r.fpRegisters[fa2], bitsOf(-0.0));
  EXPECT_EQ(r.fpRegisters[13], bitsOf(0.0));
  EXPECT_EQ(asDouble(r.fpRegisters[14]), 2.5);
  EXPECT_EQ(r.fpRegisters[15], 0x7ff8000000000000ull);
}

TEST_F(SnitchModelSemantics, ArgumentsStackAndEntry) {
  RunResult r = run(R"(
other:
    li a0, 99
    ret
k:  add a0, a0, a7
    addi sp, sp, -16
    sw a0, 12(sp)
    lw a1, 12(sp)
    addi sp, sp, 16
    ret
  )",
                    {1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(r.integerRegisters[a0], 9u);
  EXPECT_EQ(r.integerRegisters[a1], 9u);
  EXPECT_EQ(r.integerRegisters[2],
            core.memory.tcdmBase + core.memory.tcdmBytes);
}

TEST_F(SnitchModelSemantics, RunErrors) {
  EXPECT_EQ(fail("k: nop\n   lw a0, 0(zero)\n   ret\n"),
            "line 2: lw: TCDM access of 4 bytes at 0x00000000 is outside "
            "[0x10000000, 0x10020000)");
  EXPECT_EQ(fail("k: fld fa0, 4(a0)\n ret\n", {base()}),
            "line 1: fld: misaligned 8-byte TCDM access at 0x10000004");
  EXPECT_EQ(fail("k: nop\n"),
            "line 1: addi: execution ran past the last instruction without "
            "returning");
  EXPECT_NE(fail("k: j k\n", {}, ModelOptions{1000, 100'000'000})
                .find("exceeded the limit of 1000 executed instructions"),
            std::string::npos);
  EXPECT_NE(fail("k: j k\n", {}, ModelOptions{100'000'000, 500})
                .find("exceeded the limit of 500 cycles"),
            std::string::npos);
  EXPECT_EQ(fail("k: csrsi 0x7c1, 1\n ret\n"),
            "line 1: csrsi: CSR 0x7c1 is not modelled (only the SSR enable, "
            "0x7c0)");
  EXPECT_EQ(fail("k: csrsi 0x7c0, 2\n ret\n"),
            "line 1: csrsi: only bit 0 (enable) of CSR 0x7c0 is modelled");
  EXPECT_EQ(fail("k: li t0, 0x1234\n jr t0\n"),
            "line 2: jalr: jump to 0x1234, which is not an instruction of the "
            "program");
  llvm::Expected<Program> program = parseAssembly("k: ret\n");
  ASSERT_TRUE(bool(program));
  auto noEntry = runProgram(*program, "main", {}, tcdm, core);
  ASSERT_FALSE(bool(noEntry));
  EXPECT_EQ(llvm::toString(noEntry.takeError()), "no label 'main' to start at");
  uint32_t nine[9] = {};
  auto tooMany = runProgram(*program, "k", nine, tcdm, core);
  ASSERT_FALSE(bool(tooMany));
  EXPECT_EQ(llvm::toString(tooMany.takeError()),
            "9 integer arguments, at most 8 (a0-a7)");
}

} // namespace

namespace {

TEST(SnitchModelPrograms, HandBuiltProgramsAreChecked) {
  SnitchCore core = SnitchCore::getDefault();
  Tcdm tcdm(core);
  llvm::Expected<Program> parsed = parseAssembly("k: addi a0, a0, 1\n ret\n");
  ASSERT_TRUE(bool(parsed));
  Program missingOperand = *parsed;
  missingOperand.instructions[0].operands.pop_back();
  auto result = runProgram(missingOperand, "k", {}, tcdm, core);
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "line 1: 'addi' takes 3 operands, has 2");
  Program pseudo = *parsed;
  pseudo.instructions[0].info = lookupInstruction("li");
  result = runProgram(pseudo, "k", {}, tcdm, core);
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "line 1: pseudo-instruction 'li' was not expanded");
  SnitchCore noBuffer = core;
  noBuffer.frep.maxBodyInstructions = 0;
  result = runProgram(*parsed, "k", {}, tcdm, noBuffer);
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "the core's FREP sequencer buffer holds no instruction");
}

} // namespace
