// SPHERIC benchmark test 2 (Kleefsman et al. 2005): a dam break against a box-shaped obstacle.
//
// x runs from the wall behind the obstacle; the tank is 3.22 x 1.0 x 1.0 m with an open top; the
// water column x in [1.992, 3.22], z in [0, 0.55] is released at t = 0.
//
// Instruments: this frame is the experiment's own (Kleefsman et al., SPHERIC test 2: water at the
// far end, the obstacle's front face x = 0.8245 turned towards it), so the benchmark's gauge and
// probe coordinates are used unchanged (x_problem = x_spheric). Codes that mirror the tank (PySPH:
// water at x in [0, 1.228]) would use x = 3.22 - x_spheric instead.
// - Gauges H1..H4 at x = 0.496 (behind the obstacle), 0.992, 1.488 (between it and the dam) and
//   2.638 (in the reservoir), y = 0.5.
// - Probes P1..P4 on the front face (x = 0.8245, y = 0.471, z = 0.021 ... 0.141) and P5..P8 on the
//   top (z = 0.161, y = 0.471, x = 0.8035 ... 0.6835). They sit on the faces themselves: the
//   pressure is interpolated from fluid particles only (src/instruments/gauges.h), which never
//   enter the wall. They are point probes, not wall sensors, because the default walls are DBC,
//   whose pressures are their own rather than the water's; under --boundary mdbc,
//   --wall-sensor 0.8245,0.471,0.021,+x,D reads the face itself.
// - Panel F_obstacle, the whole front face: the force the water exerts on the obstacle [N]
//   (instruments/gauges.h), from the wall's pressures as a wall sensor reads them (mDBC: the
//   water's); M_obstacle, that force's moment about the face's foot [N m], the one that would
//   overturn a building there (M_obstacle / F_obstacle: the height the force acts at).
// - The front tracker follows the surge along the floor towards the obstacle (smallest x).
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
    Box fluid_reach(double dp) const override;
    void check_resolution(double dp) const override;
    void fill(double dp, const EmitParticle& emit) const override;
    Instruments instruments() const override;
    // "obstacle": the box in the tank's way.
    std::vector<NamedRegion> regions(double dp) const override;
};

}  // namespace sph
