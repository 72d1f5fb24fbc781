// bodies.csv of a run with moving bodies (bodies/body_log.h): the loads summed over the devices
// and, across ranks, over the ranks (integers: the same bits in any order), written by rank 0.
#include <algorithm>
#include <sstream>

#include "driver/simulation.h"

namespace sph {

void Simulation::open_body_log() {
    if (bodies_.laws.empty() || !options_.write_output) return;
    const bool resumed = restarts_ > 0;
    body_log_ = std::make_unique<BodyLog>(bodies_, &floating_, options_.gauge_every,
                                          writes_files() ? options_.output_dir : std::string(),
                                          resumed ? time_ : -1.0);
    if (!resumed) log_bodies(-options_.gauge_every, false);  // the row at t = 0
}

void Simulation::log_bodies(double previous, bool last) {
    if (!body_log_ || !body_log_->due(time_, previous, last)) return;
    std::vector<unsigned long long> sums =
        group_->body_loads(body_log_->moment_points(time_, grid_.frame));
    if (span_.spread()) {
        std::ostringstream mine;
        for (unsigned long long s : sums) mine << s << ' ';
        std::fill(sums.begin(), sums.end(), 0ull);
        for (const std::string& rank : ranks_->all_gather(mine.str())) {
            std::istringstream in(rank);
            for (unsigned long long& s : sums) {
                unsigned long long part = 0;
                in >> part;
                s += part;
            }
        }
    }
    body_log_->write(time_, sums);
}

DeviceGroup::FloatingHook Simulation::floating_hook() {
    const PositionFrame frame = grid_.frame;
    DeviceGroup::FloatingHook hook;
    hook.moment_points = [this, frame](Stage stage) {
        return floating_.moment_points(stage == Stage::kCorrector, frame);
    };
    hook.advance = [this](Stage stage, const std::vector<unsigned long long>& sums, double dt) {
        return floating_.advance(stage == Stage::kCorrector, sums, dt);
    };
    return hook;
}

}  // namespace sph
