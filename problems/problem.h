// What a problem (a compiled-in simulation case) tells the simulator.
#pragma once

#include <boost/program_options/options_description.hpp>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "body_motion.h"
#include "damping_zone.h"
#include "geometry/box.h"
#include "geometry/shape.h"
#include "instruments.h"
#include "particle_type.h"

namespace sph {

// A part of a problem's walls a what-if branch can remove by name (driver/geometry_change.h):
// every wall particle inside `box`, or where `shape` is set (a mesh), inside that solid.
struct NamedRegion {
    std::string name;
    Box box;                                       // the region, or a shape's bounds
    std::shared_ptr<const Shape> shape = nullptr;  // null: the box itself
    bool contains(double x, double y, double z) const {
        return shape ? shape->inside({x, y, z}) : box.contains(x, y, z);
    }
};

// What a floating body (law.kind == MotionKind::kFloating, bodies/floating_body.h) weighs and
// how it may move. Its centre of mass is its particles' centre unless given; its inertia is its
// particles' about that centre, each a cube of side dp, unless given.
struct FloatingSpec {
    double density = 0.0;  // [kg/m^3]: mass = density x its particles' volume (count x dp^3), or
    double mass = 0.0;     // [kg], when above 0 (a hollow solid's particles are not its volume)
    // Principal moments of inertia about the centre along x, y, z [kg m^2]; all 0: its particles'.
    std::array<double, 3> inertia = {0.0, 0.0, 0.0};
    bool centre_given = false;
    std::array<double, 3> centre = {0.0, 0.0, 0.0};  // [m] as laid out, where centre_given
    bool move[3] = {true, true, true};               // the axes its centre may move along
    bool turn[3] = {true, true, true};               // the axes it may turn about
    // Hinged: it turns about the law's hinge line (BodyLaw::hinge, hinge_axis) and nothing else,
    // its centre carried round it (move and turn do not apply).
    bool hinged = false;
};

// A rigid body that moves by a prescribed law (body_motion.h), or floats: every wall particle
// inside `region` as the problem lays them out. `region.name` names it in the report and
// bodies.csv.
struct MovingBody {
    NamedRegion region;
    BodyLaw law;  // a series' samples are `series`, not first_sample and samples
    // kSeries: (t [s], dx, dy, dz [m], theta [rad] about the law's hinge)
    std::vector<std::array<double, kSampleDoubles>> series;
    FloatingSpec floating;  // kFloating
    std::string source;     // where the law was given ("gate.yaml:14"), for refusals
};

// A particle as a problem lays it out: the simulator derives density and mass from it.
struct SetupParticle {
    double x, y, z;
    ParticleType type;
    double depth;  // below the still-water surface [m]; sets the hydrostatic density (0 when dry)
    // A wall particle's offset to its ghost node, its mirror image across the wall surface, used
    // by mDBC (lattice.h computes it for boxes); zero for fluid.
    double to_ghost[3] = {0.0, 0.0, 0.0};
};

// An option a problem's own file sets (a case file's settings): read below the command line and
// --config, and refused, naming `place` ("case.yaml:12"), as the option would be.
struct ProblemSetting {
    std::string name, value, place;
};

// Receives the particles a problem lays out, one at a time (so that a run can first count them).
using EmitParticle = std::function<void(const SetupParticle&)>;

class Problem {
public:
    virtual ~Problem() = default;

    virtual std::string name() const = 0;
    // Problem-specific options; their values are read back by the problem after parsing.
    virtual void add_options(boost::program_options::options_description&) {}
    virtual double default_dp() const = 0;       // [m]
    virtual double default_t_end() const = 0;    // [s]
    virtual int default_split_axis() const = 0;  // 0 x, 1 y, 2 z
    // Still-water depth H [m]: the speed of sound is c0 = factor * sqrt(g H).
    virtual double still_water_depth() const = 0;
    // The gridded region at spacing dp (walls included): a particle leaving it is removed (or,
    // with --out-of-domain stop, stops the run).
    virtual Box domain(double dp) const = 0;
    // Where fluid may be at spacing dp: fluid beyond it is water the model has lost (thrown out of
    // a tank and sliding along its walls' outsides, which are no surface of the model) and leaves
    // the run as a particle leaving the domain does. Unbounded unless overridden.
    virtual Box fluid_reach(double /*dp*/) const {
        return Box{{-1e300, -1e300, -1e300}, {1e300, 1e300, 1e300}};
    }
    // Throws std::invalid_argument naming --dp if dp is too coarse for the geometry.
    virtual void check_resolution(double dp) const = 0;
    virtual void fill(double dp, const EmitParticle& emit) const = 0;
    // The parts of its walls a branch may remove by name (none unless overridden).
    virtual std::vector<NamedRegion> regions(double /*dp*/) const { return {}; }
    // Its moving bodies (none unless overridden); each takes the wall particles in its region.
    virtual std::vector<MovingBody> bodies(double /*dp*/) const { return {}; }
    // Where waves are absorbed (kernels/damping_zone.h; none unless overridden).
    virtual std::vector<DampingZone> damping_zones() const { return {}; }
    // Gauges, probes and front tracker the problem measures by default (none unless overridden).
    virtual Instruments instruments() const { return {}; }
    // Options it sets below the command line (none unless overridden).
    virtual std::vector<ProblemSetting> settings() const { return {}; }
};

}  // namespace sph
