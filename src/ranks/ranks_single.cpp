// A build without MPI: always one process.
#include "ranks/ranks.h"

namespace sph {

std::unique_ptr<Ranks> Ranks::join(int&, char**&) {
    return std::make_unique<Ranks>();
}
bool Ranks::built_with_mpi() {
    return false;
}
bool Ranks::cuda_aware() {
    return false;
}
std::string Ranks::mpi_library() {
    return "none (built without MPI)";
}

}  // namespace sph
