// The measuring instruments of a run: water-height gauges, pressure probes in the water, pressure
// sensors on walls and a surge-front tracker. A problem proposes its own (Problem::instruments);
// the command line adds more or drops them. src/gauges.h evaluates them on a particle snapshot;
// io/gauge_csv.h writes the readings.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace sph {

// What a gauge reads from the water along its line (src/instruments/gauges.h).
enum class GaugeReading {
    kSurface,  // the elevation of the free surface of the water standing on the floor
    kWetted,   // the length of the line under water, air pockets and the air above left out
};

// A vertical line at (x, y): reads the water's height there [m], as the run's GaugeReading says.
struct Gauge {
    std::string name;
    double x, y;  // [m]
};

// A point: reads the pressure interpolated from the fluid there [Pa].
struct Probe {
    std::string name;
    double x, y, z;  // [m]
};

// A flush-mounted pressure sensor: a disc on a wall's face that reads the wall's mean pressure
// over the disc [Pa], from the pressures of the wall's first layer of particles, each weighted by
// the part of the disc its dp x dp patch of the face covers. Under mDBC those pressures are the
// water's, extrapolated to the wall (kernels/mdbc_body.h); under DBC they are the dynamic
// boundary's own. Faces are perpendicular to an axis, as the problems' walls are.
//
// A load panel instead (side_u > 0): a rectangle on the face that reads the force the water
// exerts on it [N], the integral of the same pressures over the rectangle (each patch's pressure
// times the area of the patch inside it), positive when the water pushes on the wall. Where a
// designer wants the load on a wall, a gate or a building's face rather than a sensor's reading.
//
// A moment panel (a panel with arm_axis >= 0): the moment of that force about one of the
// rectangle's edges [N m], each patch's force times its lever arm, the distance from the edge to
// the centroid of the patch's part inside the rectangle. The edge lies across arm_axis (one of the
// face's in-plane axes) at the rectangle's low end along it (arm_direction +1: the arm grows
// along +axis) or its high end (-1). A wall's overturning moment about its foot is the moment
// about its lowest edge (arm +z); a gate hung from a hinge at its top, about its top edge (-z).
// The force's centre of pressure lies moment / force from that edge.
struct WallSensor {
    std::string name;
    double x, y, z;     // the disc's or the rectangle's centre, on the face [m]
    int axis = 0;       // the face's normal: 0 x, 1 y, 2 z
    int direction = 1;  // +1 or -1: the normal points from the wall into the water along the axis
    double diameter = 0.0;  // a disc's [m]
    // A panel's sides along the face's in-plane axes u = (axis + 1) % 3 and v = (axis + 2) % 3
    // (x: y and z; y: z and x; z: x and y) [m]; 0 for a disc.
    double side_u = 0.0, side_v = 0.0;
    int arm_axis = -1;      // a moment panel's: 0 x, 1 y, 2 z, in the face's plane; -1: a force
    int arm_direction = 1;  // +1: about the rectangle's low edge along arm_axis; -1: its high one
    // A surface panel's box, centred on (x, y, z), its sides along x, y and z [m]; 0: none. It
    // reads the force the water exerts on the wall surface inside the box, whatever its shape (a
    // mesh's tilted or curved faces), along axis and direction (wall_surface).
    double extent[3] = {0.0, 0.0, 0.0};

    bool surface() const { return extent[0] > 0.0; }
    bool panel() const { return side_u > 0.0 || surface(); }  // a force or a moment [N, N m]
    bool moment() const { return arm_axis >= 0; }
};

// "+x" ... "-z": a face's normal from the wall into the water, as an axis and a direction; false
// for anything else.
inline bool parse_face(const std::string& word, int& axis, int& direction) {
    if (word.size() != 2 || (word[0] != '+' && word[0] != '-')) return false;
    if (word[1] < 'x' || word[1] > 'z') return false;
    axis = word[1] - 'x';
    direction = word[0] == '+' ? 1 : -1;
    return true;
}

// A moment panel's ARM, "+x" ... "-z" as parse_face reads it: an axis along the face normal to
// `face_axis` and which edge the moment is about (+: the lower one); false for the face's own
// normal or anything else.
inline bool parse_arm(const std::string& word, int face_axis, int& axis, int& direction) {
    return parse_face(word, axis, direction) && axis != face_axis;
}

// Whether corners lo and hi span a rectangle on a face normal to `axis`: the same coordinate
// along it, different ones along the other two.
inline bool spans_face_rectangle(const double lo[3], const double hi[3], int axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    return lo[axis] == hi[axis] && lo[u] != hi[u] && lo[v] != hi[v];
}

// The load panel of the rectangle with opposite corners lo and hi on the plane coordinate[axis]
// = lo[axis] (hi[axis] is ignored; either corner may be the lower), facing `direction` along
// `axis`.
inline WallSensor wall_panel(const std::string& name, const double lo[3], const double hi[3],
                             int axis, int direction) {
    WallSensor w;
    w.name = name;
    double centre[3];
    for (int a = 0; a < 3; ++a) centre[a] = 0.5 * (lo[a] + hi[a]);
    centre[axis] = lo[axis];
    w.x = centre[0], w.y = centre[1], w.z = centre[2];
    w.axis = axis;
    w.direction = direction;
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    w.side_u = std::fabs(hi[u] - lo[u]);
    w.side_v = std::fabs(hi[v] - lo[v]);
    return w;
}

// The moment panel of wall_panel(name, lo, hi, axis, direction) about its edge across
// arm_axis at its low end along it (arm_direction +1) or its high end (-1). arm_axis must lie in
// the face's plane (not `axis`).
inline WallSensor wall_moment(const std::string& name, const double lo[3], const double hi[3],
                              int axis, int direction, int arm_axis, int arm_direction) {
    WallSensor w = wall_panel(name, lo, hi, axis, direction);
    w.arm_axis = arm_axis;
    w.arm_direction = arm_direction;
    return w;
}

// The surface panel `name` over the box with opposite corners lo and hi (either may be the lower;
// every side longer than zero): the component along `axis` in `direction` of the force the water
// exerts on the walls' surface inside it [N]. Each wall particle of the surface's first layer
// inside the box carries the area its lattice column takes of the surface, along the surface's
// normal as its mDBC ghost node gives it: mDBC only.
inline WallSensor wall_surface(const std::string& name, const double lo[3], const double hi[3],
                               int axis, int direction) {
    WallSensor w;
    w.name = name;
    w.x = 0.5 * (lo[0] + hi[0]), w.y = 0.5 * (lo[1] + hi[1]), w.z = 0.5 * (lo[2] + hi[2]);
    for (int a = 0; a < 3; ++a) w.extent[a] = std::fabs(hi[a] - lo[a]);
    w.axis = axis;
    w.direction = direction;
    return w;
}

// The leading edge of a surge along the floor: the furthest fluid particle along `axis` in
// `direction` among those with floor <= z < floor + band.
struct FrontTracker {
    int axis = 0;        // 0 x, 1 y, 2 z
    int direction = +1;  // +1: the largest coordinate leads; -1: the smallest
    double floor = 0.0;  // floor elevation z [m]
    double band = 0.04;  // height above the floor a particle must be under to count [m]; at
                         // least h, so that the first particle layer counts at any spacing
    // A particle counts only with at least this many other banded fluid particles within 2 dp of
    // it, so that isolated droplets thrown ahead do not mark the front (0: every particle counts).
    int min_neighbours = 3;
};

struct Instruments {
    std::vector<Gauge> gauges;
    std::vector<Probe> probes;
    std::vector<WallSensor> walls;
    std::optional<FrontTracker> front;
    GaugeReading gauge_reading = GaugeReading::kSurface;  // every gauge's

    bool empty() const { return gauges.empty() && probes.empty() && walls.empty() && !front; }
};

}  // namespace sph
