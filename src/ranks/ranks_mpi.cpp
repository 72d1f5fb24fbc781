// A build with MPI: the ranks of the job mpirun started, over MPI_COMM_WORLD.
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ranks/ranks.h"

namespace sph {

namespace {

// Messages over MPI_COMM_WORLD (none for an empty one: both ends know the sizes). One larger than
// MPI's int count goes as several, in order (MPI does not let messages of one sender and tag
// overtake each other).
class MpiMessages final : public MessageBatch {
public:
    void send(const void* data, std::size_t bytes, int to, int tag) override {
        const char* at = static_cast<const char*>(data);
        for (std::size_t done = 0; done < bytes;) {
            const int n = int(std::min<std::size_t>(bytes - done, kLargest));
            requests_.emplace_back();
            MPI_Isend(at + done, n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &requests_.back());
            done += std::size_t(n);
        }
    }
    void receive(void* data, std::size_t bytes, int from, int tag) override {
        char* at = static_cast<char*>(data);
        for (std::size_t done = 0; done < bytes;) {
            const int n = int(std::min<std::size_t>(bytes - done, kLargest));
            requests_.emplace_back();
            MPI_Irecv(at + done, n, MPI_BYTE, from, tag, MPI_COMM_WORLD, &requests_.back());
            done += std::size_t(n);
        }
    }
    void wait_all() override {
        MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
        requests_.clear();
    }
    ~MpiMessages() override {
        if (!requests_.empty()) wait_all();  // MPI may still write into the caller's memory
    }

private:
    static constexpr std::size_t kLargest = std::size_t(1) << 30;
    std::vector<MPI_Request> requests_;
};

// MPI initialised for the life of the object; finalised by it. Collectives on one thread of each
// rank; messages (a simulation's device threads) from any (MPI_THREAD_MULTIPLE where the
// library offers it).
class MpiRanks final : public Ranks {
public:
    MpiRanks(int& argc, char**& argv) {
        if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided_) != MPI_SUCCESS) {
            throw std::runtime_error("MPI could not start (MPI_Init_thread failed)");
        }
        // Errors end the job with MPI's message rather than leaving a rank waiting.
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
    ~MpiRanks() override { MPI_Finalize(); }

    std::vector<std::string> all_gather(const std::string& mine) const override {
        const int length = static_cast<int>(mine.size());
        std::vector<int> lengths(static_cast<std::size_t>(size_)), starts(lengths.size());
        MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
        int total = 0;
        for (std::size_t r = 0; r < lengths.size(); ++r) {
            starts[r] = total;
            total += lengths[r];
        }
        std::string all(static_cast<std::size_t>(total), '\0');
        MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), starts.data(),
                       MPI_CHAR, MPI_COMM_WORLD);
        std::vector<std::string> texts;
        for (std::size_t r = 0; r < lengths.size(); ++r) {
            texts.push_back(all.substr(std::size_t(starts[r]), std::size_t(lengths[r])));
        }
        return texts;
    }

    std::unique_ptr<MessageBatch> messages() const override {
        if (provided_ < MPI_THREAD_MULTIPLE) {
            throw std::runtime_error(
                "this MPI library (" + mpi_library() +
                ") does not let several threads send at once (MPI_THREAD_MULTIPLE), which one "
                "simulation across ranks needs; use an MPI built with thread support");
        }
        return std::make_unique<MpiMessages>();
    }

    std::string broadcast(const std::string& text, int root) const override {
        int length = static_cast<int>(text.size());
        MPI_Bcast(&length, 1, MPI_INT, root, MPI_COMM_WORLD);
        std::string out = rank_ == root ? text : std::string(std::size_t(length), '\0');
        MPI_Bcast(out.data(), length, MPI_CHAR, root, MPI_COMM_WORLD);
        return out;
    }

    [[noreturn]] void abort(int code) const override {
        std::cout.flush();
        std::cerr.flush();
        MPI_Abort(MPI_COMM_WORLD, code);
        std::_Exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest
    }

private:
    int provided_ = MPI_THREAD_SINGLE;
};

}  // namespace

std::unique_ptr<Ranks> Ranks::join(int& argc, char**& argv) {
    if (!launched_by_mpi()) return std::make_unique<Ranks>();
    return std::make_unique<MpiRanks>(argc, argv);
}

bool Ranks::built_with_mpi() {
    return true;
}

// Asked of the library loaded at run time, which may be another build of the same Open MPI than
// the headers this was compiled with (Debian's says MPIX_CUDA_AWARE_SUPPORT 0, yet a CUDA-aware
// build of the same version can be loaded in its place).
bool Ranks::cuda_aware() {
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    return MPIX_Query_cuda_support() == 1;
#else
    return false;  // a library that cannot say
#endif
}

std::string Ranks::mpi_library() {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    std::string text(version, std::size_t(length));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
    return text;
}

}  // namespace sph
