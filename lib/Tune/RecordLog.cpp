//===- RecordLog.cpp - perfdojo-tune's records.jsonl ----------------------===//

#include "perfdojo/Tune/RecordLog.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <unistd.h>

using namespace perfdojo;
using namespace perfdojo::tune;

static llvm::json::Array movesToJSON(llvm::ArrayRef<MoveRequest> moves) {
  llvm::json::Array array;
  for (const MoveRequest &move : moves)
    array.push_back(move.str());
  return array;
}

static llvm::Error movesFromJSON(const llvm::json::Object &object,
                                 llvm::SmallVector<MoveRequest> &moves) {
  const llvm::json::Array *array = object.getArray("moves");
  if (!array)
    return llvm::createStringError("no moves");
  for (const llvm::json::Value &item : *array) {
    std::optional<llvm::StringRef> text = item.getAsString();
    if (!text)
      return llvm::createStringError("a move is not a string");
    llvm::Expected<MoveRequest> move = parseMoveRequest(*text);
    if (!move)
      return move.takeError();
    moves.push_back(*move);
  }
  return llvm::Error::success();
}

llvm::json::Value tune::toJSON(const UnitResult &r) {
  return llvm::json::Object{{"kind", "result"},
                            {"unit", r.unit},
                            {"kernel", r.kernel},
                            {"function", r.function},
                            {"kernel_hash", r.kernelHash},
                            {"strategy", r.strategy},
                            {"threads", r.threads},
                            {"moves", movesToJSON(r.moves)},
                            {"best_time_s", r.bestSeconds},
                            {"original_time_s", r.originalSeconds},
                            {"validated", r.validated},
                            {"evaluations", r.evaluations}};
}

llvm::Error RecordLog::readLine(llvm::StringRef line) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(line);
  if (!json)
    return json.takeError();
  const llvm::json::Object *o = json->getAsObject();
  std::optional<llvm::StringRef> kind = o ? o->getString("kind") : std::nullopt;
  if (kind == "evaluation") {
    EvaluationRecord record;
    record.kernelHash = o->getString("kernel_hash").value_or("").str();
    record.threads = unsigned(o->getInteger("threads").value_or(1));
    if (llvm::Error error = movesFromJSON(*o, record.moves))
      return error;
    const llvm::json::Value *evaluation = o->get("evaluation");
    llvm::json::Path::Root root;
    if (!evaluation || !fromJSON(*evaluation, record.evaluation, root) ||
        record.evaluation.key.empty())
      return llvm::createStringError("no evaluation with a key");
    evaluations.push_back(std::move(record));
    return llvm::Error::success();
  }
  if (kind == "result") {
    UnitResult r;
    r.unit = o->getString("unit").value_or("").str();
    r.kernel = o->getString("kernel").value_or("").str();
    r.function = o->getString("function").value_or("").str();
    r.kernelHash = o->getString("kernel_hash").value_or("").str();
    r.strategy = o->getString("strategy").value_or("").str();
    r.threads = unsigned(o->getInteger("threads").value_or(1));
    r.bestSeconds = o->getNumber("best_time_s").value_or(0);
    r.originalSeconds = o->getNumber("original_time_s").value_or(0);
    r.validated = o->getBoolean("validated").value_or(false);
    r.evaluations = unsigned(o->getInteger("evaluations").value_or(0));
    if (llvm::Error error = movesFromJSON(*o, r.moves))
      return error;
    if (r.unit.empty())
      return llvm::createStringError("a result without its unit");
    results[r.unit] = std::move(r);
    return llvm::Error::success();
  }
  return llvm::createStringError(
      "expected a record of kind \"evaluation\" or \"result\"");
}

llvm::Expected<std::unique_ptr<RecordLog>>
RecordLog::open(llvm::StringRef path) {
  std::unique_ptr<RecordLog> log(new RecordLog());
  log->path = path.str();
  uint64_t keep = 0; // bytes of whole, valid lines
  bool endLine = false; // the last record lacks its newline
  if (llvm::sys::fs::exists(path)) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!buffer)
      return llvm::createStringError("cannot read '" + path +
                                     "': " + buffer.getError().message());
    llvm::StringRef rest = (*buffer)->getBuffer();
    for (unsigned number = 1; !rest.empty(); ++number) {
      size_t end = rest.find('\n');
      llvm::StringRef line = rest.substr(0, end);
      bool last = end == llvm::StringRef::npos || end + 1 == rest.size();
      bool complete = end != llvm::StringRef::npos;
      llvm::Error error = line.trim().empty() ? llvm::Error::success()
                                              : log->readLine(line);
      if (error) {
        // The last line of a killed run may be cut short: drop it. A
        // complete line elsewhere that is no record is damage, not a kill.
        if (!last || complete) {
          return llvm::createStringError(
              path + ":" + std::to_string(number) +
              ": not a record: " + llvm::toString(std::move(error)) +
              " (remove the line to resume)");
        }
        llvm::consumeError(std::move(error));
        log->torn = true;
        break;
      }
      if (!complete) {
        // A whole record that lost only its newline: keep it, and end the
        // line before appending.
        endLine = true;
        break;
      }
      keep += end + 1;
      rest = rest.drop_front(end + 1);
    }
    if (log->torn)
      if (::truncate(log->path.c_str(), off_t(keep)) != 0)
        return llvm::createStringError(
            "cannot cut the torn last line of '" + path +
            "': " + std::error_code(errno, std::generic_category()).message());
  }
  std::error_code ec;
  log->os = std::make_unique<llvm::raw_fd_ostream>(path, ec,
                                                   llvm::sys::fs::OF_Append);
  if (ec)
    return llvm::createStringError("cannot append to '" + path +
                                   "': " + ec.message());
  // A last record without its newline gets one before the next record.
  if (endLine)
    *log->os << "\n";
  return log;
}

llvm::Error RecordLog::appendLine(llvm::json::Value line) {
  std::string text;
  llvm::raw_string_ostream(text) << line;
  text += '\n';
  std::lock_guard<std::mutex> lock(mutex);
  *os << text;
  os->flush();
  if (os->has_error()) {
    std::error_code ec = os->error();
    os->clear_error();
    return llvm::createStringError("cannot append to '" + path +
                                   "': " + ec.message());
  }
  return llvm::Error::success();
}

llvm::Error RecordLog::append(const EvaluationRecord &record) {
  return appendLine(llvm::json::Object{
      {"kind", "evaluation"},
      {"kernel_hash", record.kernelHash},
      {"threads", record.threads},
      {"moves", movesToJSON(record.moves)},
      {"validated", record.evaluation.ok()},
      {"evaluation", toJSON(record.evaluation)}});
}

llvm::Error RecordLog::append(const UnitResult &result) {
  if (llvm::Error error = appendLine(toJSON(result)))
    return error;
  std::lock_guard<std::mutex> lock(mutex);
  results[result.unit] = result;
  return llvm::Error::success();
}
