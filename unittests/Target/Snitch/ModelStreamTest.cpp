//===- ModelStreamTest.cpp - SSR streams and FREP in the Snitch model -----===//
//
// Address generation (delta strides, repeat, broadcast, write streams), the
// exact-consumption rules, FREP order and stagger, and the limits.
//
//===----------------------------------------------------------------------===//

#include "SnitchTestSupport.h"

#include "gtest/gtest.h"

#include <numeric>

using namespace perfdojo::snitch;
using namespace perfdojo::snitch::testing;

namespace {

// SSR configuration words (snitch-target.md §2.2).
constexpr unsigned kRepeat = 1, kBound0 = 2, kStride0 = 6, kReadPointer = 24,
                   kWritePointer = 28, kAllMovers = 31;

/// `word << 5 | dm`, the configuration address.
unsigned address(unsigned word, unsigned dm) { return word << 5 | dm; }

/// Assembly setting configuration `word` of data mover `dm` to `value`.
std::string cfg(unsigned word, unsigned dm, int64_t value) {
  return "    li t0, " + std::to_string(value) + "\n    scfgwi t0, " +
         std::to_string(address(word, dm)) + "\n";
}

/// Assembly starting a `dims`-dimensional read (or write) stream of `dm` at
/// the address in register `reg`.
std::string startStream(bool isWrite, unsigned dims, unsigned dm,
                        const char *reg) {
  unsigned word = (isWrite ? kWritePointer : kReadPointer) + dims - 1;
  return std::string("    scfgwi ") + reg + ", " +
         std::to_string(address(word, dm)) + "\n";
}

class SnitchModelStreams : public ::testing::Test {
protected:
  SnitchCore core = SnitchCore::getDefault();
  Tcdm tcdm{core};
  /// x at in(), 256 doubles holding 0, 1, 2, ...; outputs at out().
  uint32_t in() const { return tcdm.getBase(); }
  uint32_t out() const { return tcdm.getBase() + 0x1000; }

  void SetUp() override {
    std::vector<double> values(256);
    std::iota(values.begin(), values.end(), 0.0);
    ASSERT_FALSE(bool(tcdm.copyInArray<double>(in(), values)));
  }

  /// Copies the `count` elements of the read pattern `readConfig` (a
  /// `dims`-dimensional stream of DM0 over in()) to out() through a 1-D
  /// write stream of DM2, and returns them: each is the index of the element
  /// it was read from.
  std::vector<double> copy(const std::string &readConfig, unsigned dims,
                           uint64_t count, RunResult *result = nullptr) {
    std::string text = "k:\n" + readConfig + cfg(kBound0, 2, count - 1) +
                       cfg(kStride0, 2, 8) + startStream(false, dims, 0, "a0") +
                       startStream(true, 1, 2, "a1") +
                       "    csrsi 0x7c0, 1\n"
                       "    li t1, " +
                       std::to_string(count - 1) +
                       "\n"
                       "    frep.o t1, 1, 0, 0\n"
                       "    fmv.d ft2, ft0\n" // pops ft0 once, pushes ft2
                       "    csrci 0x7c0, 1\n"
                       "    ret\n";
    RunResult r = runOk(text, {in(), out()}, tcdm, core);
    if (result)
      *result = r;
    auto values = tcdm.copyOutArray<double>(out(), count);
    if (!values) {
      ADD_FAILURE() << llvm::toString(values.takeError());
      return {};
    }
    return *values;
  }

  std::string fail(const std::string &text, const SnitchCore &withCore) {
    Tcdm fresh(withCore);
    return runError(text, {in(), out()}, fresh, withCore);
  }
  std::string fail(const std::string &text) { return fail(text, core); }
};

TEST_F(SnitchModelStreams, OneDimensionalReduction) {
  RunResult r = runOk(R"(
k:  addi t0, a1, -1
    scfgwi t0, 64          # bound0 of DM0
    li t1, 8
    scfgwi t1, 192         # stride0 of DM0
    scfgwi a0, 768         # DM0: 1-D read
    csrsi 0x7c0, 1
    fcvt.d.w fa0, zero
    frep.o t0, 1, 0, 0
    fadd.d fa0, fa0, ft0
    csrci 0x7c0, 1
    ret
  )",
                      {in(), 10}, tcdm, core);
  EXPECT_EQ(asDouble(r.fpRegisters[10]), 45.0);
  EXPECT_EQ(r.frepRepetitions, 10u);
  EXPECT_EQ(r.streamElements, (std::vector<uint64_t>{10, 0, 0}));
  EXPECT_EQ(r.fpInstructionsIssued, 11u); // fcvt + 10 fadd
}

TEST_F(SnitchModelStreams, TwoDimensionalDeltaStrides) {
  // Inner 4 x 8 B, outer 3 x 64 B: STRIDES = {8, 64 - 3 * 8 = 40} (§2.4).
  std::string config = cfg(kBound0, 0, 3) + cfg(kBound0 + 1, 0, 2) +
                       cfg(kStride0, 0, 8) + cfg(kStride0 + 1, 0, 40);
  EXPECT_EQ(copy(config, 2, 12),
            (std::vector<double>{0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19}));
}

TEST_F(SnitchModelStreams, FourDimensionalPattern) {
  // addr = 8 i0 + 32 i1 + 128 i2 + 512 i3 with 2 iterations each; delta
  // strides s_d - sum_{k<d} s_k (b_k - 1): {8, 24, 88, 344}.
  const int64_t deltas[] = {8, 24, 88, 344};
  std::string config;
  for (unsigned d = 0; d < 4; ++d)
    config += cfg(kBound0 + d, 0, 1) + cfg(kStride0 + d, 0, deltas[d]);
  std::vector<double> expected;
  for (int i3 = 0; i3 < 2; ++i3)
    for (int i2 = 0; i2 < 2; ++i2)
      for (int i1 = 0; i1 < 2; ++i1)
        for (int i0 = 0; i0 < 2; ++i0)
          expected.push_back(i0 + 4 * i1 + 16 * i2 + 64 * i3);
  EXPECT_EQ(copy(config, 4, 16), expected);
}

TEST_F(SnitchModelStreams, RepeatDeliversEachElementAgain) {
  std::string config =
      cfg(kBound0, 0, 2) + cfg(kStride0, 0, 16) + cfg(kRepeat, 0, 1);
  RunResult r;
  EXPECT_EQ(copy(config, 1, 6, &r), (std::vector<double>{0, 0, 2, 2, 4, 4}));
  EXPECT_EQ(r.streamElements, (std::vector<uint64_t>{6, 0, 6}));
}

TEST_F(SnitchModelStreams, BroadcastConfiguresEveryMover) {
  // z = x + y with x at in(), y = in() + 8 (the same data shifted by one).
  std::string text =
      "k:\n" + cfg(kBound0, kAllMovers, 7) + cfg(kStride0, kAllMovers, 8) +
      "    addi a2, a0, 8\n" + startStream(false, 1, 0, "a0") +
      startStream(false, 1, 1, "a2") + startStream(true, 1, 2, "a1") +
      R"(    csrsi 0x7c0, 1
    li t1, 7
    frep.o t1, 1, 0, 0
    fadd.d ft2, ft0, ft1
    csrci 0x7c0, 1
    ret
)";
  RunResult r = runOk(text, {in(), out()}, tcdm, core);
  auto z = tcdm.copyOutArray<double>(out(), 8);
  ASSERT_TRUE(bool(z));
  EXPECT_EQ(*z, (std::vector<double>{1, 3, 5, 7, 9, 11, 13, 15}));
  EXPECT_EQ(r.streamElements, (std::vector<uint64_t>{8, 8, 8}));
}

TEST_F(SnitchModelStreams, SameRegisterTwicePopsOnce) {
  std::string text = "k:\n" + cfg(kBound0, 0, 2) + cfg(kStride0, 0, 8) +
                     startStream(false, 1, 0, "a0") + R"(    csrsi 0x7c0, 1
    fcvt.d.w fa0, zero
    li t1, 2
    frep.o t1, 1, 0, 0
    fmadd.d fa0, ft0, ft0, fa0
    csrci 0x7c0, 1
    ret
)";
  RunResult r = runOk(text, {in(), out()}, tcdm, core);
  EXPECT_EQ(asDouble(r.fpRegisters[10]), 0.0 + 1.0 + 4.0);
}

TEST_F(SnitchModelStreams, LoadsAndDisabledStreamsUseTheRegisterFile) {
  // While SSR is off ft0 is a plain register; a load into ft0 while it is on
  // goes to the register file and the next read still pops the stream.
  std::string text = "k:\n"
                     "    fld ft0, 16(a0)\n"
                     "    fadd.d fa1, ft0, ft0\n" +
                     cfg(kBound0, 0, 0) + startStream(false, 1, 0, "a0") +
                     "    addi a0, a0, 24\n"
                     "    csrsi 0x7c0, 1\n"
                     "    fld ft0, 0(a0)\n"
                     "    fadd.d fa0, ft0, ft0\n"
                     "    csrci 0x7c0, 1\n"
                     "    fadd.d fa2, ft0, ft0\n"
                     "    ret\n";
  RunResult r = runOk(text, {in(), out()}, tcdm, core);
  EXPECT_EQ(asDouble(r.fpRegisters[11]), 4.0);
  EXPECT_EQ(asDouble(r.fpRegisters[10]), 0.0); // the stream's element 0
  EXPECT_EQ(asDouble(r.fpRegisters[12]), 6.0); // the loaded 3.0
}

TEST_F(SnitchModelStreams, StatusReadsBack) {
  std::string text = "k:\n" + cfg(kBound0, 0, 1) + cfg(kStride0, 0, 8) +
                     startStream(false, 1, 0, "a0") + R"(    scfgri a2, 0
    scfgri a3, 64
    csrsi 0x7c0, 1
    fadd.d fa0, ft0, ft0
    fadd.d fa0, ft0, ft0
    csrci 0x7c0, 1
    li t1, 0
    scfgr a4, t1
    ret
)";
  RunResult r = runOk(text, {in(), out()}, tcdm, core);
  uint32_t pointerMask = (1u << 27) - 1;
  EXPECT_EQ(r.integerRegisters[12], in() & pointerMask); // running, 1-D read
  EXPECT_EQ(r.integerRegisters[13], 1u);                 // bound0
  EXPECT_EQ(r.integerRegisters[14] >> 31, 1u);           // done
}

TEST_F(SnitchModelStreams, FrepOuterAndInnerOrder) {
  auto run = [&](const char *frep) {
    std::string text = "k:\n" + cfg(kBound0, 2, 5) + cfg(kStride0, 2, 8) +
                       startStream(true, 1, 2, "a1") +
                       "    li t1, 1\n"
                       "    fcvt.d.w fs0, t1\n"
                       "    li t1, 2\n"
                       "    fcvt.d.w fs1, t1\n"
                       "    csrsi 0x7c0, 1\n"
                       "    li t1, 2\n    " +
                       frep +
                       "\n"
                       "    fmv.d ft2, fs0\n"
                       "    fmv.d ft2, fs1\n"
                       "    csrci 0x7c0, 1\n"
                       "    ret\n";
    runOk(text, {in(), out()}, tcdm, core);
    return llvm::cantFail(tcdm.copyOutArray<double>(out(), 6));
  };
  EXPECT_EQ(run("frep.o t1, 2, 0, 0"), (std::vector<double>{1, 2, 1, 2, 1, 2}));
  EXPECT_EQ(run(".insn i 0x0b, 0, x0, t1, 1"), // frep.i t1, 2, 0, 0
            (std::vector<double>{1, 1, 1, 2, 2, 2}));
}

TEST_F(SnitchModelStreams, StaggerRotatesAccumulators) {
  // frep.o t0, 1, 3, 0b1001 over fmadd.d ft3, ft0, ft1, ft3: rd and rs3 are
  // offset by r mod 4, so ft3..ft6 accumulate every fourth product (§3.3).
  std::string text = "k:\n" + cfg(kBound0, kAllMovers, 11) +
                     cfg(kStride0, kAllMovers, 8) +
                     startStream(false, 1, 0, "a0") +
                     startStream(false, 1, 1, "a0") + R"(    csrsi 0x7c0, 1
    fcvt.d.w ft3, zero
    fmv.d ft4, ft3
    fmv.d ft5, ft3
    fmv.d ft6, ft3
    li t0, 11
    frep.o t0, 1, 3, 0b1001
    fmadd.d ft3, ft0, ft1, ft3
    csrci 0x7c0, 1
    ret
)";
  RunResult r = runOk(text, {in(), out()}, tcdm, core);
  for (unsigned acc = 0; acc < 4; ++acc) {
    double expected = 0;
    for (unsigned i = acc; i < 12; i += 4)
      expected += double(i) * double(i);
    EXPECT_EQ(asDouble(r.fpRegisters[3 + acc]), expected) << acc;
  }
}

TEST_F(SnitchModelStreams, InnerStaggerOffsetsEachRepetition) {
  // frep.i over two instructions, 3 repetitions each, stagger count 2 on rd:
  // the first writes fs2, fs3, fs4, the second fa0, fa1, fa2.
  std::string text = R"(k:
    li t1, 5
    fcvt.d.w ft3, t1
    li t1, 2
    .insn i 0x0b, 2, x2, t1, 1      # frep.i t1, 2, 2, 0b0001
    fmv.d fs2, ft3
    fadd.d fa0, ft3, ft3
    ret
)";
  RunResult r = runOk(text, {}, tcdm, core);
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(asDouble(r.fpRegisters[18 + i]), 5.0) << i;
    EXPECT_EQ(asDouble(r.fpRegisters[10 + i]), 10.0) << i;
  }
}

TEST_F(SnitchModelStreams, ExactConsumption) {
  std::string setup = "k:\n" + cfg(kBound0, 0, 3) + cfg(kStride0, 0, 8) +
                      startStream(false, 1, 0, "a0") + "    csrsi 0x7c0, 1\n";
  // Lines: 1 k:, 2-3 bound, 4-5 stride, 6 the pointer write, 7 csrsi.
  EXPECT_EQ(fail(setup + "    li t1, 2\n    frep.o t1, 1, 0, 0\n"
                         "    fmv.d fa0, ft0\n    csrci 0x7c0, 1\n    ret\n"),
            "line 11: csrci: data mover 0: read stream started on line 6 has "
            "1 of 4 elements left at SSR disable (a stream must be consumed "
            "exactly)");
  EXPECT_EQ(fail(setup + "    fmv.d fa0, ft0\n    ret\n"),
            "line 9: jalr: data mover 0: read stream started on line 6 has 3 "
            "of 4 elements left at return (a stream must be consumed "
            "exactly)");
  EXPECT_EQ(fail(setup + "    li t1, 4\n    frep.o t1, 1, 0, 0\n"
                         "    fmv.d fa0, ft0\n    ret\n"),
            "line 10: fsgnj.d: stream register ft0: read past the end of the "
            "4-element stream of data mover 0 (started on line 6)");
  EXPECT_EQ(fail(setup + "    fadd.d fa0, ft1, ft1\n    ret\n"),
            "line 8: fadd.d: stream register ft1: data mover 1 has no read "
            "stream");
  EXPECT_EQ(fail(setup + "    fmv.d ft0, fa0\n    ret\n"),
            "line 8: fsgnj.d: stream register ft0: data mover 0 has no write "
            "stream");
  std::string write = "k:\n" + cfg(kBound0, 2, 0) +
                      startStream(true, 1, 2, "a1") + "    csrsi 0x7c0, 1\n";
  EXPECT_EQ(fail(write + "    fmv.d ft2, fa0\n    fmv.d ft2, fa0\n    ret\n"),
            "line 7: fsgnj.d: stream register ft2: write past the end of the "
            "1-element stream of data mover 2 (started on line 4)");
  EXPECT_EQ(fail(write + "    ret\n"),
            "line 6: jalr: data mover 2: write stream started on line 4 has 1 "
            "of 1 elements left at return (a stream must be consumed "
            "exactly)");
}

TEST_F(SnitchModelStreams, ConfigurationErrors) {
  auto one = [&](unsigned word, unsigned dm, int64_t value) {
    return fail("k:\n" + cfg(word, dm, value) + "    ret\n");
  };
  EXPECT_EQ(one(kRepeat, 0, 16),
            "line 3: scfgwi: data mover 0: repeat value 16 exceeds 15 "
            "(REPEAT holds repetitions - 1)");
  EXPECT_EQ(one(kBound0 + 1, 1, 1 << 17),
            "line 3: scfgwi: data mover 1: bound 131072 of loop 1 exceeds "
            "131071 (BOUNDS hold iterations - 1)");
  EXPECT_EQ(one(kBound0, 5, 1),
            "line 3: scfgwi: data mover 5 does not exist (the core has 3; 31 "
            "broadcasts)");
  EXPECT_EQ(one(0, 0, 1),
            "line 3: scfgwi: data mover 0: writing STATUS directly is not "
            "modelled");
  EXPECT_EQ(one(10, 0, 1), "line 3: scfgwi: data mover 0: configuration "
                           "word 10 (indirection or intersection) is not "
                           "modelled");
  EXPECT_EQ(fail("k:\n    addi a0, a0, 4\n" + startStream(false, 1, 0, "a0") +
                 "    ret\n"),
            "line 3: scfgwi: data mover 0: stream pointer 0x10000004 is not a "
            "multiple of 8 bytes");
  EXPECT_EQ(fail("k:\n" + cfg(kStride0, 0, 12) +
                 startStream(false, 1, 0, "a0") + "    ret\n"),
            "line 4: scfgwi: data mover 0: stride 12 of loop 0 is not a "
            "multiple of 8 bytes");
  SnitchCore twoLoops = core;
  twoLoops.streams.loopLevels = 2;
  EXPECT_EQ(
      fail("k:\n" + startStream(false, 3, 0, "a0") + "    ret\n", twoLoops),
      "line 2: scfgwi: data mover 0: 3-dimensional stream exceeds the 2 "
      "loop levels");
  EXPECT_EQ(fail("k:\n" + startStream(false, 1, 0, "a0") +
                 startStream(false, 1, 0, "a0") + "    ret\n"),
            "line 3: scfgwi: data mover 0: stream started while the one "
            "started on line 2 has 1 elements left (queueing a job in the "
            "shadow registers is not modelled)");
}

TEST_F(SnitchModelStreams, FrepLimits) {
  SnitchCore small = core;
  small.frep.maxBodyInstructions = 2;
  small.frep.maxStaggerCount = 3;
  EXPECT_EQ(fail("k:\n    frep.o t0, 3, 0, 0\n    fadd.d fa0, fa0, fa0\n"
                 "    fadd.d fa0, fa0, fa0\n    fadd.d fa0, fa0, fa0\n"
                 "    ret\n",
                 small),
            "line 2: frep.o: body of 3 instructions exceeds the 2-entry "
            "sequencer buffer");
  EXPECT_EQ(fail("k:\n    frep.o t0, 1, 4, 1\n    fadd.d fa0, fa0, fa0\n"
                 "    ret\n",
                 small),
            "line 2: frep.o: stagger count 4 / mask 1 exceed 3 / 15");
  EXPECT_EQ(fail("k:\n    li t0, 65536\n    frep.o t0, 1, 0, 0\n"
                 "    fadd.d fa0, fa0, fa0\n    ret\n"),
            "line 3: frep.o: 65537 repetitions (t0 + 1) exceed 65536");
  EXPECT_EQ(fail("k:\n    frep.o t0, 2, 0, 0\n    fadd.d fa0, fa0, fa0\n"
                 "    fld fa1, 0(a0)\n    ret\n"),
            "line 2: frep.o: 'fld' on line 4 cannot be repeated: an FREP body "
            "holds FP compute instructions only (no direct-path instruction, "
            "no load or store)");
  EXPECT_EQ(
      fail("k:\n    frep.o t0, 1, 0, 0\n    feq.d a1, fa0, fa0\n"
           "    ret\n")
          .rfind("line 2: frep.o: 'feq.d' on line 3 cannot be repeated", 0),
      0u);
  EXPECT_EQ(fail("k:\n    frep.o t0, 2, 0, 0\n    fadd.d fa0, fa0, fa0\n"),
            "line 2: frep.o: body of 2 instructions runs past the end of the "
            "program");
}

} // namespace
