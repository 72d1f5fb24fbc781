// CPU (OpenMP) launchers of the kernel bodies: each runs one body over a range of particles.
#pragma once

#include <cstdint>

#include "damping_zone.h"
#include "instruments_body.h"
#include "kernel_args.h"
#include "step_dt.h"

namespace sph::cpu {

void hash(const HashArgs& args, std::uint32_t count);
// Sorts (key, permutation) pairs by key; keys are unique, so the result is unique.
void sort_by_key(std::uint64_t* key, std::uint32_t* permutation, std::uint32_t count);
void gather(const GatherArgs& args, std::uint32_t count);
void assign_cells(const CellArgs& args, std::uint32_t count);
void find_cell_ranges(const CellRangeArgs& args);
// After find_cell_ranges: where each cell's slabs end (cell_grid.h).
void find_cell_splits(const CellSplitArgs& args);
// The lists of particles [begin, end), warp by warp, into a list whose blocks may fill
// `pool_rows` rows.
ListBuildCounts build_neighbour_lists(const NeighbourArgs& args, std::uint32_t begin,
                                      std::uint32_t end, std::uint64_t pool_rows);
void forces(const ForcesArgs& args, std::uint32_t begin, std::uint32_t end);
// The mDBC density of the boundary particles among [begin, end).
void mdbc_densities(const MdbcArgs& args, std::uint32_t begin, std::uint32_t end);
// Instruments (instruments_body.h): each site's sums per plane (kCellPlanes a site), and each
// particle's front key.
void site_sums(const InstrumentArgs& args, const InstrumentSite* sites, SiteSums* planes,
               std::uint32_t count);
void banded_keys(const InstrumentArgs& args, const FrontSpec& front, float* keys,
                 std::uint32_t begin, std::uint32_t end);
void front_keys(const InstrumentArgs& args, const FrontSpec& front, float key_limit, float* keys,
                std::uint32_t begin, std::uint32_t end);
// The loads on moving bodies (body_loads_body.h) of the particles [owned_begin, owned_end):
// kBodyLoadSums per body added into `sums` (two's complement, so that they wrap as they add).
void body_loads(const InstrumentArgs& args, const FixedPos* moment_points, std::uint32_t bodies,
                std::uint64_t floating, unsigned long long* sums);
// Minimum of dt_max over [begin, end); NaN if any element is NaN.
float minimum_dt(const float* dt_max, std::uint32_t begin, std::uint32_t end);
// Euler with the dt of `dt` (step_dt.h: euler_dt); nothing where that dt is unusable.
void euler_predictor(EulerArgs args, const EulerDt& dt, std::uint32_t begin, std::uint32_t end);
void euler_corrector(EulerArgs args, const EulerDt& dt, const DampingZones& damping,
                     std::uint32_t begin, std::uint32_t end);

}  // namespace sph::cpu
