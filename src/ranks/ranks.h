// The processes of one run: the ranks of an MPI job when the program is started by mpirun (in a
// build with MPI, CMake option SPH_ENABLE_MPI), else one process. Without a launcher MPI is never
// initialised, so a plain start runs exactly as a build without MPI does.
//
// The ranks share out what-if branches (branches/branch_runner.h), or run one simulation whose
// devices they hold in turn (multi_device/rank_span.h). The collectives here are called from one
// thread per rank; messages (MessageBatch) from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace sph {

// Non-blocking messages between ranks, posted by one thread and waited for together. Several
// threads may each use their own batch at once (MPI_THREAD_MULTIPLE).
class MessageBatch {
public:
    virtual ~MessageBatch() = default;
    // `data` must stay as it is (send) or untouched (receive) until wait_all() returns. A
    // message is matched by its sender, receiver and tag (0 <= tag < Ranks::kTags).
    virtual void send(const void* data, std::size_t bytes, int to, int tag) = 0;
    virtual void receive(void* data, std::size_t bytes, int from, int tag) = 0;
    // Waits for every message posted since the last wait_all().
    virtual void wait_all() = 0;
};

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
    // Whether the MPI library loaded takes GPU memory in messages (CUDA-aware), as it says itself
    // (Open MPI's MPIX_Query_cuda_support; `ompi_info --parsable --all | grep
    // mpi_built_with_cuda_support` tells the same from the shell). --mpi-buffers direct needs it
    // for GPUs.
    static bool cuda_aware();

    // Collective (every rank calls it): every rank's text (any bytes), in rank order.
    virtual std::vector<std::string> all_gather(const std::string& mine) const { return {mine}; }
    // Collective: `root`'s text, on every rank.
    virtual std::string broadcast(const std::string& text, int /*root*/) const { return text; }
    // Tags a message may have: what MPI promises at the least.
    static constexpr int kTags = 32768;
    // A new batch of messages; throws std::runtime_error when the MPI library cannot take messages
    // from several threads at once (one process has no one to send to: logic_error).
    virtual std::unique_ptr<MessageBatch> messages() const;
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
