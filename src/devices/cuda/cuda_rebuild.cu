// The rebuild on a GPU (Device's rebuild calls, in the order DeviceGroup makes them): the sort
// (hash, radix sort, gather into the incoming arrays, cells), the device's own particles placed
// among those migrating in, the slices' lower bounds, the walls that mDBC fits, and the lists
// built, grown and built again where a build needs more than they hold.
#include <stdexcept>

#include "cuda/cuda_check.h"
#include "cuda/cuda_launchers.h"
#include "devices/cuda/cuda_device.h"

namespace sph {

namespace {

// Where each field of `record` lives on the GPU, from particle `first` on (null for a field
// not kept).
template <class Pointers>
Pointers pointers_to(const ParticleRecord<DeviceArray>& record, std::size_t first) {
    Pointers p;
    for_each_field(
        [first](auto field, const DeviceMemory& array, auto*& to) {
            using T = typename decltype(field)::type;
            to = array.bytes() == 0 ? nullptr : array.as<T>() + first;
        },
        record, p);
    return p;
}

}  // namespace

void CudaDevice::sort(std::uint32_t begin, std::uint32_t count, std::uint32_t keep) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    // A measurement started from the current arrays, which the sort only reads: it writes the
    // keys' scratch, the cells and the incoming arrays (the rebuild's later writers wait for
    // it: wait_for_measurement). Where the incoming arrays are the ones it reads (a sort after
    // a commit), the sort waits for it too. The measurement's fluid part is launched now, to run
    // beside the sort.
    if (instruments_pending_ && buffers_.incoming.pos.as<FixedPos>() == measured_pos_) {
        settle_instruments();
    }
    flush_measurement();
    buffers_.ranges = LocalRanges{0, keep, 0};
    walls_selected_ = false;
    if (keep == 0) return;
    timer_.begin(stream_);
    SortScratch s = sort_scratch();
    cuda::hash(HashArgs{buffers_.current.pos.as<FixedPos>() + begin,
                        buffers_.current.id.as<std::uint32_t>() + begin, s.keys[0],
                        s.permutation[0], layout_.grid, layout_.id_bits},
               count, stream_);
    int current = 0;
    cuda::sort_by_key(s.keys, s.permutation, current, count, layout_.sort_key_bits(),
                      temp_.as<void>(), temp_.bytes(), stream_);
    cuda::gather(GatherArgs{s.permutation[current],
                            pointers_to<ConstParticlePointers>(buffers_.current, begin),
                            pointers_to<ParticlePointers>(buffers_.incoming, 0)},
                 keep, stream_);
    buffers_.commit_incoming(LocalRanges{0, keep, 0});
    cuda::assign_cells(
        CellArgs{buffers_.current.pos.as<FixedPos>(), cell_.as<std::uint32_t>(), layout_.grid},
        keep, stream_);
    timer_.end(stream_, &KernelTimes::build_neibs, "sort");
}

// On the main stream, where the lists are built next: a kernel copies every field at the card's
// copy bandwidth, where a copy per field ran at about half of it (bench/NOTES.md entry 22).
void CudaDevice::copy_own_into_incoming(std::uint32_t count, std::uint32_t at) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    settle_instruments();  // the incoming arrays may be the measured ones (a rebuild has waited)
    if (count == 0) return;
    timer_.begin(stream_);
    cuda::gather(GatherArgs{nullptr, pointers_to<ConstParticlePointers>(buffers_.current, 0),
                            pointers_to<ParticlePointers>(buffers_.incoming, at)},
                 count, stream_);
    timer_.end(stream_, &KernelTimes::build_neibs, "own particles placed");
}

std::vector<std::uint32_t> CudaDevice::lower_bounds(std::uint32_t count,
                                                    const std::vector<std::uint32_t>& bounds) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    // The bounds and results travel through the key scratch, free until the lists are built.
    std::uint32_t* d_bounds = reinterpret_cast<std::uint32_t*>(sort_scratch().keys[0]);
    std::uint32_t* d_result = d_bounds + bounds.size();
    if (2 * bounds.size() * 4 > force_.bytes()) {
        throw std::logic_error("CudaDevice::lower_bounds: too many bounds");
    }
    SPH_CUDA_CHECK(cudaMemcpyAsync(d_bounds, bounds.data(), bounds.size() * 4,
                                   cudaMemcpyHostToDevice, stream_));
    cuda::lower_bounds(cell_.as<std::uint32_t>(), count, d_bounds,
                       static_cast<std::uint32_t>(bounds.size()), d_result, stream_);
    std::vector<std::uint32_t> result(bounds.size());
    SPH_CUDA_CHECK(cudaMemcpyAsync(result.data(), d_result, bounds.size() * 4,
                                   cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return result;
}

void CudaDevice::select_walls() {
    const LocalRanges& r = buffers_.ranges;
    std::uint32_t* d_count = &scalars_.as<Scalars>()->fitted_walls;
    cuda::select_ghost_walls(mdbc_args(), r.near_begin(), r.near_end(), fitted_walls(), d_count,
                             temp_.as<void>(), temp_.bytes(), stream_);
    SPH_CUDA_CHECK(cudaMemcpyAsync(&fitted_wall_count_, d_count, sizeof(std::uint32_t),
                                   cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    walls_selected_ = true;
}

NeighbourBuild CudaDevice::build_lists() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    settle_instruments();  // the cell ranges are rewritten (a rebuild has waited already)
    NeighbourBuild result;
    const std::uint32_t total = buffers_.ranges.total();
    if (total == 0) return result;
    timer_.begin(stream_);
    find_cells(total);
    if (params_.boundary == BoundaryModel::kMdbc) select_walls();
    if (!layout_.uses_list()) {  // Forces walks the cells
        timer_.end(stream_, &KernelTimes::build_neibs, "cell ranges");
        return result;
    }
    ListBuildCounts* d_counts = &scalars_.as<Scalars>()->list_counts;
    NeighbourArgs args = neighbour_args();
    const bool mdbc = params_.boundary == BoundaryModel::kMdbc;
    const LocalRanges& r = buffers_.ranges;
    const std::uint32_t begin = r.listed_begin(mdbc), end = r.listed_end(mdbc);
    ListBuildCounts counts{};
    auto build = [&] {
        SPH_CUDA_CHECK(cudaMemsetAsync(d_counts, 0, sizeof(ListBuildCounts), stream_));
        cuda::build_neighbour_lists(args, begin, end, layout_.list_pool_rows(), d_counts, stream_);
        SPH_CUDA_CHECK(cudaMemcpyAsync(&counts, d_counts, sizeof(ListBuildCounts),
                                       cudaMemcpyDeviceToHost, stream_));
    };
    build();
    timer_.end(stream_, &KernelTimes::build_neibs, "neighbour lists");
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (counts.rows > layout_.list_pool_rows()) {  // more than the list holds: again, with room
        grow_list(counts.rows);
        args.list = list_.as<NeighbourGroup>();
        timer_.begin(stream_);
        build();
        timer_.end(stream_, &KernelTimes::build_neibs, "neighbour lists, grown");
        SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
        result.list_grown = true;
    }
    result.largest_count = counts.largest;
    return result;
}

// Each of the `total` local particles' cell, each cell's range of them and its slabs' splits.
void CudaDevice::find_cells(std::uint32_t total) {
    cuda::assign_cells(
        CellArgs{buffers_.current.pos.as<FixedPos>(), cell_.as<std::uint32_t>(), layout_.grid},
        total, stream_);
    SPH_CUDA_CHECK(cudaMemsetAsync(cell_start_.as<void>(), 0xFF, cell_start_.bytes(), stream_));
    cuda::find_cell_ranges(
        CellRangeArgs{cell_.as<std::uint32_t>(), cell_start_.as<std::uint32_t>(),
                      cell_end_.as<std::uint32_t>(), total, layout_.grid.outside_cell()},
        stream_);
    cuda::find_cell_splits(
        CellSplitArgs{buffers_.current.pos.as<FixedPos>(), cell_.as<std::uint32_t>(),
                      cell_start_.as<std::uint32_t>(), cell_end_.as<std::uint32_t>(),
                      cell_split_.as<std::uint8_t>(), total, layout_.grid},
        stream_);
}

// The list build's arguments, for the list as it is now.
NeighbourArgs CudaDevice::neighbour_args() const {
    NeighbourArgs args{buffers_.current.pos.as<FixedPos>(),
                       cell_.as<std::uint32_t>(),
                       cell_start_.as<std::uint32_t>(),
                       cell_end_.as<std::uint32_t>(),
                       list_.as<NeighbourGroup>(),
                       list_rows_.as<std::uint32_t>(),
                       layout_.max_neighbours,
                       params_.list_radius_sq,
                       layout_.grid};
    args.cell_split = cell_split_.as<std::uint8_t>();
    // Under mDBC the walls list the fluid around their ghost nodes (ghost_list.h), the near
    // externals' walls too (LocalRanges).
    const bool mdbc = params_.boundary == BoundaryModel::kMdbc;
    if (mdbc) args.to_ghost = buffers_.current.to_ghost.as<Vec3>();
    const LocalRanges& r = buffers_.ranges;
    args.fluid_begin = r.left;
    args.fluid_end = r.left + r.internal;
    return args;
}

// A list with room for `rows` rows, the old one's memory given back first: the new one may need
// it. Refused, naming what to change, where the GPU has not that much free.
void CudaDevice::grow_list(std::uint64_t rows) {
    layout_.list_height = list_height_for(rows, layout_.capacity, layout_.list_height);
    list_ = DeviceMemory();
    try {
        list_.allocate("neighbour_list", layout_.list_bytes());
    } catch (const cuda::CudaError& e) {
        throw std::runtime_error("the particles' neighbour lists now need " +
                                 mib(layout_.list_bytes()) + " on " + description() +
                                 ", more than it has free (" + e.what() +
                                 "); use a larger --dp, more devices or --neighbours cells");
    }
}

}  // namespace sph
