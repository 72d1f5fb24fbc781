#include "instruments/gauges.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "instruments/device_readings.h"
#include "instruments_body.h"
#include "particle_type.h"
#include "tait.h"
#include "wendland.h"

namespace sph {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kSurfaceColour = 0.5;

// A fluid particle within 2h of an instrument's line (or point): its offset from the line in x-y,
// its elevation, volume and pressure.
struct Nearby {
    double r_xy_sq, z, volume, pressure;
};

// One instrument for the gathering pass: a vertical line (gauge) or a point (probe).
struct Site {
    double x, y, z;
    bool point;
};

// The sites binned into a 2-D grid of cells at least `radius` wide over their bounding box, each
// cell listing the sites whose disc reaches it: the sites reaching cell c are
// site_of[start[c] .. start[c + 1]).
struct SiteBins {
    double lo[2], hi[2], cell;
    long nx, ny;
    std::vector<long> start;
    std::vector<int> site_of;

    // The cell of (x, y), or -1 outside the grid (a NaN included).
    long cell_of(double x, double y) const {
        if (!(x >= lo[0] && x < hi[0] && y >= lo[1] && y < hi[1])) return -1;
        return long((y - lo[1]) / cell) * nx + long((x - lo[0]) / cell);
    }
};

SiteBins bin_sites(const std::vector<Site>& sites, double radius) {
    SiteBins b;
    b.lo[0] = b.hi[0] = sites[0].x;
    b.lo[1] = b.hi[1] = sites[0].y;
    for (const Site& s : sites) {
        b.lo[0] = std::min(b.lo[0], s.x), b.hi[0] = std::max(b.hi[0], s.x);
        b.lo[1] = std::min(b.lo[1], s.y), b.hi[1] = std::max(b.hi[1], s.y);
    }
    for (int a = 0; a < 2; ++a) b.lo[a] -= radius, b.hi[a] += radius;
    // Cells no smaller than the radius, and few enough to stay cheap for far-apart sites.
    b.cell = radius;
    while (((b.hi[0] - b.lo[0]) / b.cell + 1) * ((b.hi[1] - b.lo[1]) / b.cell + 1) > 1 << 20) {
        b.cell *= 2;
    }
    b.nx = long((b.hi[0] - b.lo[0]) / b.cell) + 1;
    b.ny = long((b.hi[1] - b.lo[1]) / b.cell) + 1;
    b.start.assign(b.nx * b.ny + 1, 0);
    // Two passes: count the sites per cell, then list them.
    for (int pass = 0; pass < 2; ++pass) {
        std::vector<long> fill(b.start.begin(), b.start.end() - 1);
        for (std::size_t s = 0; s < sites.size(); ++s) {
            const long x0 = std::max(0L, long((sites[s].x - radius - b.lo[0]) / b.cell));
            const long x1 = std::min(b.nx - 1, long((sites[s].x + radius - b.lo[0]) / b.cell));
            const long y0 = std::max(0L, long((sites[s].y - radius - b.lo[1]) / b.cell));
            const long y1 = std::min(b.ny - 1, long((sites[s].y + radius - b.lo[1]) / b.cell));
            for (long j = y0; j <= y1; ++j) {
                for (long i = x0; i <= x1; ++i) {
                    if (pass == 0) {
                        ++b.start[j * b.nx + i + 1];
                    } else {
                        b.site_of[fill[j * b.nx + i]++] = int(s);
                    }
                }
            }
        }
        if (pass == 0) {
            for (std::size_t c = 1; c < b.start.size(); ++c) b.start[c] += b.start[c - 1];
            b.site_of.resize(b.start.back());
        }
    }
    return b;
}

// Fluid particles within 2h of each site, found in one pass over the particles: with the sites
// binned, a particle is tested against a handful of sites at most.
std::vector<std::vector<Nearby>> gather(const std::vector<Site>& sites,
                                        const HostParticles& particles, const SphParams& params) {
    std::vector<std::vector<Nearby>> near(sites.size());
    if (sites.empty()) return near;
    const double radius = 2.0 * params.h, radius_sq = radius * radius;
    const SiteBins bins = bin_sites(sites, radius);
    for (std::size_t p = 0; p < particles.size(); ++p) {
        if (particles.type[p] != kFluid) continue;
        double at[3];
        particles.position(p, at);
        const long c = bins.cell_of(at[0], at[1]);
        if (c < 0) continue;
        for (long k = bins.start[c]; k < bins.start[c + 1]; ++k) {
            const Site& s = sites[bins.site_of[k]];
            const double dx = at[0] - s.x, dy = at[1] - s.y, dz = s.point ? at[2] - s.z : 0.0;
            const double r_xy_sq = dx * dx + dy * dy;
            if (r_xy_sq + dz * dz >= radius_sq) continue;
            const float rho = particles.velrho[p].w;
            near[bins.site_of[k]].push_back(
                {r_xy_sq, at[2], double(params.mass) / rho, tait_pressure(rho, params)});
        }
    }
    return near;
}

double kernel(double r_sq, const SphParams& params) {
    return wendland_w(float(std::sqrt(r_sq)), params);
}

// A gauge's reading (GaugeScan, as `reading` says: the free surface of the water standing on the
// floor, or the length of the line under water), from the colour up its line, scanned from 2h
// below the lowest particle on the grid of multiples of dp/2; 0 where it never reaches 1/2. Keeps
// the particles within 2h of the sample in a sliding window over the particles sorted by rising
// z, and passes over the dry gaps between them.
double gauge_height(std::vector<Nearby>& near, const SphParams& params, GaugeReading reading) {
    if (near.empty()) return 0.0;
    std::sort(near.begin(), near.end(), [](const Nearby& a, const Nearby& b) { return a.z < b.z; });
    const double radius = 2.0 * params.h, step = 0.5 * particle_spacing(params);
    // Samples on the grid of multiples of dp/2, as the devices' (device_readings.h).
    const double bottom = std::floor((near.front().z - radius) / step) * step;
    const double top = near.back().z + radius;
    std::size_t begin = 0, end = 0;
    GaugeScan scan(step, reading);
    for (long k = 0;; ++k) {
        const double z = bottom + k * step;
        if (z > top) return scan.height();
        while (end < near.size() && near[end].z < z + radius) ++end;
        while (begin < end && near[begin].z <= z - radius) ++begin;
        if (!scan.wet() && begin == end &&
            end < near.size()) {  // dry gap: on to the next particle's reach
            const long next = long(std::floor((near[end].z - radius - bottom) / step));
            if (next > k) {
                k = next - 1;
                continue;
            }
        }
        double colour = 0.0;
        for (std::size_t j = begin; j < end; ++j) {
            const double dz = near[j].z - z;
            colour += near[j].volume * kernel(near[j].r_xy_sq + dz * dz, params);
        }
        if (scan.add(z, colour)) return scan.height();
    }
}

// Shepard-normalised pressure of the fluid particles near a probe (their offsets in z are taken
// from the probe's z); 0 when there are none.
double probe_pressure(const std::vector<Nearby>& near, double z, const SphParams& params) {
    double weighted = 0.0, weight = 0.0;
    for (const Nearby& n : near) {
        const double dz = n.z - z;
        const double w = n.volume * kernel(n.r_xy_sq + dz * dz, params);
        weighted += n.pressure * w;
        weight += w;
    }
    return weight > 0.0 ? weighted / weight : 0.0;
}

std::vector<Site> sites_of(const Instruments& in) {
    std::vector<Site> sites;
    for (const Gauge& g : in.gauges) sites.push_back({g.x, g.y, 0.0, false});
    for (const Probe& p : in.probes) sites.push_back({p.x, p.y, p.z, true});
    return sites;
}

}  // namespace

double GaugeScan::crossing(double z, double colour) const {
    return z - step_ + (previous_ - kSurfaceColour) / (previous_ - colour) * step_;
}

bool GaugeScan::add(double z, double colour) {
    bool complete = false;
    if (!wet_ && colour >= kSurfaceColour) {
        wet_ = true;
        // The first sample of a scan has none below it: the water begins there.
        wet_from_ = started_ ? crossing(z, colour) : z;
    } else if (wet_ && colour < kSurfaceColour) {
        wet_ = false;
        if (reading_ == GaugeReading::kSurface) {
            height_ = crossing(z, colour);
            complete = true;
        } else {
            height_ += crossing(z, colour) - wet_from_;
        }
    }
    previous_ = colour;
    last_z_ = z;
    started_ = true;
    return complete;
}

double GaugeScan::height() const {
    if (reading_ == GaugeReading::kWetted && wet_) return height_ + (last_z_ - wet_from_);
    return height_;
}

double particle_spacing(const SphParams& params) {
    return std::cbrt(double(params.mass) / double(params.rho0));
}

InstrumentReadings measure(const Instruments& in, const HostParticles& particles,
                           const SphParams& params) {
    InstrumentReadings out;
    std::vector<std::vector<Nearby>> near = gather(sites_of(in), particles, params);
    for (std::size_t g = 0; g < in.gauges.size(); ++g) {
        out.heights.push_back(gauge_height(near[g], params, in.gauge_reading));
    }
    for (std::size_t p = 0; p < in.probes.size(); ++p) {
        out.pressures.push_back(probe_pressure(near[in.gauges.size() + p], in.probes[p].z, params));
    }
    out.walls = wall_readings(in.walls, particles, params);
    if (in.front) out.front = surge_front(*in.front, particles, params);
    return out;
}

double wall_reading(const WallSensor& sensor, double weight, double pressure, double dp) {
    if (!(weight > 0.0)) return kNan;
    return sensor.panel() ? pressure * dp * dp : pressure / weight;
}

std::vector<double> wall_readings(const std::vector<WallSensor>& sensors,
                                  const HostParticles& particles, const SphParams& params) {
    std::vector<double> out;
    const double dp = particle_spacing(params);
    for (const WallSensor& sensor : sensors) {
        const InstrumentSite disc = whole_sensor(sensor, dp, particles.frame);
        double weight = 0.0, pressure = 0.0;
        for (std::size_t p = 0; p < particles.size(); ++p) {
            if (particles.type[p] == kFluid) continue;
            const WallWeight c =
                wall_tile_weight(particles.frame.between(particles.pos[p], disc.centre),
                                 particles.to_ghost[p], disc);
            if (c.coverage > 0.0f) {
                weight += c.coverage;
                pressure += double(tait_pressure(particles.velrho[p].w, params)) * c.load;
            }
        }
        out.push_back(wall_reading(sensor, weight, pressure, dp));
    }
    return out;
}

std::vector<double> gauge_heights(const std::vector<Gauge>& gauges, const HostParticles& particles,
                                  const SphParams& params, GaugeReading reading) {
    Instruments in;
    in.gauges = gauges;
    in.gauge_reading = reading;
    return measure(in, particles, params).heights;
}

std::vector<double> probe_pressures(const std::vector<Probe>& probes,
                                    const HostParticles& particles, const SphParams& params) {
    Instruments in;
    in.probes = probes;
    return measure(in, particles, params).pressures;
}

double surge_front(const FrontTracker& tracker, const HostParticles& particles,
                   const SphParams& params) {
    if (tracker.axis < 0 || tracker.axis > 2 ||
        (tracker.direction != 1 && tracker.direction != -1)) {
        throw std::invalid_argument("front tracker: axis must be 0, 1 or 2 and direction +1 or -1");
    }
    // s: the coordinate along the axis, signed so that the front is the largest s.
    struct Banded {
        double s;
        FixedPos r;
    };
    std::vector<Banded> band;
    // At coarse spacings a surge one particle deep rides above a thin band: the band is at least
    // h deep.
    const double top = tracker.floor + std::max(tracker.band, double(params.h));
    // The band and the coordinate as the devices take them (kernels/instruments_body.h): in whole
    // steps, and the coordinate a float.
    const std::int32_t floor = particles.frame.steps(tracker.floor, 2);
    const std::int32_t below = particles.frame.steps(top, 2);
    for (std::size_t p = 0; p < particles.size(); ++p) {
        const FixedPos r = particles.pos[p];
        if (particles.type[p] != kFluid || !(r.z >= floor && r.z < below)) continue;
        const double along = particles.frame.metres(fixed_component(r, tracker.axis), tracker.axis);
        band.push_back({tracker.direction * along, r});
    }
    if (band.empty()) return kNan;
    const double reach = 2.0 * particle_spacing(params), reach_sq = reach * reach;
    const auto near = [&](const Banded& a, const Banded& b) {
        return length_squared(particles.frame.between(a.r, b.r)) <= reach_sq;
    };
    double s_max = band[0].s, s_min = band[0].s;
    for (const Banded& b : band) s_max = std::max(s_max, b.s), s_min = std::min(s_min, b.s);

    // Examine the leading slab [s_max - depth, s_max] first, widening it only if all its
    // particles are isolated: usually one slab a few dp deep settles it without sorting the band.
    for (double depth = 4.0 * reach;; depth *= 4.0) {
        const double lo = s_max - depth;
        std::vector<Banded> slab;  // the slab plus the neighbours its particles may have behind it
        for (const Banded& b : band) {
            if (b.s >= lo - reach) slab.push_back(b);
        }
        std::sort(slab.begin(), slab.end(),
                  [](const Banded& a, const Banded& b) { return a.s > b.s; });
        for (std::size_t i = 0; i < slab.size() && slab[i].s >= lo; ++i) {
            int neighbours = 0;
            for (std::size_t j = i; j-- > 0 && slab[j].s - slab[i].s <= reach;) {
                neighbours += near(slab[j], slab[i]);
            }
            for (std::size_t j = i + 1; j < slab.size() && slab[i].s - slab[j].s <= reach; ++j) {
                neighbours += near(slab[j], slab[i]);
            }
            if (neighbours >= tracker.min_neighbours) return tracker.direction * slab[i].s;
        }
        if (lo <= s_min) return kNan;
    }
}

std::vector<std::string> instrument_columns(const Instruments& in) {
    std::vector<std::string> columns;
    for (const Gauge& g : in.gauges) columns.push_back(g.name);
    for (const Probe& p : in.probes) columns.push_back(p.name);
    for (const WallSensor& w : in.walls) columns.push_back(w.name);
    if (in.front) columns.push_back(std::string("front_") + "xyz"[in.front->axis]);
    return columns;
}

std::vector<double> instrument_row(const Instruments& in, const InstrumentReadings& readings) {
    std::vector<double> row(readings.heights);
    row.insert(row.end(), readings.pressures.begin(), readings.pressures.end());
    row.insert(row.end(), readings.walls.begin(), readings.walls.end());
    if (in.front) row.push_back(readings.front);
    return row;
}

}  // namespace sph
