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
  case ReferenceEngine::Compiled:
    return ReferenceKind::Compiled;
  case ReferenceEngine::Auto:
    // An interpreted run pays the interpreter's cost already.
    return options.engine == RunEngine::Interp ||
                   leafEvaluations <= options.interpLimit
               ? ReferenceKind::Interpreter
               : ReferenceKind::Compiled;
  }
  llvm_unreachable("unknown reference engine");
}

std::string perfdojo::describeReference(ReferenceKind kind) {
  switch (kind) {
  case ReferenceKind::None:
    return "";
  case ReferenceKind::Interpreter:
    return "the f64 reference (interpreter)";
  case ReferenceKind::Compiled:
    return "the f64 reference (compiled)";
  case ReferenceKind::SavedOutputs:
    return "the saved f64 reference outputs";
  }
  llvm_unreachable("unknown reference kind");
}
