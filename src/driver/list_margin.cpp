#include "driver/list_margin.h"

#include <algorithm>
#include <cmath>

namespace sph {

double ListMargin::speed_bound(double cfl_dt) const {
    return std::max(cfl_h_ / cfl_dt - c0_, 0.0);
}

void ListMargin::add_iteration(double dt, double speed_before, double speed_after) {
    travel_ += std::max(speed_before, speed_after) * dt;
    ++open_iterations_;
}

bool ListMargin::next_iteration_may_pass(double dt_limit, double speed) const {
    if (!(dt_limit > 0.0) || !std::isfinite(dt_limit)) return false;  // before the first step
    return travel_ + kSafety * speed * dt_limit > margin_;
}

void ListMargin::at_rebuild() {
    if (open_iterations_ == 0) return;
    open_iterations_ = 0;
    if (travel_ > margin_) ++exceeded_;
    largest_ = std::max(largest_, travel_);
    ++intervals_;
    travel_ = 0.0;
}

double ListMargin::largest_share() const {
    return margin_ > 0.0 ? std::max(largest_, travel_) / margin_ : 0.0;
}

}  // namespace sph
