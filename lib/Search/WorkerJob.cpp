//===- WorkerJob.cpp - one candidate's run in a worker process ------------===//

#include "perfdojo/Search/WorkerJob.h"
#include "perfdojo/Runtime/RunReport.h"
#include "perfdojo/Support/FileIO.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace perfdojo;

WorkerPool::~WorkerPool() = default;

llvm::json::Value perfdojo::toJSON(const WorkerJob &job) {
  return llvm::json::Object{{"runner", job.runner},
                            {"text", job.text},
                            {"key", job.key},
                            {"original", job.isOriginal},
                            {"flags", job.flags},
                            {"baseline", job.baselinePath},
                            {"reference", job.referencePath},
                            {"save_reference", job.saveReferencePath},
                            {"timing_lock", job.timingLock},
                            {"timeout_s", job.timeoutSeconds},
                            {"memory_mib", job.memoryLimitMiB},
                            {"gpu_bundle", job.gpuBundleDir}};
}

bool perfdojo::fromJSON(const llvm::json::Value &value, WorkerJob &job,
                        llvm::json::Path path) {
  llvm::json::ObjectMapper o(value, path);
  return o && o.map("runner", job.runner) && o.map("text", job.text) &&
         o.map("key", job.key) && o.map("original", job.isOriginal) &&
         o.map("flags", job.flags) && o.map("baseline", job.baselinePath) &&
         o.map("reference", job.referencePath) &&
         o.map("save_reference", job.saveReferencePath) &&
         o.map("timing_lock", job.timingLock) &&
         o.map("timeout_s", job.timeoutSeconds) &&
         o.map("memory_mib", job.memoryLimitMiB) &&
         o.mapOptional("gpu_bundle", job.gpuBundleDir);
}

/// " (workers may use N MiB: ...)" after a worker's failure message when
/// a memory limit is set: running out of it looks like any other failure.
static std::string describeMemoryLimit(const WorkerJob &job) {
  if (job.memoryLimitMiB == 0)
    return "";
  return " (workers may use " + std::to_string(job.memoryLimitMiB) +
         " MiB: --worker-memory-mib)";
}

Evaluation perfdojo::runWorkerJob(const WorkerJob &job) {
  Evaluation e;
  e.key = job.key;
  llvm::SmallString<128> kernelPath, outPath, errPath;
  llvm::sys::fs::createTemporaryFile("perfdojo-candidate", "dojo", kernelPath);
  llvm::sys::fs::createTemporaryFile("perfdojo-candidate", "json", outPath);
  llvm::sys::fs::createTemporaryFile("perfdojo-candidate", "err", errPath);
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(kernelPath);
    llvm::sys::fs::remove(outPath);
    llvm::sys::fs::remove(errPath);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(kernelPath, ec);
    os << job.text;
  }
  llvm::SmallVector<std::string> flags(job.flags.begin(), job.flags.end());
  if (!job.referencePath.empty())
    flags.push_back("--reference-outputs=" + job.referencePath);
  if (!job.saveReferencePath.empty())
    flags.push_back("--save-outputs=" + job.saveReferencePath);
  if (!job.timingLock.empty())
    flags.push_back("--timing-lock=" + job.timingLock);
  if (!job.baselinePath.empty())
    flags.push_back("--baseline=" + job.baselinePath);
  if (!job.gpuBundleDir.empty()) {
    flags.push_back("--gpu-bundle=" + job.gpuBundleDir);
    // The launcher regenerates the inputs there: bundles stay small.
    flags.push_back("--gpu-bundle-inputs=false");
  }
  llvm::SmallVector<llvm::StringRef> args = {job.runner, kernelPath,
                                             "--json"};
  args.append(flags.begin(), flags.end());
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(outPath), llvm::StringRef(errPath)};
  std::string error;
  bool failedToRun = false;
  auto start = std::chrono::steady_clock::now();
  int rc = llvm::sys::ExecuteAndWait(job.runner, args, std::nullopt,
                                     redirects, job.timeoutSeconds,
                                     job.memoryLimitMiB, &error,
                                     &failedToRun);
  e.workerSeconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  auto readFile = [](llvm::StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  };
  std::string err = readFile(errPath);
  if (failedToRun) {
    e.status = EvaluationStatus::Crashed;
    e.message = "cannot run " + job.runner + ": " + error;
    return e;
  }
  if (rc == -2) {
    bool timedOut = llvm::StringRef(error).contains("timed out");
    e.status = timedOut ? EvaluationStatus::Timeout : EvaluationStatus::Crashed;
    e.message = timedOut ? "exceeded " + std::to_string(job.timeoutSeconds) +
                               " s"
                         : error + (err.empty() ? "" : ": " + err) +
                               describeMemoryLimit(job);
    return e;
  }
  std::string out = readFile(outPath);
  if (rc == 0 && !job.gpuBundleDir.empty()) {
    // The program beside its bundle: what runs there, readable here.
    if (llvm::Error error =
            writeFile(job.gpuBundleDir + "/kernel.dojo", job.text)) {
      e.status = EvaluationStatus::Failed;
      e.message = llvm::toString(std::move(error));
      return e;
    }
    e.status = EvaluationStatus::Pending;
    e.message = "bundled in " + job.gpuBundleDir + " for the GPU machine";
    return e;
  }
  if (rc != 0) {
    e.status = rc == 2 ? EvaluationStatus::Mismatch : EvaluationStatus::Failed;
    e.message = llvm::StringRef(err).trim().str();
    if (rc != 2)
      e.message += describeMemoryLimit(job);
    // A mismatch still prints its report: where the original kernel is
    // itself off from the f64 reference, the mismatch is numerics.
    if (rc == 2) {
      if (llvm::Expected<RunReport> report = parseRunReport(out))
        e.numerics = llvm::any_of(report->outputs, [](const OutputSummary &o) {
          return !o.passed() && o.isOriginalOff();
        });
      else
        llvm::consumeError(report.takeError());
    }
    return e;
  }
  llvm::Expected<RunReport> report = parseRunReport(out);
  if (!report) {
    e.status = EvaluationStatus::Crashed;
    e.message = "the worker printed no report";
    // A document of another schema version says so.
    std::string reason = llvm::toString(report.takeError());
    if (!llvm::StringRef(out).trim().empty())
      e.message += ": " + reason;
    return e;
  }
  e.status = EvaluationStatus::Ok;
  e.seconds = report->medianSeconds;
  // Valid, with what the run says about numerics: the original kernel's
  // own error (measured once, by the original's run), and every output a
  // candidate passes by reproducing it.
  for (const OutputSummary &output : report->outputs)
    if (!output.note.empty() &&
        (job.isOriginal || (output.comparison && !output.comparison->passed())))
      e.message +=
          (e.message.empty() ? "" : "; ") + output.name + ": " + output.note;
  if (report->stoppedEarly)
    e.message += (e.message.empty() ? "" : "; ") +
                 llvm::formatv("timing stopped after {0} call(s): slower than "
                               "the search's limit (--stop-above-best)",
                               report->repetitions)
                     .str();
  if (report->compile)
    e.compileMs = report->compile->totalMs;
  if (report->snitch)
    e.cycles = report->snitch->cycles;
  return e;
}

