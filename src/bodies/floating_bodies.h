// A run's floating bodies between the devices' stages (bodies/floating_body.h): their mass and
// inertia from their particles as laid out, the points each stage's moments are taken about,
// their states advanced with each stage's load sums (every device's added: integers, the same
// bits in any order) into the poses Euler moves their particles by, and what bodies.csv and a
// checkpoint keep of them.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "bodies/floating_body.h"
#include "devices/host_particles.h"
#include "problem.h"
#include "vec.h"

namespace sph {

class FloatingBodies {
public:
    FloatingBodies() = default;  // none
    // The floating ones of `bodies`, from `particles` as laid out at spacing `dp`. Throws
    // std::invalid_argument, naming the body, for a mass that is not positive.
    FloatingBodies(const std::vector<MovingBody>& bodies, const HostParticles& particles, double dp,
                   Vec3 gravity);

    bool empty() const { return floating_.empty(); }
    // The points a stage's moments are taken about, one per body of the run: a floating body's
    // centre in the stage's state (the step's start for the predictor, the predicted state for
    // the corrector); the others' are not used.
    std::vector<FixedPos> moment_points(bool corrector, const PositionFrame& frame) const;
    // Integrates the stage from its load sums (Device::body_loads about moment_points, added over
    // every device) and dt; returns every body's pose for Euler. dt 0 leaves the bodies as they
    // are (a step whose dt is unusable changes nothing).
    const std::vector<BodyPose>& advance(bool corrector,
                                         const std::vector<unsigned long long>& sums, double dt);
    // Every body's pose for a stage that moves nothing (before the first advance).
    const std::vector<BodyPose>& poses() const { return poses_; }

    // Whether body b floats; its state for bodies.csv: displacement of its centre from where it
    // was laid out, its angle (about its one free axis; with more, the whole rotation's), the
    // rates of both; the point its moment is taken about (its centre) [m].
    bool floats(std::size_t b) const;
    BodyState log_state(std::size_t b) const;
    std::array<double, 3> centre(std::size_t b) const;

    // What a checkpoint keeps (mass, inertia and states, in doubles), and restoring it, which
    // throws std::runtime_error naming `source` where it does not fit the run. Where this run's
    // mass differs from the checkpoint's (a branch changed it), it is kept, and the inertia
    // scales with it unless it was given.
    std::vector<double> saved() const;
    void restore(const std::vector<double>& values, const std::string& source);

private:
    struct Body {
        std::size_t index = 0;  // among the run's bodies
        FloatingMass mass;
        double laid_out[3] = {0.0, 0.0, 0.0};  // its centre as laid out [m]
        bool inertia_given = false;
        FloatingState now, predicted;
    };
    const Body* find(std::size_t b) const;

    std::vector<Body> floating_;
    std::vector<BodyPose> poses_;  // one per body of the run
    double gravity_[3] = {0.0, 0.0, 0.0};
};

}  // namespace sph
