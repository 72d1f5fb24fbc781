// The dam break of Lobovsky et al. (2014, "Experimental investigation of dynamic pressure loads
// during dam break", Journal of Fluids and Structures 48), the H = 0.3 m case: measured impact
// pressures on the wall the water runs into, the median and 2.5-97.5 % band of about 100
// repetitions (validation/lobovsky.py compares them).
//
// The tank is 1.61 m long (x), 0.15 m wide (y), 0.6 m high, open at the top; the water column
// x in [0, 0.6], the full width, 0.3 m deep, is released at t = 0 (the experiment's gate is not
// modelled). The downstream wall x = 1.61 carries four pressure sensors, centred 3, 15, 30 and
// 80 mm above the floor; the flow there is close to uniform across the narrow tank, so the
// instruments sit on its centre line (y = 0.075), two kinds at each sensor:
// - wall sensors S1..S4, discs 6 mm across on the wall's face, read the wall's pressure over the
//   disc as a flush-mounted sensor does (instruments/gauges.h). Under mDBC that is the water's
//   pressure extrapolated to the wall, and these are the ones to compare with the experiment
//   (validation/lobovsky.py). 6 mm is the widest disc centred 3 mm above the floor; the data do
//   not give the sensors' size, and at the resolutions run (dp 2.5-10 mm) a disc this small reads
//   the one or two wall particles behind it;
// - probes P1..P4 at the same points read the fluid beside the face (Shepard over fluid particles
//   within 2h), about 0.6 dp into the water: the reading to use under DBC, whose walls hold the
//   water about h off and carry pressures of their own.
// Panel F_wall, the wall's whole face, reads the force on it [N]; the front tracker follows the
// surge along the floor towards that wall (largest x).
//
// Every wall is an ordinary dynamic boundary (no-slip in the viscous term) unless
// `--free-slip-walls` names it: floor, sides (y = 0 and 0.15), upstream (x = 0) or downstream
// (x = 1.61), a comma-separated list (a particle in an edge or corner belongs to every wall
// around it and is free-slip if any of them is listed). This matters under `--slip problem`
// alone: `--slip free-slip` and `--slip no-slip` set every wall.
#pragma once

#include <string>

#include "problem.h"

namespace sph {

class Lobovsky : public Problem {
public:
    static constexpr double kTank[3] = {1.61, 0.15, 0.6};
    static constexpr double kWaterHi[3] = {0.6, 0.15, 0.3};  // from the origin corner
    static constexpr double kSensorZ[4] = {0.003, 0.015, 0.030, 0.080};
    static constexpr double kSensorDiameter = 0.006;

    std::string name() const override { return "Lobovsky"; }
    // --free-slip-walls floor,sides,upstream,downstream (any of them, or none); another name
    // fails the parse, naming the option.
    void add_options(boost::program_options::options_description& options) override;
    double default_dp() const override { return 0.005; }
    // t sqrt(g / H) = 8, past the data's end (7.5): 1.4 s.
    double default_t_end() const override { return 1.4; }
    int default_split_axis() const override { return 0; }
    double still_water_depth() const override { return kWaterHi[2]; }
    Box domain(double dp) const override;
    Box fluid_reach(double dp) const override;
    void check_resolution(double dp) const override;
    void fill(double dp, const EmitParticle& emit) const override;
    Instruments instruments() const override;

    // The walls, as bits of a set of them.
    enum Wall : unsigned { kFloor = 1, kSides = 2, kUpstream = 4, kDownstream = 8 };
    // The walls a comma-separated list names ("none": none); throws std::invalid_argument
    // naming the option and the word on a name that is not a wall.
    static unsigned parse_walls(const std::string& list);

private:
    unsigned free_slip_walls_ = 0;  // the walls set free-slip, bits of Wall
};

}  // namespace sph
