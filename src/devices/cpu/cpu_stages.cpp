// CpuDevice's stages of a step, through the CPU launchers (kernels/cpu/cpu_launchers.h) of the
// bodies the GPU runs too: the rebuild (sort, own particles placed, lower bounds, the lists),
// Forces (edge stripes sent first, then the centre), the dt minima and Euler.
#include <algorithm>
#include <limits>
#include <new>
#include <stdexcept>

#include "common/clock.h"
#include "cpu/cpu_launchers.h"
#include "devices/cpu/cpu_device.h"

namespace sph {

namespace {

// Where each field of `record` lives, from particle `first` on (null for a field not kept).
template <class Pointers>
Pointers pointers_to(ParticleRecord<HostArray>& record, std::size_t first) {
    Pointers p;
    for_each_field([first](auto, auto& array,
                           auto*& to) { to = array.empty() ? nullptr : array.data() + first; },
                   record, p);
    return p;
}

}  // namespace

void CpuDevice::sort(std::uint32_t begin, std::uint32_t count, std::uint32_t keep) {
    TimedRegion timer(times_.build_neibs, trace_, "sort", "kernel");
    use_threads();
    cpu::hash(HashArgs{buffers_.current.pos.data() + begin, buffers_.current.id.data() + begin,
                       sort_key_.data(), sort_permutation_.data(), layout_.grid, layout_.id_bits},
              count);
    cpu::sort_by_key(sort_key_.data(), sort_permutation_.data(), count);
    cpu::gather(GatherArgs{sort_permutation_.data(),
                           pointers_to<ConstParticlePointers>(buffers_.current, begin),
                           pointers_to<ParticlePointers>(buffers_.incoming, 0)},
                keep);
    buffers_.commit_incoming(LocalRanges{0, keep, 0});
    cpu::assign_cells(CellArgs{buffers_.current.pos.data(), cell_.data(), layout_.grid}, keep);
}

void CpuDevice::copy_own_into_incoming(std::uint32_t count, std::uint32_t at) {
    TimedRegion timer(times_.build_neibs, trace_, "own particles placed", "kernel");
    use_threads();
    cpu::gather(GatherArgs{nullptr, pointers_to<ConstParticlePointers>(buffers_.current, 0),
                           pointers_to<ParticlePointers>(buffers_.incoming, at)},
                count);
}

std::vector<std::uint32_t> CpuDevice::lower_bounds(std::uint32_t count,
                                                   const std::vector<std::uint32_t>& bounds) {
    std::vector<std::uint32_t> result;
    for (std::uint32_t b : bounds) {
        result.push_back(static_cast<std::uint32_t>(
            std::lower_bound(cell_.begin(), cell_.begin() + count, b) - cell_.begin()));
    }
    return result;
}

NeighbourBuild CpuDevice::build_lists() {
    TimedRegion timer(times_.build_neibs, trace_, "neighbour lists", "kernel");
    use_threads();
    const std::uint32_t total = buffers_.ranges.total();
    cpu::assign_cells(CellArgs{buffers_.current.pos.data(), cell_.data(), layout_.grid}, total);
    std::fill(cell_start_.begin(), cell_start_.end(), kEmptyCell);
    cpu::find_cell_ranges(CellRangeArgs{cell_.data(), cell_start_.data(), cell_end_.data(), total,
                                        layout_.grid.outside_cell()});
    cpu::find_cell_splits(CellSplitArgs{buffers_.current.pos.data(), cell_.data(),
                                        cell_start_.data(), cell_end_.data(), cell_split_.data(),
                                        total, layout_.grid});
    NeighbourArgs args{buffers_.current.pos.data(),
                       cell_.data(),
                       cell_start_.data(),
                       cell_end_.data(),
                       list_.data(),
                       list_rows_.data(),
                       layout_.max_neighbours,
                       params_.list_radius_sq,
                       layout_.grid};
    args.cell_split = cell_split_.data();
    // Under mDBC the walls list the fluid around their ghost nodes (ghost_list.h), the near
    // externals' walls too (LocalRanges).
    const bool mdbc = params_.boundary == BoundaryModel::kMdbc;
    if (mdbc) args.to_ghost = buffers_.current.to_ghost.data();
    const LocalRanges& r = buffers_.ranges;
    args.fluid_begin = r.left;
    args.fluid_end = r.left + r.internal;
    NeighbourBuild result;
    if (!layout_.uses_list()) return result;  // Forces walks the cells
    const std::uint32_t begin = r.listed_begin(mdbc), end = r.listed_end(mdbc);
    ListBuildCounts counts = cpu::build_neighbour_lists(args, begin, end, layout_.list_pool_rows());
    if (counts.rows > layout_.list_pool_rows()) {  // more than the list holds: again, with room
        layout_.list_height = list_height_for(counts.rows, layout_.capacity, layout_.list_height);
        try {
            list_.assign(layout_.list_bytes() / sizeof(NeighbourGroup), NeighbourGroup(0));
        } catch (const std::bad_alloc&) {
            throw std::runtime_error("the particles' neighbour lists now need " +
                                     std::to_string(layout_.list_bytes() >> 20) +
                                     " MiB of host memory, more than is available; use a larger "
                                     "--dp or --neighbours cells");
        }
        args.list = list_.data();
        counts = cpu::build_neighbour_lists(args, begin, end, layout_.list_pool_rows());
        result.list_grown = true;
    }
    result.largest_count = counts.largest;
    return result;
}

// Forces' arguments: the corrector's Forces read the predicted state, and under
// --no-penetration the predictor's dt minima, to find the step's dt (wall_contact.h).
ForcesArgs CpuDevice::forces_args(Stage stage, const StepClock& clock) {
    const bool predicted = stage == Stage::kCorrector;
    ForcesArgs args{predicted ? predicted_pos() : buffers_.current.pos.data(),
                    predicted ? predicted_velrho() : buffers_.current.velrho.data(),
                    buffers_.current.type.data(),
                    cell_.data(),
                    cell_start_.data(),
                    cell_end_.data(),
                    list_or_null(),
                    force_.data(),
                    dt_max_.data(),
                    list_rows_.data(),
                    layout_.max_neighbours,
                    layout_.grid,
                    params_,
                    cell_split_.data()};
    if (predicted && params_.no_penetration) {
        args.to_ghost = buffers_.current.to_ghost.data();
        args.step = EulerDt{minima_[0].data(), nullptr, std::uint32_t(minima_[0].size()), clock};
    }
    return args;
}

// As on a GPU, the edge slices first, each sent as soon as its forces are done, then the centre;
// on one thread of control the sends cannot overlap the centre, they only precede it.
void CpuDevice::forces(Stage stage, const ForceSends& sends, const StepClock& clock) {
    const auto start = SteadyClock::now();
    const double copying_before = times_.exchange_copy;  // the sends are not Forces seconds
    use_threads();
    const ForcesArgs args = forces_args(stage, clock);
    if (stage == Stage::kPredictor && params_.boundary == BoundaryModel::kMdbc) {
        TimedRegion timer(times_.boundary, trace_, "mDBC walls", "kernel");
        cpu::mdbc_densities(mdbc_args(), buffers_.ranges.near_begin(), buffers_.ranges.near_end());
    }
    const std::uint32_t begin = buffers_.ranges.left,
                        end = buffers_.ranges.left + buffers_.ranges.internal;
    // A one-slice device's edge slices are the same slice: the right stripe then starts where the
    // left one ends.
    const std::uint32_t left_end =
        sends.left.count > 0 ? sends.left.first + sends.left.count : begin;
    const std::uint32_t right_begin =
        sends.right.count > 0 ? std::max(left_end, sends.right.first) : end;
    auto send = [&](const ForceSend& s, const char* name) {
        if (s.count == 0) return;
        TimedRegion timer(times_.exchange_copy, trace_, name, "exchange");
        if (s.to.ptr != nullptr) {
            transport_.copy(s.to, force_buffer().offset(std::size_t(s.first) * sizeof(Vec4)),
                            std::size_t(s.count) * sizeof(Vec4));
        }
        if (s.landed) s.landed();
    };
    if (left_end > begin) {
        TimedRegion timer(times_.forces_edges, trace_, "forces edge left", "kernel");
        cpu::forces(args, begin, left_end);
    }
    send(sends.left, "edge-force copy left");
    if (end > right_begin) {
        TimedRegion timer(times_.forces_edges, trace_, "forces edge right", "kernel");
        cpu::forces(args, right_begin, end);
    }
    send(sends.right, "edge-force copy right");
    {
        TimedRegion timer(times_.forces_centre, trace_, "forces centre", "kernel");
        cpu::forces(args, left_end, right_begin);
    }
    const double seconds = seconds_since(start) - (times_.exchange_copy - copying_before);
    forces_seconds_[index_of(stage)] = seconds;
    times_.forces += seconds;
}

void CpuDevice::prepare_minima(std::uint32_t devices) {
    for (auto& m : minima_) m.assign(devices, NAN);
}

void CpuDevice::queue_minimum(Stage stage, std::uint32_t slot,
                              const std::vector<Endpoint>& also_to) {
    float minimum = 0.0f;
    {
        TimedRegion timer(times_.minimum_scan, trace_, "minimum dt", "kernel");
        use_threads();
        minimum = cpu::minimum_dt(dt_max_.data(), buffers_.ranges.left,
                                  buffers_.ranges.left + buffers_.ranges.internal);
    }
    float* mine = minima_[index_of(stage)].data() + slot;
    *mine = minimum;
    for (const Endpoint& to : also_to) {
        transport_.copy(to, Endpoint{Endpoint::kHostMemory, mine}, sizeof(float));
    }
}

void CpuDevice::set_minima(Stage stage, const std::vector<float>& minima) {
    if (minima.size() != minima_[index_of(stage)].size()) {
        throw std::logic_error("CpuDevice::set_minima: not one minimum per device");
    }
    minima_[index_of(stage)] = minima;
}

EulerArgs CpuDevice::euler_args() {
    const BodyLaws bodies{bodies_.laws.data(), bodies_.samples.data(),
                          std::uint32_t(bodies_.laws.size()),
                          body_poses_.empty() ? nullptr : body_poses_.data()};
    const bool mdbc = params_.boundary == BoundaryModel::kMdbc;
    return EulerArgs{buffers_.current.pos.data(),
                     buffers_.current.velrho.data(),
                     predicted_pos(),
                     predicted_velrho(),
                     force_.data(),
                     buffers_.current.type.data(),
                     0.0f,  // from the minima (euler_dt)
                     params_.rho0,
                     layout_.grid.frame,
                     bodies,
                     0.0,  // the step's, set by the launcher
                     mdbc ? buffers_.current.to_ghost.data() : nullptr};
}

void CpuDevice::euler(Stage stage, const StepClock& clock) {
    TimedRegion timer(times_.euler, trace_,
                      stage == Stage::kPredictor ? "euler predictor" : "euler corrector", "kernel");
    use_threads();
    const bool corrector = stage == Stage::kCorrector;
    const EulerDt dt{minima_[0].data(), corrector ? minima_[1].data() : nullptr,
                     std::uint32_t(minima_[0].size()), clock};
    if (corrector) {
        const DampingZones damping{damping_.data(), std::int32_t(damping_.size())};
        cpu::euler_corrector(euler_args(), dt, damping, 0, buffers_.ranges.total());
    } else {
        cpu::euler_predictor(euler_args(), dt, 0, buffers_.ranges.total());
    }
}

}  // namespace sph
