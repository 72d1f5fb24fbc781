#include "instruments/device_readings.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sph {

namespace {

InstrumentSite point_site(double x, double y, double z, const PositionFrame& frame) {
    InstrumentSite s{};
    s.at = frame.fixed(x, y, z, 0.0f);
    s.face = -1;
    return s;
}

// The tiles of a wall sensor's disc or panel: squares 2h wide (the 27 cells around a tile's centre
// then hold every particle of the tile: cells are at least 2h wide), n_u x n_v of them centred on
// it, enough to hold every patch it touches (patch centres within its half side, or radius, + dp/2
// of its centre along each of the face's axes).
// A surface panel's: cubes 2h wide, n_u x n_v x n_w of them (along x, y, z) centred on its box,
// enough to hold it.
void add_surface_tiles(const WallSensor& w, const SphParams& params, const PositionFrame& frame,
                       InstrumentPlan& plan) {
    const double dp = particle_spacing(params), side = 2.0 * double(params.h);
    long n[3];
    for (int a = 0; a < 3; ++a) n[a] = std::max(1L, long(std::ceil(w.extent[a] / side - 1e-9)));
    InstrumentSite tile = whole_sensor(w, dp, frame);
    tile.tile = float(side);
    tile.tile_lo_u = float(-0.5 * double(n[0]) * side);  // from the centre
    tile.tile_lo_v = float(-0.5 * double(n[1]) * side);
    tile.tile_lo_w = float(-0.5 * double(n[2]) * side);
    for (long i = 0; i < n[0]; ++i) {
        for (long j = 0; j < n[1]; ++j) {
            for (long k = 0; k < n[2]; ++k) {
                tile.at =
                    frame.fixed(w.x + double(tile.tile_lo_u) + (double(i) + 0.5) * side,
                                w.y + double(tile.tile_lo_v) + (double(j) + 0.5) * side,
                                w.z + double(tile.tile_lo_w) + (double(k) + 0.5) * side, 0.0f);
                tile.tile_u = int(i), tile.tile_v = int(j), tile.tile_w = int(k);
                plan.sites.push_back(tile);
            }
        }
    }
    plan.wall_tiles.push_back(n[0] * n[1] * n[2]);
}

void add_wall_tiles(const WallSensor& w, const SphParams& params, const PositionFrame& frame,
                    InstrumentPlan& plan) {
    if (w.surface()) {
        add_surface_tiles(w, params, frame, plan);
        return;
    }
    const double dp = particle_spacing(params), side = 2.0 * double(params.h);
    const auto tiles_across = [&](double extent) {  // extent: the disc's or panel's, one axis
        return std::max(1L, long(std::ceil((extent + dp) / side - 1e-9)));
    };
    const long n_u = tiles_across(w.panel() ? w.side_u : w.diameter);
    const long n_v = tiles_across(w.panel() ? w.side_v : w.diameter);
    InstrumentSite tile = whole_sensor(w, dp, frame);
    const int u = (w.axis + 1) % 3, v = (w.axis + 2) % 3;
    tile.tile = float(side);
    tile.tile_lo_u = float(-0.5 * double(n_u) * side);  // from the centre
    tile.tile_lo_v = float(-0.5 * double(n_v) * side);
    for (long i = 0; i < n_u; ++i) {
        for (long j = 0; j < n_v; ++j) {
            double at[3] = {w.x, w.y, w.z};
            at[w.axis] -= w.direction * 0.5 * dp;  // on the first layer's plane
            at[u] += double(tile.tile_lo_u) + (double(i) + 0.5) * side;
            at[v] += double(tile.tile_lo_v) + (double(j) + 0.5) * side;
            tile.at = frame.fixed(at[0], at[1], at[2], 0.0f);
            tile.tile_u = int(i), tile.tile_v = int(j);
            plan.sites.push_back(tile);
        }
    }
    plan.wall_tiles.push_back(n_u * n_v);
}

}  // namespace

InstrumentSite whole_sensor(const WallSensor& w, double dp, const PositionFrame& frame) {
    InstrumentSite s{};
    s.centre = frame.fixed(w.x, w.y, w.z, 0.0f);
    s.at = s.centre;
    s.face = (w.surface() ? kSurfaceFace : 0) + 2 * w.axis + (w.direction > 0 ? 1 : 0);
    s.radius = float(0.5 * w.diameter);
    s.half_u = float(0.5 * (w.surface() ? w.extent[0] : w.side_u));
    s.half_v = float(0.5 * (w.surface() ? w.extent[1] : w.side_v));
    s.half_w = float(0.5 * w.extent[2]);
    s.arm = w.moment() ? (w.arm_axis - w.axis + 3) % 3 - 1 : -1;  // u: axis + 1, v: axis + 2
    s.arm_direction = float(w.arm_direction);
    s.spacing = float(dp);
    return s;
}

InstrumentPlan plan_instruments(const Instruments& in, const SphParams& params, double z_lo,
                                double z_hi, const PositionFrame& frame) {
    InstrumentPlan plan;
    for (const Probe& p : in.probes) plan.sites.push_back(point_site(p.x, p.y, p.z, frame));
    plan.step = 0.5 * particle_spacing(params);
    plan.first_sample = long(std::floor(z_lo / plan.step));
    plan.samples_per_gauge = long(std::ceil(z_hi / plan.step)) - plan.first_sample + 1;
    for (const Gauge& g : in.gauges) {
        for (long k = 0; k < plan.samples_per_gauge; ++k) {
            const double z = double(plan.first_sample + k) * plan.step;
            plan.sites.push_back(point_site(g.x, g.y, z, frame));
        }
    }
    for (const WallSensor& w : in.walls) add_wall_tiles(w, params, frame, plan);
    if (in.front) {
        const FrontTracker& t = *in.front;
        const double reach = 2.0 * particle_spacing(params);
        plan.front = FrontSpec{t.axis,
                               t.direction,
                               frame.steps(t.floor, 2),
                               frame.steps(t.floor + std::max(t.band, double(params.h)), 2),
                               float(reach * reach),
                               t.min_neighbours,
                               float(4.0 * reach)};  // the leading slab: 8 dp
    }
    return plan;
}

double gauge_from_colour(const std::vector<double>& colour, long first, double step,
                         GaugeReading reading) {
    GaugeScan scan(step, reading);
    for (std::size_t k = 0; k < colour.size(); ++k) {
        if (scan.add(double(first + long(k)) * step, colour[k])) return scan.height();
    }
    return scan.height();  // kSurface: 0, dry or water up to the domain's top
}

InstrumentReadings readings_from(const Instruments& in, const InstrumentPlan& plan,
                                 const InstrumentSums& sums) {
    InstrumentReadings out;
    std::size_t at = 0;
    for (std::size_t p = 0; p < in.probes.size(); ++p, ++at) {
        const SiteSums& s = sums.sites.at(at);
        out.pressures.push_back(s.weight > 0.0f ? double(s.pressure) / double(s.weight) : 0.0);
    }
    for (std::size_t g = 0; g < in.gauges.size(); ++g) {
        std::vector<double> colour(std::size_t(plan.samples_per_gauge));
        for (double& c : colour) c = sums.sites.at(at++).weight;
        out.heights.push_back(
            gauge_from_colour(colour, plan.first_sample, plan.step, in.gauge_reading));
    }
    for (std::size_t w = 0; w < in.walls.size(); ++w) {
        double weight = 0.0, pressure = 0.0;
        for (long t = 0; t < plan.wall_tiles.at(w); ++t, ++at) {
            weight += double(sums.sites.at(at).weight);
            pressure += double(sums.sites.at(at).pressure);
        }
        out.walls.push_back(wall_reading(in.walls[w], weight, pressure, 2.0 * plan.step));
    }
    if (in.front) {
        out.front = std::isinf(sums.front_key)
                        ? std::numeric_limits<double>::quiet_NaN()
                        : -double(in.front->direction) * double(sums.front_key);
    }
    return out;
}

}  // namespace sph
