//===- ModeRules.cpp - the one taxonomy of scope modes --------------------===//

#include "perfdojo/Dialect/Dojo/IR/ModeRules.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

bool perfdojo::dojo::isGpuMode(Mode mode) {
  return mode == Mode::gpu_grid || mode == Mode::gpu_block ||
         mode == Mode::gpu_warp;
}

bool perfdojo::dojo::isConcurrentMode(Mode mode) {
  return mode == Mode::parallel || mode == Mode::vector || isGpuMode(mode);
}

bool perfdojo::dojo::mayEnclose(Mode outer, Mode inner) {
  // Threads start only where no thread or replicated body runs already.
  auto startsThreads = [](Mode m) {
    return m == Mode::parallel || isGpuMode(m);
  };
  switch (outer) {
  case Mode::seq:
    return true;
  case Mode::vector:
    return false;
  case Mode::unroll:
  case Mode::parallel:
    return !startsThreads(inner);
  case Mode::gpu_grid:
    return inner != Mode::parallel;
  case Mode::gpu_block:
    return inner != Mode::parallel && inner != Mode::gpu_grid;
  case Mode::gpu_warp:
    return inner != Mode::parallel && inner != Mode::gpu_grid &&
           inner != Mode::gpu_block;
  case Mode::frep:
    // The sequencer repeats straight-line FP code: unrolled bodies only.
    return inner == Mode::unroll;
  }
  return false;
}

std::optional<Mode> perfdojo::dojo::getRequiredEnclosingMode(Mode mode) {
  if (mode == Mode::gpu_block)
    return Mode::gpu_grid;
  if (mode == Mode::gpu_warp)
    return Mode::gpu_block;
  return std::nullopt;
}

std::string perfdojo::dojo::describeMode(Mode mode) {
  if (mode == Mode::seq)
    return "plain";
  // Indexed by Mode; seq is described above.
  static constexpr const char *kinds[] = {
      "",         "unrolled",  "parallel", "vector",
      "GPU grid", "GPU block", "GPU warp", "FREP"};
  return (":" + getModeSuffix(mode) + " (" +
          kinds[static_cast<unsigned>(mode)] + ")")
      .str();
}

std::optional<ModeRuleViolation>
perfdojo::dojo::findEnclosingModeViolation(ScopeOp scope, Mode mode) {
  std::optional<Mode> required = getRequiredEnclosingMode(mode);
  bool found = false;
  for (auto outer = scope->getParentOfType<ScopeOp>(); outer;
       outer = outer->getParentOfType<ScopeOp>()) {
    if (!mayEnclose(outer.getMode(), mode))
      return ModeRuleViolation{"a " + describeMode(mode) +
                                   " scope cannot be nested in a " +
                                   describeMode(outer.getMode()) + " scope",
                               outer, "the enclosing scope"};
    found |= required && outer.getMode() == *required;
  }
  if (required && !found)
    return ModeRuleViolation{"a " + describeMode(mode) +
                                 " scope must be nested in a " +
                                 describeMode(*required) + " scope",
                             nullptr, ""};
  if (mode == Mode::vector) {
    Block &body = scope.getBlock();
    if (!llvm::hasSingleElement(body) || !isa<LeafOp>(body.front()))
      return ModeRuleViolation{"a " + describeMode(mode) +
                                   " scope must hold exactly one leaf and "
                                   "nothing else",
                               nullptr, ""};
  }
  return std::nullopt;
}

std::optional<ModeRuleViolation>
perfdojo::dojo::findEnclosedModeViolation(ScopeOp scope, Mode mode) {
  std::optional<ModeRuleViolation> violation;
  scope.getBody().walk([&](ScopeOp inner) {
    if (mayEnclose(mode, inner.getMode()))
      return WalkResult::advance();
    violation = ModeRuleViolation{"a " + describeMode(mode) +
                                      " scope cannot enclose a " +
                                      describeMode(inner.getMode()) + " scope",
                                  inner, "the enclosed scope"};
    return WalkResult::interrupt();
  });
  return violation;
}
