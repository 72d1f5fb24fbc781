#include "still_water.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "lattice.h"
#include "length_option.h"

namespace po = boost::program_options;

namespace sph {

void StillWater::add_options(po::options_description& options) {
    // clang-format off
    options.add_options()
        ("length", positive_length(&length_, "length"), "inner length of the tank along x [m]")
        ("width", positive_length(&width_, "width"), "inner width of the tank along y [m]")
        ("depth", positive_length(&depth_, "depth"), "still-water depth H [m]");
    // clang-format on
}

Box StillWater::domain(double dp) const {
    const double margin = 0.25 * depth_ + kWallLayers * dp;
    return Box{{-margin, -margin, -margin}, {length_ + margin, width_ + margin, 2.0 * depth_}};
}

Box StillWater::fluid_reach(double dp) const {
    return open_tank_fluid_reach(Box{{0, 0, 0}, {length_, width_, depth_}}, dp);
}

void StillWater::check_resolution(double dp) const {
    if (dp > std::min({length_, width_, depth_}) / 4.0) {
        throw std::invalid_argument("--dp " + std::to_string(dp) +
                                    " m is too large for the still-water tank");
    }
}

void StillWater::fill(double dp, const EmitParticle& emit) const {
    auto depth_of = [&](double, double, double z) { return std::max(0.0, depth_ - z); };
    add_open_tank(Box{{0, 0, 0}, {length_, width_, depth_}}, 1.5 * depth_, dp, kWallLayers,
                  depth_of, emit);
    for_each_lattice_point(Box{{0, 0, 0}, {length_, width_, depth_}}, dp,
                           [&](double x, double y, double z) {
                               emit(SetupParticle{x, y, z, kFluid, depth_ - z});
                           });
}

}  // namespace sph
