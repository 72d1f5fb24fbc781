#include "bodies/floating_bodies.h"

#include <cmath>
#include <stdexcept>

#include "body_loads_body.h"
#include "particle_type.h"

namespace sph {
namespace {

// Body b's particles: how many, their centre [m] (or the centre `spec` gives) and their inertia
// about it per unit mass, each particle a cube of side dp [m^2].
struct ParticleMoments {
    std::size_t count = 0;
    double centre[3] = {0.0, 0.0, 0.0};
    double inertia[9] = {};
};

ParticleMoments particle_moments(std::size_t b, const HostParticles& particles, double dp,
                                 const FloatingSpec& spec) {
    ParticleMoments m;
    const auto of_body = [&](std::size_t i) { return particles.type[i] == kFirstBody + b; };
    for (std::size_t i = 0; i < particles.size(); ++i) {
        if (!of_body(i)) continue;
        double at[3];
        particles.position(i, at);
        for (int a = 0; a < 3; ++a) m.centre[a] += at[a];
        ++m.count;
    }
    if (m.count == 0) return m;
    for (int a = 0; a < 3; ++a) {
        m.centre[a] = spec.centre_given ? spec.centre[a] : m.centre[a] / double(m.count);
    }
    for (std::size_t i = 0; i < particles.size(); ++i) {
        if (!of_body(i)) continue;
        double r[3];
        particles.position(i, r);
        for (int a = 0; a < 3; ++a) r[a] -= m.centre[a];
        const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + dp * dp / 6.0;
        for (int a = 0; a < 3; ++a) {
            for (int c = 0; c < 3; ++c) m.inertia[3 * a + c] += (a == c ? r2 : 0.0) - r[a] * r[c];
        }
    }
    for (double& v : m.inertia) v /= double(m.count);
    return m;
}

// A hinged body turns about its law's hinge line alone, its centre carried round it.
void hinge_body(FloatingMass& mass, const BodyLaw& law) {
    mass.hinged = true;
    mass.hinge_axis = law.hinge_axis;
    for (int a = 0; a < 3; ++a) {
        mass.hinge[a] = law.hinge[a];
        mass.move[a] = false;
        mass.turn[a] = a == law.hinge_axis;
    }
}

// The centre as laid out less the hinge, for a hinged body.
void set_arm(FloatingMass& mass, const double laid_out[3]) {
    for (int a = 0; a < 3; ++a) mass.arm[a] = laid_out[a] - mass.hinge[a];
}

}  // namespace

FloatingBodies::FloatingBodies(const std::vector<MovingBody>& bodies,
                               const HostParticles& particles, double dp, Vec3 gravity)
    : poses_(bodies.size()), gravity_{gravity.x, gravity.y, gravity.z} {
    for (std::size_t b = 0; b < bodies.size(); ++b) {
        if (bodies[b].law.kind != MotionKind::kFloating) continue;
        const FloatingSpec& spec = bodies[b].floating;
        const ParticleMoments m = particle_moments(b, particles, dp, spec);
        Body body;
        body.index = b;
        body.mass.mass =
            spec.mass > 0.0 ? spec.mass : spec.density * double(m.count) * dp * dp * dp;
        if (!(body.mass.mass > 0.0) || m.count == 0) {
            throw std::invalid_argument(bodies[b].source + ": body '" + bodies[b].region.name +
                                        "' floats but has no mass: give it a density or a mass "
                                        "above 0, and wall particles in its region");
        }
        const bool given = spec.inertia[0] > 0.0 || spec.inertia[1] > 0.0 || spec.inertia[2] > 0.0;
        body.inertia_given = given;
        for (int k = 0; k < 9; ++k) {
            body.mass.inertia[k] =
                given ? (k % 4 == 0 ? spec.inertia[k / 4] : 0.0) : body.mass.mass * m.inertia[k];
        }
        for (int a = 0; a < 3; ++a) {
            body.mass.move[a] = spec.move[a];
            body.mass.turn[a] = spec.turn[a];
            body.laid_out[a] = m.centre[a];
            body.now.centre[a] = m.centre[a];
        }
        if (spec.hinged) hinge_body(body.mass, bodies[b].law);
        set_arm(body.mass, body.laid_out);
        body.predicted = body.now;
        poses_[b] = pose_between(body.now, body.now);
        floating_.push_back(body);
    }
}

std::vector<FixedPos> FloatingBodies::moment_points(bool corrector,
                                                    const PositionFrame& frame) const {
    std::vector<FixedPos> points(poses_.size(), FixedPos{0, 0, 0, 0.0f});
    for (const Body& body : floating_) {
        const double* c = corrector ? body.predicted.centre : body.now.centre;
        points[body.index] = frame.fixed(c[0], c[1], c[2], 0.0f);
    }
    return points;
}

const std::vector<BodyPose>& FloatingBodies::advance(bool corrector,
                                                     const std::vector<unsigned long long>& sums,
                                                     double dt) {
    for (Body& body : floating_) {
        BodyLoad load;
        for (int a = 0; a < 3; ++a) {
            const std::size_t at = body.index * kBodyLoadSums;
            load.force[a] = double(static_cast<long long>(sums.at(at + a))) / kLoadScale;
            load.moment[a] = double(static_cast<long long>(sums.at(at + 3 + a))) / kLoadScale;
        }
        if (dt == 0.0) {
            poses_[body.index] = pose_between(body.now, body.now);
        } else if (!corrector) {
            body.predicted = predict_floating(body.mass, body.now, load, gravity_, dt);
            poses_[body.index] = pose_between(body.now, body.predicted);
        } else {
            const FloatingState next =
                correct_floating(body.mass, body.now, body.predicted, load, gravity_, dt);
            poses_[body.index] = pose_between(body.now, next);
            body.now = next;
            body.predicted = next;
        }
    }
    return poses_;
}

const FloatingBodies::Body* FloatingBodies::find(std::size_t b) const {
    for (const Body& body : floating_) {
        if (body.index == b) return &body;
    }
    return nullptr;
}

bool FloatingBodies::floats(std::size_t b) const {
    return find(b) != nullptr;
}

BodyState FloatingBodies::log_state(std::size_t b) const {
    const Body& body = *find(b);
    BodyState s{};
    const auto rotation = rotation_vector(body.now.orientation);
    int free_axes = 0, axis = 0;
    for (int a = 0; a < 3; ++a) {
        s.displacement[a] = body.now.centre[a] - body.laid_out[a];
        s.velocity[a] = body.now.velocity[a];
        if (body.mass.turn[a]) axis = a, ++free_axes;
    }
    const double* w = body.now.omega;
    if (free_axes == 1) {
        s.angle = rotation[std::size_t(axis)];
        s.angular_velocity = w[axis];
    } else {
        s.angle = std::sqrt(rotation[0] * rotation[0] + rotation[1] * rotation[1] +
                            rotation[2] * rotation[2]);
        s.angular_velocity = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    }
    return s;
}

std::array<double, 3> FloatingBodies::centre(std::size_t b) const {
    const Body& body = *find(b);
    return {body.now.centre[0], body.now.centre[1], body.now.centre[2]};
}

// Per body: its index, mass, inertia (9), centre as laid out (3), centre, velocity, orientation,
// angular velocity (13): 27 doubles.
constexpr std::size_t kSavedDoubles = 27;

std::vector<double> FloatingBodies::saved() const {
    std::vector<double> out;
    for (const Body& body : floating_) {
        out.push_back(double(body.index));
        out.push_back(body.mass.mass);
        out.insert(out.end(), body.mass.inertia, body.mass.inertia + 9);
        out.insert(out.end(), body.laid_out, body.laid_out + 3);
        const FloatingState& s = body.now;
        out.insert(out.end(), s.centre, s.centre + 3);
        out.insert(out.end(), s.velocity, s.velocity + 3);
        out.insert(out.end(), s.orientation, s.orientation + 4);
        out.insert(out.end(), s.omega, s.omega + 3);
    }
    return out;
}

void FloatingBodies::restore(const std::vector<double>& values, const std::string& source) {
    if (values.size() != floating_.size() * kSavedDoubles) {
        throw std::runtime_error(
            source + ": it holds " + std::to_string(values.size() / kSavedDoubles) +
            " floating bodies' states; this run has " + std::to_string(floating_.size()));
    }
    const double* v = values.data();
    for (Body& body : floating_) {
        if (v[0] != double(body.index)) {
            throw std::runtime_error(source + ": its floating bodies are not this run's");
        }
        // A branch may have changed its mass (bodies/body_changes.h): its inertia then scales
        // with it, or is the one given.
        const FloatingMass built = body.mass;
        std::copy(v + 2, v + 11, body.mass.inertia);
        if (built.mass != v[1]) {
            for (int k = 0; k < 9; ++k) {
                body.mass.inertia[k] =
                    body.inertia_given ? built.inertia[k] : v[2 + k] * built.mass / v[1];
            }
        }
        std::copy(v + 11, v + 14, body.laid_out);
        set_arm(body.mass, body.laid_out);
        FloatingState& s = body.now;
        std::copy(v + 14, v + 17, s.centre);
        std::copy(v + 17, v + 20, s.velocity);
        std::copy(v + 20, v + 24, s.orientation);
        std::copy(v + 24, v + 27, s.omega);
        body.predicted = s;
        poses_[body.index] = pose_between(s, s);
        v += kSavedDoubles;
    }
}

}  // namespace sph
