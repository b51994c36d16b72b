//===- ReferencePolicy.cpp - which reference validates a run --------------===//

#include "perfdojo/Runtime/ReferencePolicy.h"

using namespace perfdojo;

ReferenceKind perfdojo::selectReference(const RunOptions &options,
                                        int64_t leafEvaluations) {
  // The reference mode is the reference: nothing to compare it with.
  if (!options.validate || options.referenceMode)
    return ReferenceKind::None;
  if (!options.referenceOutputs.empty())
    return ReferenceKind::SavedOutputs;
  switch (options.referenceEngine) {
  case ReferenceEngine::Interp:
    return ReferenceKind::Interpreter;
  case ReferenceEngine::Baseline:
    return ReferenceKind::Baseline;
  case ReferenceEngine::Auto:
    // An interpreted run pays the interpreter's cost already.
    return options.engine == RunEngine::Interp ||
                   leafEvaluations <= options.interpLimit
               ? ReferenceKind::Interpreter
               : ReferenceKind::Baseline;
  }
  llvm_unreachable("unknown reference engine");
}

double perfdojo::getToleranceScale(ReferenceKind kind) {
  return kind == ReferenceKind::Baseline || kind == ReferenceKind::SavedOutputs
             ? 2
             : 1;
}

std::string perfdojo::describeReference(ReferenceKind kind, bool hasBaseline) {
  switch (kind) {
  case ReferenceKind::None:
    return "";
  case ReferenceKind::Interpreter:
    return "the f64 reference (interpreter)";
  case ReferenceKind::Baseline:
    return hasBaseline ? "the baseline kernel (JIT)"
                       : "this kernel with modes cleared (JIT)";
  case ReferenceKind::SavedOutputs:
    return "the saved reference outputs";
  }
  llvm_unreachable("unknown reference kind");
}
