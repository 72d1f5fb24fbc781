// The processes of one run: the ranks of an MPI job when the program is started by mpirun (in a
// build with MPI, CMake option SPH_ENABLE_MPI), else one process. Without a launcher MPI is never
// initialised, so a plain start runs exactly as a build without MPI does.
//
// Today the ranks share out what-if branches (driver/branch_runner.h); one simulation across
// ranks (slices per rank, edge forces over MPI) is issue 25's next piece. The collectives here
// carry text (a few lines per rank) and are called from one thread per rank.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace sph {

class Ranks {
public:
    // One process: rank 0 of 1.
    Ranks() = default;
    // Joins the MPI job when an MPI launcher started the program (its environment says so) and
    // the build has MPI; else rank 0 of 1. Throws std::runtime_error when MPI cannot start.
    static std::unique_ptr<Ranks> join(int& argc, char**& argv);
    virtual ~Ranks() = default;
    Ranks(const Ranks&) = delete;
    Ranks& operator=(const Ranks&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    // Whether this build can run as MPI ranks (and how to tell whether its MPI is CUDA-aware:
    // the text names the library's version).
    static bool built_with_mpi();
    static std::string mpi_library();

    // Collective (every rank calls it): every rank's text, in rank order.
    virtual std::vector<std::string> all_gather(const std::string& mine) const { return {mine}; }
    // Collective: `root`'s text, on every rank.
    virtual std::string broadcast(const std::string& text, int /*root*/) const { return text; }
    // Ends every rank of the job with exit code `code`, at once (MPI_Abort); with one rank, the
    // process.
    [[noreturn]] virtual void abort(int code) const;

protected:
    int rank_ = 0, size_ = 1;
};

// The one process of a run without MPI.
const Ranks& one_process();

// Whether the environment shows an MPI launcher's job of more than one process (Open MPI,
// MPICH/PMI, PMIx).
bool launched_by_mpi();

}  // namespace sph
