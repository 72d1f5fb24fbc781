#include "devices/cpu/cpu_device.h"

#include <omp.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <new>
#include <stdexcept>

#include "common/clock.h"
#include "cpu/cpu_launchers.h"

namespace sph {

namespace {

// MemAvailable from /proc/meminfo: what can be allocated without swapping; unlimited if unknown.
std::size_t available_host_memory() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key, unit;
    std::size_t kib = 0;
    while (meminfo >> key >> kib >> unit) {
        if (key == "MemAvailable:") return kib * 1024;
    }
    return std::numeric_limits<std::size_t>::max();
}

template <class T>
std::size_t bytes_of(const HostArray<T>& array) {
    return array.capacity() * sizeof(T);
}

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

// Each device thread sets its own OpenMP team size (the setting is per thread).
void CpuDevice::use_threads() const {
    if (threads_ > 0) omp_set_num_threads(threads_);
}

std::string CpuDevice::description() const {
    const int threads = threads_ > 0 ? threads_ : omp_get_max_threads();
    return "CPU (" + std::to_string(threads) + " OpenMP threads)";
}

std::size_t CpuDevice::bytes_needed(const DeviceLayout& layout) const {
    return layout.bytes() +
           std::size_t(layout.capacity) * (sizeof(std::uint64_t) + sizeof(std::uint32_t));
}

std::size_t CpuDevice::bytes_allocated() const {
    std::size_t total = 0;
    for_each_field([&](auto, const auto& a, const auto& b) { total += bytes_of(a) + bytes_of(b); },
                   buffers_.current, buffers_.incoming);
    total += bytes_of(force_) + bytes_of(dt_max_) + bytes_of(cell_) + bytes_of(cell_start_) +
             bytes_of(cell_end_) + bytes_of(cell_split_) + bytes_of(sort_key_) +
             bytes_of(sort_permutation_) + bytes_of(list_) + bytes_of(list_rows_) +
             bytes_of(instrument_sites_) + bytes_of(instrument_sums_);
    return total;
}

Device::MemoryPool CpuDevice::memory_pool() const {
    return MemoryPool{-1, available_host_memory()};  // every CPU device draws on host memory
}

void CpuDevice::allocate(const DeviceLayout& layout, const SphParams& params) {
    const std::size_t available = available_host_memory();
    const std::size_t needed = bytes_needed(layout);
    if (needed > available) {
        throw std::runtime_error("the run needs " + std::to_string(needed >> 20) +
                                 " MiB of host memory but only " + std::to_string(available >> 20) +
                                 " MiB are available; use a larger --dp");
    }
    layout_ = layout;
    params_ = params;
    const std::size_t n = layout.capacity;
    for_each_field(
        [&](auto field, auto& current, auto& incoming) {
            using T = typename decltype(field)::type;
            const std::size_t kept = layout.keeps(field.kept) ? n : 0;
            current.assign(kept, T{});
            current.shrink_to_fit();  // a field not kept holds no memory
            incoming.assign(kept, T{});
            incoming.shrink_to_fit();
        },
        buffers_.current, buffers_.incoming);
    force_.assign(n, Vec4{});
    dt_max_.assign(n, 0.0f);
    cell_.assign(n, 0u);
    sort_key_.assign(n, 0);
    sort_permutation_.assign(n, 0u);
    cell_start_.assign(layout.grid.cell_count() + 1, kEmptyCell);
    cell_end_.assign(layout.grid.cell_count() + 1, 0u);
    cell_split_.assign(std::size_t(layout.grid.cell_count() + 1) * kCellSplitBytes, 0u);
    list_.assign(layout.list_bytes() / sizeof(NeighbourGroup), NeighbourGroup(0));
    list_.shrink_to_fit();
    list_rows_.assign(layout.list_index_bytes() / sizeof(std::uint32_t), 0u);
    list_rows_.shrink_to_fit();
    instrument_sites_.assign(layout.instrument_sites, InstrumentSite{});
    instrument_sums_.assign(std::size_t(layout.instrument_sites) * kCellPlanes,
                            SiteSums{0.0f, 0.0f});
}

void CpuDevice::upload(const HostParticles& particles) {
    if (particles.size() > layout_.capacity) {
        throw std::logic_error("CpuDevice::upload: more particles than the allocated capacity");
    }
    buffers_.ranges = LocalRanges{0, static_cast<std::uint32_t>(particles.size()), 0};
    for_each_field(
        [](auto, auto& to, const auto& from) {
            if (!to.empty()) std::copy(from.begin(), from.end(), to.begin());
        },
        buffers_.current, particles);
}

void CpuDevice::download(HostParticles& particles) {
    const std::size_t first = buffers_.ranges.left, n = buffers_.ranges.internal;
    particles.frame = layout_.grid.frame;
    particles.resize(n);
    for_each_field(
        [&](auto field, auto& to, const auto& from) {
            using T = typename decltype(field)::type;
            if (from.empty()) {
                std::fill(to.begin(), to.end(), T{});  // not kept here: zero
            } else {
                std::copy_n(from.begin() + first, n, to.begin());
            }
        },
        particles, buffers_.current);
}

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

// As on a GPU, the edge slices first, each sent as soon as its forces are done, then the centre;
// on one thread of control the sends cannot overlap the centre, they only precede it.
void CpuDevice::forces(Stage stage, const ForceSends& sends, const StepClock& clock) {
    const auto start = SteadyClock::now();
    const double copying_before = times_.exchange_copy;  // the sends are not Forces seconds
    use_threads();
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

void CpuDevice::trace_into(Trace* trace, int process) {
    trace_ = TraceTrack{trace, process, trace != nullptr ? trace->track(process, "kernels") : 0};
}

void CpuDevice::inject_fault() {
    throw std::runtime_error("injected fault on a CPU device (testing)");
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
    return EulerArgs{buffers_.current.pos.data(),
                     buffers_.current.velrho.data(),
                     predicted_pos(),
                     predicted_velrho(),
                     force_.data(),
                     buffers_.current.type.data(),
                     0.0f,  // from the minima (euler_dt)
                     params_.rho0,
                     layout_.grid.frame};
}

void CpuDevice::euler(Stage stage, const StepClock& clock) {
    TimedRegion timer(times_.euler, trace_,
                      stage == Stage::kPredictor ? "euler predictor" : "euler corrector", "kernel");
    use_threads();
    const bool corrector = stage == Stage::kCorrector;
    const EulerDt dt{minima_[0].data(), corrector ? minima_[1].data() : nullptr,
                     std::uint32_t(minima_[0].size()), clock};
    if (corrector) {
        cpu::euler_corrector(euler_args(), dt, 0, buffers_.ranges.total());
    } else {
        cpu::euler_predictor(euler_args(), dt, 0, buffers_.ranges.total());
    }
}

void CpuDevice::set_instrument_sites(const std::vector<InstrumentSite>& sites) {
    if (sites.size() > instrument_sites_.size()) {
        throw std::logic_error("CpuDevice::set_instrument_sites: more sites than the layout holds");
    }
    std::copy(sites.begin(), sites.end(), instrument_sites_.begin());
    instrument_site_count_ = static_cast<std::uint32_t>(sites.size());
}

void CpuDevice::start_measuring(const FrontSpec* front) {
    if (measurement_) {
        throw std::logic_error("CpuDevice::start_measuring: the last measurement is unfinished");
    }
    measurement_ = measured(front);
}

InstrumentSums CpuDevice::finish_measuring() {
    if (!measurement_) {
        throw std::logic_error("CpuDevice::finish_measuring: no measurement was started");
    }
    InstrumentSums out = std::move(*measurement_);
    measurement_.reset();
    return out;
}

// The keys go into dt_max, free between steps.
InstrumentSums CpuDevice::measured(const FrontSpec* front) {
    use_threads();
    const InstrumentArgs args = instrument_args();
    const std::uint32_t count = instrument_site_count_;
    cpu::site_sums(args, instrument_sites_.data(), instrument_sums_.data(), count);
    InstrumentSums out;
    out.planes.assign(instrument_sums_.begin(),
                      instrument_sums_.begin() + std::size_t(count) * kCellPlanes);
    if (front != nullptr) {
        float* keys = dt_max_.data();
        cpu::banded_keys(args, *front, keys, args.owned_begin, args.owned_end);
        const float lead = cpu::minimum_dt(keys, args.owned_begin, args.owned_end);
        if (lead < INFINITY) {  // the leading slab first (instruments_body.h)
            cpu::front_keys(args, *front, lead + front->slab, keys, args.owned_begin,
                            args.owned_end);
            out.front_key = cpu::minimum_dt(keys, args.owned_begin, args.owned_end);
            if (!(out.front_key < INFINITY)) {
                cpu::front_keys(args, *front, INFINITY, keys, args.owned_begin, args.owned_end);
                out.front_key = cpu::minimum_dt(keys, args.owned_begin, args.owned_end);
            }
        }
    }
    return out;
}

}  // namespace sph
