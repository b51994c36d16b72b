//===- LaunchPlanTest.cpp - the launch plan's text form -------------------===//
//
// The round trip, one case per class of parse error, verify() on plans built
// in code, and a robustness sweep: truncated and corrupted plans are
// rejected with a line number, never crash.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/GpuRuntime/LaunchPlan.h"

#include <gtest/gtest.h>

#include <random>

using namespace perfdojo::gpu;

namespace {

/// Every statement, role and argument kind, two loop levels.
const char *kPlan = R"(perfdojo-launch-plan 1
kernel softmax
target sm_90 ptx
buffer x f32 4 144 in
buffer t f32 4 9 scratch
buffer y f32 4 144 out
buffer acc bf16 2 16 inout
launch softmax_k0 grid 9 1 1 block 128 1 1 shared 512 args buffer:0 buffer:1 const:5
loop 4
  launch softmax_k1 grid 2147483647 65535 65535 block 32 4 2 shared 0 args buffer:2 loop:0 const:-9223372036854775808
  loop 3
    launch softmax_k2 grid 1 1 1 block 1 1 1 shared 4294967295 args loop:1 loop:0 buffer:3
  end
end
launch softmax_k3 grid 1 1 1 block 1 1 1 shared 0 args
)";

/// A valid prefix for error cases that start after the buffers.
const char *kHead = "perfdojo-launch-plan 1\n"
                    "kernel k\n"
                    "target sm_90 ptx\n"
                    "buffer x f32 4 6 in\n"
                    "buffer y f32 4 6 out\n";

std::string parseError(const std::string &text) {
  std::string error;
  std::optional<LaunchPlan> plan = LaunchPlan::parse(text, error);
  EXPECT_FALSE(plan) << text;
  return error;
}

TEST(LaunchPlan, RoundTripIsExact) {
  std::string error;
  std::optional<LaunchPlan> plan = LaunchPlan::parse(kPlan, error);
  ASSERT_TRUE(plan) << error;
  EXPECT_EQ(plan->print(), kPlan);
  EXPECT_TRUE(plan->verify(error)) << error;

  EXPECT_EQ(plan->kernel, "softmax");
  EXPECT_EQ(plan->target, "sm_90");
  EXPECT_EQ(plan->binaryFormat, "ptx");
  ASSERT_EQ(plan->buffers.size(), 4u);
  EXPECT_EQ(plan->buffers[3].role, PlanBuffer::Role::InOut);
  EXPECT_EQ(plan->buffers[3].getBytes(), 32);
  EXPECT_FALSE(plan->buffers[1].isArgument());
  ASSERT_EQ(plan->steps.size(), 3u);
  EXPECT_EQ(plan->steps[1].kind, PlanStep::Kind::Loop);
  EXPECT_EQ(plan->steps[1].tripCount, 4);

  std::vector<const PlanLaunch *> launches = plan->getLaunches();
  ASSERT_EQ(launches.size(), 4u);
  EXPECT_EQ(launches[0]->function, "softmax_k0");
  EXPECT_EQ(launches[1]->getThreadsPerBlock(), 256u);
  EXPECT_EQ(launches[1]->arguments[2].value, INT64_MIN);
  EXPECT_EQ(launches[2]->function, "softmax_k2");
  EXPECT_EQ(launches[2]->sharedBytes, 4294967295u);
  EXPECT_EQ(launches[2]->arguments[0].kind, PlanArgument::Kind::LoopIndex);
  EXPECT_EQ(launches[2]->arguments[0].index, 1u);
  EXPECT_TRUE(launches[3]->arguments.empty());
}

TEST(LaunchPlan, BuiltPlanPrintsAndParsesBack) {
  LaunchPlan plan;
  plan.kernel = "k";
  plan.target = "gfx942";
  plan.binaryFormat = "hsaco";
  plan.buffers.push_back({"a", "f64", 8, 10, PlanBuffer::Role::InOut});
  PlanStep loop;
  loop.kind = PlanStep::Kind::Loop;
  loop.tripCount = 7;
  PlanStep launch;
  launch.launch.function = "k_0";
  launch.launch.grid = {3, 2, 1};
  launch.launch.arguments = {{PlanArgument::Kind::Buffer, 0, 0},
                             {PlanArgument::Kind::LoopIndex, 0, 0}};
  loop.body.push_back(launch);
  plan.steps.push_back(loop);

  std::string error;
  ASSERT_TRUE(plan.verify(error)) << error;
  std::string text = plan.print();
  EXPECT_EQ(text, "perfdojo-launch-plan 1\n"
                  "kernel k\n"
                  "target gfx942 hsaco\n"
                  "buffer a f64 8 10 inout\n"
                  "loop 7\n"
                  "  launch k_0 grid 3 2 1 block 1 1 1 shared 0 args "
                  "buffer:0 loop:0\n"
                  "end\n");
  std::optional<LaunchPlan> back = LaunchPlan::parse(text, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->print(), text);
}

TEST(LaunchPlan, CommentsBlankLinesAndSpacingAreIgnored) {
  std::string text = "# a comment\r\n\nperfdojo-launch-plan   1\r\n"
                     "kernel\tk\n  target sm_90 ptx  \n"
                     "buffer x f32 4 6 in\n"
                     "   # indented comment\n"
                     "loop 2\nlaunch f grid 1 1 1 block 1 1 1 shared 0 args "
                     "buffer:0 loop:0\n   end";
  std::string error;
  std::optional<LaunchPlan> plan = LaunchPlan::parse(text, error);
  ASSERT_TRUE(plan) << error;
  EXPECT_EQ(plan->print(), "perfdojo-launch-plan 1\nkernel k\n"
                           "target sm_90 ptx\nbuffer x f32 4 6 in\nloop 2\n"
                           "  launch f grid 1 1 1 block 1 1 1 shared 0 args "
                           "buffer:0 loop:0\nend\n");
}

struct ErrorCase {
  const char *name;
  std::string text;
  std::string error;
};

/// Names the case in gtest's failure messages.
void PrintTo(const ErrorCase &c, std::ostream *os) { *os << c.name; }

std::string withHead(const std::string &body) { return kHead + body; }

// One case per message of the parser (and of the checks it shares with
// verify). Line numbers count from 1; kHead is lines 1-5.
const ErrorCase kErrorCases[] = {
    {"Empty", "",
     "line 1: the plan ends before the header 'perfdojo-launch-plan 1'"},
    {"OnlyComments", "# nothing\n\n",
     "line 2: the plan ends before the header 'perfdojo-launch-plan 1'"},
    {"WrongHeader", "perfdojo-plan 1\n",
     "line 1: expected 'perfdojo-launch-plan 1', found 'perfdojo-plan'"},
    {"NewerVersion", "perfdojo-launch-plan 2\n",
     "line 1: unsupported launch plan version 2 (this runtime reads 1)"},
    {"VersionNotNumber", "perfdojo-launch-plan one\n",
     "line 1: expected a version (a decimal number up to 1000000), found "
     "'one'"},
    {"MissingKernel", "perfdojo-launch-plan 1\ntarget sm_90 ptx\n",
     "line 2: expected 'kernel', found 'target'"},
    {"MissingTarget", "perfdojo-launch-plan 1\nkernel k\n",
     "line 2: the plan ends before a 'target' line"},
    {"KernelWithoutName", "perfdojo-launch-plan 1\nkernel\n",
     "line 2: expected kernel name at the end of the line"},
    {"UnknownFormat", "perfdojo-launch-plan 1\nkernel k\ntarget sm_90 cubin\n",
     "line 3: unknown binary format 'cubin' (expected ptx or hsaco)"},
    {"TrailingToken", "perfdojo-launch-plan 1\nkernel k extra\n",
     "line 2: unexpected 'extra' at the end of the line"},
    {"DuplicateKernel", withHead("kernel k2\n"),
     "line 6: duplicate 'kernel' line"},
    {"UnknownStatement", withHead("lunch f\n"),
     "line 6: unknown statement 'lunch' (expected buffer, launch, loop or "
     "end)"},
    {"BufferWithoutRole", withHead("buffer z f32 4 6\n"),
     "line 6: expected a role at the end of the line"},
    {"UnknownRole", withHead("buffer z f32 4 6 input\n"),
     "line 6: unknown role 'input' (expected in, out, inout or scratch)"},
    {"ZeroElements", withHead("buffer z f32 4 0 in\n"),
     "line 6: buffer 'z' has 0 elements"},
    {"ZeroElementBytes", withHead("buffer z f32 0 6 in\n"),
     "line 6: element size 0 of buffer 'z' is not between 1 and 16 bytes"},
    {"HugeElementBytes", withHead("buffer z f32 32 6 in\n"),
     "line 6: expected an element size (a decimal number up to 16), found "
     "'32'"},
    {"ElementCountOverflow",
     withHead("buffer z f32 4 99999999999999999999 in\n"),
     "line 6: expected an element count (a decimal number up to "
     "9223372036854775807), found '99999999999999999999'"},
    {"ByteCountOverflow", withHead("buffer z f64 8 4611686018427387904 in\n"),
     "line 6: buffer 'z' of 4611686018427387904 elements of 8 bytes overflows "
     "a 64-bit byte count"},
    {"NegativeElements", withHead("buffer z f32 4 -6 in\n"),
     "line 6: expected an element count (a decimal number up to "
     "9223372036854775807), found '-6'"},
    {"DuplicateBuffer", withHead("buffer x f32 4 6 out\n"),
     "line 6: duplicate buffer name 'x'"},
    {"PathInName", withHead("buffer ../z f32 4 6 in\n"),
     "line 6: invalid buffer name '../z' (letters, digits, '_', '$', '.' and "
     "'-' only)"},
    {"BufferAfterLaunch",
     withHead("launch f grid 1 1 1 block 1 1 1 shared 0 args\n"
              "buffer z f32 4 6 in\n"),
     "line 7: buffers must come before the first launch or loop"},
    {"MissingGrid", withHead("launch f block 1 1 1 shared 0 args\n"),
     "line 6: expected 'grid', found 'block'"},
    {"ShortGrid", withHead("launch f grid 1 1 block 1 1 1 shared 0 args\n"),
     "line 6: expected grid z (a decimal number up to 4294967295), found "
     "'block'"},
    {"ZeroGrid", withHead("launch f grid 1 0 1 block 1 1 1 shared 0 args\n"),
     "line 6: launch f: grid dimension y is 0"},
    {"ZeroBlock", withHead("launch f grid 1 1 1 block 1 1 0 shared 0 args\n"),
     "line 6: launch f: block dimension z is 0"},
    {"GridOverflow",
     withHead("launch f grid 4294967296 1 1 block 1 1 1 shared 0 args\n"),
     "line 6: expected grid x (a decimal number up to 4294967295), found "
     "'4294967296'"},
    {"NegativeBlock",
     withHead("launch f grid 1 1 1 block -32 1 1 shared 0 args\n"),
     "line 6: expected block x (a decimal number up to 4294967295), found "
     "'-32'"},
    {"SharedOverflow",
     withHead("launch f grid 1 1 1 block 1 1 1 shared 4294967296 args\n"),
     "line 6: expected a shared byte count (a decimal number up to "
     "4294967295), found '4294967296'"},
    {"MissingArgs", withHead("launch f grid 1 1 1 block 1 1 1 shared 0\n"),
     "line 6: expected 'args' at the end of the line"},
    {"UnknownArgument",
     withHead("launch f grid 1 1 1 block 1 1 1 shared 0 args ptr:0\n"),
     "line 6: expected an argument 'buffer:I', 'loop:D' or 'const:V', found "
     "'ptr:0'"},
    {"BufferIndexOutOfRange",
     withHead("launch f grid 1 1 1 block 1 1 1 shared 0 args buffer:2\n"),
     "line 6: launch f: buffer index 2 out of range (the plan has 2 "
     "buffers)"},
    {"BufferIndexNotNumber",
     withHead("launch f grid 1 1 1 block 1 1 1 shared 0 args buffer:x\n"),
     "line 6: buffer index 'x' is not a decimal 32-bit number"},
    {"LoopIndexOutsideLoops",
     withHead("launch f grid 1 1 1 block 1 1 1 shared 0 args loop:0\n"),
     "line 6: launch f: loop index 0 needs 1 enclosing loops, found 0"},
    {"LoopIndexTooDeep",
     withHead("loop 2\nloop 3\n"
              "launch f grid 1 1 1 block 1 1 1 shared 0 args loop:2\n"),
     "line 8: launch f: loop index 2 needs 3 enclosing loops, found 2"},
    {"ConstantOverflow",
     withHead("launch f grid 1 1 1 block 1 1 1 shared 0 args "
              "const:9223372036854775808\n"),
     "line 6: constant '9223372036854775808' is not a decimal 64-bit "
     "integer"},
    {"ConstantNotNumber",
     withHead("launch f grid 1 1 1 block 1 1 1 shared 0 args const:1e3\n"),
     "line 6: constant '1e3' is not a decimal 64-bit integer"},
    {"ZeroTripLoop", withHead("loop 0\nend\n"),
     "line 6: loop trip count 0 is not positive"},
    {"LoopWithoutCount", withHead("loop\n"),
     "line 6: expected a trip count at the end of the line"},
    {"EndWithoutLoop", withHead("end\n"), "line 6: 'end' without an open loop"},
    {"UnclosedLoop",
     withHead("loop 2\nloop 2\nend\n"
              "launch f grid 1 1 1 block 1 1 1 shared 0 args\n"),
     "line 9: the loop opened at line 6 has no 'end'"},
};

class LaunchPlanError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(LaunchPlanError, NamesTheLine) {
  EXPECT_EQ(parseError(GetParam().text), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(Cases, LaunchPlanError,
                         ::testing::ValuesIn(kErrorCases),
                         [](const ::testing::TestParamInfo<ErrorCase> &info) {
                           return std::string(info.param.name);
                         });

TEST(LaunchPlan, LoopsNestAtMost256Deep) {
  std::string ok = kHead, deep = kHead;
  for (int i = 0; i < 256; ++i)
    ok += "loop 1\n";
  for (int i = 0; i < 256; ++i)
    ok += "end\n";
  std::string error;
  EXPECT_TRUE(LaunchPlan::parse(ok, error)) << error;
  for (int i = 0; i < 257; ++i)
    deep += "loop 1\n";
  EXPECT_EQ(parseError(deep), "line 262: loops nest deeper than 256");
}

TEST(LaunchPlan, VerifyRejectsBuiltNonsense) {
  auto base = [] {
    LaunchPlan plan;
    plan.kernel = "k";
    plan.target = "sm_90";
    plan.binaryFormat = "ptx";
    plan.buffers.push_back({"x", "f32", 4, 6, PlanBuffer::Role::In});
    PlanStep step;
    step.launch.function = "f";
    step.launch.arguments = {{PlanArgument::Kind::Buffer, 0, 0}};
    plan.steps.push_back(step);
    return plan;
  };
  std::string error;
  ASSERT_TRUE(base().verify(error)) << error;

  LaunchPlan plan = base();
  plan.kernel = "two words";
  EXPECT_FALSE(plan.verify(error));
  EXPECT_EQ(error, "invalid kernel name 'two words' (letters, digits, '_', "
                   "'$', '.' and '-' only)");

  plan = base();
  plan.binaryFormat = "elf";
  EXPECT_FALSE(plan.verify(error));
  EXPECT_EQ(error, "unknown binary format 'elf' (expected ptx or hsaco)");

  plan = base();
  plan.buffers.push_back(plan.buffers[0]);
  EXPECT_FALSE(plan.verify(error));
  EXPECT_EQ(error, "duplicate buffer name 'x'");

  plan = base();
  plan.steps[0].launch.arguments[0].index = 1;
  EXPECT_FALSE(plan.verify(error));
  EXPECT_EQ(error,
            "launch f: buffer index 1 out of range (the plan has 1 buffers)");

  plan = base();
  plan.steps[0].launch.sharedBytes = uint64_t(1) << 32;
  EXPECT_FALSE(plan.verify(error));
  EXPECT_EQ(error, "launch f: 4294967296 shared bytes exceed the 32-bit "
                   "range of a launch");

  plan = base();
  PlanStep loop;
  loop.kind = PlanStep::Kind::Loop;
  loop.tripCount = -1;
  plan.steps.push_back(loop);
  EXPECT_FALSE(plan.verify(error));
  EXPECT_EQ(error, "loop trip count -1 is not positive");
}

// Truncations at every byte and random corruptions: each either parses to a
// plan that prints and parses again, or is rejected with a line number.
TEST(LaunchPlan, MalformedTextNeverCrashes) {
  std::string text = kPlan;
  auto check = [](const std::string &t) {
    std::string error;
    std::optional<LaunchPlan> plan = LaunchPlan::parse(t, error);
    if (!plan) {
      EXPECT_EQ(error.rfind("line ", 0), 0u) << error;
      return;
    }
    EXPECT_TRUE(plan->verify(error)) << error;
    std::optional<LaunchPlan> again = LaunchPlan::parse(plan->print(), error);
    ASSERT_TRUE(again) << error;
    EXPECT_EQ(again->print(), plan->print());
  };
  for (size_t n = 0; n <= text.size(); ++n)
    check(text.substr(0, n));
  std::mt19937 rng(2026);
  const char alphabet[] = "0123456789 \n\t:-#abz\0\xff";
  for (int i = 0; i < 3000; ++i) {
    std::string t = text;
    for (int k = 0; k < 3; ++k)
      t[rng() % t.size()] = alphabet[rng() % (sizeof(alphabet) - 1)];
    check(t);
  }
}

} // namespace
