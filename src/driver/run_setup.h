// Turns a problem and the user's options into the constants and particles a run starts from.
#pragma once

#include "cell_grid.h"
#include "devices/host_particles.h"
#include "driver/run_options.h"
#include "problem.h"
#include "sph_params.h"

namespace sph {

SphParams make_sph_params(const RunOptions& options, double still_water_depth);

// How many particles the problem lays out at this resolution (without storing them).
std::size_t count_particles(const Problem& problem, double dp);

// The problem's particles, with hydrostatic densities (inverse Tait law) and zero velocity.
HostParticles make_particles(const Problem& problem, const RunOptions& options,
                             const SphParams& params);

// The instruments of a run: the problem's (unless --no-instruments) and then the command line's.
Instruments run_instruments(const Instruments& problem_defaults, const RunOptions& options);

// The problem's domain gridded in cells one neighbour-list radius wide.
CellGrid make_grid(const Problem& problem, const SphParams& params, double dp, int split_axis);

}  // namespace sph
