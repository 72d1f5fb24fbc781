// A run's moving bodies (problem.h: MovingBody) from set-up to the devices: which wall particles
// belong to which body, the checks before anything runs, the laws packed for the kernels
// (kernels/body_motion.h), and what the report and the checkpoint's settings say of them.
#pragma once

#include <string>
#include <vector>

#include "devices/device.h"
#include "devices/host_particles.h"
#include "geometry/box.h"
#include "particle_type.h"
#include "problem.h"

namespace sph {

// Throws std::invalid_argument, naming the body and where its law was given, for a law that
// cannot be (a period of 0, a stop before the start, a series whose times do not increase, more
// than kMostBodies bodies, two bodies of one name).
void check_body_laws(const std::vector<MovingBody>& bodies);

// The type a wall particle laid out at (x, y, z) takes: the first body whose region holds it
// (kFirstBody + its index), or `wall` where none does. Fluid stays fluid.
ParticleType body_particle_type(const std::vector<MovingBody>& bodies, double x, double y, double z,
                                ParticleType laid_out_as);

// The laws as the devices take them: a series' samples packed one after another.
BodyTable body_table(const std::vector<MovingBody>& bodies);

// body_table, with each body's name and moment point (a turning body's hinge, else its
// particles' centre as laid out, found from `particles` at time `now`: the set-up's at 0, a
// checkpoint's at its time). Throws std::invalid_argument for a body that holds no wall particle,
// or whose law would take its particles out of `domain` before `t_end`.
BodyTable checked_body_table(const std::vector<MovingBody>& bodies, const HostParticles& particles,
                             const Box& domain, double t_end, double now);

// One line a body ("gate: velocity 0 0 1.5 m/s from 0 s to 0.2 s"), for the report and for the
// settings a restart must match.
std::string describe_body(const MovingBody& body);

// The body's displacement [m] and velocity [m/s] at time t, as Euler computes them.
BodyState body_state_at(const BodyTable& table, std::size_t body, double t);

}  // namespace sph
