// Per-point and per-particle bodies of the instruments evaluated where the particles are
// (src/instruments/device_readings.h turns their sums into readings; src/instruments/gauges.h
// defines the readings and evaluates them on a host snapshot).
//
// A point's sums run over the fluid particles within 2h that the device owns (its internal
// particles, so that summing the devices' sums counts each particle once): the kernel volume
// sum_j V_j W (the SPH colour, for gauges) and sum_j p_j V_j W (for probes, Shepard-normalised
// by the first). The front's key of a particle is minus its coordinate along the tracker's axis
// and direction if it leads (fluid in the floor band with enough banded neighbours within 2 dp,
// counted among every particle the device holds, externals included), +infinity otherwise: the
// smallest key over all devices is minus the front.
#pragma once

#include <cmath>
#include <cstdint>

#include "cell_walk.h"
#include "kernel_args.h"
#include "particle_type.h"
#include "tait.h"
#include "wendland.h"

namespace sph {

struct PointSums {
    float volume;    // sum_j V_j W(|x - x_j|) [-]
    float pressure;  // sum_j p_j V_j W [Pa]
};

// What the front tracker asks of the particles (problems/instruments.h: FrontTracker).
struct FrontSpec {
    int axis;          // 0 x, 1 y, 2 z
    int direction;     // +1 or -1
    float floor, top;  // the band: floor <= z < top
    float reach_sq;    // (2 dp)^2: neighbours closer than this count
    int min_neighbours;
};

SPH_HD PointSums point_sums(Vec3 at, const InstrumentArgs& a) {
    PointSums s{0.0f, 0.0f};
    for_each_particle_near(at, a.grid, a.cell_start, a.cell_end, [&](std::uint32_t j) {
        if (j < a.owned_begin || j >= a.owned_end || a.type[j] != kFluid) return false;
        const float r2 = length_squared(at - xyz(a.pos[j]));
        if (!(r2 < a.params.kernel_radius_sq)) return false;
        const float rho = a.velrho[j].w;
        const float w = a.params.mass / rho * wendland_w(sqrtf(r2), a.params);
        s.volume += w;
        s.pressure += tait_pressure(rho, a.params) * w;
        return false;
    });
    return s;
}

SPH_HD bool in_front_band(const Vec4& p, std::uint8_t type, const FrontSpec& f) {
    return type == kFluid && p.z >= f.floor && p.z < f.top;
}

SPH_HD float front_key(std::uint32_t i, const InstrumentArgs& a, const FrontSpec& f) {
    const Vec4 p = a.pos[i];
    if (!in_front_band(p, a.type[i], f)) return INFINITY;
    const float along = f.axis == 0 ? p.x : f.axis == 1 ? p.y : p.z;
    if (!is_finite(along)) return INFINITY;
    // Counting stops at min_neighbours: in the water's bulk the first cell is enough.
    int neighbours = 0;
    for_each_particle_near(xyz(p), a.grid, a.cell_start, a.cell_end, [&](std::uint32_t j) {
        if (j == i || !in_front_band(a.pos[j], a.type[j], f)) return false;
        neighbours += length_squared(xyz(a.pos[j]) - xyz(p)) <= f.reach_sq;
        return neighbours >= f.min_neighbours;
    });
    return neighbours >= f.min_neighbours ? -float(f.direction) * along : INFINITY;
}

}  // namespace sph
