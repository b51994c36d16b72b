//===- RankGroup.h - the processes of one tuning run ------------*- C++ -*-===//
//
// perfdojo-tune runs as one process or as the ranks of an MPI job
// (`mpirun -n N`, `srun`): rank 0 coordinates, the others evaluate
// candidates. A RankGroup is MPI's world when the build has MPI
// (PERFDOJO_ENABLE_MPI) and this process was started by an MPI launcher
// (its environment says so); otherwise this process alone, with no MPI call
// made.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TUNE_RANKGROUP_H
#define PERFDOJO_TUNE_RANKGROUP_H

#include <string>
#include <vector>

namespace perfdojo::tune {

class RankGroup {
public:
  /// Initializes MPI (one thread makes MPI calls: the one that calls this)
  /// when the build has it and a launcher started this process; `argc` and
  /// `argv` are MPI_Init's.
  RankGroup(int &argc, char **&argv);
  /// Finalizes MPI.
  ~RankGroup();
  RankGroup(const RankGroup &) = delete;
  RankGroup &operator=(const RankGroup &) = delete;

  int getRank() const { return rank; }
  int getSize() const { return size; }
  bool isCoordinator() const { return rank == 0; }
  /// Whether the build has MPI at all.
  static bool hasMpi();

  /// Collective, after every rank parsed its command line: rank 0 says
  /// whether the run goes ahead (false after an error it reported) and
  /// gives its run id; the others return what it said, with the id in
  /// `runId`. Rank 0 also learns every rank's host (getHosts).
  bool start(bool go, std::string &runId);

  /// Host names by rank (rank 0, after start).
  const std::vector<std::string> &getHosts() const { return hosts; }
  /// Ranks that share this rank's memory, this one included (after start).
  int getRanksOnHost() const { return ranksOnHost; }

private:
  int rank = 0, size = 1, ranksOnHost = 1;
  [[maybe_unused]] bool initialized = false;
  std::vector<std::string> hosts;
};

} // namespace perfdojo::tune

#endif // PERFDOJO_TUNE_RANKGROUP_H
