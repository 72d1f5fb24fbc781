// A floating body's motion: a rigid body moved by the water's force and moment on it (summed over
// its particles as Forces sees them, kernels/body_loads_body.h) and by gravity, in six degrees of
// freedom or fewer, integrated in the same predictor-corrector step as the water:
//
//   predictor: c* = c + dt/2 V,   V* = V + dt/2 A(n),   q* = exp(dt/2 w) q,    w* = w + dt/2 a(n)
//   corrector: V' = V + dt A(*), w' = w + dt a(*),    c' = c + dt/2 (V + V'), q' = exp(dt/2 (w +
//   w')) q
//
// with c the centre of mass, V its velocity, q the orientation (a unit quaternion from the body as
// laid out), w the angular velocity (world axes), A = F / m + g and a the angular acceleration
// from I a = M - w x (I w), I the inertia tensor about the centre turned to the world's axes. A
// body may be held along some axes: its centre does not move along a held axis (A is zero there)
// and it does not turn about a held one (the equations of the free axes are solved with the held
// ones' accelerations zero). A hinged body turns about its hinge line alone: I_h a = M_h, about
// the line, I_h its moment of inertia about it (the centre's plus m d^2), M_h the water's moment
// and gravity's about it; its centre is carried round the hinge with its orientation, at velocity
// w x (c - hinge). Everything is in double, on the host, from integer load sums: every process and
// device count computes the same bits.
#pragma once

#include <array>

#include "body_motion.h"

namespace sph {

struct FloatingState {
    double centre[3] = {0.0, 0.0, 0.0};            // [m]
    double velocity[3] = {0.0, 0.0, 0.0};          // [m/s]
    double orientation[4] = {1.0, 0.0, 0.0, 0.0};  // unit quaternion (w, x, y, z)
    double omega[3] = {0.0, 0.0, 0.0};             // [rad/s], world axes
};

struct FloatingMass {
    double mass = 0.0;                  // [kg]
    double inertia[9] = {};             // [kg m^2] about the centre, in the body's axes as laid out
    bool move[3] = {true, true, true};  // whether the centre may move along x, y, z
    bool turn[3] = {true, true, true};  // whether the body may turn about x, y, z
    // A hinged body turns about the line along `hinge_axis` through `hinge` [m] alone; `arm` is
    // its centre less the hinge as laid out [m].
    bool hinged = false;
    int hinge_axis = 1;
    double hinge[3] = {0.0, 0.0, 0.0};
    double arm[3] = {0.0, 0.0, 0.0};
};

// The water's (and contacts') force [N] and moment [N m] on a body, the moment about its centre.
struct BodyLoad {
    double force[3] = {0.0, 0.0, 0.0};
    double moment[3] = {0.0, 0.0, 0.0};
};

// The predicted state half a step on, from `now` and the loads at `now`.
FloatingState predict_floating(const FloatingMass& body, const FloatingState& now,
                               const BodyLoad& load, const double gravity[3], double dt);
// The state a step on, from `now` and the loads at `predicted`.
FloatingState correct_floating(const FloatingMass& body, const FloatingState& now,
                               const FloatingState& predicted, const BodyLoad& load,
                               const double gravity[3], double dt);
// How the body's particles move from `from` to `to` (kernels/body_motion.h).
BodyPose pose_between(const FloatingState& from, const FloatingState& to);

// The rotation matrix (rows first) of a unit quaternion.
std::array<double, 9> rotation_matrix(const double q[4]);
// The rotation vector (axis times angle [rad]) of a unit quaternion, the angle in [0, pi].
std::array<double, 3> rotation_vector(const double q[4]);

}  // namespace sph
