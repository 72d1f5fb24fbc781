#include "instruments/device_readings.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sph {

InstrumentPlan plan_instruments(const Instruments& in, const SphParams& params, double z_lo,
                                double z_hi) {
    InstrumentPlan plan;
    for (const Probe& p : in.probes) {
        plan.points.push_back(make_vec3(float(p.x), float(p.y), float(p.z)));
    }
    plan.step = 0.5 * particle_spacing(params);
    plan.first_sample = long(std::floor(z_lo / plan.step));
    plan.samples_per_gauge = long(std::ceil(z_hi / plan.step)) - plan.first_sample + 1;
    for (const Gauge& g : in.gauges) {
        for (long k = 0; k < plan.samples_per_gauge; ++k) {
            const double z = double(plan.first_sample + k) * plan.step;
            plan.points.push_back(make_vec3(float(g.x), float(g.y), float(z)));
        }
    }
    if (in.front) {
        const FrontTracker& t = *in.front;
        const double reach = 2.0 * particle_spacing(params);
        plan.front = FrontSpec{t.axis,
                               t.direction,
                               float(t.floor),
                               float(t.floor + std::max(t.band, double(params.h))),
                               float(reach * reach),
                               t.min_neighbours};
    }
    return plan;
}

double surface_from_colour(const std::vector<double>& colour, long first, double step) {
    SurfaceScan scan(step);
    for (std::size_t k = 0; k < colour.size(); ++k) {
        if (scan.add(double(first + long(k)) * step, colour[k])) return scan.height();
    }
    return 0.0;  // dry, or water up to the domain's top
}

InstrumentReadings readings_from(const Instruments& in, const InstrumentPlan& plan,
                                 const InstrumentSums& sums) {
    InstrumentReadings out;
    std::size_t at = 0;
    for (std::size_t p = 0; p < in.probes.size(); ++p, ++at) {
        const PointSums& s = sums.points.at(at);
        out.pressures.push_back(s.volume > 0.0f ? double(s.pressure) / double(s.volume) : 0.0);
    }
    for (std::size_t g = 0; g < in.gauges.size(); ++g) {
        std::vector<double> colour(std::size_t(plan.samples_per_gauge));
        for (double& c : colour) c = sums.points.at(at++).volume;
        out.heights.push_back(surface_from_colour(colour, plan.first_sample, plan.step));
    }
    if (in.front) {
        out.front = std::isinf(sums.front_key)
                        ? std::numeric_limits<double>::quiet_NaN()
                        : -double(in.front->direction) * double(sums.front_key);
    }
    return out;
}

}  // namespace sph
