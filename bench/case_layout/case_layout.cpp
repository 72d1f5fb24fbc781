// How long a case takes to lay out, stage by stage, on this host's cores: reading its meshes and
// rasters, the lattice filled from its shapes (particles counted), and the particles laid out as
// a run lays them out (hydrostatic densities, fixed-point positions, counts per slice).
//   case_layout CASE.yaml DP [THREADS]
// Prints one line per stage and a JSON line at the end (bench/device_case_layout.sh keeps it).
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "cases/case_file.h"
#include "cases/case_problem.h"
#include "driver/run_setup.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Nearest-surface queries a second on one thread for each solid of the case: random points in
// the solid's bounds, within four spacings of its surface asked (the fill's question).
void print_query_rates(const sph::CaseProblem& problem, double dp) {
    const std::vector<sph::CaseSolid>& solids = problem.description().solids;
    for (std::size_t s = 0; s < solids.size(); ++s) {
        const sph::Shape& shape = problem.solid_shape(s);
        const sph::Box b = shape.bounds();
        std::mt19937_64 random(s);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        constexpr int kQueries = 1000000;
        double sum = 0.0;
        const auto start = std::chrono::steady_clock::now();
        for (int q = 0; q < kQueries; ++q) {
            const sph::Vec3d p{b.lo[0] + u(random) * (b.hi[0] - b.lo[0]),
                               b.lo[1] + u(random) * (b.hi[1] - b.lo[1]),
                               b.lo[2] + u(random) * (b.hi[2] - b.lo[2])};
            sum += shape.nearest(p, 4 * dp).distance;
        }
        const double seconds = seconds_since(start);
        std::printf("  %-40s %8.2f M nearest queries/s on one thread (checksum %.3g)\n",
                    shape.describe().c_str(), kQueries / seconds / 1e6, sum);
    }
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 3) {
        std::fprintf(stderr, "usage: case_layout CASE.yaml DP [THREADS]\n");
        return 2;
    }
    const double dp = std::atof(argv[2]);
    if (argc > 3) omp_set_num_threads(std::atoi(argv[3]));
    auto start = std::chrono::steady_clock::now();
    const sph::CaseProblem problem(sph::read_case_file(argv[1]));
    const double read = seconds_since(start);
    problem.check_resolution(dp);

    start = std::chrono::steady_clock::now();
    std::size_t filled = 0;
    problem.fill(dp, [&](const sph::SetupParticle&) { ++filled; });
    const double fill = seconds_since(start);

    sph::RunOptions o;
    o.dp = dp;
    const sph::SphParams params = sph::make_sph_params(o, problem.still_water_depth());
    start = std::chrono::steady_clock::now();
    const sph::CellGrid grid = sph::make_grid(problem, params, dp, 0);
    const sph::LaidOut laid = sph::lay_out(problem, o, params, grid, std::size_t(-1));
    const double lay_out = seconds_since(start);

    std::printf("%s at dp %g m on %d threads: %zu particles (%zu fluid)\n", argv[1], dp,
                omp_get_max_threads(), laid.count, laid.fluid);
    std::printf("  read meshes and rasters  %8.3f s\n", read);
    std::printf("  fill (shapes only)       %8.3f s  %6.1f M particles/s\n", fill,
                filled / fill / 1e6);
    std::printf("  lay out (as a run does)  %8.3f s\n", lay_out);
    print_query_rates(problem, dp);
    std::printf(
        "{\"case\": \"%s\", \"dp\": %g, \"threads\": %d, \"particles\": %zu, "
        "\"fluid\": %zu, \"read_s\": %.3f, \"fill_s\": %.3f, \"lay_out_s\": %.3f}\n",
        argv[1], dp, omp_get_max_threads(), laid.count, laid.fluid, read, fill, lay_out);
    return filled == laid.count ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
}
