#include "driver/list_margin.h"

#include <algorithm>

namespace sph {

void ListMargin::add_iteration(double dt, double cfl_dt_before, double cfl_dt_after) {
    const double fastest =
        std::max({cfl_h_ / cfl_dt_before - c0_, cfl_h_ / cfl_dt_after - c0_, 0.0});
    travel_ += fastest * dt;
    ++open_iterations_;
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
