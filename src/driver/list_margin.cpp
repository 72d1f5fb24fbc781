#include "driver/list_margin.h"

#include <algorithm>
#include <cmath>

namespace sph {

namespace {

// The fastest any particle can be where the particles' stable dt is cfl_dt.
double fastest(double cfl_h, double c0, double cfl_dt) {
    return std::max(cfl_h / cfl_dt - c0, 0.0);
}

}  // namespace

void ListMargin::add_iteration(double dt, double cfl_dt_before, double cfl_dt_after) {
    travel_ +=
        std::max(fastest(cfl_h_, c0_, cfl_dt_before), fastest(cfl_h_, c0_, cfl_dt_after)) * dt;
    ++open_iterations_;
}

bool ListMargin::next_iteration_may_pass(double dt_limit) const {
    if (!(dt_limit > 0.0) || !std::isfinite(dt_limit)) return false;  // before the first step
    return travel_ + kSafety * fastest(cfl_h_, c0_, dt_limit) * dt_limit > margin_;
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
