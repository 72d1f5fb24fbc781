#include "bodies/moving_bodies.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

namespace sph {
namespace {

std::invalid_argument body_error(const MovingBody& b, const std::string& what) {
    const std::string at = b.source.empty() ? "" : b.source + ": ";
    return std::invalid_argument(at + "body '" + b.region.name + "': " + what);
}

void check_series(const MovingBody& b) {
    if (b.series.size() < 2) throw body_error(b, "a series law needs at least two samples");
    for (std::size_t k = 0; k < b.series.size(); ++k) {
        for (double v : b.series[k]) {
            if (!std::isfinite(v)) throw body_error(b, "a series value is not finite");
        }
        if (k > 0 && !(b.series[k][0] > b.series[k - 1][0])) {
            throw body_error(b, "the series' times must increase");
        }
    }
    const auto& first = b.series.front();
    if (first[0] < 0.0 || first[1] != 0.0 || first[2] != 0.0 || first[3] != 0.0 ||
        first[4] != 0.0) {
        throw body_error(b, "the series must start at a time >= 0 with zero displacement");
    }
}

void check_law(const MovingBody& b) {
    const BodyLaw& law = b.law;
    if (!std::isfinite(law.start) || law.start < 0.0) {
        throw body_error(b, "its start time must be finite and >= 0");
    }
    for (double v : law.vector) {
        if (!std::isfinite(v)) throw body_error(b, "its velocity or amplitude is not finite");
    }
    if (!std::isfinite(law.turn)) throw body_error(b, "its turn is not finite");
    for (double v : law.hinge) {
        if (!std::isfinite(v)) throw body_error(b, "its hinge is not finite");
    }
    if (law.hinge_axis < 0 || law.hinge_axis > 2)
        throw body_error(b, "its hinge axis is x, y or z");
    switch (law.kind) {
        case MotionKind::kVelocity:
            if (!(law.stop > law.start))
                throw body_error(b, "its stop time must come after its start");
            return;
        case MotionKind::kSinusoid:
            if (!(law.period > 0.0) || !std::isfinite(law.period)) {
                throw body_error(b, "its period must be finite and > 0");
            }
            if (!(law.ramp >= 0.0) || !std::isfinite(law.ramp)) {
                throw body_error(b, "its ramp must be finite and >= 0");
            }
            return;
        case MotionKind::kSeries:
            check_series(b);
            return;
        case MotionKind::kFloating: {
            const FloatingSpec& f = b.floating;
            const bool weighed = (f.density > 0.0 && std::isfinite(f.density)) ||
                                 (f.mass > 0.0 && std::isfinite(f.mass));
            if (!weighed) throw body_error(b, "it floats: give it a finite density or mass > 0");
            for (double i : f.inertia) {
                if (!(i >= 0.0) || !std::isfinite(i))
                    throw body_error(b, "its moments of inertia must be finite and >= 0");
            }
            for (double c : f.centre) {
                if (!std::isfinite(c)) throw body_error(b, "its centre is not finite");
            }
            return;
        }
        default:
            return;
    }
}

// The least and greatest displacement along `axis` (3: the angle) the law reaches up to t_end.
void law_range(const MovingBody& b, int axis, double t_end, double& lo, double& hi) {
    lo = hi = 0.0;
    const BodyLaw& law = b.law;
    const double amount = axis == 3 ? law.turn : law.vector[axis];
    if (law.kind == MotionKind::kVelocity) {
        const double d = amount * std::max(0.0, std::min(law.stop, t_end) - law.start);
        lo = std::min(lo, d);
        hi = std::max(hi, d);
    } else if (law.kind == MotionKind::kSinusoid) {
        lo = -std::fabs(amount);
        hi = std::fabs(amount);
    } else if (law.kind == MotionKind::kSeries) {
        for (const auto& s : b.series) {
            lo = std::min(lo, s[1 + axis]);
            hi = std::max(hi, s[1 + axis]);
        }
    }
}

// The box [lo, hi] every particle of the body stays in up to t_end: its box at set-up turned
// about the hinge through the law's angles (its corners at 129 angles, and the arc's sag between
// two added), then moved through the law's displacements.
void reach_of(const MovingBody& b, double t_end, double lo[3], double hi[3]) {
    double a_lo, a_hi;
    law_range(b, 3, t_end, a_lo, a_hi);
    if (a_hi > a_lo) {
        const double* h = b.law.hinge;
        double radius = 0.0, turned_lo[3], turned_hi[3];
        for (int a = 0; a < 3; ++a) {
            turned_lo[a] = INFINITY;
            turned_hi[a] = -INFINITY;
        }
        constexpr int kAngles = 128;
        for (int corner = 0; corner < 8; ++corner) {
            double c[3];
            for (int a = 0; a < 3; ++a) c[a] = ((corner >> a) & 1 ? hi[a] : lo[a]) - h[a];
            radius = std::max(radius, std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));
            for (int k = 0; k <= kAngles; ++k) {
                double v[3] = {c[0], c[1], c[2]};
                rotate_about_axis(v, b.law.hinge_axis, a_lo + (a_hi - a_lo) * k / kAngles);
                for (int a = 0; a < 3; ++a) {
                    turned_lo[a] = std::min(turned_lo[a], h[a] + v[a]);
                    turned_hi[a] = std::max(turned_hi[a], h[a] + v[a]);
                }
            }
        }
        const double sag = radius * (1.0 - std::cos(0.5 * (a_hi - a_lo) / kAngles));
        for (int a = 0; a < 3; ++a) {
            lo[a] = turned_lo[a] - sag;
            hi[a] = turned_hi[a] + sag;
        }
    }
    for (int a = 0; a < 3; ++a) {
        double d_lo, d_hi;
        law_range(b, a, t_end, d_lo, d_hi);
        lo[a] += d_lo;
        hi[a] += d_hi;
    }
}

}  // namespace

void check_body_laws(const std::vector<MovingBody>& bodies) {
    if (bodies.size() > std::size_t(kMostBodies)) {
        throw std::invalid_argument(std::to_string(bodies.size()) + " moving bodies: at most " +
                                    std::to_string(kMostBodies));
    }
    std::set<std::string> names;
    for (const MovingBody& b : bodies) {
        if (b.region.name.empty()) throw body_error(b, "a moving body needs a name");
        if (!names.insert(b.region.name).second) throw body_error(b, "two bodies of one name");
        check_law(b);
    }
}

ParticleType body_particle_type(const std::vector<MovingBody>& bodies, double x, double y, double z,
                                ParticleType laid_out_as) {
    if (laid_out_as == kFluid) return laid_out_as;
    for (std::size_t b = 0; b < bodies.size(); ++b) {
        if (bodies[b].region.contains(x, y, z)) return ParticleType(kFirstBody + b);
    }
    return laid_out_as;
}

namespace {

// What set-up (or a checkpoint) holds of a body: its particles, their box [m], and the sum of
// their positions in whole steps (an integer: the same in any order).
struct BodyParticles {
    std::int64_t count = 0;
    std::int64_t step_sum[3] = {0, 0, 0};
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
};

// One pass over the particles for every body.
std::vector<BodyParticles> gather_body_particles(std::size_t bodies,
                                                 const HostParticles& particles) {
    std::vector<BodyParticles> out(bodies);
    for (std::size_t i = 0; i < particles.size(); ++i) {
        if (!is_body(particles.type[i])) continue;
        const std::size_t b = particles.type[i] - kFirstBody;
        if (b >= bodies) throw std::invalid_argument("a particle of a body the run does not have");
        BodyParticles& body = out[b];
        double at[3];
        particles.position(i, at);
        const std::int32_t steps[3] = {particles.pos[i].x, particles.pos[i].y, particles.pos[i].z};
        ++body.count;
        for (int a = 0; a < 3; ++a) {
            body.step_sum[a] += steps[a];
            body.lo[a] = std::min(body.lo[a], at[a]);
            body.hi[a] = std::max(body.hi[a], at[a]);
        }
    }
    return out;
}

// Throws std::invalid_argument for a body that holds no wall particle, or whose law would take
// its particles out of `domain` before `t_end`.
void check_body_reach(const std::vector<MovingBody>& bodies, const std::vector<BodyParticles>& held,
                      const Box& domain, double t_end) {
    static const char* const kAxis = "xyz";
    for (std::size_t b = 0; b < bodies.size(); ++b) {
        if (held[b].count == 0) throw body_error(bodies[b], "its region holds no wall particle");
        double lo[3], hi[3];
        std::copy(held[b].lo, held[b].lo + 3, lo);
        std::copy(held[b].hi, held[b].hi + 3, hi);
        reach_of(bodies[b], t_end, lo, hi);
        for (int a = 0; a < 3; ++a) {
            if (lo[a] >= domain.lo[a] && hi[a] < domain.hi[a]) continue;
            std::ostringstream m;
            m << "its law takes its particles to " << kAxis[a] << " = "
              << (lo[a] < domain.lo[a] ? lo[a] : hi[a]) << " m by t = " << t_end
              << " s, outside the domain (" << domain.lo[a] << " to " << domain.hi[a]
              << " m): enlarge the domain or shorten the motion";
            throw body_error(bodies[b], m.str());
        }
    }
}

bool turns(const MovingBody& b) {
    if (b.law.turn != 0.0) return true;
    for (const auto& sample : b.series) {
        if (sample[4] != 0.0) return true;
    }
    return false;
}

}  // namespace

BodyTable body_table(const std::vector<MovingBody>& bodies) {
    BodyTable table;
    for (const MovingBody& b : bodies) {
        BodyLaw law = b.law;
        law.first_sample = static_cast<std::uint32_t>(table.samples.size() / kSampleDoubles);
        law.samples = static_cast<std::uint32_t>(b.series.size());
        for (const auto& s : b.series)
            table.samples.insert(table.samples.end(), s.begin(), s.end());
        table.laws.push_back(law);
    }
    return table;
}

BodyTable checked_body_table(const std::vector<MovingBody>& bodies, const HostParticles& particles,
                             const Box& domain, double t_end, double now) {
    const std::vector<BodyParticles> held = gather_body_particles(bodies.size(), particles);
    check_body_reach(bodies, held, domain, t_end);
    BodyTable table = body_table(bodies);
    // Each body's centre as laid out, in whole steps: its particles' now less the whole steps its
    // law has moved a body that does not turn, so that a restart finds the set-up's centre again.
    const PositionFrame& frame = particles.frame;
    for (std::size_t b = 0; b < bodies.size(); ++b) {
        table.names.push_back(bodies[b].region.name);
        const double* h = bodies[b].law.hinge;
        std::array<double, 3> point{h[0], h[1], h[2]};
        if (!turns(bodies[b])) {
            const BodyState state = body_state_at(table, b, now);
            for (int a = 0; a < 3; ++a) {
                const double steps = double(held[b].step_sum[a]) / double(held[b].count) -
                                     double(displacement_steps(state, a, frame));
                point[a] = frame.origin[a] + steps * double(frame.unit);
            }
        }
        table.moment_points.push_back(point);
    }
    return table;
}

std::string describe_body(const MovingBody& b) {
    std::ostringstream s;
    s.precision(17);
    const BodyLaw& law = b.law;
    const auto vec = [&] {
        std::ostringstream v;
        v.precision(17);
        v << law.vector[0] << " " << law.vector[1] << " " << law.vector[2];
        return v.str();
    };
    s << b.region.name << ": ";
    switch (law.kind) {
        case MotionKind::kVelocity:
            s << "velocity " << vec() << " m/s, turn " << law.turn << " rad/s, from " << law.start
              << " s to " << law.stop << " s";
            break;
        case MotionKind::kSinusoid:
            s << "sinusoid of amplitude " << vec() << " m, swing " << law.turn << " rad, period "
              << law.period << " s, from " << law.start << " s, ramped over " << law.ramp << " s";
            break;
        case MotionKind::kSeries:
            s << "series of " << b.series.size() << " samples from " << b.series.front()[0]
              << " s to " << b.series.back()[0] << " s";
            break;
        case MotionKind::kFloating: {
            const FloatingSpec& f = b.floating;
            s << "floating, density " << f.density << " kg/m^3, mass " << f.mass << " kg, inertia "
              << f.inertia[0] << " " << f.inertia[1] << " " << f.inertia[2] << " kg m^2, ";
            if (f.hinged) {
                s << "hinged";
            } else {
                s << "moves along ";
                for (int a = 0; a < 3; ++a) s << (f.move[a] ? "xyz"[a] : '-');
                s << ", turns about ";
                for (int a = 0; a < 3; ++a) s << (f.turn[a] ? "xyz"[a] : '-');
            }
            if (f.centre_given)
                s << ", centre " << f.centre[0] << " " << f.centre[1] << " " << f.centre[2];
            if (!f.hinged) return s.str();
            break;
        }
        default:
            s << "still";
    }
    s << "; hinge " << law.hinge[0] << " " << law.hinge[1] << " " << law.hinge[2] << " along "
      << "xyz"[law.hinge_axis];
    return s.str();
}

BodyState body_state_at(const BodyTable& table, std::size_t body, double t) {
    return body_state(table.laws.at(body), table.samples.data(), t);
}

}  // namespace sph
