#include "dam_break.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lattice.h"

namespace sph {

namespace {
// Room above the tank for splashes, and around the walls for the grid.
constexpr double kHeadroom = 1.0;
constexpr double kMargin = 0.1;
}  // namespace

Box DamBreak::domain(double dp) const {
    const double m = kMargin + kWallLayers * dp;
    return Box{{-m, -m, -m}, {kTank[0] + m, kTank[1] + m, kTank[2] + kHeadroom}};
}

Box DamBreak::fluid_reach(double dp) const {
    return open_tank_fluid_reach(Box{{0, 0, 0}, {kTank[0], kTank[1], kTank[2]}}, dp);
}

void DamBreak::check_resolution(double dp) const {
    // The obstacle must be at least two particles high to exist; the water column four deep.
    const double coarsest = std::min((kObstacleHi[2] - kObstacleLo[2]) / 2.0, kWaterHi[2] / 4.0);
    if (dp > coarsest) {
        std::ostringstream msg;
        msg << "--dp " << dp << " m is too large for DamBreak: at most " << coarsest
            << " m resolves the obstacle (0.161 m high) and the water column";
        throw std::invalid_argument(msg.str());
    }
}

Instruments DamBreak::instruments() const {
    Instruments in;
    const double gauge_x[] = {0.496, 0.992, 1.488, 2.638};
    for (int i = 0; i < 4; ++i) in.gauges.push_back({"H" + std::to_string(i + 1), gauge_x[i], 0.5});
    const double face_z[] = {0.021, 0.061, 0.101, 0.141};
    const double top_x[] = {0.8035, 0.7635, 0.7235, 0.6835};
    constexpr double kProbeY = 0.471;
    for (int i = 0; i < 4; ++i) {
        in.probes.push_back({"P" + std::to_string(i + 1), kObstacleHi[0], kProbeY, face_z[i]});
    }
    for (int i = 0; i < 4; ++i) {
        in.probes.push_back({"P" + std::to_string(i + 5), top_x[i], kProbeY, kObstacleHi[2]});
    }
    // The load on the obstacle: its face towards the dam, the one the surge strikes, and the
    // moment of that force about the face's foot, the one that would overturn a building there.
    const double face_lo[3] = {kObstacleHi[0], kObstacleLo[1], kObstacleLo[2]};
    in.walls.push_back(wall_panel("F_obstacle", face_lo, kObstacleHi, 0, +1));
    in.walls.push_back(wall_moment("M_obstacle", face_lo, kObstacleHi, 0, +1, 2, +1));
    FrontTracker front;
    front.axis = 0;
    front.direction = -1;  // the water runs from the dam (x = 1.992) towards x = 0
    front.floor = 0.0;
    front.band = 0.04;
    in.front = front;
    return in;
}

std::vector<NamedRegion> DamBreak::regions(double) const {
    return {{"obstacle", Box{{kObstacleLo[0], kObstacleLo[1], kObstacleLo[2]},
                             {kObstacleHi[0], kObstacleHi[1], kObstacleHi[2]}}}};
}

void DamBreak::fill(double dp, const EmitParticle& emit) const {
    const double surface = kWaterHi[2];
    const Box obstacle{{kObstacleLo[0], kObstacleLo[1], kObstacleLo[2]},
                       {kObstacleHi[0], kObstacleHi[1], kObstacleHi[2]}};
    // Walls under and beside the water column start in hydrostatic equilibrium with it; the rest
    // of the tank is dry.
    auto wall_depth = [&](double x, double, double z) {
        return x >= kWaterLo[0] ? std::max(0.0, surface - z) : 0.0;
    };
    const Box tank{{0, 0, 0}, {kTank[0], kTank[1], kTank[2]}};
    add_open_tank(tank, kTank[2], dp, kWallLayers, wall_depth, emit);
    const Faces wet = faces_inside(obstacle, tank);  // all but the floor it stands on
    for_each_lattice_point(obstacle, dp, [&](double x, double y, double z) {
        SetupParticle p{x, y, z, kBoundary, 0.0};
        ghost_inside(obstacle, wet, dp, kWallLayers, p);
        emit(p);
    });
    const Box water{{kWaterLo[0], kWaterLo[1], kWaterLo[2]},
                    {kWaterHi[0], kWaterHi[1], kWaterHi[2]}};
    for_each_lattice_point(water, dp, [&](double x, double y, double z) {
        emit(SetupParticle{x, y, z, kFluid, surface - z});
    });
}

}  // namespace sph
