#include "column_collapse.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lattice.h"
#include "length_option.h"

namespace po = boost::program_options;

namespace sph {

namespace {

// Room around the walls for the grid and above them for splashes.
constexpr double kMargin = 0.1;
// Particles the column must have across its width and height at the coarsest.
constexpr int kMinAcross = 4;

}  // namespace

void ColumnCollapse::add_options(po::options_description& options) {
    // clang-format off
    options.add_options()
        ("column-width", positive_length(&width_, "column-width"),
         "width a of the water column along x, from the back wall [m]")
        ("column-height", positive_length(&height_, "column-height"),
         "height of the water column [m]")
        ("tank-length", positive_length(&tank_length_, "tank-length"),
         "length of the tank along x [m]")
        ("slab-width", positive_length(&slab_, "slab-width"),
         "thickness of the quasi-2-D slab along y, between its side walls [m]")
        ("height-gauge-x", positive_length(&gauge_x_, "height-gauge-x"),
         "x of gauge H, which reads the residual column height (inside the column) [m]")
        ("back-wall", po::value<std::string>()->default_value("no-slip")->notifier(
             [this](const std::string& v) {
                 if (v != "no-slip" && v != "free-slip") {
                     throw po::error("--back-wall must be no-slip or free-slip (got '" + v + "')");
                 }
                 free_slip_back_wall_ = v == "free-slip";
             }),
         "the wall behind the column: no-slip (dynamic boundary) or free-slip");
    // clang-format on
}

Box ColumnCollapse::domain(double dp) const {
    const double m = kMargin * height_ + kWallLayers * dp;
    return Box{{-m, -m, -m}, {tank_length_ + m, slab_ + m, wall_top() + 0.5 * height_}};
}

Box ColumnCollapse::fluid_reach(double dp) const {
    return open_tank_fluid_reach(Box{{0, 0, 0}, {tank_length_, slab_, height_}}, dp);
}

void ColumnCollapse::check_resolution(double dp) const {
    if (!(tank_length_ > width_)) {
        throw std::invalid_argument("--tank-length " + std::to_string(tank_length_) +
                                    " m must exceed --column-width " + std::to_string(width_) +
                                    " m: the water needs a floor to run on");
    }
    if (!(gauge_x_ < width_)) {
        throw std::invalid_argument("--height-gauge-x " + std::to_string(gauge_x_) +
                                    " m must lie over the column (below --column-width " +
                                    std::to_string(width_) + " m)");
    }
    const double coarsest = std::min(width_, height_) / kMinAcross;
    if (dp > coarsest || dp > slab_) {
        std::ostringstream msg;
        msg << "--dp " << dp << " m is too large for ColumnCollapse: at most " << coarsest
            << " m puts " << kMinAcross << " particles across the column, and the slab (" << slab_
            << " m) must hold one";
        throw std::invalid_argument(msg.str());
    }
}

Instruments ColumnCollapse::instruments() const {
    Instruments in;
    in.gauges.push_back({"H", gauge_x_, 0.5 * slab_});
    FrontTracker front;
    front.axis = 0;
    front.direction = +1;
    front.floor = 0.0;
    front.band = 0.2 * width_;
    in.front = front;
    return in;
}

void ColumnCollapse::fill(double dp, const EmitParticle& emit) const {
    // Walls under and beside the column start in hydrostatic equilibrium with it; the rest of
    // the tank is dry.
    auto wall_depth = [&](double x, double, double z) {
        return x < width_ ? std::max(0.0, height_ - z) : 0.0;
    };
    // The slab's side walls stand in for the planes of symmetry of a 2-D flow: free-slip, or
    // their viscous drag across a slab a few dp thick would hold the collapse back, the more the
    // finer dp (measured on the H200: column height 0.79 at tau = 2 at a/dp 133 with no-slip
    // side walls, 0.70 at a/dp 100 with free-slip ones; Martin & Moyce 0.50).
    const EmitParticle typed_emit = free_slip_where(emit, [&](const SetupParticle& p) {
        return p.y < 0.0 || p.y > slab_ || (free_slip_back_wall_ && p.x < 0.0);
    });
    add_open_tank(Box{{0, 0, 0}, {tank_length_, slab_, height_}}, wall_top(), dp, kWallLayers,
                  wall_depth, typed_emit);
    for_each_lattice_point(Box{{0, 0, 0}, {width_, slab_, height_}}, dp,
                           [&](double x, double y, double z) {
                               emit(SetupParticle{x, y, z, kFluid, height_ - z});
                           });
}

}  // namespace sph
