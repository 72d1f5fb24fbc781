// The CPU half of the kernel chain, and the choice of back end.
#include "kernel_chain.h"

#include <algorithm>
#include <stdexcept>

#include "cpu/cpu_launchers.h"
#include "devices/device_layout.h"
#include "kernel_args.h"

namespace sph::testing {

std::uint64_t list_pool_rows(std::uint32_t n, const ListRequest& r) {
    return r.pool_rows > 0 ? r.pool_rows
                           : std::uint64_t(list_warps(n)) * list_groups(r.max_neighbours);
}

std::size_t list_groups_kept(std::uint32_t n, const ListRequest& r) {
    return std::size_t(list_pool_rows(n, r) + list_groups(r.max_neighbours)) * kListWarp;
}

TaggedInputs tagged_inputs(std::uint32_t n, const std::vector<Vec3>& to_ghost,
                           const std::vector<std::uint8_t>& types) {
    if (!to_ghost.empty() && to_ghost.size() != n) {
        throw std::invalid_argument("kernel chain: one to_ghost per particle, or none");
    }
    if (!types.empty() && types.size() != n) {
        throw std::invalid_argument("kernel chain: one type per particle, or none");
    }
    TaggedInputs in;
    in.velrho.resize(n);
    in.id.resize(n);
    in.type.resize(n);
    in.to_ghost = to_ghost.empty() ? std::vector<Vec3>(n, Vec3{0.0f, 0.0f, 0.0f}) : to_ghost;
    for (std::uint32_t i = 0; i < n; ++i) {
        in.id[i] = i;
        in.velrho[i] = make_vec4(float(i), 0.0f, 0.0f, 1000.0f);
        in.type[i] = types.empty() ? std::uint8_t(i % 2) : types[i];
    }
    return in;
}

namespace {

BuiltLists cpu_build_lists(const std::vector<FixedPos>& pos_in, const ListRequest& r,
                           const std::vector<Vec3>& to_ghost,
                           const std::vector<std::uint8_t>& types) {
    const std::uint32_t n = std::uint32_t(pos_in.size());
    const TaggedInputs in = tagged_inputs(n, to_ghost, types);
    std::vector<std::uint64_t> key(n);
    std::vector<std::uint32_t> permutation(n);
    cpu::hash(
        HashArgs{pos_in.data(), in.id.data(), key.data(), permutation.data(), r.grid, bits_for(n)},
        n);
    cpu::sort_by_key(key.data(), permutation.data(), n);

    BuiltLists b;
    b.pos.resize(n);
    b.velrho.resize(n);
    b.id.resize(n);
    b.type.resize(n);
    b.to_ghost.resize(n);
    cpu::gather(
        GatherArgs{
            permutation.data(),
            {pos_in.data(), in.velrho.data(), in.id.data(), in.type.data(), in.to_ghost.data()},
            {b.pos.data(), b.velrho.data(), b.id.data(), b.type.data(), b.to_ghost.data()}},
        n);

    b.cell.resize(n);
    b.cell_start.assign(r.grid.cell_count() + 1, kEmptyCell);
    b.cell_end.assign(r.grid.cell_count() + 1, 0u);
    cpu::assign_cells(CellArgs{b.pos.data(), b.cell.data(), r.grid}, n);
    cpu::find_cell_ranges(CellRangeArgs{b.cell.data(), b.cell_start.data(), b.cell_end.data(), n,
                                        r.grid.outside_cell()});
    b.cell_split.assign(std::size_t(r.grid.cell_count() + 1) * kCellSplitBytes, 0u);
    cpu::find_cell_splits(CellSplitArgs{b.pos.data(), b.cell.data(), b.cell_start.data(),
                                        b.cell_end.data(), b.cell_split.data(), n, r.grid});
    b.outside = n > 0 && b.cell[n - 1] == r.grid.outside_cell();
    if (b.outside) return b;

    b.pool_rows = list_pool_rows(n, r);
    b.list.assign(list_groups_kept(n, r), r.fill);
    b.list_rows.assign(list_warps(n), 0u);
    NeighbourArgs args{b.pos.data(),      b.cell.data(),    b.cell_start.data(),
                       b.cell_end.data(), b.list.data(),    b.list_rows.data(),
                       r.max_neighbours,  r.list_radius_sq, r.grid};
    args.cell_split = b.cell_split.data();
    if (!to_ghost.empty()) args.to_ghost = b.to_ghost.data();  // mDBC: walls list their nodes'
    const ListBuildCounts counts = cpu::build_neighbour_lists(args, 0, n, b.pool_rows);
    b.largest = counts.largest;
    b.rows = counts.rows;
    return b;
}

std::vector<Vec4> cpu_forces(const BuiltLists& b, const SortedState& in, const ListRequest& r,
                             const SphParams& params, bool from_cells) {
    const std::uint32_t n = std::uint32_t(b.pos.size());
    const std::vector<FixedPos> pos = positions_with_types(b.pos, in.type);
    std::vector<Vec4> force(n);
    std::vector<float> dt_max(n);
    cpu::forces(
        ForcesArgs{pos.data(), in.velrho.data(), in.type.data(), b.cell.data(), b.cell_start.data(),
                   b.cell_end.data(), from_cells ? nullptr : b.list.data(), force.data(),
                   dt_max.data(), b.list_rows.data(), r.max_neighbours, r.grid, params,
                   b.cell_split.data()},
        0, n);
    return force;
}

std::vector<Vec4> cpu_mdbc_densities(const BuiltLists& b, const SortedState& in,
                                     const ListRequest& r, const SphParams& params) {
    std::vector<Vec4> velrho = in.velrho;
    const std::uint32_t n = std::uint32_t(b.pos.size());
    cpu::mdbc_densities(
        MdbcArgs{b.pos.data(), velrho.data(), in.type.data(), b.to_ghost.data(), b.cell.data(),
                 b.cell_start.data(), b.cell_end.data(), b.list.data(), b.list_rows.data(),
                 r.max_neighbours, 0, n, r.grid, params},
        0, n);
    return velrho;
}

void check_backend(BackendChoice backend) {
    if (backend != BackendChoice::kCpu && backend != BackendChoice::kCuda) {
        throw std::invalid_argument("kernel chain: name the back end, cpu or cuda");
    }
}

}  // namespace

std::string cell_split_error(const BuiltLists& b, const CellGrid& grid) {
    const std::uint32_t n = std::uint32_t(b.pos.size());
    for (std::uint32_t i = 0; i + 1 < n; ++i) {
        if (b.cell[i] == b.cell[i + 1] && grid.slab_of(b.pos[i]) > grid.slab_of(b.pos[i + 1])) {
            return "sorted particles " + std::to_string(i) + " and " + std::to_string(i + 1) +
                   " of one cell are not in slab order";
        }
    }
    for (std::uint32_t c = 0; c < grid.cell_count(); ++c) {
        if (b.cell_start[c] == kEmptyCell) continue;
        for (int k = 0; k < kSplitsPerCell; ++k) {
            std::uint32_t up_to_k = 0;
            for (std::uint32_t j = b.cell_start[c]; j < b.cell_end[c]; ++j) {
                up_to_k += grid.slab_of(b.pos[j]) <= k ? 1 : 0;
            }
            const std::uint32_t want = std::min<std::uint32_t>(up_to_k, kSplitUnknown);
            const std::uint32_t split = b.cell_split[std::size_t(c) * kCellSplitBytes + k];
            if (split != want) {
                return "cell " + std::to_string(c) + " split " + std::to_string(k) + " is " +
                       std::to_string(split) + ", not " + std::to_string(want);
            }
        }
        bool wet = false;
        for (std::uint32_t j = b.cell_start[c]; j < b.cell_end[c]; ++j) {
            wet = wet || b.pos[j].w == float(kFluid);
        }
        if (b.cell_split[std::size_t(c) * kCellSplitBytes + kWetByte] != (wet ? 1 : 0)) {
            return "cell " + std::to_string(c) + (wet ? " holds fluid" : " holds walls alone") +
                   " but its wet byte says otherwise";
        }
    }
    return "";
}

std::vector<FixedPos> positions_with_types(const std::vector<FixedPos>& pos,
                                           const std::vector<std::uint8_t>& type) {
    std::vector<FixedPos> out = pos;
    for (std::size_t i = 0; i < out.size(); ++i) out[i].w = float(type[i]);
    return out;
}

std::vector<FixedPos> fixed_positions(const std::vector<Vec4>& pos, const PositionFrame& frame) {
    std::vector<FixedPos> out(pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i) out[i] = frame.fixed(xyz(pos[i]), pos[i].w);
    return out;
}

BuiltLists build_lists(BackendChoice backend, const std::vector<Vec4>& pos,
                       const ListRequest& request, const std::vector<Vec3>& to_ghost,
                       const std::vector<std::uint8_t>& types) {
    return build_lists(backend, fixed_positions(pos, request.grid.frame), request, to_ghost, types);
}

BuiltLists build_lists(BackendChoice backend, const std::vector<FixedPos>& pos,
                       const ListRequest& request, const std::vector<Vec3>& to_ghost,
                       const std::vector<std::uint8_t>& types) {
    check_backend(backend);
    return backend == BackendChoice::kCuda ? cuda_build_lists(pos, request, to_ghost, types)
                                           : cpu_build_lists(pos, request, to_ghost, types);
}

std::vector<Vec4> forces(BackendChoice backend, const BuiltLists& lists, const SortedState& input,
                         const ListRequest& request, const SphParams& params, bool from_cells) {
    check_backend(backend);
    return backend == BackendChoice::kCuda ? cuda_forces(lists, input, request, params, from_cells)
                                           : cpu_forces(lists, input, request, params, from_cells);
}

std::vector<Vec4> mdbc_densities(BackendChoice backend, const BuiltLists& lists,
                                 const SortedState& state, const ListRequest& request,
                                 const SphParams& params) {
    check_backend(backend);
    return backend == BackendChoice::kCuda ? cuda_mdbc_densities(lists, state, request, params)
                                           : cpu_mdbc_densities(lists, state, request, params);
}

}  // namespace sph::testing
