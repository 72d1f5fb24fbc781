// The CUDA half of the kernel chain: the same steps as the CPU half, on the CUDA launchers, with
// Thrust's device vectors for the buffers.
#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <cstdint>
#include <vector>

#include "cuda/cuda_check.h"
#include "cuda/cuda_launchers.h"
#include "devices/device_layout.h"
#include "kernel_args.h"
#include "kernel_chain.h"

namespace sph::testing {
namespace {

template <class T>
using DeviceVector = thrust::device_vector<T>;

template <class T>
T* raw(DeviceVector<T>& v) {
    return thrust::raw_pointer_cast(v.data());
}

template <class T>
std::vector<T> to_host(const DeviceVector<T>& v) {
    std::vector<T> host(v.size());
    thrust::copy(v.begin(), v.end(), host.begin());
    return host;
}

}  // namespace

BuiltLists cuda_build_lists(const std::vector<FixedPos>& pos_in, const ListRequest& r,
                            const std::vector<Vec3>& to_ghost_in,
                            const std::vector<std::uint8_t>& types) {
    const std::uint32_t n = std::uint32_t(pos_in.size());
    const TaggedInputs in = tagged_inputs(n, to_ghost_in, types);
    DeviceVector<FixedPos> pos(pos_in.begin(), pos_in.end());
    DeviceVector<Vec4> velrho(in.velrho.begin(), in.velrho.end());
    DeviceVector<std::uint32_t> id(in.id.begin(), in.id.end());
    DeviceVector<std::uint8_t> type(in.type.begin(), in.type.end());
    DeviceVector<Vec3> to_ghost(in.to_ghost.begin(), in.to_ghost.end());

    DeviceVector<std::uint64_t> keys0(n), keys1(n);
    DeviceVector<std::uint32_t> perm0(n), perm1(n);
    cuda::hash(HashArgs{raw(pos), raw(id), raw(keys0), raw(perm0), r.grid, bits_for(n)}, n, 0);
    std::uint64_t* keys[2] = {raw(keys0), raw(keys1)};
    std::uint32_t* permutation[2] = {raw(perm0), raw(perm1)};
    DeviceVector<char> temp(cuda::sort_temp_bytes(n));
    int current = 0;
    const int key_bits =
        bits_for(n) + bits_for(std::uint64_t(r.grid.cell_count()) * kSlabsPerCell + 1);
    cuda::sort_by_key(keys, permutation, current, n, key_bits, raw(temp), temp.size(), 0);

    DeviceVector<FixedPos> s_pos(n);
    DeviceVector<Vec4> s_velrho(n);
    DeviceVector<std::uint32_t> s_id(n), cell(n);
    DeviceVector<std::uint8_t> s_type(n);
    DeviceVector<Vec3> s_to_ghost(n);
    cuda::gather(GatherArgs{permutation[current],
                            {raw(pos), raw(velrho), raw(id), raw(type), raw(to_ghost)},
                            {raw(s_pos), raw(s_velrho), raw(s_id), raw(s_type), raw(s_to_ghost)}},
                 n, 0);
    DeviceVector<std::uint32_t> cell_start(r.grid.cell_count() + 1, kEmptyCell);
    DeviceVector<std::uint32_t> cell_end(r.grid.cell_count() + 1, 0u);
    cuda::assign_cells(CellArgs{raw(s_pos), raw(cell), r.grid}, n, 0);
    cuda::find_cell_ranges(
        CellRangeArgs{raw(cell), raw(cell_start), raw(cell_end), n, r.grid.outside_cell()}, 0);
    DeviceVector<std::uint8_t> cell_split(std::size_t(r.grid.cell_count() + 1) * kCellSplitBytes,
                                          std::uint8_t(0));
    cuda::find_cell_splits(CellSplitArgs{raw(s_pos), raw(cell), raw(cell_start), raw(cell_end),
                                         raw(cell_split), n, r.grid},
                           0);

    BuiltLists b;
    b.pos = to_host(s_pos);
    b.velrho = to_host(s_velrho);
    b.id = to_host(s_id);
    b.type = to_host(s_type);
    b.to_ghost = to_host(s_to_ghost);
    b.cell = to_host(cell);
    b.cell_start = to_host(cell_start);
    b.cell_end = to_host(cell_end);
    b.cell_split = to_host(cell_split);
    b.outside = n > 0 && b.cell[n - 1] == r.grid.outside_cell();
    if (b.outside) return b;

    b.pool_rows = list_pool_rows(n, r);
    DeviceVector<NeighbourGroup> list(list_groups_kept(n, r), r.fill);
    DeviceVector<std::uint32_t> list_rows(list_warps(n), 0u);
    DeviceVector<ListBuildCounts> counts(1, ListBuildCounts{0, 0});
    NeighbourArgs args{raw(s_pos),     raw(cell),        raw(cell_start),  raw(cell_end), raw(list),
                       raw(list_rows), r.max_neighbours, r.list_radius_sq, r.grid};
    args.cell_split = raw(cell_split);
    if (!to_ghost_in.empty()) args.to_ghost = raw(s_to_ghost);  // mDBC: walls list their nodes'
    cuda::build_neighbour_lists(args, 0, n, b.pool_rows, raw(counts), 0);
    b.list = to_host(list);
    b.list_rows = to_host(list_rows);
    const ListBuildCounts found = to_host(counts)[0];
    b.largest = found.largest;
    b.rows = found.rows;
    SPH_CUDA_CHECK(cudaDeviceSynchronize());
    return b;
}

std::vector<Vec4> cuda_forces(const BuiltLists& b, const SortedState& in, const ListRequest& r,
                              const SphParams& params, bool from_cells) {
    const std::uint32_t n = std::uint32_t(b.pos.size());
    const std::vector<FixedPos> typed = positions_with_types(b.pos, in.type);
    DeviceVector<FixedPos> pos(typed.begin(), typed.end());
    DeviceVector<Vec4> velrho(in.velrho.begin(), in.velrho.end());
    DeviceVector<std::uint8_t> type(in.type.begin(), in.type.end());
    DeviceVector<std::uint32_t> cell(b.cell.begin(), b.cell.end());
    DeviceVector<std::uint32_t> cell_start(b.cell_start.begin(), b.cell_start.end());
    DeviceVector<std::uint32_t> cell_end(b.cell_end.begin(), b.cell_end.end());
    DeviceVector<std::uint8_t> cell_split(b.cell_split.begin(), b.cell_split.end());
    DeviceVector<NeighbourGroup> list(b.list.begin(), b.list.end());
    DeviceVector<std::uint32_t> list_rows(b.list_rows.begin(), b.list_rows.end());
    DeviceVector<Vec4> force(n);
    DeviceVector<float> dt_max(n);
    cuda::forces(
        ForcesArgs{raw(pos), raw(velrho), raw(type), raw(cell), raw(cell_start), raw(cell_end),
                   from_cells ? nullptr : raw(list), raw(force), raw(dt_max), raw(list_rows),
                   r.max_neighbours, r.grid, params, raw(cell_split)},
        0, n, 0);
    SPH_CUDA_CHECK(cudaDeviceSynchronize());
    return to_host(force);
}

}  // namespace sph::testing

namespace sph::testing {

std::vector<Vec4> cuda_mdbc_densities(const BuiltLists& b, const SortedState& in,
                                      const ListRequest& r, const SphParams& params) {
    const std::uint32_t n = std::uint32_t(b.pos.size());
    DeviceVector<FixedPos> pos(b.pos.begin(), b.pos.end());
    DeviceVector<Vec4> velrho(in.velrho.begin(), in.velrho.end());
    DeviceVector<std::uint8_t> type(in.type.begin(), in.type.end());
    DeviceVector<Vec3> to_ghost(b.to_ghost.begin(), b.to_ghost.end());
    DeviceVector<std::uint32_t> cell(b.cell.begin(), b.cell.end());
    DeviceVector<std::uint32_t> cell_start(b.cell_start.begin(), b.cell_start.end());
    DeviceVector<std::uint32_t> cell_end(b.cell_end.begin(), b.cell_end.end());
    DeviceVector<NeighbourGroup> list(b.list.begin(), b.list.end());
    DeviceVector<std::uint32_t> list_rows(b.list_rows.begin(), b.list_rows.end());
    cuda::mdbc_densities(
        MdbcArgs{raw(pos), raw(velrho), raw(type), raw(to_ghost), raw(cell), raw(cell_start),
                 raw(cell_end), raw(list), raw(list_rows), r.max_neighbours, 0, n, r.grid, params},
        0, n, 0);
    SPH_CUDA_CHECK(cudaDeviceSynchronize());
    return to_host(velrho);
}

}  // namespace sph::testing
