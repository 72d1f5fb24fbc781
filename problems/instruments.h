// The measuring instruments of a run: water-height gauges, pressure probes in the water, pressure
// sensors on walls and a surge-front tracker. A problem proposes its own (Problem::instruments);
// the command line adds more or drops them. src/gauges.h evaluates them on a particle snapshot;
// io/gauge_csv.h writes the readings.
#pragma once

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
struct WallSensor {
    std::string name;
    double x, y, z;     // the disc's centre, on the face [m]
    int axis = 0;       // the face's normal: 0 x, 1 y, 2 z
    int direction = 1;  // +1 or -1: the normal points from the wall into the water along the axis
    double diameter = 0.0;  // [m]
};

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
