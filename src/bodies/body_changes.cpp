#include "bodies/body_changes.h"

#include <sstream>
#include <stdexcept>

#include "bodies/moving_bodies.h"

namespace sph {
namespace {

std::invalid_argument change_error(const BodyChange& c, const std::string& why) {
    return std::invalid_argument(std::string("body ") + c.body + " " + body_field_name(c.field) +
                                 ": " + why);
}

// A law's release moved to `start`: a velocity law keeps its duration, a series its shape.
void move_start(MovingBody& body, double start) {
    BodyLaw& law = body.law;
    const double by = start - law.start;
    law.start = start;
    law.stop += by;
    for (auto& sample : body.series) sample[0] += by;
}

void apply(MovingBody& body, const BodyChange& c) {
    const bool floats = body.law.kind == MotionKind::kFloating;
    const bool for_floating =
        c.field == BodyChange::Field::kDensity || c.field == BodyChange::Field::kMass;
    if (floats != for_floating) {
        throw change_error(c, floats ? "it floats: change its density or mass"
                                     : "it moves by a law: change its start or velocity");
    }
    switch (c.field) {
        case BodyChange::Field::kStart:
            if (body.law.kind == MotionKind::kStill) throw change_error(c, "it has no law");
            move_start(body, c.value[0]);
            return;
        case BodyChange::Field::kVelocity:
            if (body.law.kind != MotionKind::kVelocity) {
                throw change_error(c, "its law is not a velocity");
            }
            for (int a = 0; a < 3; ++a) body.law.vector[a] = c.value[a];
            return;
        case BodyChange::Field::kDensity:
            body.floating.density = c.value[0];
            body.floating.mass = 0.0;
            return;
        case BodyChange::Field::kMass:
            body.floating.mass = c.value[0];
            return;
    }
}

// Throws where `changed` puts the body elsewhere at `now` than `was` does.
void check_in_place(const MovingBody& was, const MovingBody& changed, const BodyChange& c,
                    double now) {
    if (was.law.kind == MotionKind::kFloating) return;
    const BodyTable before = body_table({was}), after = body_table({changed});
    const BodyState a = body_state_at(before, 0, now), b = body_state_at(after, 0, now);
    const bool same = a.displacement[0] == b.displacement[0] &&
                      a.displacement[1] == b.displacement[1] &&
                      a.displacement[2] == b.displacement[2] && a.angle == b.angle;
    if (same) return;
    std::ostringstream why;
    why << "at t = " << now
        << " s the changed law would put it elsewhere than its law has (a jump): change a "
           "law while the body is at rest at the branch's start, before its release";
    throw change_error(c, why.str());
}

}  // namespace

const char* body_field_name(BodyChange::Field field) {
    switch (field) {
        case BodyChange::Field::kStart:
            return "start";
        case BodyChange::Field::kVelocity:
            return "velocity";
        case BodyChange::Field::kDensity:
            return "density";
        default:
            return "mass";
    }
}

void apply_body_changes(std::vector<MovingBody>& bodies, const std::vector<BodyChange>& changes,
                        double now) {
    for (const BodyChange& c : changes) {
        MovingBody* body = nullptr;
        for (MovingBody& b : bodies) {
            if (b.region.name == c.body) body = &b;
        }
        if (body == nullptr) throw change_error(c, "the run has no body of that name");
        const MovingBody was = *body;
        apply(*body, c);
        if (now >= 0.0) check_in_place(was, *body, c, now);
    }
}

}  // namespace sph
