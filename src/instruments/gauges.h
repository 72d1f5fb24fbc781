// Measurements on a particle snapshot: water-height gauges, pressure probes and the surge front.
//
// All three read fluid particles only (boundary particles are walls, not water), with the volume
// V_j = m / rho_j (m = SphParams::mass = rho0 dp^3, rho_j the particle's density) and the run's
// Wendland kernel W of support 2h. A run evaluates them on its devices, where the particles are
// (device_readings.h, kernels/instruments_body.h); the functions here evaluate them on a host
// snapshot, the reference the devices' readings are tested against. One pass over the particles
// bins the fluid near the instruments into a 2-D column grid, so that all gauges and probes of a
// million-particle snapshot take about 10 ms (one core).
//
// Gauge (a vertical line at x, y): the SPH colour c(z) = sum_j V_j W(|r - r_j|), the kernel
// estimate of the fluid volume fraction (about 1 inside the water, 1/2 at its surface, 0 in the
// air), is sampled every dp/2 (on the grid of multiples of dp/2) up the line from 2h below the
// lowest nearby particle, and read as the run says (Instruments::gauge_reading):
// - kSurface (the default): the first z where c, having reached 1/2, falls below 1/2 again,
//   interpolated linearly between the samples around the crossing: the elevation of the free
//   surface of the water that stands on the floor [m] (its depth when the floor is at z = 0).
//   Spray, droplets and water above an air pocket are not read, as DualSPHysics' water-level
//   gauges scan bottom-up too. Where c never reaches 1/2 the gauge is dry and reads 0; where the
//   only blob reaching it is airborne, the gauge reads that blob's top.
// - kWetted: the length of the line where c >= 1/2, each rise and fall through 1/2 interpolated
//   alike, added over the whole line: water above an air pocket counts, the pocket does not, as
//   a wave probe's wires read the length of them under water. On water standing on a floor at
//   z = 0 it reads as kSurface: the water's bottom edge, dp/2 below the lowest layer, is where c
//   rises through 1/2 (within 0.01 dp on a flat lattice). Droplets still do not count; a sheet of
//   spray two layers thick does.
// On a flat lattice kSurface reads the top layer's centre + dp/2 (the geometric surface) within
// 0.01 dp; on a sloped one within 0.4 dp of the plane (the lattice's staircase); a film of two
// layers or more within 0.01 dp, of one layer 0.8 dp. A single droplet has c <= 0.19 (h =
// 1.3 dp). A gauge closer than 2h to a wall reads low (the wall's particles are not fluid).
//
// Probe (a point): p = sum_j p_j V_j W / sum_j V_j W over fluid particles within 2h, p_j the
// Tait pressure of rho_j. With the Shepard normalisation over fluid only, a probe on a wall's face
// reads the fluid beside the wall and never the walls' (dynamic-boundary) pressures, so probes
// are placed on the face itself, as in experiments; there, and at a free surface, the support is
// one-sided and the reading is that of the fluid about 0.6 dp from the face (hydrostatic: low by
// rho g 0.6 dp, 118 Pa at dp = 0.02 m). A code interpolating over boundary particles too would
// put the probe about 1.5 h off the wall instead. 2h or more inside the fluid a linear field is
// read exactly. With no fluid particle within 2h the probe is dry and reads 0.
//
// Wall sensor (a disc on a wall's face, problems/instruments.h): the mean pressure of the wall's
// first layer of particles (those within dp behind the face) over the disc, each particle weighted
// by the part of the disc its dp x dp patch of the face covers (kernels/instruments_body.h:
// disc_coverage).
// Under mDBC a wall particle's pressure is the water's, extrapolated from around its ghost node to
// the particle, dp/2 behind the face: on a vertical wall that is the face's pressure (the normal
// gradient of a hydrostatic field is 0 there), under a floor the face's plus rho g dp/2. A
// disc with no wall particle behind it reads NaN (set-up refuses such sensors).
// A panel (a rectangle on the face) reads the force on it: the sum over the same particles of
// their pressure times the area of their patch inside the rectangle (rectangle_coverage times
// dp^2) [N]. On a lattice the patches tile the face, so a pressure linear along the face is
// integrated exactly where the rectangle's edges lie on the patches' edges; a hydrostatic wall
// panel from the floor up past the surface then reads rho g H^2 W / 2 to rounding (the first
// layer's pressures at the patch centres are the midpoint rule's). Under mDBC the wall's first
// rows above a surface take some pressure from the water below their ghost nodes: in a still
// tank at H / dp 24 they add about 0.6 % to the force on the wall.
// A moment panel reads the moment of that force about one of the rectangle's edges: the same sum
// with each patch's pressure also times its lever arm, the distance from the edge to the centroid
// of the patch's part inside the rectangle (panel_arm) [N m]. Exact for pressures constant over
// each patch; a pressure linear across the edge is off by the midpoint rule's p' dp^2 / 12 per unit
// area (a hydrostatic wall's moment about its foot, rho g W H^3 / 6, by dp^2 / (2 H^2) of it).
//
// Front: among fluid particles with floor <= z < floor + band, the furthest along the tracker's
// axis and direction that has at least `min_neighbours` other such particles within 2 dp; the
// reading is that particle's centre coordinate [m] (dp/2 behind the water's edge), NaN when no
// particle qualifies.
#pragma once

#include <string>
#include <vector>

#include "devices/host_particles.h"
#include "instruments.h"
#include "sph_params.h"

namespace sph {

struct InstrumentReadings {
    std::vector<double> heights;    // per gauge, free-surface elevation [m]; 0 where dry
    std::vector<double> pressures;  // per probe [Pa]; 0 where dry
    std::vector<double> walls;  // per wall sensor [Pa], panel [N], moment panel [N m]; NaN: no wall
    double front = 0.0;         // [m]; NaN when no particle qualifies; unset without a tracker
};

// A gauge's reading rule, fed its line's colour sample by sample from the bottom up, `step`
// apart, each crossing of 1/2 interpolated linearly between the two samples around it. kSurface:
// wet once the colour reaches 1/2; the surface is where it next falls below 1/2. kWetted: the
// lengths from each rise through 1/2 to the next fall below it, added up the whole line.
class GaugeScan {
public:
    explicit GaugeScan(double step, GaugeReading reading = GaugeReading::kSurface)
        : step_(step), reading_(reading) {}
    // Takes the colour at z; true once the reading is complete (height()): kSurface at the
    // surface, kWetted never (the line's top ends it).
    bool add(double z, double colour);
    bool wet() const { return wet_; }
    // The reading; kSurface: 0 until the surface is found; kWetted: the length under water
    // below the last sample (a segment still open counted up to it).
    double height() const;

private:
    // Where the colour crossed 1/2 between the last sample and `colour` at z.
    double crossing(double z, double colour) const;

    double step_;
    GaugeReading reading_;
    bool started_ = false;  // a sample was taken
    bool wet_ = false;
    double previous_ = 0.0;  // the colour one sample lower
    double last_z_ = 0.0;    // the last sample's z
    double wet_from_ = 0.0;  // kWetted: where the open segment rose through 1/2
    double height_ = 0.0;    // kSurface: the surface; kWetted: the closed segments' length
};

// The particle spacing dp = (mass / rho0)^(1/3).
double particle_spacing(const SphParams& params);

std::vector<double> gauge_heights(const std::vector<Gauge>& gauges, const HostParticles& particles,
                                  const SphParams& params,
                                  GaugeReading reading = GaugeReading::kSurface);
std::vector<double> probe_pressures(const std::vector<Probe>& probes,
                                    const HostParticles& particles, const SphParams& params);
double surge_front(const FrontTracker& tracker, const HostParticles& particles,
                   const SphParams& params);
// Each wall sensor's mean pressure [Pa] or, for a panel, its force [N] (a moment panel: its
// moment [N m]).
std::vector<double> wall_readings(const std::vector<WallSensor>& sensors,
                                  const HostParticles& particles, const SphParams& params);

// A wall sensor's reading from its sums (weight: sum_j c_j, pressure: sum_j c_j p_j): a disc's
// pressure / weight [Pa], a panel's pressure dp^2 [N] (a moment panel's [N m]); NaN where the
// weight is 0 (no wall).
double wall_reading(const WallSensor& sensor, double weight, double pressure, double dp);

// Everything at once (gauges and probes share one pass over the particles).
InstrumentReadings measure(const Instruments& instruments, const HostParticles& particles,
                           const SphParams& params);

// CSV columns after "time": gauge names, probe names, wall sensor names, then "front_x" (or _y,
// _z) with a tracker; and the values of one row, in that order.
std::vector<std::string> instrument_columns(const Instruments& instruments);
std::vector<double> instrument_row(const Instruments& instruments,
                                   const InstrumentReadings& readings);

}  // namespace sph
