// DeviceGroup's floating bodies: each stage's loads on them from every device, added up as a
// barrier opens (integers: the same bits in any order and on any device or rank count), the
// bodies advanced once from the sum, and every device given the same poses for its Euler.
//
// Unlike the rest of a step, this waits on the host: the loads must be read back before the
// bodies can move. Runs without floating bodies never come here.
#include "body_loads_body.h"
#include "multi_device/device_group.h"

namespace sph {

void DeviceGroup::set_floating(FloatingHook hook) {
    floating_ = std::move(hook);
    const std::size_t sums = floating_.moment_points(Stage::kPredictor).size() * kBodyLoadSums;
    floating_sums_.assign(devices_.size(), std::vector<unsigned long long>(sums, 0));
    floating_dt_.assign(devices_.size(), 0.0);
    floating_due_.assign(devices_.size(), 0);
}

void DeviceGroup::move_floating_bodies(int d, Stage stage, const StepClock& clock) {
    Device& dev = *devices_[d];
    {
        TimedRegion region(stats_[d].dt_wait_seconds, host_track_[d], "floating bodies' loads",
                           "wait");
        const bool corrector = stage == Stage::kCorrector;
        floating_sums_[d] = dev.body_loads(floating_.moment_points(stage), corrector);
        if (!corrector) {  // the corrector steps with the predictor's dt
            const std::vector<float> minima = dev.read_minima(Stage::kPredictor);
            const StepDt step = step_dt(minima.data(), std::uint32_t(size()), clock);
            floating_dt_[d] = step.usable ? double(step.dt) : 0.0;
        }
        floating_due_[d] = 1 + index_of(stage);
    }
    wait_at_barrier(d, stats_[d].dt_wait_seconds, "floating bodies wait");
    dev.set_body_poses(floating_poses_);
}

void DeviceGroup::open_barrier() {
    if (span_.spread()) share_across_ranks();
    if (floating_.advance && floating_due_[std::size_t(span_.first_local())] != 0) {
        advance_floating_bodies();
    }
}

// Every worker waits at the barrier: nothing reads the sums or the poses meanwhile.
void DeviceGroup::advance_floating_bodies() {
    const int first = span_.first_local();
    const Stage stage =
        floating_due_[std::size_t(first)] == 1 ? Stage::kPredictor : Stage::kCorrector;
    std::vector<unsigned long long> sums(floating_sums_.front().size(), 0);
    for (const auto& device : floating_sums_) {
        for (std::size_t k = 0; k < sums.size(); ++k) sums[k] += device[k];
    }
    floating_poses_ = floating_.advance(stage, sums, floating_dt_[std::size_t(first)]);
    for (int d = first; d < span_.end_local(); ++d) floating_due_[std::size_t(d)] = 0;
}

}  // namespace sph
