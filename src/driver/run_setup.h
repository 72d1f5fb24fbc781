// Turns a problem and the user's options into the constants and particles a run starts from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cell_grid.h"
#include "devices/host_particles.h"
#include "driver/run_options.h"
#include "problem.h"
#include "sph_params.h"

namespace sph {

SphParams make_sph_params(const RunOptions& options, double still_water_depth);

// Particles per slice of a grid, in all and of fluid (those outside the grid are not counted).
struct SliceCounts {
    std::vector<std::uint64_t> all, fluid;
    SliceCounts() = default;
    explicit SliceCounts(const CellGrid& grid)
        : all(grid.slice_count(), 0), fluid(grid.slice_count(), 0) {}
    // Counts a particle at `position` (none outside the grid, nor fluid beyond its reach).
    void add(const CellGrid& grid, const FixedPos& position, bool is_fluid) {
        const std::uint32_t cell = grid.particle_cell(position);
        if (cell == grid.outside_cell()) return;
        ++all[cell / grid.cells_per_slice()];
        fluid[cell / grid.cells_per_slice()] += is_fluid;
    }
};
SliceCounts particles_per_slice(const HostParticles& particles, const CellGrid& grid);

// What each slice costs before the balancer has timed any, for the devices' first split: a wall
// sums the fluid alone, and DamBreak's Forces times on two H200s (1.05 and 4.19 M particles) fit
// 0.14-0.16 of a fluid particle's time a wall under DBC and 0.32 under mDBC (its ghost node's
// sums too). So a fluid particle weighs 6 and a wall 1 under DBC, 3 and 1 under mDBC; weighted
// so, the first split falls on the slice where the balancer settles, which an even count of
// particles misses by 4-6 slices (bench/NOTES.md entry 22).
std::vector<std::uint64_t> start_work(const SliceCounts& counts, BoundaryModel boundary);

// The problem laid out once: its particles, with hydrostatic densities (inverse Tait law) and
// zero velocity, counted in all, as fluid and per slice of `grid`. Laying out stops as soon as
// there are more than `at_most` (what the devices could ever hold), so that such a run is
// refused at once.
struct LaidOut {
    HostParticles particles;
    std::size_t count = 0, fluid = 0;
    SliceCounts per_slice;
    bool beyond = false;  // stopped: the problem has more than at_most particles
};
LaidOut lay_out(const Problem& problem, const RunOptions& options, const SphParams& params,
                const CellGrid& grid, std::size_t at_most);

// The problem's particles, all stored.
HostParticles make_particles(const Problem& problem, const RunOptions& options,
                             const SphParams& params);

// The instruments of a run: the problem's (unless --no-instruments) and then the command line's.
Instruments run_instruments(const Instruments& problem_defaults, const RunOptions& options);

// Throws OptionError for a wall sensor with no wall particle behind its disc: not on a wall's
// face, or facing the wrong way.
void check_wall_sensors(const std::vector<WallSensor>& sensors, const HostParticles& particles,
                        const SphParams& params);

// The problem's domain gridded in cells one neighbour-list radius wide.
CellGrid make_grid(const Problem& problem, const SphParams& params, double dp, int split_axis);

// The slices each device holds of its neighbours, and owns at least (SliceMap). One covers the
// neighbour list. Under mDBC a wall particle's density reads the fluid near its ghost node, up to
// |to_ghost| + the list radius away along the split axis (the list radius: the fluid drifts
// between rebuilds); a device reads it for its own walls and for the external walls beside its
// fluid, one slice further out.
int halo_slices(const HostParticles& particles, const SphParams& params, const CellGrid& grid);

}  // namespace sph
