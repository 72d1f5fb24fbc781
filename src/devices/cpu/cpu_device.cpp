// CpuDevice's set-up and memory: its OpenMP team, the arrays sized and allocated (in host
// memory, which every CPU device draws on), particles uploaded and downloaded, the instruments'
// sums. The stages of a step are in cpu_stages.cpp.
#include "devices/cpu/cpu_device.h"

#include <omp.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <new>
#include <stdexcept>

#include "body_loads_body.h"
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

void CpuDevice::trace_into(Trace* trace, int process) {
    trace_ = TraceTrack{trace, process, trace != nullptr ? trace->track(process, "kernels") : 0};
}

void CpuDevice::inject_fault() {
    throw std::runtime_error("injected fault on a CPU device (testing)");
}

std::vector<unsigned long long> CpuDevice::body_loads(const std::vector<FixedPos>& moment_points,
                                                      bool predicted) {
    use_threads();
    std::vector<unsigned long long> sums(moment_points.size() * kBodyLoadSums, 0);
    InstrumentArgs args = instrument_args();
    if (predicted) {
        args.pos = predicted_pos();
        args.velrho = predicted_velrho();
    }
    if (!moment_points.empty()) {
        cpu::body_loads(args, moment_points.data(), std::uint32_t(moment_points.size()),
                        floating_bits(bodies_.laws.data(), bodies_.laws.size()), sums.data());
    }
    return sums;
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
