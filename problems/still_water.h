// A closed-bottom box of water at rest: the hydrostatic test and validation case.
#pragma once

#include "problem.h"

namespace sph {

class StillWater : public Problem {
public:
    // A tank `length` x `width` with water `depth` deep; walls rise to 1.5 x depth.
    StillWater(double length, double width, double depth)
        : length_(length), width_(width), depth_(depth) {}

    std::string name() const override { return "StillWater"; }
    double default_dp() const override { return depth_ / 20.0; }
    double default_t_end() const override { return 1.0; }
    int default_split_axis() const override { return 0; }
    double still_water_depth() const override { return depth_; }
    Box domain(double dp) const override;
    void check_resolution(double dp) const override;
    void fill(double dp, const EmitParticle& emit) const override;

private:
    double length_, width_, depth_;
};

}  // namespace sph
