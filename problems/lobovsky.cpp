#include "lobovsky.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lattice.h"

namespace sph {

namespace {
// Room above the tank for the run-up on the far wall, and around the walls for the grid.
constexpr double kHeadroom = 0.6;
constexpr double kMargin = 0.05;
}  // namespace

Box Lobovsky::domain(double dp) const {
    const double m = kMargin + kWallLayers * dp;
    return Box{{-m, -m, -m}, {kTank[0] + m, kTank[1] + m, kTank[2] + kHeadroom}};
}

void Lobovsky::check_resolution(double dp) const {
    // The water column four particles deep and the tank four wide.
    const double coarsest = std::min(kWaterHi[2], kTank[1]) / 4.0;
    if (dp > coarsest) {
        std::ostringstream msg;
        msg << "--dp " << dp << " m is too large for Lobovsky: at most " << coarsest
            << " m resolves the 0.15 m wide tank";
        throw std::invalid_argument(msg.str());
    }
}

Instruments Lobovsky::instruments() const {
    Instruments in;
    for (int i = 0; i < 4; ++i) {
        in.probes.push_back({"P" + std::to_string(i + 1), kTank[0], 0.5 * kTank[1], kSensorZ[i]});
    }
    for (int i = 0; i < 4; ++i) {
        WallSensor s;
        s.name = "S" + std::to_string(i + 1);
        s.x = kTank[0], s.y = 0.5 * kTank[1], s.z = kSensorZ[i];
        s.axis = 0;
        s.direction = -1;  // the water is at smaller x
        s.diameter = kSensorDiameter;
        in.walls.push_back(s);
    }
    // The load on the wall the sensors are in: all of its face.
    const double wall_lo[3] = {kTank[0], 0.0, 0.0};
    in.walls.push_back(wall_panel("F_wall", wall_lo, kTank, 0, -1));
    FrontTracker front;
    front.axis = 0;
    front.direction = +1;
    front.floor = 0.0;
    front.band = 0.04;  // above DBC's gap of about h at any dp the runs use
    in.front = front;
    return in;
}

void Lobovsky::fill(double dp, const EmitParticle& emit) const {
    const double surface = kWaterHi[2];
    // The walls beside and under the column start in hydrostatic equilibrium with it; the rest of
    // the tank is dry.
    auto wall_depth = [&](double x, double, double z) {
        return x <= kWaterHi[0] ? std::max(0.0, surface - z) : 0.0;
    };
    add_open_tank(Box{{0, 0, 0}, {kTank[0], kTank[1], kTank[2]}}, kTank[2], dp, kWallLayers,
                  wall_depth, emit);
    const Box water{{0, 0, 0}, {kWaterHi[0], kWaterHi[1], kWaterHi[2]}};
    for_each_lattice_point(water, dp, [&](double x, double y, double z) {
        emit(SetupParticle{x, y, z, kFluid, surface - z});
    });
}

}  // namespace sph
