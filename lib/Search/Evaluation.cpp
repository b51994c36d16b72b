//===- Evaluation.cpp - what evaluating one candidate found ---------------===//

#include "perfdojo/Search/Evaluation.h"

using namespace perfdojo;

llvm::StringRef perfdojo::stringifyEvaluationStatus(EvaluationStatus status) {
  switch (status) {
  case EvaluationStatus::Ok:
    return "ok";
  case EvaluationStatus::IllegalMove:
    return "illegal-move";
  case EvaluationStatus::Failed:
    return "failed";
  case EvaluationStatus::Crashed:
    return "crashed";
  case EvaluationStatus::Timeout:
    return "timeout";
  case EvaluationStatus::Mismatch:
    return "mismatch";
  case EvaluationStatus::Pruned:
    return "pruned";
  case EvaluationStatus::Pending:
    return "pending";
  }
  return "unknown";
}

static std::optional<EvaluationStatus> parseStatus(llvm::StringRef text) {
  for (EvaluationStatus s :
       {EvaluationStatus::Ok, EvaluationStatus::IllegalMove,
        EvaluationStatus::Failed, EvaluationStatus::Crashed,
        EvaluationStatus::Timeout, EvaluationStatus::Mismatch,
        EvaluationStatus::Pruned, EvaluationStatus::Pending})
    if (stringifyEvaluationStatus(s) == text)
      return s;
  return std::nullopt;
}

llvm::json::Value perfdojo::toJSON(const Evaluation &e) {
  llvm::json::Object o{{"status", stringifyEvaluationStatus(e.status)},
                       {"seconds", e.seconds},
                       {"compile_ms", e.compileMs},
                       {"worker_s", e.workerSeconds},
                       {"message", e.message},
                       {"numerics", e.numerics}};
  if (!e.key.empty())
    o["key"] = e.key;
  if (e.cycles)
    o["cycles"] = int64_t(*e.cycles);
  return o;
}

bool perfdojo::fromJSON(const llvm::json::Value &value, Evaluation &e,
                        llvm::json::Path path) {
  const llvm::json::Object *o = value.getAsObject();
  if (!o) {
    path.report("expected an evaluation object");
    return false;
  }
  std::optional<llvm::StringRef> status = o->getString("status");
  std::optional<EvaluationStatus> parsed =
      status ? parseStatus(*status) : std::nullopt;
  if (!parsed) {
    path.field("status").report("expected an evaluation status (ok, "
                                "failed, crashed, timeout, mismatch, ...)");
    return false;
  }
  e = Evaluation();
  e.status = *parsed;
  e.seconds = o->getNumber("seconds").value_or(0);
  if (std::optional<int64_t> cycles = o->getInteger("cycles"))
    e.cycles = *cycles;
  e.compileMs = o->getNumber("compile_ms").value_or(0);
  e.workerSeconds = o->getNumber("worker_s").value_or(0);
  e.key = o->getString("key").value_or("").str();
  e.message = o->getString("message").value_or("").str();
  e.numerics = o->getBoolean("numerics").value_or(false);
  return true;
}
