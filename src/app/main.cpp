// Entry point of a problem executable; the problem and its split axis are compiled in.
#include <iostream>
#include <memory>

#include "app/run_app.h"
#include "problem.h"
#include "ranks/ranks.h"

#ifndef SPH_SPLIT_AXIS
#error "SPH_SPLIT_AXIS must name the compile-time split axis (0 x, 1 y, 2 z)"
#endif

namespace sph {
// Defined by the problem's *_main.cpp; a problem read from a file (the case executable) finds it
// in the arguments. Throws std::invalid_argument for a file it refuses.
std::unique_ptr<Problem> make_problem(int argc, const char* const argv[]);
}  // namespace sph

int main(int argc, char** argv) {
    std::unique_ptr<sph::Ranks> ranks;  // MPI ranks under mpirun, else one process
    try {
        ranks = sph::Ranks::join(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    std::unique_ptr<sph::Problem> problem;
    try {
        problem = sph::make_problem(argc, argv);
    } catch (const std::invalid_argument& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    return sph::run_app(argc, argv, *problem, SPH_SPLIT_AXIS, std::cout, std::cerr, *ranks);
}
