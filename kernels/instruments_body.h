// Per-point and per-particle bodies of the instruments evaluated where the particles are
// (src/instruments/device_readings.h turns their sums into readings; src/instruments/gauges.h
// defines the readings and evaluates them on a host snapshot).
//
// A site's sums run over the particles the device owns (its internal particles, so that summing
// the devices' sums counts each particle once). At a point (probes, gauge samples): over the fluid
// within 2h, the kernel volume sum_j V_j W (the SPH colour, for gauges) and sum_j p_j V_j W (for
// probes, Shepard-normalised by the first). On a tile of a wall sensor's disc or panel: over the
// wall's first layer of particles whose patch centre is in the tile, the part c_j of the disc (the
// panel) each dp x dp patch covers and sum_j c_j p_j (a disc reads their ratio, a panel the second
// times dp^2, a force). A disc or panel is cut into tiles no wider than 2h x 2h so that the 27
// cells around a tile's centre hold all of its particles, whatever its size. The sums are taken
// cell by cell (27 per site, in parallel on a GPU) and added up in cell order within each of the
// three planes of nine cells across the split axis; a device returns those plane sums, and the
// group adds the three planes. A plane of cells lies in one slice, so one device holds all of it:
// the group's sums are then the same bits however the slices are shared out (a device's sum over
// all 27 cells would not be). The front's key of a particle is minus its coordinate along the
// tracker's axis and direction if it leads (fluid in the floor band with enough banded neighbours
// within 2 dp, counted among every particle the device holds, externals included), +infinity
// otherwise: the smallest key over all devices is minus the front. Counting neighbours is the
// costly part, so a device examines only the particles whose banded key is at most a limit
// (front_key's key_limit): whenever a qualifying particle lies within the limit, so does the
// device's front (every particle ahead of it does), and the result is exact. The CPU takes the slab
// FrontSpec::slab deep behind its leading banded particle (banded_key), and everything only if
// nothing there qualifies; a GPU first tries the slab behind the lead it found the measurement
// before, which lets one pass over the particles find the new lead too.
//
// A moment panel's tiles weight each p_j by c_j times the patch's lever arm about the panel's edge
// (panel_arm) instead: their sums times dp^2 are the moment of the force about that edge.
//
// A surface panel (a box around a wall's surface of any shape: a mesh's tilted or curved faces)
// is cut into tiles no wider than 2h along x, y and z. Its particles are the walls' first layer
// inside the box, told by their mDBC ghost offsets g (surface_tile_weight); each carries the
// vector area dp^2 g / max_i |g_i| of the surface (its lattice column's share: a face whose
// normal n has largest component n_a is dp^2 / |n_a| per column, and a first-layer particle's g
// is dp n_a n), so the sums of -p_j (g_j . e) / max_i |g_j,i| times dp^2 are the force along e.
#pragma once

#include <cmath>
#include <cstdint>

#include "cell_walk.h"
#include "kernel_args.h"
#include "particle_type.h"
#include "tait.h"
#include "wendland.h"

namespace sph {

// What a site adds up; the site's reading is pressure / weight.
struct SiteSums {
    float weight;    // point: sum_j V_j W(|x - x_j|) [-]; wall tile: sum_j c_j (patches) [-]
    float pressure;  // sum_j p_j times the particle's load weight [Pa] (moment panel: [Pa m])
};

// Where an instrument reads: a point in the water, or a tile of a wall sensor's disc or panel.
struct InstrumentSite {
    FixedPos at;      // the point; a tile's centre, on the plane of the wall's first layer [steps]
    int face;         // -1 at a point; a tile: 2 axis + (direction > 0 ? 1 : 0) (WallSensor)
    FixedPos centre;  // the disc's or the panel's centre, on the face [steps]
    float radius;     // the disc's
    float half_u, half_v;  // a panel's half sides along the face's axes u and v; 0: a disc
    int arm;               // a moment panel's arm: along the face's axis u (0) or v (1); -1: none
    float arm_direction;   // +1: from the panel's low edge along it; -1: from its high edge
    float spacing;         // dp: the width of a patch, the depth of the first layer's band
    // The tiles: squares `tile` wide along the face's two axes from the corner (tile_lo_u,
    // tile_lo_v) [m from the centre]; this one is number (tile_u, tile_v). A particle's tile is
    // found from its position by the same arithmetic in every tile, so each particle is in exactly
    // one. tile = 0: one tile, the whole face.
    float tile, tile_lo_u, tile_lo_v;
    int tile_u, tile_v;
    // A surface panel's: the box's half side along z (half_u, half_v: along x and y), its tiles'
    // corner and this tile's number along z (tile_lo_u, tile_lo_v, tile_u, tile_v: along x, y).
    float half_w, tile_lo_w;
    int tile_w;
};

// A surface panel's site: face = kSurfaceFace + 2 axis + (direction > 0 ? 1 : 0), the force's.
constexpr int kSurfaceFace = 6;

// The part of a dp x dp patch, centred (du, dv) from a disc's centre, that the disc covers: the
// patch is clipped to the disc's bounding square, and the share of that rectangle's 8 x 8
// sub-rectangles whose centre is in the disc scales its area. Clipping first keeps a disc much
// smaller than a patch (a 6 mm sensor at dp 37 mm) sampled as finely as a large one.
SPH_HD float disc_coverage(float du, float dv, float radius, float dp) {
    const float u0 = fmaxf(du - 0.5f * dp, -radius), u1 = fminf(du + 0.5f * dp, radius);
    const float v0 = fmaxf(dv - 0.5f * dp, -radius), v1 = fminf(dv + 0.5f * dp, radius);
    if (!(u1 > u0 && v1 > v0)) return 0.0f;
    const float r2 = radius * radius, su = (u1 - u0) / 8.0f, sv = (v1 - v0) / 8.0f;
    int inside = 0;
    for (int a = 0; a < 8; ++a) {
        const float u = u0 + (float(a) + 0.5f) * su;
        for (int b = 0; b < 8; ++b) {
            const float v = v0 + (float(b) + 0.5f) * sv;
            inside += u * u + v * v <= r2;
        }
    }
    return float(inside) / 64.0f * ((u1 - u0) * (v1 - v0)) / (dp * dp);
}

// The part of a dp x dp patch, centred (du, dv) from a panel's centre, inside the panel (half
// sides half_u, half_v): the overlap of two rectangles, exact.
SPH_HD float rectangle_coverage(float du, float dv, float half_u, float half_v, float dp) {
    const float u = fminf(du + 0.5f * dp, half_u) - fmaxf(du - 0.5f * dp, -half_u);
    const float v = fminf(dv + 0.5f * dp, half_v) - fmaxf(dv - 0.5f * dp, -half_v);
    return u > 0.0f && v > 0.0f ? u * v / (dp * dp) : 0.0f;
}

// The lever arm of a patch centred d from a panel's centre along the arm's axis, the panel's half
// side along it `half`: the distance from the panel's edge (its low one if direction > 0, else its
// high one) to the centroid of the patch's part inside the panel, the middle of that part along the
// axis (the part is a rectangle). Exact for a pressure constant over each patch.
SPH_HD float panel_arm(float d, float half, float dp, float direction) {
    const float centroid = 0.5f * (fmaxf(d - 0.5f * dp, -half) + fminf(d + 0.5f * dp, half));
    return direction > 0.0f ? centroid + half : half - centroid;
}

SPH_HD float component(Vec3 v, int axis) {
    return axis == 0 ? v.x : axis == 1 ? v.y : v.z;
}

// What a wall particle's pressure counts for in a wall sensor's tile: `coverage`, its patch's
// coverage of the disc (or the panel) if it is in the wall's first layer (within dp behind the
// face) and its patch centre is in the tile, else 0; `load`, the factor of its pressure in the
// sums, the coverage (times the lever arm for a moment panel).
struct WallWeight {
    float coverage, load;
};

// Whether `offset` from a tile's corner [m] falls in tile number `number` `tile` wide: the same
// arithmetic in every tile, so that each particle is in exactly one.
SPH_HD bool in_tile(float offset, float tile, int number) {
    return int(floorf(offset / tile)) == number;
}

// A surface panel's weight of a wall particle `d` from the box's centre, its ghost offset g:
// coverage 1 and load -(g . e) / max_i |g_i| if it is inside the box and in the surface's first
// layer (max_i |g_i| at most dp: a face's first layer has dp n_a^2, its second 3 dp n_a^2, and an
// edge's or a corner's first dp), else 0. A face within a few tenths of a degree of a lattice
// diagonal (n_a^2 = 1/3) counts its second layer too.
SPH_HD WallWeight surface_tile_weight(Vec3 d, Vec3 g, const InstrumentSite& s) {
    const WallWeight none{0.0f, 0.0f};
    if (!(fabsf(d.x) <= s.half_u && fabsf(d.y) <= s.half_v && fabsf(d.z) <= s.half_w)) return none;
    if (s.tile > 0.0f && (!in_tile(d.x - s.tile_lo_u, s.tile, s.tile_u) ||
                          !in_tile(d.y - s.tile_lo_v, s.tile, s.tile_v) ||
                          !in_tile(d.z - s.tile_lo_w, s.tile, s.tile_w))) {
        return none;
    }
    const float largest = fmaxf(fabsf(g.x), fmaxf(fabsf(g.y), fabsf(g.z)));
    if (!(largest > 0.0f) || largest > 1.001f * s.spacing) return none;
    const int axis = (s.face - kSurfaceFace) / 2;
    const float direction = (s.face - kSurfaceFace) % 2 == 1 ? 1.0f : -1.0f;
    return {1.0f, -direction * component(g, axis) / largest};
}

// `d`: the particle's position less the disc's (the panel's) centre [m]; `g`: its ghost offset
// (a surface panel's only).
SPH_HD WallWeight wall_tile_weight(Vec3 d, Vec3 g, const InstrumentSite& s) {
    if (s.face >= kSurfaceFace) return surface_tile_weight(d, g, s);
    const WallWeight none{0.0f, 0.0f};
    const int axis = s.face / 2;
    const float direction = s.face % 2 == 1 ? 1.0f : -1.0f;
    const float depth = -direction * component(d, axis);
    if (!(depth > 0.0f && depth <= s.spacing)) return none;
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const float du = component(d, u), dv = component(d, v);
    if (s.tile > 0.0f && (!in_tile(du - s.tile_lo_u, s.tile, s.tile_u) ||
                          !in_tile(dv - s.tile_lo_v, s.tile, s.tile_v))) {
        return none;
    }
    if (!(s.half_u > 0.0f)) {
        const float c = disc_coverage(du, dv, s.radius, s.spacing);
        return {c, c};
    }
    const float c = rectangle_coverage(du, dv, s.half_u, s.half_v, s.spacing);
    if (s.arm < 0 || !(c > 0.0f)) return {c, c};
    const float arm = s.arm == 0 ? panel_arm(du, s.half_u, s.spacing, s.arm_direction)
                                 : panel_arm(dv, s.half_v, s.spacing, s.arm_direction);
    return {c, c * arm};
}

// What the front tracker asks of the particles (problems/instruments.h: FrontTracker).
struct FrontSpec {
    int axis;                 // 0 x, 1 y, 2 z
    int direction;            // +1 or -1
    std::int32_t floor, top;  // the band: floor <= z < top [steps]
    float reach_sq;           // (2 dp)^2: neighbours closer than this count
    int min_neighbours;
    float slab;  // depth of the leading slab whose particles are examined first [m]
};

// A point's sums over the k-th cell around it.
SPH_HD SiteSums point_cell_sums(const FixedPos& at, int k, const InstrumentArgs& a) {
    SiteSums s{0.0f, 0.0f};
    for_each_particle_in_cell_near(
        at, k, a.grid, a.cell_start, a.cell_end, a.owned_begin, a.owned_end, a.pos, a.type,
        [&](std::uint32_t j, const FixedPos& p, std::uint8_t type) {
            if (type != kFluid) return;
            const float r2 = length_squared(a.grid.frame.between(at, p));
            if (!(r2 < a.params.kernel_radius_sq)) return;
            const float rho = a.velrho[j].w;
            const float w = a.params.mass / rho * wendland_w(sqrtf(r2), a.params);
            s.weight += w;
            s.pressure += tait_pressure(rho, a.params) * w;
        });
    return s;
}

// A wall sensor's tile's sums over the k-th cell around its centre.
SPH_HD SiteSums wall_tile_cell_sums(const InstrumentSite& site, int k, const InstrumentArgs& a) {
    SiteSums s{0.0f, 0.0f};
    for_each_particle_in_cell_near(
        site.at, k, a.grid, a.cell_start, a.cell_end, a.owned_begin, a.owned_end, a.pos, a.type,
        [&](std::uint32_t j, const FixedPos& p, std::uint8_t type) {
            if (type == kFluid) return;
            const Vec3 g = a.to_ghost != nullptr ? a.to_ghost[j] : make_vec3(0.0f, 0.0f, 0.0f);
            const WallWeight c = wall_tile_weight(a.grid.frame.between(p, site.centre), g, site);
            if (c.coverage > 0.0f) {
                s.weight += c.coverage;
                s.pressure += tait_pressure(a.velrho[j].w, a.params) * c.load;
            }
        });
    return s;
}

// A site's sums over the k-th of the cells around it (k in [0, kCellsAround)).
SPH_HD SiteSums site_cell_sums(const InstrumentSite& site, int k, const InstrumentArgs& a) {
    return site.face < 0 ? point_cell_sums(site.at, k, a) : wall_tile_cell_sums(site, k, a);
}

// The planes of a site's cells across the split axis: cells k / 9 == n share the split axis
// coordinate (for_each_particle_in_cell_near), so one device holds each plane.
constexpr int kCellPlanes = 3;

// A site's sums per plane: its cells' sums added up in cell order within each plane. A GPU
// computes the cells' sums in parallel and adds them up with this too, so both back ends add in
// the same order.
SPH_HD void add_cell_sums(const SiteSums* cells, SiteSums* planes) {
    for (int n = 0; n < kCellPlanes; ++n) {
        SiteSums s{0.0f, 0.0f};
        for (int k = n * kCellsAround / kCellPlanes; k < (n + 1) * kCellsAround / kCellPlanes;
             ++k) {
            s.weight += cells[k].weight;
            s.pressure += cells[k].pressure;
        }
        planes[n] = s;
    }
}

// A site's sums: its planes' added up in order.
SPH_HD SiteSums add_planes(const SiteSums* planes) {
    SiteSums s{0.0f, 0.0f};
    for (int n = 0; n < kCellPlanes; ++n) {
        s.weight += planes[n].weight;
        s.pressure += planes[n].pressure;
    }
    return s;
}

// A site's sums per plane (kCellPlanes of them).
SPH_HD void site_plane_sums(const InstrumentSite& site, const InstrumentArgs& a, SiteSums* planes) {
    SiteSums cells[kCellsAround];
    for (int k = 0; k < kCellsAround; ++k) cells[k] = site_cell_sums(site, k, a);
    add_cell_sums(cells, planes);
}

SPH_HD bool in_front_band(const FixedPos& p, std::uint8_t type, const FrontSpec& f) {
    return type == kFluid && p.z >= f.floor && p.z < f.top;
}

// Minus particle i's coordinate along the tracker's axis and direction if it is banded fluid,
// +infinity otherwise: the smallest is the leading banded particle's.
SPH_HD float banded_key(std::uint32_t i, const InstrumentArgs& a, const FrontSpec& f) {
    if (a.type[i] != kFluid) return INFINITY;  // before reading the position: walls are many
    const FixedPos p = a.pos[i];
    if (!in_front_band(p, kFluid, f)) return INFINITY;
    const float along = a.grid.frame.metres(fixed_component(p, f.axis), f.axis);
    return -float(f.direction) * along;
}

// Whether banded particle i has at least min_neighbours banded neighbours within 2 dp. Its own
// cell is counted first, whole: its particles' loads go out together instead of one after each
// early-exit test, and in the water's bulk it settles the question. Only then the other cells
// around it, stopping once enough are found. Whatever the order, the same particles are counted
// towards the same threshold, so the answer is the one a walk in index order gives.
SPH_HD bool leads(std::uint32_t i, const InstrumentArgs& a, const FrontSpec& f) {
    const FixedPos p = a.pos[i];
    auto counts = [&](std::uint32_t j) {
        return j != i && in_front_band(a.pos[j], a.type[j], f) &&
               length_squared(a.grid.frame.between(a.pos[j], p)) <= f.reach_sq;
    };
    int neighbours = 0;
    std::uint32_t own_begin = 0, own_end = 0;  // the own cell's particles, counted first
    const std::uint32_t own = a.grid.cell_of(p);
    if (own != a.grid.outside_cell() && a.cell_start[own] != kEmptyCell) {
        own_begin = a.cell_start[own];
        own_end = a.cell_end[own];
        for (std::uint32_t j = own_begin; j < own_end; ++j) neighbours += counts(j);
        if (neighbours >= f.min_neighbours) return true;
    }
    for_each_particle_near(p, a.grid, a.cell_start, a.cell_end, [&](std::uint32_t j) {
        if (j >= own_begin && j < own_end) return false;
        neighbours += counts(j);
        return neighbours >= f.min_neighbours;
    });
    return neighbours >= f.min_neighbours;
}

// The front key of a particle whose banded key is `banded`, examined only if that is at most
// key_limit (+infinity for every particle; the leading key plus FrontSpec::slab for the leading
// slab).
SPH_HD float front_key_of(std::uint32_t i, float banded, const InstrumentArgs& a,
                          const FrontSpec& f, float key_limit) {
    if (!(banded < INFINITY) || banded > key_limit) return INFINITY;
    return leads(i, a, f) ? banded : INFINITY;
}

SPH_HD float front_key(std::uint32_t i, const InstrumentArgs& a, const FrontSpec& f,
                       float key_limit) {
    return front_key_of(i, banded_key(i, a, f), a, f, key_limit);
}

}  // namespace sph
