//===- ReferencePolicyTest.cpp - which reference validates a run ----------===//

#include "perfdojo/Runtime/ReferencePolicy.h"

#include "gtest/gtest.h"

using namespace perfdojo;

namespace {
RunOptions make(RunEngine engine, ReferenceEngine reference) {
  RunOptions options;
  options.engine = engine;
  options.referenceEngine = reference;
  options.interpLimit = 1000;
  return options;
}

TEST(ReferencePolicy, AutoTakesTheInterpreterUpToTheLimit) {
  RunOptions options = make(RunEngine::Jit, ReferenceEngine::Auto);
  EXPECT_EQ(selectReference(options, 1000), ReferenceKind::Interpreter);
  // Above it, the same f64 computation compiled.
  EXPECT_EQ(selectReference(options, 1001), ReferenceKind::Compiled);
}

TEST(ReferencePolicy, AutoOnTheInterpreterIgnoresTheLimit) {
  // The run itself is interpreted: the reference costs no more than it.
  RunOptions options = make(RunEngine::Interp, ReferenceEngine::Auto);
  EXPECT_EQ(selectReference(options, int64_t(1) << 40),
            ReferenceKind::Interpreter);
}

TEST(ReferencePolicy, ExplicitEnginesIgnoreTheLimit) {
  EXPECT_EQ(selectReference(make(RunEngine::Jit, ReferenceEngine::Interp),
                            int64_t(1) << 40),
            ReferenceKind::Interpreter);
  EXPECT_EQ(selectReference(make(RunEngine::Jit, ReferenceEngine::Compiled), 1),
            ReferenceKind::Compiled);
  EXPECT_EQ(
      selectReference(make(RunEngine::Interp, ReferenceEngine::Compiled), 1),
      ReferenceKind::Compiled);
}

TEST(ReferencePolicy, SavedOutputsWinOverTheEngine) {
  RunOptions options = make(RunEngine::Jit, ReferenceEngine::Interp);
  options.referenceOutputs = "original.outputs";
  EXPECT_EQ(selectReference(options, 1), ReferenceKind::SavedOutputs);
}

TEST(ReferencePolicy, UnvalidatedRunsHaveNoReference) {
  RunOptions options = make(RunEngine::Jit, ReferenceEngine::Interp);
  options.referenceOutputs = "original.outputs";
  options.validate = false;
  EXPECT_EQ(selectReference(options, 1), ReferenceKind::None);
  // The f64 reference mode is the reference.
  RunOptions reference = make(RunEngine::Interp, ReferenceEngine::Auto);
  reference.referenceMode = true;
  EXPECT_EQ(selectReference(reference, 1), ReferenceKind::None);
}

TEST(ReferencePolicy, Names) {
  EXPECT_EQ(describeReference(ReferenceKind::None), "");
  EXPECT_EQ(describeReference(ReferenceKind::Interpreter),
            "the f64 reference (interpreter)");
  EXPECT_EQ(describeReference(ReferenceKind::Compiled),
            "the f64 reference (compiled)");
  EXPECT_EQ(describeReference(ReferenceKind::SavedOutputs),
            "the saved f64 reference outputs");
}
} // namespace
