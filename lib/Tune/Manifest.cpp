//===- Manifest.cpp - what perfdojo-tune is asked to tune -----------------===//

#include "perfdojo/Tune/Manifest.h"
#include "perfdojo/Search/Strategy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <memory>

using namespace perfdojo;
using namespace perfdojo::tune;

static bool isCIdentifier(llvm::StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

namespace {
/// Reads one entry; the first problem is kept with its field.
class EntryReader {
public:
  EntryReader(const llvm::json::Object &object, ManifestEntry &entry)
      : object(object), entry(entry) {}

  /// The first error found, as "FIELD: MESSAGE", or "".
  std::string read();

private:
  const llvm::json::Object &object;
  ManifestEntry &entry;
  std::string readKernel();
  std::string readThreads();
  std::string readStrategy();
  std::string readBudget();
  std::string readOthers();
};
} // namespace

std::string EntryReader::read() {
  static const char *known[] = {"kernel",         "name",   "threads",
                                "strategy",       "budget_evals",
                                "budget_seconds", "seed",   "target"};
  // The kernel first: the errors about the other fields name it.
  if (std::string error = readKernel(); !error.empty())
    return error;
  for (const auto &field : object)
    if (!llvm::is_contained(known, llvm::StringRef(field.first)))
      return field.first.str() + ": unknown field (expected one of " +
             llvm::join(llvm::ArrayRef(known), ", ") + ")";
  for (auto step : {&EntryReader::readThreads,
                    &EntryReader::readStrategy, &EntryReader::readBudget,
                    &EntryReader::readOthers})
    if (std::string error = (this->*step)(); !error.empty())
      return error;
  return "";
}

std::string EntryReader::readKernel() {
  std::optional<llvm::StringRef> kernel = object.getString("kernel");
  if (!kernel || kernel->empty())
    return "kernel: expected the path of a kernel file (a string)";
  entry.kernel = kernel->str();
  if (const llvm::json::Value *name = object.get("name")) {
    std::optional<llvm::StringRef> text = name->getAsString();
    if (!text || !isCIdentifier(*text))
      return "name: expected a C identifier (letters, digits and '_', not "
             "starting with a digit)";
    entry.name = text->str();
  } else {
    entry.name = llvm::sys::path::stem(*kernel).str();
    if (!isCIdentifier(entry.name))
      return "name: the kernel file's stem '" + entry.name +
             "' is not a C identifier; give a name";
  }
  return "";
}

std::string EntryReader::readThreads() {
  const llvm::json::Value *value = object.get("threads");
  if (!value)
    return ""; // default: 1
  const llvm::json::Array *list = value->getAsArray();
  if (!list || list->empty())
    return "threads: expected a non-empty list of thread counts";
  entry.threads.clear();
  for (const llvm::json::Value &item : *list) {
    std::optional<int64_t> n = item.getAsInteger();
    if (!n || *n < 1 || *n > 4096)
      return "threads: expected thread counts from 1 to 4096";
    if (llvm::is_contained(entry.threads, unsigned(*n)))
      return "threads: " + std::to_string(*n) + " is listed twice";
    entry.threads.push_back(unsigned(*n));
  }
  return "";
}

std::string EntryReader::readStrategy() {
  if (const llvm::json::Value *value = object.get("strategy")) {
    std::optional<llvm::StringRef> name = value->getAsString();
    if (!name)
      return "strategy: expected a strategy name (a string)";
    entry.strategy = name->str();
  }
  if (!createStrategy(entry.strategy))
    return "strategy: unknown strategy '" + entry.strategy +
           "' (available: " + llvm::join(getStrategyNames(), ", ") + ")";
  return "";
}

std::string EntryReader::readBudget() {
  if (const llvm::json::Value *value = object.get("budget_evals")) {
    std::optional<int64_t> n = value->getAsInteger();
    if (!n || *n < 0 || *n > std::numeric_limits<unsigned>::max())
      return "budget_evals: expected a number of evaluations (0: no limit)";
    entry.budgetEvals = unsigned(*n);
  }
  if (const llvm::json::Value *value = object.get("budget_seconds")) {
    std::optional<double> s = value->getAsNumber();
    if (!s || *s < 0 || !std::isfinite(*s))
      return "budget_seconds: expected a non-negative number of seconds (0: "
             "no limit)";
    entry.budgetSeconds = *s;
  }
  if (!entry.budgetEvals && !entry.budgetSeconds &&
      createStrategy(entry.strategy)->needsBudget())
    return "budget_evals: strategy '" + entry.strategy +
           "' searches until its budget is spent: give budget_evals and/or "
           "budget_seconds";
  return "";
}

std::string EntryReader::readOthers() {
  if (const llvm::json::Value *value = object.get("seed")) {
    std::optional<int64_t> n = value->getAsInteger();
    if (!n || *n < 0)
      return "seed: expected a non-negative integer";
    entry.seed = uint64_t(*n);
  }
  if (const llvm::json::Value *value = object.get("target")) {
    std::optional<llvm::StringRef> name = value->getAsString();
    if (!name)
      return "target: expected a target name (a string)";
    if (*name != "cpu")
      return "target: '" + name->str() +
             "' is not a target perfdojo-tune evaluates (expected cpu: "
             "perfdojo-search --target tunes one kernel for the others)";
    entry.target = name->str();
  }
  return "";
}

llvm::Expected<Manifest> tune::parseManifest(llvm::StringRef text,
                                             llvm::StringRef path) {
  auto fail = [&](const llvm::Twine &message) {
    return llvm::createStringError(path + ": " + message);
  };
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return fail("not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  if (!root)
    return fail("expected an object with \"entries\"");
  for (const auto &field : *root)
    if (field.first != "entries")
      return fail(field.first.str() + ": unknown field (the manifest has "
                                      "\"entries\" only)");
  const llvm::json::Array *entries = root->getArray("entries");
  if (!entries || entries->empty())
    return fail("entries: expected a non-empty list of entries");

  Manifest manifest;
  manifest.path = path.str();
  llvm::StringRef directory = llvm::sys::path::parent_path(path);
  llvm::StringMap<size_t> functions; // "<name>_t<threads>" -> entry
  for (auto [index, value] : llvm::enumerate(*entries)) {
    std::string where = "entries[" + std::to_string(index) + "]";
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return fail(where + ": expected an object");
    ManifestEntry entry;
    std::string error = EntryReader(*object, entry).read();
    if (!entry.kernel.empty())
      where += " (" + entry.kernel + ")";
    if (!error.empty())
      return fail(where + ": " + error);
    llvm::SmallString<256> resolved(entry.kernel);
    if (llvm::sys::path::is_relative(resolved) && !directory.empty())
      resolved = (directory + "/" + entry.kernel).str();
    entry.kernelPath = resolved.str().str();
    for (unsigned threads : entry.threads) {
      std::string function = entry.name + "_t" + std::to_string(threads);
      auto [it, inserted] = functions.insert({function, index});
      if (!inserted)
        return fail(where + ": name: the function " + function +
                    " is also tuned by entries[" + std::to_string(it->second) +
                    "]; give one of them another name");
    }
    manifest.entries.push_back(std::move(entry));
  }
  return manifest;
}

llvm::Expected<Manifest> tune::readManifest(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError("cannot read the manifest '" + path +
                                   "': " + buffer.getError().message());
  return parseManifest((*buffer)->getBuffer(), path);
}
