// Every loop here is over independent particles, so static scheduling gives the same result for any
// thread count: each particle's arithmetic is done by one thread in a fixed order.
#include "cpu/cpu_launchers.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "body_loads_body.h"
#include "build_neibs_body.h"
#include "euler_body.h"
#include "forces_body.h"
#include "mdbc_body.h"
#include "step_dt.h"

namespace sph::cpu {

namespace {
using Index = std::int64_t;  // OpenMP loops want a signed index
}

void hash(const HashArgs& args, std::uint32_t count) {
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < Index(count); ++i) hash_particle(std::uint32_t(i), args);
}

void sort_by_key(std::uint64_t* key, std::uint32_t* permutation, std::uint32_t count) {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> pairs(count);
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < Index(count); ++i) pairs[i] = {key[i], permutation[i]};
    std::sort(pairs.begin(), pairs.end());
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < Index(count); ++i) {
        key[i] = pairs[i].first;
        permutation[i] = pairs[i].second;
    }
}

void gather(const GatherArgs& args, std::uint32_t count) {
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < Index(count); ++i) gather_particle(std::uint32_t(i), args);
}

void assign_cells(const CellArgs& args, std::uint32_t count) {
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < Index(count); ++i) assign_cell(std::uint32_t(i), args);
}

void find_cell_ranges(const CellRangeArgs& args) {
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < Index(args.count); ++i) find_cell_range(std::uint32_t(i), args);
}

void find_cell_splits(const CellSplitArgs& args) {
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < Index(args.count); ++i) find_cell_split(std::uint32_t(i), args);
}

// Each thread stages a list warp's lists, then takes the warp's rows from the running total (in
// whatever order the threads come: the blocks' places differ from run to run, the lists do not).
ListBuildCounts build_neighbour_lists(const NeighbourArgs& args, std::uint32_t begin,
                                      std::uint32_t end, std::uint64_t pool_rows) {
    std::uint32_t largest = 0;
    std::atomic<std::uint64_t> rows{0};
    const std::uint32_t groups = list_groups(args.max_neighbours);
    const Index first_warp = begin / kListWarp, end_warp = list_warps(end);
#pragma omp parallel reduction(max : largest)
    {
        std::vector<NeighbourGroup> stage(std::size_t(groups) * kListWarp);
        auto stage_of = [&stage](std::uint32_t lane) {
            return ListStage{stage.data() + lane, kListWarp};
        };
        std::uint32_t used[kListWarp];
#pragma omp for schedule(static)
        for (Index w = first_warp; w < end_warp; ++w) {
            std::uint32_t height = 0;
            for (std::uint32_t lane = 0; lane < kListWarp; ++lane) {
                const std::uint32_t i = std::uint32_t(w) * kListWarp + lane;
                used[lane] = 0;
                if (i < begin || i >= end) continue;
                const std::uint32_t count = build_neighbour_list(i, args, stage_of(lane));
                largest = std::max(largest, count);
                used[lane] = groups_used(count, args.max_neighbours);
                height = std::max(height, used[lane]);
            }
            const std::uint64_t first = rows.fetch_add(height);
            if (first + height > pool_rows) continue;  // the caller builds again, with more room
            for (std::uint32_t lane = 0; lane < kListWarp; ++lane) {
                place_list_warp(args, std::uint32_t(w), std::uint32_t(first), lane, used[lane],
                                stage_of);
            }
        }
    }
    return ListBuildCounts{largest, rows.load()};
}

void forces(const ForcesArgs& args, std::uint32_t begin, std::uint32_t end) {
    if (args.list == nullptr) {  // --neighbours cells
        const CellNeighbours cells = cell_neighbours(args);
#pragma omp parallel for schedule(static)
        for (Index i = begin; i < Index(end); ++i) compute_forces(std::uint32_t(i), args, cells);
        return;
    }
    const NeighbourCellSteps steps = neighbour_cell_steps(args.grid);
    const ListedNeighbours<ForcesArgs> listed{args, steps.by_code};
#pragma omp parallel for schedule(static)
    for (Index i = begin; i < Index(end); ++i) compute_forces(std::uint32_t(i), args, listed);
}

void mdbc_densities(const MdbcArgs& args, std::uint32_t begin, std::uint32_t end) {
    const NeighbourCellSteps steps = neighbour_cell_steps(args.grid);
#pragma omp parallel for schedule(static)
    for (Index i = begin; i < Index(end); ++i) mdbc_density(std::uint32_t(i), args, steps.by_code);
}

void site_sums(const InstrumentArgs& args, const InstrumentSite* sites, SiteSums* planes,
               std::uint32_t count) {
#pragma omp parallel for schedule(static)
    for (Index k = 0; k < Index(count); ++k) {
        site_plane_sums(sites[k], args, planes + std::size_t(k) * kCellPlanes);
    }
}

void banded_keys(const InstrumentArgs& args, const FrontSpec& front, float* keys,
                 std::uint32_t begin, std::uint32_t end) {
#pragma omp parallel for schedule(static)
    for (Index i = begin; i < Index(end); ++i) keys[i] = banded_key(std::uint32_t(i), args, front);
}

void front_keys(const InstrumentArgs& args, const FrontSpec& front, float key_limit, float* keys,
                std::uint32_t begin, std::uint32_t end) {
#pragma omp parallel for schedule(static)
    for (Index i = begin; i < Index(end); ++i)
        keys[i] = front_key(std::uint32_t(i), args, front, key_limit);
}

float minimum_dt(const float* dt_max, std::uint32_t begin, std::uint32_t end) {
    float smallest = std::numeric_limits<float>::infinity();
    bool any_nan = false;
#pragma omp parallel for schedule(static) reduction(min : smallest) reduction(|| : any_nan)
    for (Index i = begin; i < Index(end); ++i) {
        any_nan = any_nan || std::isnan(dt_max[i]);
        smallest = std::min(smallest, dt_max[i]);
    }
    return any_nan ? std::numeric_limits<float>::quiet_NaN() : smallest;
}

void body_loads(const InstrumentArgs& args, const FixedPos* moment_points, std::uint32_t bodies,
                std::uint64_t floating, unsigned long long* sums) {
    const std::size_t n = std::size_t(bodies) * kBodyLoadSums;
#pragma omp parallel
    {
        std::vector<unsigned long long> mine(n, 0);  // integers: any order adds the same bits
#pragma omp for schedule(static)
        for (Index i = args.owned_begin; i < Index(args.owned_end); ++i) {
            const ParticleLoad load =
                body_particle_load(std::uint32_t(i), args, moment_points, floating);
            if (load.body < 0) continue;
            for (int k = 0; k < kBodyLoadSums; ++k) {
                mine[std::size_t(load.body) * kBodyLoadSums + k] +=
                    static_cast<unsigned long long>(load.sums[k]);
            }
        }
#pragma omp critical
        for (std::size_t k = 0; k < n; ++k) sums[k] += mine[k];
    }
}

void euler_predictor(EulerArgs args, const EulerDt& dt, std::uint32_t begin, std::uint32_t end) {
    const StepDt step = euler_dt(dt);
    if (!step.usable) return;
    args.dt = step.dt;
    args.time = dt.clock.time;
#pragma omp parallel for schedule(static)
    for (Index i = begin; i < Index(end); ++i) sph::euler_predictor(std::uint32_t(i), args);
}

void euler_corrector(EulerArgs args, const EulerDt& dt, const DampingZones& damping,
                     std::uint32_t begin, std::uint32_t end) {
    const StepDt step = euler_dt(dt);
    if (!step.usable) return;
    args.dt = step.dt;
    args.time = dt.clock.time;
#pragma omp parallel for schedule(static)
    for (Index i = begin; i < Index(end); ++i)
        sph::euler_corrector(std::uint32_t(i), args, damping);
}

}  // namespace sph::cpu
