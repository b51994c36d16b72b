//===- LibraryOutput.cpp - what a tuning run leaves behind ----------------===//

#include "perfdojo/Tune/LibraryOutput.h"
#include "perfdojo/Moves/Move.h"
#include "perfdojo/Support/FileIO.h"
#include "perfdojo/Target/DojoText/DojoText.h"
#include "perfdojo/Target/DojoText/KernelFile.h"
#include "perfdojo/Target/LLVM/Emit.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FileSystem.h"

using namespace perfdojo;
using namespace perfdojo::tune;

/// The best program of `result`: the entry's kernel after its moves, as
/// canonical `.dojo` text.
static llvm::Expected<std::string> getBestText(const ManifestEntry &entry,
                                               const UnitResult &result) {
  KernelFile file;
  dojo::KernelOp kernel = file.load(entry.kernelPath);
  if (!kernel)
    return llvm::createStringError("cannot load '" + entry.kernelPath + "'");
  if (hashKernel(kernel) != result.kernelHash)
    return llvm::createStringError("'" + entry.kernelPath +
                                   "' changed since it was tuned");
  if (mlir::failed(applyMoves(kernel, result.moves, MoveOptions())))
    return llvm::createStringError("the recorded moves no longer apply to '" +
                                   entry.kernelPath + "'");
  std::string text;
  llvm::raw_string_ostream os(text);
  exportDojo(kernel, os);
  return text;
}

llvm::Error tune::writeLibrary(const LibraryTuner &tuner, const RecordLog &log,
                               const RunFacts &facts, llvm::StringRef outDir,
                               llvm::StringRef objectTarget) {
  const Manifest &manifest = tuner.getManifest();
  std::string objects = (outDir + "/objects").str();
  if (std::error_code ec = llvm::sys::fs::create_directories(objects))
    return llvm::createStringError("cannot create '" + objects +
                                   "': " + ec.message());
  mlir::MLIRContext headerContext;
  mlir::OwningOpRef<mlir::ModuleOp> library =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&headerContext));
  llvm::json::Array entries;
  for (const Unit &unit : tuner.getUnits()) {
    const ManifestEntry &entry = manifest.entries[unit.entry];
    llvm::json::Object o{{"entry", int64_t(unit.entry)},
                         {"kernel", entry.kernel},
                         {"function", unit.function},
                         {"threads", unit.threads},
                         {"strategy", entry.strategy}};
    auto it = log.getResults().find(unit.id);
    if (it == log.getResults().end()) {
      o["validated"] = false;
      for (const auto &[failed, why] : tuner.getFailures())
        if (failed->id == unit.id)
          o["error"] = why;
      entries.push_back(std::move(o));
      continue;
    }
    const UnitResult &r = it->second;
    o["best_time_s"] = r.bestSeconds;
    o["original_time_s"] = r.originalSeconds;
    o["speedup"] = r.bestSeconds > 0 ? r.originalSeconds / r.bestSeconds : 0.0;
    o["validated"] = r.validated;
    o["evaluations"] = r.evaluations;
    llvm::json::Array moves;
    for (const MoveRequest &move : r.moves)
      moves.push_back(move.str());
    o["moves"] = std::move(moves);

    llvm::Expected<std::string> text = getBestText(entry, r);
    if (!text)
      return llvm::createStringError(unit.function + ": " +
                                     llvm::toString(text.takeError()));
    // The kernel is named after its function; a clone is lowered into the
    // object, the kernel itself joins the header's module.
    mlir::OwningOpRef<mlir::ModuleOp> parsed =
        importDojoString(*text, &headerContext, unit.function + ".dojo");
    if (!parsed)
      return llvm::createStringError(unit.function +
                                     ": the best program does not read back");
    mlir::OwningOpRef<mlir::ModuleOp> module = parsed->clone();
    for (mlir::Operation &op :
         llvm::make_early_inc_range(parsed->getBody()->getOperations()))
      op.moveBefore(library->getBody(), library->getBody()->end());

    std::string object = objects + "/" + unit.function + ".o";
    EmitOptions emit;
    emit.kind = EmitKind::Object;
    emit.target = objectTarget.str();
    std::string bytes;
    llvm::raw_string_ostream os(bytes);
    if (llvm::Error error = emitKernelLibrary(*module, emit, os))
      return llvm::createStringError(unit.function + ": " +
                                     llvm::toString(std::move(error)));
    if (llvm::Error error = writeFile(object, bytes))
      return error;
    o["object"] = ("objects/" + unit.function + ".o");
    entries.push_back(std::move(o));
  }

  // A header declares at least one function: without any, none is written
  // (and none of an earlier run is left).
  std::string headerPath = (outDir + "/" + kHeaderFile).str();
  if (library->getBody()->empty()) {
    llvm::sys::fs::remove(headerPath);
  } else {
    std::string header;
    llvm::raw_string_ostream headerStream(header);
    if (mlir::failed(
            emitCHeader(*library, headerStream, "PERFDOJO_LIBRARY_H")))
      return llvm::createStringError("cannot write the library's C header");
    if (llvm::Error error = writeFile(headerPath, header))
      return error;
  }

  llvm::json::Array hosts;
  for (const std::string &host : facts.hosts)
    hosts.push_back(host);
  llvm::json::Object report{
      {"schema_version", 1},
      {"manifest", manifest.path},
      {"entries", std::move(entries)},
      {"ranks", facts.ranks},
      {"hosts", std::move(hosts)},
      {"elapsed_s", tuner.getElapsedSeconds()},
      {"evaluations_run", tuner.getEvaluationsRun()},
      {"evaluations_reused", tuner.getEvaluationsReused()},
      {"evaluations_per_minute", facts.evaluationsPerMinute},
      {"coordinator_s_per_result", facts.coordinatorSecondsPerResult},
      {"dispatch_s_per_result", facts.dispatchSecondsPerResult},
      {"worker_s_per_evaluation", facts.workerSecondsPerEvaluation},
      {"saturation_ranks", facts.saturationRanks()},
      {"header", library->getBody()->empty() ? llvm::json::Value(nullptr)
                                              : llvm::json::Value(kHeaderFile)}};
  std::string json;
  llvm::raw_string_ostream(json) << llvm::formatv(
      "{0:2}", llvm::json::Value(std::move(report)));
  return writeFile(outDir + "/" + kReportFile, json + "\n");
}
