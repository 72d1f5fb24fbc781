#include "multi_device/device_group.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sph {

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
      left_band_end_(devices_.size()),
      right_band_start_(devices_.size()),
      outside_(devices_.size()),
      local_min_{std::vector<float>(devices_.size()), std::vector<float>(devices_.size())},
      sends_(devices_.size()),
      forces_seconds_(devices_.size()),
      stats_(devices_.size()),
      traffic_(int(devices_.size())),
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

InstrumentSums DeviceGroup::measure(const std::vector<InstrumentSite>& sites,
                                    const FrontSpec* front) {
    InstrumentSums all;
    all.sites.assign(sites.size(), SiteSums{0.0f, 0.0f});
    for (auto& device : devices_) {
        const InstrumentSums part = device->measure(sites, front);
        for (std::size_t k = 0; k < sites.size(); ++k) {
            all.sites[k].weight += part.sites[k].weight;
            all.sites[k].pressure += part.sites[k].pressure;
        }
        all.front_key = std::min(all.front_key, part.front_key);
    }
    return all;
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
    traffic_.add_to(stats);
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

}  // namespace sph
