// What the kernel tests share: parameters and the cell side a run with spacing dp gets, the
// neighbour-list scene's grid, and a printable position.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "driver/run_options.h"
#include "driver/run_setup.h"
#include "sph_params.h"
#include "vec.h"

namespace sph::testing {

// Parameters as a run with spacing dp gets them; the still-water depth only sets c0, unused here.
inline SphParams params_for_dp(double dp) {
    RunOptions o;
    o.dp = dp;
    return make_sph_params(o, 1.0);
}

// The cell side make_grid derives from the list radius, without needing a Problem.
inline double cell_side_for(const SphParams& p) {
    return std::nextafter(std::sqrt(double(p.list_radius_sq)), 1e9);
}

// The neighbour-list scene: whole cells of the app's side for dp = 0.01 from a lower corner below
// zero on every axis, as DamBreak's domain is (-margin).
constexpr double kSceneLo[3] = {-0.15, -0.13, -0.17};
constexpr int kSceneCells[3] = {8, 6, 7};

inline std::string describe(const Vec4& p) {
    std::ostringstream s;
    s.precision(9);
    s << "(" << p.x << ", " << p.y << ", " << p.z << ")";
    return s.str();
}
inline std::string describe(const FixedPos& p) {
    std::ostringstream s;
    s << "(" << p.x << ", " << p.y << ", " << p.z << ") steps";
    return s.str();
}

}  // namespace sph::testing
