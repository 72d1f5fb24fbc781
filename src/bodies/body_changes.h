// What a what-if branch changes of a run's bodies (branches/branch_plan.h: `body NAME ...`): a
// prescribed law's start (its release) or velocity, a floating body's density or mass. The
// changes are settings, not state: a branch's own branches keep them.
#pragma once

#include <string>
#include <vector>

#include "problem.h"

namespace sph {

struct BodyChange {
    enum class Field { kStart, kVelocity, kDensity, kMass };
    std::string body;  // the body's name
    Field field = Field::kStart;
    double value[3] = {0.0, 0.0, 0.0};  // start [s]; velocity [m/s]; density [kg/m^3]; mass [kg]
};

// The keyword of a field in a branch file ("start", "velocity", "density", "mass").
const char* body_field_name(BodyChange::Field field);

// `bodies` with `changes` applied in order. Throws std::invalid_argument naming the body for a
// body the run does not have, a field its motion does not take (a start or velocity of a floating
// body, a density or mass of one that moves by a law, a velocity of a law that is not one), and,
// where `now` >= 0 (a branch going on from that time), for a law whose change would move the body
// at `now` from where its law had put it.
void apply_body_changes(std::vector<MovingBody>& bodies, const std::vector<BodyChange>& changes,
                        double now);

}  // namespace sph
