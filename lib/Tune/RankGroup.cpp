//===- RankGroup.cpp - the processes of one tuning run --------------------===//

#include "perfdojo/Tune/RankGroup.h"


#ifdef PERFDOJO_WITH_MPI
#include <mpi.h>
#endif

#include <cstdlib>
#include <unistd.h>

using namespace perfdojo::tune;

static std::string getHostName() {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0)
    return "unknown";
  return name;
}

bool RankGroup::hasMpi() {
#ifdef PERFDOJO_WITH_MPI
  return true;
#else
  return false;
#endif
}

#ifdef PERFDOJO_WITH_MPI
/// Whether an MPI launcher started this process: each sets its ranks'
/// environment (OpenMPI's mpirun, MPICH's Hydra, PMI and PMIx, Slurm's
/// srun). Started by hand, the tool is one process and skips MPI_Init,
/// which costs a singleton MPI start.
static bool startedByLauncher() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK",
                           "PMIX_RANK", "SLURM_PROCID"})
    if (getenv(name))
      return true;
  return false;
}
#endif

RankGroup::RankGroup(int &argc, char **&argv) {
#ifdef PERFDOJO_WITH_MPI
  if (!startedByLauncher())
    return;
  // Rank 0 runs its tuning threads beside the one that talks MPI.
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) ==
      MPI_SUCCESS) {
    initialized = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
#endif
}

RankGroup::~RankGroup() {
#ifdef PERFDOJO_WITH_MPI
  if (initialized)
    MPI_Finalize();
#endif
}

bool RankGroup::start(bool go, std::string &runId) {
  std::string host = getHostName();
  if (size == 1) {
    hosts = {host};
    return go;
  }
#ifdef PERFDOJO_WITH_MPI
  char buffer[128] = {0};
  if (rank == 0)
    snprintf(buffer, sizeof(buffer), "%d%s", go ? 1 : 0, runId.c_str());
  MPI_Bcast(buffer, sizeof(buffer), MPI_CHAR, 0, MPI_COMM_WORLD);
  go = buffer[0] == '1';
  runId = buffer + 1;
  // Every rank's host, for the summary.
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  snprintf(name, sizeof(name), "%s", host.c_str());
  std::vector<char> all(rank == 0 ? size_t(size) * MPI_MAX_PROCESSOR_NAME : 1);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(),
             MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      hosts.push_back(all.data() + size_t(r) * MPI_MAX_PROCESSOR_NAME);
  // The ranks that share this rank's memory.
  MPI_Comm local;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                          MPI_INFO_NULL, &local) == MPI_SUCCESS) {
    MPI_Comm_size(local, &ranksOnHost);
    MPI_Comm_free(&local);
  }
#endif
  return go;
}
