// The dam break of Lobovsky et al. (2014, "Experimental investigation of dynamic pressure loads
// during dam break", Journal of Fluids and Structures 48), the H = 0.3 m case: measured impact
// pressures on the wall the water runs into, the median and 2.5-97.5 % band of about 100
// repetitions (validation/lobovsky.py compares them).
//
// The tank is 1.61 m long (x), 0.15 m wide (y), 0.6 m high, open at the top; the water column
// x in [0, 0.6], the full width, 0.3 m deep, is released at t = 0 (the experiment's gate is not
// modelled). The downstream wall x = 1.61 carries four pressure sensors, centred 3, 15, 30 and
// 80 mm above the floor; the flow there is close to uniform across the narrow tank, so probes
// P1..P4 sit on its centre line (y = 0.075) on the wall's face. They read the fluid beside the
// face (Shepard over fluid particles within 2h, instruments/gauges.h), about 0.6 dp into the
// water, as a flush-mounted sensor sees it: under mDBC the walls carry the same pressure, under
// DBC they hold the water about h off. The front tracker follows the surge along the floor
// towards that wall (largest x).
#pragma once

#include "problem.h"

namespace sph {

class Lobovsky : public Problem {
public:
    static constexpr double kTank[3] = {1.61, 0.15, 0.6};
    static constexpr double kWaterHi[3] = {0.6, 0.15, 0.3};  // from the origin corner
    static constexpr double kSensorZ[4] = {0.003, 0.015, 0.030, 0.080};

    std::string name() const override { return "Lobovsky"; }
    double default_dp() const override { return 0.005; }
    // t sqrt(g / H) = 8, past the data's end (7.5): 1.4 s.
    double default_t_end() const override { return 1.4; }
    int default_split_axis() const override { return 0; }
    double still_water_depth() const override { return kWaterHi[2]; }
    Box domain(double dp) const override;
    void check_resolution(double dp) const override;
    void fill(double dp, const EmitParticle& emit) const override;
    Instruments instruments() const override;
};

}  // namespace sph
