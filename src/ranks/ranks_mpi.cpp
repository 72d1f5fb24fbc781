// A build with MPI: the ranks of the job mpirun started, over MPI_COMM_WORLD.
#include <mpi.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "ranks/ranks.h"

namespace sph {

namespace {

// MPI initialised for the life of the object; finalised by it. Collectives on one thread of each
// rank (MPI_THREAD_FUNNELED): the device threads never call MPI.
class MpiRanks final : public Ranks {
public:
    MpiRanks(int& argc, char**& argv) {
        int provided = 0;
        if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
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
};

}  // namespace

std::unique_ptr<Ranks> Ranks::join(int& argc, char**& argv) {
    if (!launched_by_mpi()) return std::make_unique<Ranks>();
    return std::make_unique<MpiRanks>(argc, argv);
}

bool Ranks::built_with_mpi() {
    return true;
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
