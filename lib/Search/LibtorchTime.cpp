//===- LibtorchTime.cpp - libtorch's time for the report's comparison -----===//
//
// libtorch runs in a perfdojo-run-torch process: the search itself does
// not link libtorch (a build may have none), and a failing operator cannot
// take the report down with it.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Search/SearchReport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

using namespace perfdojo;

LibtorchTime perfdojo::timeLibtorch(llvm::StringRef tool, llvm::StringRef input,
                                    unsigned threads, unsigned repetitions,
                                    CacheState cache,
                                    unsigned timeoutSeconds) {
  LibtorchTime result;
  if (!llvm::sys::fs::can_execute(tool)) {
    result.reason = "this build has no libtorch (PERFDOJO_ENABLE_TORCH=OFF)";
    return result;
  }
  llvm::SmallString<128> outPath, errPath;
  llvm::sys::fs::createTemporaryFile("perfdojo-torch", "json", outPath);
  llvm::sys::fs::createTemporaryFile("perfdojo-torch", "err", errPath);
  std::string threadsArg = "--threads=" + std::to_string(threads);
  std::string repsArg = "--reps=" + std::to_string(repetitions);
  std::string cacheArg = ("--cache-state=" + getCacheStateName(cache)).str();
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(outPath), llvm::StringRef(errPath)};
  int rc = llvm::sys::ExecuteAndWait(
      tool, {tool, input, "--json", threadsArg, repsArg, cacheArg},
      std::nullopt, redirects, timeoutSeconds);
  auto out = llvm::MemoryBuffer::getFile(outPath);
  auto err = llvm::MemoryBuffer::getFile(errPath);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  if (rc != 0) {
    llvm::StringRef message =
        err ? llvm::StringRef((*err)->getBuffer()).trim() : "";
    message.consume_front("perfdojo-run-torch: ");
    result.reason = message.empty() ? "perfdojo-run-torch failed"
                                    : message.split('\n').first.str();
    return result;
  }
  auto json = llvm::json::parse(out ? (*out)->getBuffer() : "");
  if (!json) {
    llvm::consumeError(json.takeError());
    result.reason = "perfdojo-run-torch printed no report";
    return result;
  }
  if (const llvm::json::Object *o = json->getAsObject()) {
    result.seconds = o->getNumber("time_median_s");
    result.operatorName = o->getString("operator").value_or("").str();
  }
  if (!result.seconds)
    result.reason = "perfdojo-run-torch printed no time";
  return result;
}
