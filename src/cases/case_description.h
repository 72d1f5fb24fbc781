// A case file (docs/cases.md) as read: the shapes, water, instruments and settings of a run,
// each with the line it came from, before any mesh or raster is loaded.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "body_motion.h"
#include "geometry/box.h"
#include "geometry/transform.h"
#include "instruments.h"
#include "problem.h"

namespace sph {

// Where something was written, for messages: "cases/dam_break.yaml:12".
struct CasePlace {
    std::string file;
    int line = 0;  // 1-based
    std::string text() const { return file + ":" + std::to_string(line); }
};

// A solid or a body of water's shape: a box, a closed mesh, or a terrain raster.
struct CaseShape {
    enum class Kind { kBox, kMesh, kTerrain } kind = Kind::kBox;
    Box box{};
    std::string path;  // a mesh's or a raster's file, relative to the case file as written
    Transform transform;
    // A terrain raster's window (pixels) and stride, and where its solid ends below.
    long window[4] = {0, 0, 0, 0};  // column offset, row offset, columns, rows (0: to the edge)
    int stride = 1;
    double base = std::numeric_limits<double>::quiet_NaN();  // NaN: lowest elevation - 1 m
    CasePlace place;
};

// An open tank: floor and four walls around `inside`, up to `top`.
struct CaseTank {
    Box inside{};
    double top = 0.0;
    // Walls without artificial viscosity towards the water under --slip problem: bits of
    // CaseTank::kMinusX ... kFloor.
    unsigned free_slip = 0;
    static constexpr unsigned kMinusX = 1, kPlusX = 2, kMinusY = 4, kPlusY = 8, kFloor = 16;
    CasePlace place;
};

// A solid in the water's way: wall particles inside it.
struct CaseSolid {
    CaseShape shape;
    std::string name;     // a region a what-if branch may remove by name (boxes); empty: none
    bool hollow = false;  // only the layers near its surface (meshes and terrain: always)
    CasePlace place;
};

// A body of water: a shape filled, or everything below `level` inside a region and outside every
// solid and terrain.
struct CaseWater {
    CaseShape shape;
    double level = std::numeric_limits<double>::infinity();     // finite: fill below it
    double surface = std::numeric_limits<double>::quiet_NaN();  // NaN: the level or the top
    CasePlace place;
};

// Walls inside `region` start in hydrostatic equilibrium with water up to `surface`.
struct CaseWetWalls {
    Box region{};
    double surface = 0.0;
    // The region grown by the walls' thickness (wall-layers spacings) on its finite sides: the
    // walls within the kernel's reach of water that ends at the region's side.
    bool grow_by_walls = false;
};

// A rigid body moved by a prescribed law (kernels/body_motion.h): the wall particles inside
// `region`, or inside the named solid `solid`.
struct CaseBody {
    std::string name;
    Box region{};
    std::string solid;  // non-empty: the solid of this name is the body, not `region`
    BodyLaw law;
    std::string series;  // a kSeries law's CSV file, relative to the case file as written
    // A piston wave maker (bodies/wave_maker.h): its law from the wave asked for, along `axis`.
    enum class Waves { kNone, kRegular, kSolitary } waves = Waves::kNone;
    double wave_height = 0.0, wave_period = 0.0, wave_depth = 0.0;
    double ramp_periods = 2.0;
    int axis = 0;           // the waves' direction: 0 x, 1 y
    bool flap = false;      // a flap hinged at law.hinge, not a piston
    bool hinged = false;    // a series with a hinge given (its angles turn the body about it)
    FloatingSpec floating;  // law.kind == kFloating: its mass and freedoms
    CasePlace place;
};

// An option's value from the case's settings, given to the option parser below the command line.
struct CaseSetting {
    std::string name, value;
    CasePlace place;
};

struct CaseDescription {
    std::string path;  // the case file
    std::string name = "Case";
    Box domain_inside{};
    double domain_margin = 0.0;  // around domain_inside on every side but the top, plus the walls
    int wall_layers = 3;
    double still_water_depth = std::numeric_limits<double>::quiet_NaN();  // NaN: from the water
    double dp = 0.0;                                                      // the default --dp
    double t_end = 1.0;                                                   // the default --t-end
    int split_axis = -1;  // -1: not given (the program's compiled axis)
    std::vector<CaseTank> tanks;
    std::vector<CaseSolid> solids;
    std::vector<CaseWater> water;
    std::vector<CaseWetWalls> wet_walls;
    std::vector<CaseBody> bodies;
    std::vector<DampingZone> damping;  // where waves are absorbed (kernels/damping_zone.h)
    Instruments instruments;
    std::vector<CaseSetting> settings;
};

}  // namespace sph
