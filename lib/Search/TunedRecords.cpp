//===- TunedRecords.cpp - recorded search results by kernel hash ----------===//

#include "perfdojo/Search/TunedRecords.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace perfdojo;

namespace {
/// Whether `stem` is a kernel hash as hashKernelText prints it.
bool isKernelHash(llvm::StringRef stem) {
  return stem.size() == 16 && llvm::all_of(stem, [](char c) {
           return llvm::isDigit(c) || (c >= 'a' && c <= 'f');
         });
}

llvm::Error malformed(llvm::StringRef path, const llvm::Twine &why) {
  return llvm::createStringError(path + ": " + why);
}
} // namespace

llvm::Error TunedRecords::addScript(llvm::StringRef path,
                                    llvm::StringRef hash) {
  auto script = readMoveScriptFile(path);
  if (!script)
    return script.takeError();
  TunedProgram program;
  program.moves = std::move(*script);
  program.source = path.str();
  program.attached = true;
  programs[hash].push_back(std::move(program));
  return llvm::Error::success();
}

llvm::Error TunedRecords::addReport(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return malformed(path, "cannot read: " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return malformed(path, llvm::toString(json.takeError()));
  const llvm::json::Object *report = json->getAsObject();
  if (!report)
    return malformed(path, "expected a search report object");
  const llvm::json::Array *records = report->getArray("records");
  if (!records)
    return malformed(path, "no 'records' array (not a perfdojo-search "
                           "report.json?)");
  const llvm::json::Array *best = report->getArray("best_moves");
  if (!best)
    return llvm::Error::success(); // the search found no valid program
  // The original kernel is the record without moves; its key is the hash
  // of its canonical text, then `-t<threads>` (or a GPU or Snitch suffix).
  std::optional<llvm::StringRef> hash;
  for (const llvm::json::Value &value : *records) {
    const llvm::json::Object *record = value.getAsObject();
    const llvm::json::Array *moves = record ? record->getArray("moves") : nullptr;
    std::optional<llvm::StringRef> key = record ? record->getString("key")
                                                : std::nullopt;
    if (moves && moves->empty() && key && !key->empty()) {
      hash = key->split('-').first;
      break;
    }
  }
  if (!hash || !isKernelHash(*hash))
    return malformed(path, "no record of the original kernel with its key");
  TunedProgram program;
  program.source = path.str();
  for (const llvm::json::Value &value : *best) {
    std::optional<llvm::StringRef> text = value.getAsString();
    if (!text)
      return malformed(path, "'best_moves' holds a non-string");
    llvm::Expected<MoveRequest> move = parseMoveRequest(*text);
    if (!move)
      return malformed(path, "'best_moves': " + llvm::toString(move.takeError()));
    program.moves.push_back(std::move(*move));
  }
  if (std::optional<int64_t> threads = report->getInteger("threads"))
    program.threads = static_cast<unsigned>(std::max<int64_t>(0, *threads));
  if (std::optional<double> seconds = report->getNumber("best_time_s"))
    program.bestSeconds = *seconds;
  programs[*hash].push_back(std::move(program));
  return llvm::Error::success();
}

llvm::Expected<TunedRecords> TunedRecords::load(llvm::StringRef directory) {
  if (!llvm::sys::fs::is_directory(directory))
    return llvm::createStringError("'" + directory + "' is not a directory");
  TunedRecords result;
  std::error_code ec;
  // Sorted paths: which file wins a tie must not depend on the file system.
  std::vector<std::string> reports, scripts;
  for (llvm::sys::fs::recursive_directory_iterator it(directory, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef path = it->path();
    llvm::StringRef name = llvm::sys::path::filename(path);
    // `--out` directories hold report.json, `--cache` directories
    // <key>-<strategy>.report.json (writeCachedReport).
    if (name == "report.json" || name.ends_with(".report.json"))
      reports.push_back(path.str());
    else if (name.ends_with(".moves") &&
             llvm::sys::path::parent_path(path) == directory.rtrim('/') &&
             isKernelHash(llvm::sys::path::stem(name)))
      scripts.push_back(path.str());
  }
  if (ec)
    return llvm::createStringError("cannot list '" + directory +
                                   "': " + ec.message());
  llvm::sort(reports);
  llvm::sort(scripts);
  for (const std::string &path : scripts)
    if (llvm::Error error =
            result.addScript(path, llvm::sys::path::stem(path)))
      return std::move(error);
  for (const std::string &path : reports)
    if (llvm::Error error = result.addReport(path))
      return std::move(error);
  return result;
}

const TunedProgram *TunedRecords::lookup(llvm::StringRef hash,
                                         unsigned threads) const {
  auto it = programs.find(hash);
  if (it == programs.end())
    return nullptr;
  const TunedProgram *chosen = nullptr;
  for (const TunedProgram &program : it->second) {
    if (program.attached)
      return &program;
    if (threads && program.threads != threads)
      continue;
    if (!chosen || program.bestSeconds < chosen->bestSeconds)
      chosen = &program;
  }
  return chosen;
}
