// Rigid bodies that move by a prescribed law: a gate lifted, a piston that makes waves.
//
// A body is a set of wall particles (particle_type.h: its type is kFirstBody + its index) that
// moves as one. Its law gives its displacement D(t) from where it was laid out and its velocity
// D'(t); Euler (euler_body.h) moves each of its particles and gives them that velocity, which the
// fluid then meets in its viscosity and continuity terms as it meets a still wall's zero.
//
// Euler evaluates the law itself, at the stage's time and with the dt it takes from the minima
// (step_dt.h), so that no GPU waits for the host between Forces and Euler. A particle moves by
// whole steps of the position frame: from S(t) to S(t') where S(t) = round(D(t) / unit), each
// coordinate an integer, so every particle of a body moves by the same steps (it stays exactly
// rigid), the body is never more than half a step from its law, and the moves over any run add up
// to S(t_end) whatever its steps were. Every device evaluates the same law at the same times: the
// invariants hold (any device count, balancing, restart: the law depends on t alone).
//
// A law may also turn the body by an angle theta(t) about a hinge: the line parallel to axis
// `hinge_axis` through `hinge` (where it was laid out, carried along by D). A turning body's
// particles move from their place relative to the hinge, rotated in double and rounded to the
// nearest step: rigid to a step, which is as good as its particles' positions are. One that does
// not turn moves by whole steps alone, as above. Its particles' ghost offsets (mDBC) turn with it
// at each corrector.
//
// The laws (all start at rest, D = 0 and theta = 0, before `start`):
//   velocity  D = v min(t - start, stop - start), theta likewise at angular velocity `turn`:
//             constant velocities from start until stop;
//   sinusoid  (D, theta) = r(tau) (A, turn) sin(2 pi tau / T), tau = t - start,
//             r = min(1, tau / ramp): a piston's stroke or a flap's swing, ramped in over `ramp`
//             seconds (0: none);
//   series    (D, theta) piecewise linear through samples (t, dx, dy, dz, theta), the first at
//             rest; before the first sample the body rests, after the last it stays.
#pragma once

#include <cmath>
#include <cstdint>

#include "fixed_position.h"
#include "vec.h"

namespace sph {

enum class MotionKind : std::uint8_t {
    kStill = 0,
    kVelocity = 1,
    kSinusoid = 2,
    kSeries = 3,
    kFloating = 4,  // moved by the water and gravity: the host integrates it (floating_body.h)
};

// Doubles a series sample holds: t [s], dx, dy, dz [m], theta [rad].
constexpr int kSampleDoubles = 5;

struct BodyLaw {
    MotionKind kind = MotionKind::kStill;
    double start = 0.0;                  // [s]
    double stop = INFINITY;              // [s] velocity: when it stops
    double vector[3] = {0.0, 0.0, 0.0};  // velocity [m/s] or amplitude [m]
    double turn = 0.0;                   // angular velocity [rad/s] or angle amplitude [rad]
    double period = 1.0;                 // [s] sinusoid
    double ramp = 0.0;                   // [s] sinusoid
    double hinge[3] = {0.0, 0.0, 0.0};   // [m] a point of the hinge line, as laid out
    std::int32_t hinge_axis = 1;         // the hinge line's direction: 0 x, 1 y, 2 z
    // series: samples [first_sample, first_sample + samples) of BodyLaws::samples
    std::uint32_t first_sample = 0, samples = 0;
};

// Where a floating body goes in one Euler stage, as the host integrated it from the loads of that
// stage (bodies/floating_body.h): from its centre at the step's start to its centre at the
// stage's end, turned meanwhile by `turn` (a rotation matrix, rows first) about the centre; its
// velocity and angular velocity there (world axes). A body that does not float has none.
struct BodyPose {
    double from[3] = {0.0, 0.0, 0.0};  // [m]
    double to[3] = {0.0, 0.0, 0.0};    // [m]
    double turn[9] = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
    double velocity[3] = {0.0, 0.0, 0.0};  // [m/s]
    double omega[3] = {0.0, 0.0, 0.0};     // [rad/s]
};

// Every body's law, where the kernels read them (device memory on a GPU); count 0: no bodies.
struct BodyLaws {
    const BodyLaw* law = nullptr;
    const double* samples = nullptr;  // kSampleDoubles per sample
    std::uint32_t count = 0;
    const BodyPose* poses = nullptr;  // one a body: the stage's, for the floating ones
};

// A body's displacement [m], velocity [m/s], angle [rad] and angular velocity [rad/s] at one time.
struct BodyState {
    double displacement[3];
    double velocity[3];
    double angle;
    double angular_velocity;
};

// Bit b set where body b floats (kMostBodies is 64).
inline std::uint64_t floating_bits(const BodyLaw* laws, std::size_t count) {
    std::uint64_t bits = 0;
    for (std::size_t b = 0; b < count; ++b) {
        if (laws[b].kind == MotionKind::kFloating) bits |= std::uint64_t(1) << b;
    }
    return bits;
}

// The sample interval [k, k + 1] holding t, by bisection; -1 before the first, n - 1 after the
// last.
SPH_HD int series_interval(const double* s, std::uint32_t n, double t) {
    if (t < s[0]) return -1;
    if (t >= s[kSampleDoubles * (n - 1)]) return int(n) - 1;
    std::uint32_t lo = 0, hi = n - 1;  // s[lo] <= t < s[hi]
    while (hi - lo > 1) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (t >= s[kSampleDoubles * mid]) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return int(lo);
}

SPH_HD BodyState series_state(const double* s, std::uint32_t n, double t) {
    BodyState b{{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0.0, 0.0};
    const int k = series_interval(s, n, t);
    if (k < 0) return b;
    const double* lo = s + kSampleDoubles * k;
    if (k == int(n) - 1) {
        for (int a = 0; a < 3; ++a) b.displacement[a] = lo[1 + a];
        b.angle = lo[4];
        return b;
    }
    const double* hi = lo + kSampleDoubles;
    const double span = hi[0] - lo[0];
    const double w = (t - lo[0]) / span;
    for (int a = 0; a < 3; ++a) {
        b.displacement[a] = lo[1 + a] + w * (hi[1 + a] - lo[1 + a]);
        b.velocity[a] = (hi[1 + a] - lo[1 + a]) / span;
    }
    b.angle = lo[4] + w * (hi[4] - lo[4]);
    b.angular_velocity = (hi[4] - lo[4]) / span;
    return b;
}

SPH_HD BodyState body_state(const BodyLaw& law, const double* samples, double t) {
    BodyState b{{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0.0, 0.0};
    const double tau = t - law.start;
    switch (law.kind) {
        case MotionKind::kVelocity: {
            const double moving = fmin(fmax(tau, 0.0), law.stop - law.start);
            const bool on = tau >= 0.0 && t < law.stop;
            for (int a = 0; a < 3; ++a) {
                b.displacement[a] = law.vector[a] * moving;
                b.velocity[a] = on ? law.vector[a] : 0.0;
            }
            b.angle = law.turn * moving;
            b.angular_velocity = on ? law.turn : 0.0;
            return b;
        }
        case MotionKind::kSinusoid: {
            if (tau <= 0.0) return b;
            const double omega = 2.0 * M_PI / law.period;
            const bool ramping = law.ramp > 0.0 && tau < law.ramp;
            const double r = ramping ? tau / law.ramp : 1.0;
            const double dr = ramping ? 1.0 / law.ramp : 0.0;
            const double s = sin(omega * tau), c = cos(omega * tau);
            for (int a = 0; a < 3; ++a) {
                b.displacement[a] = r * law.vector[a] * s;
                b.velocity[a] = law.vector[a] * (dr * s + r * omega * c);
            }
            b.angle = r * law.turn * s;
            b.angular_velocity = law.turn * (dr * s + r * omega * c);
            return b;
        }
        case MotionKind::kSeries:
            return series_state(samples + kSampleDoubles * law.first_sample, law.samples, t);
        default:
            return b;
    }
}

// The body's displacement at t in whole steps of `frame` (see above).
SPH_HD std::int64_t displacement_steps(const BodyState& b, int axis, const PositionFrame& frame) {
    return std::int64_t(llrint(b.displacement[axis] * double(frame.inv_unit)));
}

// v rotated by `angle` [rad] about the coordinate axis `axis` (right-handed).
SPH_HD void rotate_about_axis(double v[3], int axis, double angle) {
    const int a = (axis + 1) % 3, b = (axis + 2) % 3;
    const double c = cos(angle), s = sin(angle);
    const double va = v[a], vb = v[b];
    v[a] = va * c - vb * s;
    v[b] = va * s + vb * c;
}

// Where a particle of the body at `pos` at time t lies at time t_to, its velocity there, and the
// angle [rad] the body turned by meanwhile.
struct BodyMove {
    FixedPos pos;
    Vec3 velocity;
    double turned;
};
SPH_HD BodyMove move_with_body(const FixedPos& pos, const BodyLaw& law, const double* samples,
                               double t, double t_to, const PositionFrame& frame) {
    const BodyState from = body_state(law, samples, t), to = body_state(law, samples, t_to);
    const std::int32_t p[3] = {pos.x, pos.y, pos.z};
    std::int64_t at[3];
    double v[3];
    const double turned = to.angle - from.angle;
    if (turned == 0.0 && to.angular_velocity == 0.0) {  // by whole steps: exactly rigid
        for (int a = 0; a < 3; ++a) {
            at[a] = p[a] + displacement_steps(to, a, frame) - displacement_steps(from, a, frame);
            v[a] = to.velocity[a];
        }
    } else {
        // The hinge's step now and then; the particle's place from it, turned, in metres.
        double rel[3];
        std::int64_t hinge_from[3], hinge_to[3];
        for (int a = 0; a < 3; ++a) {
            const std::int64_t hinge =
                std::int64_t(llrint((law.hinge[a] - frame.origin[a]) * double(frame.inv_unit)));
            hinge_from[a] = hinge + displacement_steps(from, a, frame);
            hinge_to[a] = hinge + displacement_steps(to, a, frame);
            rel[a] = double(p[a] - hinge_from[a]) * double(frame.unit);
        }
        rotate_about_axis(rel, law.hinge_axis, turned);
        const int a1 = (law.hinge_axis + 1) % 3, a2 = (law.hinge_axis + 2) % 3;
        for (int a = 0; a < 3; ++a) {
            at[a] = hinge_to[a] + std::int64_t(llrint(rel[a] * double(frame.inv_unit)));
            v[a] = to.velocity[a];
        }
        v[a1] -= to.angular_velocity * rel[a2];  // omega e x rel
        v[a2] += to.angular_velocity * rel[a1];
    }
    const FixedPos moved{std::int32_t(at[0]), std::int32_t(at[1]), std::int32_t(at[2]), pos.w};
    return BodyMove{moved, make_vec3(float(v[0]), float(v[1]), float(v[2])), turned};
}

// m v for a rotation matrix m, rows first.
SPH_HD void turn_vector(const double m[9], double v[3]) {
    const double x = v[0], y = v[1], z = v[2];
    for (int a = 0; a < 3; ++a) v[a] = m[3 * a] * x + m[3 * a + 1] * y + m[3 * a + 2] * z;
}

// Where a particle of a floating body at `pos` goes in the stage `pose` describes: its place
// relative to the centre turned and carried to the new centre, rounded to the nearest step, as a
// turning law's particles are. `turned` is 1 where the pose turns the body (the ghost offsets must
// follow), else 0.
SPH_HD BodyMove move_floating(const FixedPos& pos, const BodyPose& pose,
                              const PositionFrame& frame) {
    const std::int32_t p[3] = {pos.x, pos.y, pos.z};
    double rel[3];
    std::int64_t centre_to[3];
    for (int a = 0; a < 3; ++a) {
        const double inv = double(frame.inv_unit);
        const std::int64_t from = std::int64_t(llrint((pose.from[a] - frame.origin[a]) * inv));
        centre_to[a] = std::int64_t(llrint((pose.to[a] - frame.origin[a]) * inv));
        rel[a] = double(p[a] - from) * double(frame.unit);
    }
    turn_vector(pose.turn, rel);
    std::int64_t at[3];
    for (int a = 0; a < 3; ++a)
        at[a] = centre_to[a] + std::int64_t(llrint(rel[a] * double(frame.inv_unit)));
    const double* w = pose.omega;
    const double v[3] = {pose.velocity[0] + w[1] * rel[2] - w[2] * rel[1],
                         pose.velocity[1] + w[2] * rel[0] - w[0] * rel[2],
                         pose.velocity[2] + w[0] * rel[1] - w[1] * rel[0]};
    const double* m = pose.turn;
    const bool turns = !(m[0] == 1.0 && m[4] == 1.0 && m[8] == 1.0 && m[1] == 0.0 && m[2] == 0.0 &&
                         m[3] == 0.0 && m[5] == 0.0 && m[6] == 0.0 && m[7] == 0.0);
    const FixedPos moved{std::int32_t(at[0]), std::int32_t(at[1]), std::int32_t(at[2]), pos.w};
    return BodyMove{moved, make_vec3(float(v[0]), float(v[1]), float(v[2])), turns ? 1.0 : 0.0};
}

// Where body b's particle at `pos` as the stage begins (time t) lies at t_to: by its law, or, for
// a floating body, by the stage's pose.
SPH_HD BodyMove move_body_particle(const FixedPos& pos, const BodyLaws& bodies, std::uint32_t b,
                                   double t, double t_to, const PositionFrame& frame) {
    const BodyLaw& law = bodies.law[b];
    if (law.kind == MotionKind::kFloating) return move_floating(pos, bodies.poses[b], frame);
    return move_with_body(pos, law, bodies.samples, t, t_to, frame);
}

// A ghost offset (mDBC) of body b turned with it: by `turned` [rad] about its law's hinge axis,
// or by a floating body's pose.
SPH_HD Vec3 turn_offset(Vec3 g, const BodyLaws& bodies, std::uint32_t b, double turned) {
    double v[3] = {g.x, g.y, g.z};
    const BodyLaw& law = bodies.law[b];
    if (law.kind == MotionKind::kFloating) {
        turn_vector(bodies.poses[b].turn, v);
    } else {
        rotate_about_axis(v, law.hinge_axis, turned);
    }
    return make_vec3(float(v[0]), float(v[1]), float(v[2]));
}

}  // namespace sph
