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
    // --length, --width, --depth [m], defaults those given to the constructor; a value that is
    // not positive fails the parse, naming the option. The default --dp stays the constructor's
    // depth / 20 (it is read before the options are).
    void add_options(boost::program_options::options_description& options) override;
    double default_dp() const override { return depth_ / 20.0; }
    double default_t_end() const override { return 1.0; }
    int default_split_axis() const override { return 0; }
    double still_water_depth() const override { return depth_; }
    Box domain(double dp) const override;
    Box fluid_reach(double dp) const override;
    void check_resolution(double dp) const override;
    void fill(double dp, const EmitParticle& emit) const override;

    double length() const { return length_; }
    double width() const { return width_; }
    double depth() const { return depth_; }

private:
    double length_, width_, depth_;
};

}  // namespace sph
