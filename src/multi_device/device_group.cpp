#include "multi_device/device_group.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sph {

namespace {

// min() that keeps a NaN: a blown-up device must not hide behind the others.
float min_keep_nan(float a, float b) {
    return (std::isnan(a) || std::isnan(b)) ? NAN : std::fmin(a, b);
}

// What to do when the water gathers in one device's slices beyond the room it was given.
constexpr const char* kCapacityHint =
    ": the water gathered in its slices; balancing (--lb on) moves slices away from a full "
    "device, more devices give each fewer slices, and a larger --dp fewer particles";

}  // namespace

DeviceGroup::DeviceGroup(std::vector<std::unique_ptr<Device>> devices, SliceMap slices,
                         CellGrid grid)
    : devices_(std::move(devices)),
      slices_(std::move(slices)),
      grid_(grid),
      bounds_(slices_.cell_bounds(grid)),
      cuts_(devices_.size()),
      internal_(devices_.size()),
      first_slice_end_(devices_.size()),
      last_slice_start_(devices_.size()),
      largest_(devices_.size()),
      outside_(devices_.size()),
      local_min_{std::vector<float>(devices_.size()), std::vector<float>(devices_.size())},
      sends_(devices_.size()),
      forces_seconds_(devices_.size()),
      stats_(devices_.size()),
      particle_bytes_(devices_.size(), std::vector<std::uint64_t>(devices_.size(), 0)),
      force_bytes_(devices_.size(), std::vector<std::uint64_t>(devices_.size(), 0)),
      host_track_(devices_.size()),
      markers_(devices_.size(), 0),
      barrier_(static_cast<int>(devices_.size())) {
    if (slices_.devices() != size()) throw std::logic_error("DeviceGroup: slice map size");
    for (int d = 0; d < size(); ++d) threads_.emplace_back([this, d] { work(d); });
}

DeviceGroup::~DeviceGroup() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
}

void DeviceGroup::upload(const HostParticles& all) {
    std::vector<HostParticles> parts(devices_.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        int d = size() -
                1;  // particles outside the grid go to the last device: its rebuild reports them
        const std::uint32_t cell = grid_.cell_of(all.pos[i]);
        if (cell != grid_.outside_cell()) {
            d = slices_.owner(static_cast<int>(cell / grid_.cells_per_slice()));
        }
        parts[d].append(all, i);
    }
    for (int d = 0; d < size(); ++d) devices_[d]->upload(parts[d]);
}

std::vector<HostParticles> DeviceGroup::download() {
    std::vector<HostParticles> parts(devices_.size());
    for (int d = 0; d < size(); ++d) devices_[d]->download(parts[d]);
    return parts;
}

std::vector<std::uint64_t> DeviceGroup::particle_counts() const {
    return std::vector<std::uint64_t>(internal_.begin(), internal_.end());
}

std::vector<std::uint64_t> DeviceGroup::first_slice_counts() const {
    return std::vector<std::uint64_t>(first_slice_end_.begin(), first_slice_end_.end());
}

std::vector<std::uint64_t> DeviceGroup::last_slice_counts() const {
    std::vector<std::uint64_t> count(devices_.size());
    for (int d = 0; d < size(); ++d) count[d] = internal_[d] - last_slice_start_[d];
    return count;
}

void DeviceGroup::set_slices(const SliceMap& slices) {
    if (slices.devices() != size() || slices.slice_count() != slices_.slice_count()) {
        throw std::logic_error("DeviceGroup::set_slices: the map does not fit the group");
    }
    slices_ = slices;
    bounds_ = slices_.cell_bounds(grid_);
}

std::vector<WorkerStats> DeviceGroup::stats() const {
    std::vector<WorkerStats> stats = stats_;
    for (int d = 0; d < size(); ++d) {
        for (int e = 0; e < size(); ++e) {
            if (e == d) continue;  // a device's own particles, moved within it
            stats[d].bytes_received += particle_bytes_[d][e] + force_bytes_[e][d];
            stats[e].bytes_sent += particle_bytes_[d][e];
            stats[d].bytes_sent += force_bytes_[d][e];
        }
    }
    return stats;
}

void DeviceGroup::trace_into(Trace* trace) {
    for (int d = 0; d < size(); ++d) {
        host_track_[d] = TraceTrack{};
        if (trace != nullptr) {
            trace->name_process(d + 1,
                                "device " + std::to_string(d) + ": " + devices_[d]->description());
            host_track_[d] = TraceTrack{trace, d + 1, trace->track(d + 1, "host thread")};
        }
        devices_[d]->trace_into(trace, d + 1);
    }
}

StepResult DeviceGroup::step(const StepRequest& request) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (error_) std::rethrow_exception(error_);
        request_ = request;
        result_ = StepResult{};
        finished_ = 0;
        ++command_;
    }
    wake_.notify_all();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return finished_ == size(); });
    if (error_) std::rethrow_exception(error_);
    return result_;
}

void DeviceGroup::work(int d) {
    long seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || command_ != seen; });
            if (stopping_) return;
            seen = command_;
        }
        try {
            run_step(d);
        } catch (const BarrierAborted&) {
            fail(std::current_exception());  // another worker's error is the one reported
        } catch (const std::exception& e) {
            fail(std::make_exception_ptr(std::runtime_error("device " + std::to_string(d) + " (" +
                                                            devices_[d]->description() +
                                                            "): " + e.what())));
        } catch (...) {
            fail(std::current_exception());
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            ++finished_;
        }
        done_.notify_all();
    }
}

// Keeps the first error (the cause; the others see BarrierAborted) and wakes every waiter.
void DeviceGroup::fail(std::exception_ptr error) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = error;
    }
    barrier_.abort();
    std::lock_guard<std::mutex> lock(marker_mutex_);
    marker_changed_.notify_all();
}

void DeviceGroup::euler(int d, Stage stage, float dt) {
    Device& dev = *devices_[d];
    dev.euler(stage, dt);
    dev.record_marker();
    {
        std::lock_guard<std::mutex> lock(marker_mutex_);
        ++markers_[d];
    }
    marker_changed_.notify_all();
}

void DeviceGroup::wait_at_barrier(int d, double& seconds, const char* name) {
    TimedRegion region(seconds, host_track_[d], name, "wait");
    barrier_.arrive_and_wait();
}

// Particles and slices of device d at this rebuild, for the report.
void DeviceGroup::sample_layout(int d) {
    WorkerStats& s = stats_[d];
    const std::uint64_t particles = internal_[d];
    const int slices = slices_.end_slice(d) - slices_.first_slice(d);
    if (s.rebuilds == 0) {
        s.particles_min = s.particles_max = particles;
        s.slices_min = s.slices_max = slices;
    }
    s.particles_min = std::min(s.particles_min, particles);
    s.particles_max = std::max(s.particles_max, particles);
    s.particles_sum += double(particles);
    s.slices_min = std::min(s.slices_min, slices);
    s.slices_max = std::max(s.slices_max, slices);
    ++s.rebuilds;
}

void DeviceGroup::wait_for_neighbour_markers(int d) {
    TimedRegion region(stats_[d].marker_wait_seconds, host_track_[d], "neighbour Euler wait",
                       "wait");
    std::unique_lock<std::mutex> lock(marker_mutex_);
    const long mine = markers_[d];
    marker_changed_.wait(lock, [&] {
        return barrier_.aborted() || ((d == 0 || markers_[d - 1] >= mine) &&
                                      (d + 1 == size() || markers_[d + 1] >= mine));
    });
    if (barrier_.aborted()) throw BarrierAborted();
}

void DeviceGroup::run_step(int d) {
    if (request_.rebuild && !rebuild(d)) {
        if (d == 0) result_.outside_grid = true;
        return;
    }
    float dt = min_keep_nan(stage(d, Stage::kPredictor), request_.dt_limit);
    forces_seconds_[d] = devices_[d]->last_forces_seconds();
    // Every worker sees the same minima, so all take the same branch here.
    if (!(dt > 0.0f) || !std::isfinite(dt)) {
        if (d == 0) result_.non_finite = true;
        return;
    }
    if (request_.time + dt > request_.t_end)
        dt = static_cast<float>(request_.t_end - request_.time);
    euler(d, Stage::kPredictor, dt);
    const float next = stage(d, Stage::kCorrector);
    if (std::isnan(next)) {
        if (d == 0) result_.non_finite = true;
        return;
    }
    euler(d, Stage::kCorrector, dt);
    forces_seconds_[d] += devices_[d]->last_forces_seconds();
    stats_[d].forces_seconds += forces_seconds_[d];
    ++stats_[d].iterations;
    if (d == 0) {
        result_.dt = dt;
        result_.next_dt_limit = next;
        if (request_.rebuild) {
            result_.largest_neighbours = *std::max_element(largest_.begin(), largest_.end());
        }
    }
}

void DeviceGroup::copy_particles(int dst, std::uint32_t dst_at, int src, std::uint32_t src_at,
                                 std::uint32_t count) {
    if (count == 0) return;
    particle_bytes_[dst][src] += std::uint64_t(count) * kParticleRecordBytes;
    Transport& t = devices_[dst]->transport();
    for_each_field(
        [&](auto field, const Endpoint& to, const Endpoint& from) {
            t.copy(to.offset(std::size_t(dst_at) * field.bytes),
                   from.offset(std::size_t(src_at) * field.bytes),
                   std::size_t(count) * field.bytes);
        },
        devices_[dst]->incoming(), devices_[src]->current());
}

// BuildNeibs across devices (docs/design.md: paper section 3.3): sort, migrate, refresh external
// slices, list. Returns false, on every worker alike, when a particle has left the grid.
bool DeviceGroup::rebuild(int d) {
    TracedRegion whole(host_track_[d], "rebuild", "rebuild");
    WorkerStats& stats = stats_[d];
    Device& dev = *devices_[d];
    const int n = size();
    const LocalLayout before = dev.layout();
    dev.sort(before.left, before.internal);  // externals are dropped: their owners send them anew
    cuts_[d] = dev.lower_bounds(before.internal, bounds_);
    outside_[d] = before.internal - cuts_[d][n];  // sorted last: outside_cell() is the largest
    wait_at_barrier(d, stats.rebuild_wait_seconds, "rebuild wait");
    std::uint64_t outside = 0;
    for (std::uint32_t o : outside_) outside += o;
    if (outside > 0 && !remove_outside_) return false;
    if (d == 0) result_.removed = outside;  // no device takes them below: they are dropped

    // Migration: gather, from every device, the particles now in this device's slices. Each part
    // is sorted; together they are sorted again below.
    std::uint32_t total = 0;
    bool only_own = true;
    for (int e = 0; e < n; ++e) {
        const std::uint32_t part = cuts_[e][d + 1] - cuts_[e][d];
        total += part;
        only_own = only_own && (e == d || part == 0);
    }
    if (total > dev.capacity()) {
        throw std::runtime_error("device " + std::to_string(d) + " would hold " +
                                 std::to_string(total) + " particles, more than its capacity of " +
                                 std::to_string(dev.capacity()) + kCapacityHint);
    }
    const bool moved = !only_own || cuts_[d][d] != 0 || cuts_[d][d + 1] != before.internal;
    if (moved) {
        TimedRegion region(stats.migration_seconds, host_track_[d], "migration", "exchange");
        std::uint32_t at = 0;
        for (int e = 0; e < n; ++e) {
            const std::uint32_t part = cuts_[e][d + 1] - cuts_[e][d];
            copy_particles(d, at, e, cuts_[e][d], part);
            if (e != d) stats.particles_migrated_in += part;
            at += part;
        }
    }
    // No device reads another's current arrays past this point.
    wait_at_barrier(d, stats.rebuild_wait_seconds, "rebuild wait");
    if (moved) {
        dev.commit_incoming(LocalLayout{0, total, 0});
        dev.sort(0, total);
    }
    internal_[d] = total;
    const std::uint32_t per_slice = grid_.cells_per_slice();
    const std::vector<std::uint32_t> edges =
        dev.lower_bounds(total, {bounds_[d] + per_slice, bounds_[d + 1] - per_slice});
    first_slice_end_[d] = edges[0];
    last_slice_start_[d] = edges[1];
    sample_layout(d);
    wait_at_barrier(d, stats.rebuild_wait_seconds, "rebuild wait");

    // External slices: the left neighbour's last slice and the right neighbour's first slice.
    const std::uint32_t left = left_external(d);
    const std::uint32_t right = d + 1 < n ? first_slice_end_[d + 1] : 0;
    if (left + total + right > dev.capacity()) {
        throw std::runtime_error("device " + std::to_string(d) + " would hold " +
                                 std::to_string(left + total + right) +
                                 " particles with its external slices, more than its capacity of " +
                                 std::to_string(dev.capacity()) + kCapacityHint);
    }
    if (left + right > 0) {
        TimedRegion region(stats.migration_seconds, host_track_[d], "external slices", "exchange");
        if (left > 0) copy_particles(d, 0, d - 1, last_slice_start_[d - 1], left);
        copy_particles(d, left, d, 0, total);
        if (right > 0) copy_particles(d, left + total, d + 1, 0, right);
    }
    wait_at_barrier(d, stats.rebuild_wait_seconds, "rebuild wait");
    if (left + right > 0) dev.commit_incoming(LocalLayout{left, total, right});
    plan_sends(d);
    largest_[d] = dev.build_lists().largest_count;
    return true;
}

// Device d's left external slice: the left neighbour's last slice, as found at this rebuild.
std::uint32_t DeviceGroup::left_external(int d) const {
    return d > 0 ? internal_[d - 1] - last_slice_start_[d - 1] : 0;
}

// Where device d's edge slices' forces go: its first slice to the left neighbour's right
// external slots, its last slice to the right neighbour's left ones.
void DeviceGroup::plan_sends(int d) {
    const int n = size();
    ForceSends& s = sends_[d];
    s = ForceSends{};
    const std::uint32_t first = left_external(d);
    if (d > 0) {
        Device& left = *devices_[d - 1];
        s.left.first = first;
        s.left.count = first_slice_end_[d];
        s.left.to =
            left.force_buffer().offset((left_external(d - 1) + internal_[d - 1]) * sizeof(Vec4));
        s.left.receiver = &left;
    }
    if (d + 1 < n) {
        Device& right = *devices_[d + 1];
        s.right.first = first + last_slice_start_[d];
        s.right.count = internal_[d] - last_slice_start_[d];
        s.right.to = right.force_buffer();
        s.right.receiver = &right;
    }
}

// Forces on the internal particles with the edge-slice sends overlapping them (docs/design.md:
// paper section 3.4), then the global dt minimum. Returns the minimum over all devices.
float DeviceGroup::stage(int d, Stage stage) {
    Device& dev = *devices_[d];
    wait_for_neighbour_markers(d);
    dev.forces(stage, sends_[d]);
    auto count_send = [&](const ForceSend& send, int to) {
        if (send.count == 0) return;
        ++stats_[d].force_sends;
        force_bytes_[d][to] += std::uint64_t(send.count) * sizeof(Vec4);
    };
    count_send(sends_[d].left, d - 1);
    count_send(sends_[d].right, d + 1);
    if (d == fault_.device && request_.iteration == fault_.iteration &&
        stage == Stage::kPredictor) {
        dev.inject_fault();
    }
    std::vector<float>& minima = local_min_[stage == Stage::kPredictor ? 0 : 1];
    minima[d] = dev.minimum_dt();  // waits for the forces and the sends
    // Past this barrier every device's external forces have arrived.
    wait_at_barrier(d, stats_[d].dt_wait_seconds, "dt reduction wait");
    float global = minima[0];
    for (float m : minima) global = min_keep_nan(global, m);
    return global;
}

}  // namespace sph
