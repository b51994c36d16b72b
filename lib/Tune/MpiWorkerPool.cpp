//===- MpiWorkerPool.cpp - worker jobs on the other MPI ranks -------------===//
//
// Messages between rank 0 and a worker rank: a JSON header with the tag
// of its kind, then the contents of the files it announces, each as its
// size and chunks of at most 1 GiB (MPI counts are ints).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Tune/MpiWorkerPool.h"
#include "perfdojo/Search/Evaluator.h"
#include "perfdojo/Support/FileIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <mpi.h>

#include <chrono>

using namespace perfdojo;
using namespace perfdojo::tune;

namespace {
enum Tag : int { kJob = 11, kResult = 12, kStop = 13, kBlob = 14 };
constexpr size_t kChunk = size_t(1) << 30;

void sendHeader(int to, Tag tag, const llvm::json::Value &header) {
  std::string text;
  llvm::raw_string_ostream(text) << header;
  MPI_Send(text.data(), int(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

/// Receives the header of the message `status` probed.
llvm::json::Value receiveHeader(const MPI_Status &status) {
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(size_t(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG,
           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return nullptr;
  }
  return std::move(*json);
}

void sendBlob(int to, llvm::StringRef bytes) {
  uint64_t size = bytes.size();
  MPI_Send(&size, 1, MPI_UINT64_T, to, kBlob, MPI_COMM_WORLD);
  for (size_t offset = 0; offset < bytes.size(); offset += kChunk) {
    size_t n = std::min(kChunk, bytes.size() - offset);
    MPI_Send(bytes.data() + offset, int(n), MPI_CHAR, to, kBlob,
             MPI_COMM_WORLD);
  }
}

std::string receiveBlob(int from) {
  uint64_t size = 0;
  MPI_Recv(&size, 1, MPI_UINT64_T, from, kBlob, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  std::string bytes(size, '\0');
  for (size_t offset = 0; offset < size; offset += kChunk) {
    size_t n = std::min<size_t>(kChunk, size - offset);
    MPI_Recv(bytes.data() + offset, int(n), MPI_CHAR, from, kBlob,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return bytes;
}

std::optional<std::string> readBytes(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
}

/// Writes `bytes` to `path` whole or not at all: readers of `path` (the
/// next job's worker) never see half a file.
bool writeAtomically(llvm::StringRef path, llvm::StringRef bytes) {
  std::string temporary = (path + ".part").str();
  if (llvm::Error error = writeFile(temporary, bytes)) {
    llvm::consumeError(std::move(error));
    return false;
  }
  return !llvm::sys::fs::rename(temporary, path);
}
} // namespace

MpiWorkerPool::MpiWorkerPool(const RankGroup &group) {
  for (int rank = group.getSize() - 1; rank >= 1; --rank)
    idle.push_back(rank);
}

Evaluation MpiWorkerPool::run(const WorkerJob &job) {
  std::future<Evaluation> result;
  {
    std::lock_guard<std::mutex> lock(mutex);
    queue.push_back(Pending{job, {}});
    result = queue.back().promise.get_future();
  }
  queued.notify_one();
  return result.get();
}

void MpiWorkerPool::send(int worker, Pending pending) {
  const WorkerJob &job = pending.job;
  llvm::json::Array files;
  std::vector<std::string> contents;
  for (const std::string *path : {&job.baselinePath, &job.referencePath}) {
    if (path->empty() || mirrored[worker].contains(*path))
      continue;
    std::optional<std::string> bytes = readBytes(*path);
    if (!bytes) {
      Evaluation e;
      e.key = job.key;
      e.status = EvaluationStatus::Failed;
      e.message = "perfdojo-tune: cannot read '" + *path +
                  "' to send it to rank " + std::to_string(worker);
      pending.promise.set_value(e);
      idle.push_back(worker);
      return;
    }
    files.push_back(*path);
    contents.push_back(std::move(*bytes));
  }
  sendHeader(worker, kJob,
             llvm::json::Object{{"job", toJSON(job)}, {"files", std::move(files)}});
  for (const std::string &bytes : contents)
    sendBlob(worker, bytes);
  for (const std::string *path : {&job.baselinePath, &job.referencePath})
    if (!path->empty())
      mirrored[worker].insert(*path);
  busy.emplace(worker, std::move(pending));
}

void MpiWorkerPool::receive() {
  MPI_Status status;
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &flag, &status);
  if (!flag)
    return;
  auto start = std::chrono::steady_clock::now();
  int worker = status.MPI_SOURCE;
  llvm::json::Value header = receiveHeader(status);
  const llvm::json::Object *o = header.getAsObject();
  auto it = busy.find(worker);
  Evaluation e;
  llvm::json::Path::Root root;
  const llvm::json::Value *evaluation = o ? o->get("evaluation") : nullptr;
  if (!evaluation || !fromJSON(*evaluation, e, root)) {
    e = Evaluation();
    e.status = EvaluationStatus::Crashed;
    e.message = "rank " + std::to_string(worker) + " sent no evaluation";
  }
  if (o && o->getBoolean("saved_reference").value_or(false)) {
    std::string bytes = receiveBlob(worker);
    const std::string &path = it->second.job.saveReferencePath;
    if (!path.empty() && writeAtomically(path, bytes))
      mirrored[worker].insert(path); // the worker kept its own copy
  }
  if (it != busy.end()) {
    it->second.promise.set_value(e);
    busy.erase(it);
  }
  idle.push_back(worker);
  ++results;
  coordinatorSeconds += std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count();
}

void MpiWorkerPool::serve(llvm::function_ref<bool()> finished) {
  // How long to wait for a new job before looking for results again: short
  // while results come in, backing off to 5 ms while none do (a job takes
  // far longer), so that polling costs rank 0 little CPU.
  using std::chrono::microseconds;
  microseconds wait(250);
  while (true) {
    std::unique_lock<std::mutex> lock(mutex);
    while (!idle.empty() && !queue.empty()) {
      int worker = idle.back();
      idle.pop_back();
      Pending pending = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      auto start = std::chrono::steady_clock::now();
      send(worker, std::move(pending));
      coordinatorSeconds += std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - start)
                                .count();
      lock.lock();
    }
    if (queue.empty() && busy.empty() && finished())
      break;
    // Wake for a new job at once, else look for results after `wait`.
    queued.wait_for(lock, busy.empty() ? microseconds(20000) : wait);
    lock.unlock();
    unsigned before = results;
    receive();
    wait = results != before ? microseconds(250)
                             : std::min(wait * 2, microseconds(5000));
  }
  for (int worker : idle)
    MPI_Send(nullptr, 0, MPI_CHAR, worker, kStop, MPI_COMM_WORLD);
}

void tune::serveWorkerJobs(const RankGroup &group, llvm::StringRef runId) {
  llvm::SmallString<128> directory;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, directory);
  std::string lock = (directory + "/perfdojo-tune-" + runId + ".lock").str();
  llvm::sys::path::append(directory, "perfdojo-tune-" + runId + "-rank" +
                                         std::to_string(group.getRank()));
  llvm::sys::fs::create_directories(directory);
  // Without a memory limit from rank 0, the ranks of this host share its
  // memory (as the local workers of one process do).
  unsigned defaultMemoryMiB =
      getDefaultWorkerMemoryMiB(unsigned(group.getRanksOnHost()));
  // Rank 0's paths -> this rank's copies.
  llvm::StringMap<std::string> local;
  auto localPath = [&](llvm::StringRef path) {
    return (directory + "/" + llvm::utohexstr(llvm::xxh3_64bits(path)) + "-" +
            llvm::sys::path::filename(path))
        .str();
  };
  while (true) {
    MPI_Status status;
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kStop) {
      MPI_Recv(nullptr, 0, MPI_CHAR, 0, kStop, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      break;
    }
    llvm::json::Value header = receiveHeader(status);
    const llvm::json::Object *o = header.getAsObject();
    WorkerJob job;
    llvm::json::Path::Root root;
    bool parsed = o && o->get("job") && fromJSON(*o->get("job"), job, root);
    if (const llvm::json::Array *files = o ? o->getArray("files") : nullptr)
      for (const llvm::json::Value &file : *files) {
        std::string path = file.getAsString().value_or("").str();
        std::string copy = localPath(path);
        if (writeAtomically(copy, receiveBlob(0)))
          local[path] = copy;
      }
    Evaluation e;
    std::string saved;
    if (!parsed) {
      e.status = EvaluationStatus::Crashed;
      e.message = "rank " + std::to_string(group.getRank()) +
                  " received a job it cannot read";
    } else {
      for (std::string *path : {&job.baselinePath, &job.referencePath})
        if (!path->empty())
          *path = local.lookup(*path);
      std::string rankZeroSave = job.saveReferencePath;
      if (!rankZeroSave.empty())
        job.saveReferencePath = localPath(rankZeroSave);
      job.timingLock = lock;
      if (job.memoryLimitMiB == 0)
        job.memoryLimitMiB = defaultMemoryMiB;
      e = runWorkerJob(job);
      if (!rankZeroSave.empty() && llvm::sys::fs::exists(job.saveReferencePath)) {
        if (std::optional<std::string> bytes =
                readBytes(job.saveReferencePath)) {
          saved = std::move(*bytes);
          local[rankZeroSave] = job.saveReferencePath;
        }
      }
    }
    sendHeader(0, kResult,
               llvm::json::Object{{"evaluation", toJSON(e)},
                                  {"saved_reference", !saved.empty()}});
    if (!saved.empty())
      sendBlob(0, saved);
  }
  // Rank 0 stops the ranks once no job is left anywhere: no rank of this
  // host takes the lock again.
  llvm::sys::fs::remove(lock);
  llvm::sys::fs::remove_directories(directory);
}
