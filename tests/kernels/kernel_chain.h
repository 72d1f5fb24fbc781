// The kernel launchers of one back end, chained as the devices chain them, on host vectors in and
// out: the kernel tests check what each back end's launchers build (the sort, the cells, the
// neighbour list, the forces) without going through a Device, whose lists stay private.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cell_grid.h"
#include "driver/run_options.h"
#include "neighbour_list.h"
#include "sph_params.h"
#include "vec.h"

namespace sph::testing {

// Everything the neighbour-list build leaves behind, in sorted order.
struct BuiltLists {
    std::vector<FixedPos> pos;       // in the grid's frame (kernels/fixed_position.h)
    std::vector<Vec4> velrho;        // velrho.x = the input index, as the chain fills it
    std::vector<std::uint32_t> id;   // the input index of each sorted particle
    std::vector<std::uint8_t> type;  // as given, or the input index modulo 2
    std::vector<Vec3> to_ghost;      // as given, or zero
    std::vector<std::uint32_t> cell;
    std::vector<std::uint32_t> cell_start, cell_end;
    std::vector<std::uint8_t> cell_split;  // kCellSplitBytes a cell (cell_grid.h)
    std::vector<NeighbourGroup> list;      // warp by warp (neighbour_list.h)
    std::vector<std::uint32_t> list_rows;  // each list warp's first row
    std::uint64_t pool_rows = 0;           // the rows the blocks could fill
    std::uint64_t rows = 0;                // the rows the blocks took, or would have
    std::uint32_t largest = 0;
    bool outside = false;  // some particle hashed outside the grid; no list was built
};

struct ListRequest {
    CellGrid grid;
    float list_radius_sq = 0.0f;
    std::uint32_t max_neighbours = 0;
    // Rows of the list the warps' blocks may fill; 0: enough for every list at its largest.
    std::uint64_t pool_rows = 0;
    // Every group of the list before the build, so that writes past a list's end can be detected.
    NeighbourGroup fill = 0;
};

// The rows a build of n particles' lists may fill, and the groups the list keeps (those rows, and
// the rows a walk may read past the last block: DeviceLayout::list_rows).
std::uint64_t list_pool_rows(std::uint32_t n, const ListRequest& r);
std::size_t list_groups_kept(std::uint32_t n, const ListRequest& r);

// hash -> sort_by_key -> gather -> assign_cells -> find_cell_ranges -> find_cell_splits ->
// build_neighbour_lists, as
// the devices chain them at a rebuild, on `backend` (kCpu or kCuda). With to_ghost, as under
// mDBC: the walls list the fluid around their ghost nodes (ghost_list.h), which takes the
// particles' types (without them, the chain's tags). `pos` [m] is held in the request's grid's
// frame.
BuiltLists build_lists(BackendChoice backend, const std::vector<Vec4>& pos,
                       const ListRequest& request, const std::vector<Vec3>& to_ghost = {},
                       const std::vector<std::uint8_t>& types = {});
// The same for positions already held in the grid's frame.
BuiltLists build_lists(BackendChoice backend, const std::vector<FixedPos>& pos,
                       const ListRequest& request, const std::vector<Vec3>& to_ghost = {},
                       const std::vector<std::uint8_t>& types = {});

// Where a build's cells and splits are not what its sorted particles say: each cell's particles
// in slab order, each split the count of its particles in slabs up to it (kSplitUnknown from
// 255 on), and its wet byte whether any of them is fluid, cell_grid.h. Empty where all are.
std::string cell_split_error(const BuiltLists& lists, const CellGrid& grid);

// The particles' state for Forces and mDBC, in the sorted order of `lists`.
struct SortedState {
    std::vector<Vec4> velrho;
    std::vector<std::uint8_t> type;
};

// `pos` with each w set to the particle's type, as the sort's gather sets it (particle_record.h):
// Forces reads a neighbour's type there.
std::vector<FixedPos> positions_with_types(const std::vector<FixedPos>& pos,
                                           const std::vector<std::uint8_t>& type);

// `pos` [m] held in `frame`, w kept.
std::vector<FixedPos> fixed_positions(const std::vector<Vec4>& pos, const PositionFrame& frame);

// The displacement from sorted particle j to sorted particle i of `lists` [m], as the kernels
// take it.
inline Vec3 between(const BuiltLists& lists, std::uint32_t i, std::uint32_t j,
                    const CellGrid& grid) {
    return grid.frame.between(lists.pos[i], lists.pos[j]);
}

// Forces (ax, ay, az, drho/dt) of every particle of `lists`, on `backend`: with the neighbours
// from the list, or with `from_cells` from the cells around each particle (no list).
std::vector<Vec4> forces(BackendChoice backend, const BuiltLists& lists, const SortedState& input,
                         const ListRequest& request, const SphParams& params,
                         bool from_cells = false);

// `state` with the densities of its boundary particles set by mDBC, on `backend`.
std::vector<Vec4> mdbc_densities(BackendChoice backend, const BuiltLists& lists,
                                 const SortedState& state, const ListRequest& request,
                                 const SphParams& params);

// The CUDA halves, defined by kernel_chain_cuda.cu (or its stand-in in a build without CUDA).
BuiltLists cuda_build_lists(const std::vector<FixedPos>& pos, const ListRequest& request,
                            const std::vector<Vec3>& to_ghost,
                            const std::vector<std::uint8_t>& types);
std::vector<Vec4> cuda_forces(const BuiltLists& lists, const SortedState& input,
                              const ListRequest& request, const SphParams& params, bool from_cells);
std::vector<Vec4> cuda_mdbc_densities(const BuiltLists& lists, const SortedState& state,
                                      const ListRequest& request, const SphParams& params);

// The inputs the chain gathers along with the positions: velrho.x = index, type as given (or
// index % 2), to_ghost as given (or zero).
struct TaggedInputs {
    std::vector<Vec4> velrho;
    std::vector<std::uint32_t> id;
    std::vector<std::uint8_t> type;
    std::vector<Vec3> to_ghost;
};
TaggedInputs tagged_inputs(std::uint32_t n, const std::vector<Vec3>& to_ghost,
                           const std::vector<std::uint8_t>& types = {});

}  // namespace sph::testing
