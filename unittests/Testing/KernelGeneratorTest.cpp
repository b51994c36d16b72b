//===- KernelGeneratorTest.cpp - random kernels and their checks ----------===//
//
// The generator of Testing/KernelGenerator.h (deterministic per seed, every
// kernel verifies, every feature shows up) and the comparison path of
// Testing/DifferentialRun.h (a planted difference is reported, bad text is
// an import failure). The tool's output is checked by
// test/Tools/fuzz-kernels.test.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Testing/DifferentialRun.h"
#include "perfdojo/Testing/KernelGenerator.h"
#include "perfdojo/Runtime/HostBuffer.h"
#include "perfdojo/Target/DojoText/DojoText.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace perfdojo;

namespace {

std::string typeName(Type t) { return getElementTypeName(t); }

constexpr const char *kAllTypes[] = {"f16", "bf16", "f32", "f64", "i8",
                                     "i16", "i32",  "i64", "bool"};

TEST(KernelGenerator, ElementTypesAreTheIRs) {
  MLIRContext context;
  std::set<std::string> names;
  for (Type t : getDojoElementTypes(&context))
    names.insert(typeName(t));
  for (const char *expected : kAllTypes)
    EXPECT_TRUE(names.count(expected)) << expected;
  // What the interpreter executes is a subset, read from the runtime.
  for (const std::string &name : getExecutableTypeNames())
    EXPECT_TRUE(names.count(name)) << name;
  EXPECT_FALSE(getExecutableTypeNames().empty());
}

TEST(KernelGenerator, DeterministicPerSeed) {
  MLIRContext a, b;
  KernelGenerator first(&a, {}), second(&b, {});
  std::set<std::string> texts;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    GeneratedKernel x = first.generate(seed), y = second.generate(seed);
    EXPECT_EQ(x.text, y.text) << "seed " << seed;
    EXPECT_EQ(x.features, y.features);
    texts.insert(x.text);
  }
  EXPECT_EQ(texts.size(), 20u) << "different seeds give different kernels";
}

/// A few hundred seeds over every IR element type: all verify (the
/// generator checks, and an independent import here checks again), and
/// together they cover every operation, reduction, mode the targets run,
/// location, layout feature and element type.
TEST(KernelGenerator, EveryKernelVerifiesAndFeaturesAreCovered) {
  MLIRContext context;
  context.printOpOnDiagnostic(false);
  KernelGenOptions options;
  options.gpuFraction = 0.3;
  KernelGenerator generator(&context, options);
  std::map<std::string, unsigned> features;
  std::set<std::string> dtypes;
  unsigned gpu = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    GeneratedKernel k = generator.generate(seed);
    ASSERT_TRUE(k.verified()) << "seed " << seed << ":\n"
                              << k.text << k.error;
    MLIRContext fresh;
    fresh.printOpOnDiagnostic(false);
    OwningOpRef<ModuleOp> module = importDojoString(k.text, &fresh);
    ASSERT_TRUE(module) << "seed " << seed << ":\n" << k.text;
    EXPECT_EQ(k.gpu, !isCpuExecutable(getSingleKernel(*module)));
    gpu += k.gpu;
    for (const auto &[f, n] : k.features)
      features[f] += n;
    dtypes.insert(k.dtypes.begin(), k.dtypes.end());
  }
  for (const char *op : {"copy", "add", "sub", "mul", "div", "max", "min",
                         "neg", "abs", "exp", "log", "sqrt", "rsqrt", "tanh",
                         "sigmoid", "relu"})
    EXPECT_GT(features[std::string("op:") + op], 0u) << op;
  for (const char *r : {"add", "mul", "max", "min"})
    EXPECT_GT(features[std::string("reduce:") + r], 0u) << r;
  for (const char *m : {"u", "p", "v", "g", "b"})
    EXPECT_GT(features[std::string("mode:") + m], 0u) << m;
  for (const char *f :
       {"loc:stack", "loc:reg", "reuse", "padding", "shared", "inout",
        "index-value", "constant", "constant:inf", "affine-index",
        "negative-stride", "strided-index", "slice-init", "accumulate",
        "top-level-leaf", "rank:0", "rank:1", "rank:2", "rank:3", "rank:4"})
    EXPECT_GT(features[f], 0u) << f;
  for (const char *t : kAllTypes)
    EXPECT_TRUE(dtypes.count(t)) << t;
  EXPECT_GT(gpu, 0u);
}

/// Only the requested element types appear.
TEST(KernelGenerator, RequestedTypesOnly) {
  MLIRContext context;
  KernelGenOptions options;
  options.dtypes = {Float64Type::get(&context)};
  KernelGenerator generator(&context, options);
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    GeneratedKernel k = generator.generate(seed);
    ASSERT_TRUE(k.verified()) << k.text << k.error;
    EXPECT_EQ(k.dtypes, std::vector<std::string>{"f64"});
  }
}

/// Each element type on its own: the kernels verify (so use only the
/// operations, reductions, constants and index values the type allows),
/// name the type as `.dojo` spells it, and still compute and reduce.
TEST(KernelGenerator, EveryTypeOnItsOwn) {
  MLIRContext context;
  context.printOpOnDiagnostic(false);
  for (Type t : getDojoElementTypes(&context)) {
    KernelGenOptions options;
    options.dtypes = {t};
    KernelGenerator generator(&context, options);
    std::map<std::string, unsigned> features;
    for (uint64_t seed = 1; seed <= 60; ++seed) {
      GeneratedKernel k = generator.generate(seed);
      ASSERT_TRUE(k.verified()) << typeName(t) << " seed " << seed << ":\n"
                                << k.text << k.error;
      EXPECT_EQ(k.dtypes, std::vector<std::string>{typeName(t)});
      for (const auto &[f, n] : k.features)
        features[f] += n;
    }
    EXPECT_GT(features["accumulate"], 0u) << typeName(t);
    EXPECT_GT(features["op:mul"] + features["op:max"] + features["op:min"],
              0u)
        << typeName(t);
    if (isBoolType(t)) {
      EXPECT_EQ(features["reduce:add"], 0u);
      EXPECT_EQ(features["index-value"], 0u);
      EXPECT_EQ(features["op:add"] + features["op:abs"] + features["op:neg"],
                0u);
    } else {
      EXPECT_GT(features["index-value"], 0u) << typeName(t);
    }
  }
}

/// Bool and narrow integers compute exactly: the interpreter and the JIT
/// agree with the reference bit for bit (tolerance 0).
TEST(DifferentialRun, BoolAndIntegerKernelsAgreeExactly) {
  for (const char *name : {"bool", "i8", "i16", "i64"}) {
    MLIRContext context;
    KernelGenOptions options;
    options.dtypes = {lookupElementType(name, &context)};
    options.gpuFraction = 0;
    KernelGenerator generator(&context, options);
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      GeneratedKernel k = generator.generate(seed);
      ASSERT_TRUE(k.verified()) << k.text << k.error;
      DifferentialResult r = checkKernel(k.text, {});
      EXPECT_TRUE(r.passed()) << name << " seed " << seed << ":\n"
                              << k.text
                              << (r.failures.empty() ? "" : r.failures[0]);
      EXPECT_GT(r.jitRuns, 0u);
    }
  }
}

/// Size limits: no buffer and no iteration box above maxElements.
TEST(KernelGenerator, WithinSizeLimits) {
  MLIRContext context;
  KernelGenOptions options;
  options.maxElements = 64;
  KernelGenerator generator(&context, options);
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    GeneratedKernel k = generator.generate(seed);
    ASSERT_TRUE(k.verified()) << k.text << k.error;
    MLIRContext fresh;
    OwningOpRef<ModuleOp> module = importDojoString(k.text, &fresh);
    ASSERT_TRUE(module);
    dojo::KernelOp kernel = getSingleKernel(*module);
    for (dojo::BufferOp b : kernel.getBuffers()) {
      int64_t n = 1;
      for (int64_t e : b.getShape())
        n *= e;
      EXPECT_LE(n, 64) << k.text;
    }
    kernel.walk([&](dojo::LeafOp leaf) {
      int64_t box = 1;
      for (auto s = leaf->getParentOfType<dojo::ScopeOp>(); s;
           s = s->getParentOfType<dojo::ScopeOp>())
        box *= s.getSize();
      EXPECT_LE(box, 64) << k.text;
    });
  }
}

//===----------------------------------------------------------------------===//
// The differential check
//===----------------------------------------------------------------------===//

constexpr const char *kKernel = "x f32 [4, 8] heap in\n"
                                "y f32 [4] heap out\n"
                                "4:p y[{0}] = 0\n"
                                "| 8 y[{0}] += exp(x[{0}, {1}])\n";

TEST(DifferentialRun, AgreeingEnginesPass) {
  DifferentialOptions options;
  options.walkLength = 4;
  DifferentialResult r = checkKernel(kKernel, options);
  EXPECT_TRUE(r.passed()) << (r.failures.empty() ? "" : r.failures[0]);
  EXPECT_TRUE(r.executable);
  EXPECT_FALSE(r.jitSkipped);
  EXPECT_EQ(r.jitRuns, 4u) << "-O0 and -O3 on 1 and 2 threads (a :p scope)";
  EXPECT_EQ(r.moves, 4u);
}

TEST(DifferentialRun, PlantedDifferenceIsReported) {
  DifferentialOptions options;
  options.plantFailure = true;
  DifferentialResult r = checkKernel(kKernel, options);
  ASSERT_EQ(r.failures.size(), 4u);
  for (const std::string &f : r.failures) {
    EXPECT_EQ(f.rfind("jit -O", 0), 0u) << f;
    EXPECT_NE(f.find("output 'y' differs from the f64 reference"),
              std::string::npos)
        << f;
  }
}

TEST(DifferentialRun, BadTextIsAnImportFailure) {
  DifferentialResult r = checkKernel("x f32 [4] heap in\n4 y[{0}] = 1\n", {});
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].rfind("import: ", 0), 0u) << r.failures[0];
}

/// The JIT child hands its outputs back byte for byte, not through double:
/// i64 results beyond 2^53 (here -2^63 + x, wrapping for negative x) must
/// agree exactly with the interpreters.
TEST(DifferentialRun, I64ResultsBeyondDoublePrecisionAgree) {
  DifferentialResult r =
      checkKernel("x i64 [4] heap in\ny i64 [4] heap out\n"
                  "4 y[{0}] = -9223372036854775808\n"
                  "4 y[{0}] += x[{0}]\n",
                  {});
  EXPECT_TRUE(r.passed()) << (r.failures.empty() ? "" : r.failures[0]);
  EXPECT_GT(r.jitRuns, 0u);
}

TEST(DifferentialRun, GpuKernelsSkipTheJit) {
  DifferentialResult r =
      checkKernel("x f32 [4] heap in\ny f32 [4] heap out\n"
                  "4:g y[{0}] = x[{0}] * 2\n",
                  {});
  EXPECT_TRUE(r.passed());
  EXPECT_TRUE(r.jitSkipped);
  EXPECT_EQ(r.jitRuns, 0u);
}

} // namespace
