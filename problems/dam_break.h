// SPHERIC benchmark test 2 (Kleefsman et al. 2005): a dam break against a box-shaped obstacle.
//
// x runs from the wall behind the obstacle; the tank is 3.22 x 1.0 x 1.0 m with an open top; the
// water column x in [1.992, 3.22], z in [0, 0.55] is released at t = 0.
#pragma once

#include "problem.h"

namespace sph {

class DamBreak : public Problem {
public:
    static constexpr double kTank[3] = {3.22, 1.0, 1.0};
    static constexpr double kWaterLo[3] = {1.992, 0.0, 0.0};
    static constexpr double kWaterHi[3] = {3.22, 1.0, 0.55};
    static constexpr double kObstacleLo[3] = {0.6635, 0.295, 0.0};
    static constexpr double kObstacleHi[3] = {0.8245, 0.698, 0.161};

    std::string name() const override { return "DamBreak"; }
    double default_dp() const override { return 0.02; }
    double default_t_end() const override { return 6.0; }
    int default_split_axis() const override { return 0; }
    double still_water_depth() const override { return kWaterHi[2]; }
    Box domain(double dp) const override;
    void check_resolution(double dp) const override;
    void fill(double dp, const EmitParticle& emit) const override;
};

}  // namespace sph
