//===- ModelTimingTest.cpp - cycle counts of the Snitch model -------------===//
//
// Each timing rule of Model.h on a small kernel (expected numbers are read
// from the SnitchCore, so the tests follow its parameters), then the ddot-128
// calibration of snitch-target.md §6.3.
//
//===----------------------------------------------------------------------===//

#include "SnitchTestSupport.h"

#include "gtest/gtest.h"

#include <iostream>

using namespace perfdojo::snitch;
using namespace perfdojo::snitch::testing;

namespace {

/// `count` copies of `line`, one per line.
std::string repeat(const std::string &line, unsigned count) {
  std::string text;
  for (unsigned i = 0; i < count; ++i)
    text += "    " + line + "\n";
  return text;
}

class SnitchModelTiming : public ::testing::Test {
protected:
  SnitchCore core = SnitchCore::getDefault();

  int64_t cycles(const std::string &text, llvm::ArrayRef<uint32_t> args = {}) {
    return cyclesOn(core, text, args);
  }
  static int64_t cyclesOn(const SnitchCore &withCore, const std::string &text,
                          llvm::ArrayRef<uint32_t> args = {}) {
    Tcdm tcdm(withCore);
    std::vector<uint32_t> withBase(args.begin(), args.end());
    if (withBase.empty())
      withBase.push_back(tcdm.getBase());
    return static_cast<int64_t>(runOk(text, withBase, tcdm, withCore).cycles);
  }

  /// A kernel repeating `body` `reps` times with frep.o (t0 = reps - 1).
  static std::string frepKernel(const std::string &body, unsigned bodySize,
                                unsigned reps) {
    return "k:\n    li t0, " + std::to_string(reps - 1) + "\n    frep.o t0, " +
           std::to_string(bodySize) + ", 0, 0\n" + body + "    ret\n";
  }
};

TEST_F(SnitchModelTiming, IntegerCoreIssuesOnePerCycle) {
  // T1: 100 independent ALU instructions and the return.
  EXPECT_EQ(cycles("k:\n" + repeat("addi a1, a0, 1", 100) + "    ret\n"), 101);
}

TEST_F(SnitchModelTiming, IntegerResultLatencies) {
  // Enough trailing work that the run does not end on the producer's
  // write-back, so only the consumer's stall differs.
  auto stall = [&](const std::string &producer) {
    std::string tail = repeat("nop", 40) + "    ret\n";
    int64_t dependent =
        cycles("k:\n    " + producer + "\n    addi a2, a1, 1\n" + tail);
    int64_t independent =
        cycles("k:\n    " + producer + "\n    addi a2, a0, 1\n" + tail);
    return dependent - independent;
  };
  const Latencies &lat = core.latency;
  EXPECT_EQ(stall("lw a1, 0(a0)"), lat.integerLoad - lat.integerAlu);
  EXPECT_EQ(stall("mul a1, a0, a0"), lat.integerMul - lat.integerAlu);
  EXPECT_EQ(stall("div a1, a0, a0"), lat.integerDiv - lat.integerAlu);
  EXPECT_EQ(stall("add a1, a0, a0"), 0);
}

TEST_F(SnitchModelTiming, TakenBranchPenaltyComesFromTheCore) {
  std::string loop = R"(k:
    li t0, 50
l:  addi t0, t0, -1
    bnez t0, l
    ret
)";
  SnitchCore slow = core;
  slow.latency.takenBranch = core.latency.takenBranch + 2;
  // 49 taken branches.
  EXPECT_EQ(cyclesOn(slow, loop) - cyclesOn(core, loop), 2 * 49);
}

TEST_F(SnitchModelTiming, DependentFmaChainCostsTheFmaLatency) {
  // T5: each fmadd.d waits for the previous one; the per-op cost is the
  // slope between two repetition counts, free of the fixed overhead.
  std::string body = "    fmadd.d fa0, fa1, fa2, fa0\n";
  int64_t slope =
      cycles(frepKernel(body, 1, 128)) - cycles(frepKernel(body, 1, 64));
  EXPECT_EQ(slope, 64 * core.latency.fpFma64);
  // The same without FREP: the core offloads one per cycle, the FPU stays
  // latency bound and the sequencer buffer fills.
  int64_t straight =
      cycles("k:\n" + repeat("fmadd.d fa0, fa1, fa2, fa0", 128) + "    ret\n") -
      cycles("k:\n" + repeat("fmadd.d fa0, fa1, fa2, fa0", 64) + "    ret\n");
  EXPECT_EQ(straight, 64 * core.latency.fpFma64);
  // f32 uses its own latency.
  std::string single = "    fmadd.s fa0, fa1, fa2, fa0\n";
  EXPECT_EQ(cycles(frepKernel(single, 1, 128)) -
                cycles(frepKernel(single, 1, 64)),
            64 * core.latency.fpFma32);
}

TEST_F(SnitchModelTiming, IndependentFmasIssueOnePerCycle) {
  std::string body;
  for (unsigned acc = 0; acc < 8; ++acc)
    body += "    fmadd.d fs" + std::to_string(acc) + ", fa1, fa2, fs" +
            std::to_string(acc) + "\n";
  // 8 more repetitions of 8 instructions: 64 cycles.
  EXPECT_EQ(cycles(frepKernel(body, 8, 16)) - cycles(frepKernel(body, 8, 8)),
            64);
  // Stagger gives the same independence from a one-instruction body: rd
  // and rs3 rotate through fs2..fs9 (stagger count 7, mask rd|rs3).
  auto staggered = [&](unsigned reps) {
    return cycles("k:\n    li t0, " + std::to_string(reps - 1) +
                  "\n    frep.o t0, 1, 7, 0b1001\n"
                  "    fmadd.d fs2, ft0, ft1, fs2\n    ret\n");
  };
  EXPECT_EQ(staggered(128) - staggered(64), 64);
}

TEST_F(SnitchModelTiming, ParametersComeFromTheCore) {
  SnitchCore slowFpu = core;
  slowFpu.latency.fpFma64 = core.latency.fpFma64 + 3;
  std::string body = "    fmadd.d fa0, fa1, fa2, fa0\n";
  EXPECT_EQ(cyclesOn(slowFpu, frepKernel(body, 1, 100)) -
                cycles(frepKernel(body, 1, 100)),
            3 * 100);
}

TEST_F(SnitchModelTiming, IntegerWorkOverlapsFrepUntilTheDirectPath) {
  // Pseudo dual issue (§1, §3.5): integer work after an FREP loop runs while
  // the sequencer replays it, unless a direct-path instruction (here
  // fmv.x.w, an FPU fence) first waits for the loop to drain.
  std::string loop = "k:\n    li t0, 99\n    frep.o t0, 1, 0, 0\n"
                     "    fmadd.d fa0, fa1, fa2, fa0\n";
  std::string work = repeat("addi a1, a1, 1", 200);
  int64_t overlapped = cycles(loop + work + "    fmv.x.w a2, fa0\n    ret\n");
  int64_t fenced = cycles(loop + "    fmv.x.w a2, fa0\n" + work + "    ret\n");
  int64_t fpuBound = 100 * core.latency.fpFma64;
  EXPECT_LT(overlapped, fpuBound + 40);
  EXPECT_GE(fenced, fpuBound + 200);
}

TEST_F(SnitchModelTiming, FullSequencerBufferStallsTheCore) {
  // 48 dependent fmadds, then integer work: the core can only run ahead by
  // the buffer depth, so a deeper buffer lets the integer work start sooner.
  std::string text = "k:\n" + repeat("fmadd.d fa0, fa1, fa2, fa0", 48) +
                     repeat("addi a1, a1, 1", 150) + "    ret\n";
  SnitchCore deep = core;
  deep.frep.maxBodyInstructions = 64;
  int64_t shallow = cycles(text), unbounded = cyclesOn(deep, text);
  EXPECT_GT(shallow, unbounded);
  // With 16 entries the core offloads fmadd k + 16 only after fmadd k
  // issued (T2): the last of the 48 leaves the core ~32 FMA latencies in.
  EXPECT_GE(shallow, 32 * core.latency.fpFma64 + 150);
  EXPECT_LE(unbounded, 48 * core.latency.fpFma64 + 20);
}

TEST_F(SnitchModelTiming, StreamStartupDelaysTheFirstElement) {
  std::string text = R"(k:
    scfgwi a0, 768
    csrsi 0x7c0, 1
    fmv.d fa0, ft0
    csrci 0x7c0, 1
    ret
)";
  SnitchCore slowStreams = core;
  slowStreams.latency.streamStartup = core.latency.streamStartup + 10;
  EXPECT_EQ(cyclesOn(slowStreams, text) - cycles(text), 10);
  // The fmv can issue no earlier than the startup after the pointer write.
  EXPECT_GE(cycles(text),
            core.latency.streamStartup + core.latency.fpNonComp + 1);
}

/// One calibration point of snitch-target.md §6.3 (Verilator RTL cycles).
struct Calibration {
  const char *file;
  double cycles;
  double utilization;
};

void PrintTo(const Calibration &point, std::ostream *os) { *os << point.file; }

class SnitchCalibration : public ::testing::TestWithParam<Calibration> {};

TEST_P(SnitchCalibration, Ddot128) {
  const Calibration &point = GetParam();
  SnitchCore core = SnitchCore::getDefault();
  Tcdm tcdm(core);
  constexpr unsigned n = 128;
  // Values whose products and sums are exact in any order.
  std::vector<double> x(n), y(n);
  double expected = 0;
  for (unsigned i = 0; i < n; ++i) {
    x[i] = double(i % 7) - 3.0;
    y[i] = double(i % 5) + 0.5;
    expected += x[i] * y[i];
  }
  // x, y and the result in different TCDM regions.
  uint32_t xAddr = tcdm.getBase(), yAddr = xAddr + 0x2000,
           resultAddr = xAddr + 0x4000;
  ASSERT_FALSE(bool(tcdm.copyInArray<double>(xAddr, x)));
  ASSERT_FALSE(bool(tcdm.copyInArray<double>(yAddr, y)));

  std::string path = std::string("test/Target/Snitch/Inputs/") + point.file;
  llvm::Expected<Program> program = parseAssemblyFile(path);
  ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
  llvm::Expected<RunResult> result =
      runProgram(*program, "ddot", {xAddr, yAddr, resultAddr, n}, tcdm, core);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());

  EXPECT_EQ(*tcdm.read<double>(resultAddr), expected);
  double cycles = double(result->cycles);
  double utilization = result->fpuUtilization();
  std::cout << "[ calibration ] " << point.file << ": " << result->cycles
            << " cycles (RTL " << point.cycles << "), FPU utilization "
            << utilization << " (RTL " << point.utilization << ")\n";
  EXPECT_NEAR(cycles, point.cycles, 0.25 * point.cycles);
  EXPECT_GT(utilization, point.utilization / 1.5);
  EXPECT_LT(utilization, point.utilization * 1.5);
}

INSTANTIATE_TEST_SUITE_P(
    Rtl, SnitchCalibration,
    ::testing::Values(Calibration{"ddot-loop.s", 924, 0.14},
                      Calibration{"ddot-frep1.s", 546, 0.24},
                      Calibration{"ddot-frep4.s", 177, 0.77}),
    [](const ::testing::TestParamInfo<Calibration> &info) {
      std::string name = info.param.file;
      name = name.substr(0, name.find('.'));
      for (char &c : name)
        if (c == '-')
          c = '_';
      return name;
    });

TEST(SnitchCalibrationVariants, StaggeredDdotMatchesFourAccumulators) {
  // §4.2's staggered variant: one buffered fmadd.d, stagger count 3 on rd
  // and rs3, instead of four written out.
  std::string text = R"(ddot:
    addi    t0, a3, -1
    .insn   i 0x2b, 2, x0, t0, 95
    li      t1, 8
    .insn   i 0x2b, 2, x0, t1, 223
    .insn   i 0x2b, 2, x0, zero, 63
    .insn   i 0x2b, 2, x0, a0, 768
    .insn   i 0x2b, 2, x0, a1, 769
    csrsi   0x7c0, 1
    fcvt.d.w ft3, zero
    fmv.d   ft4, ft3
    fmv.d   ft5, ft3
    fmv.d   ft6, ft3
    .insn   i 0x0b, 3, x19, t0, 0
    fmadd.d ft3, ft0, ft1, ft3
    fadd.d  ft3, ft3, ft4
    fadd.d  ft5, ft5, ft6
    fadd.d  ft3, ft3, ft5
    fsd     ft3, 0(a2)
    csrci   0x7c0, 1
    ret
)";
  SnitchCore core = SnitchCore::getDefault();
  Tcdm tcdm(core);
  std::vector<double> x(128, 1.5), y(128, 2.0);
  uint32_t xAddr = tcdm.getBase(), yAddr = xAddr + 0x2000,
           resultAddr = xAddr + 0x4000;
  ASSERT_FALSE(bool(tcdm.copyInArray<double>(xAddr, x)));
  ASSERT_FALSE(bool(tcdm.copyInArray<double>(yAddr, y)));
  RunResult r =
      runOk(text, {xAddr, yAddr, resultAddr, 128}, tcdm, core, "ddot");
  EXPECT_EQ(*tcdm.read<double>(resultAddr), 128 * 3.0);
  EXPECT_EQ(r.frepRepetitions, 128u);
  EXPECT_NEAR(double(r.cycles), 177, 0.25 * 177);
}

} // namespace
