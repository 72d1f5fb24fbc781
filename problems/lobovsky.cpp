#include "lobovsky.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

#include "common/comma_items.h"
#include "lattice.h"

namespace po = boost::program_options;

namespace sph {

namespace {
// Room above the tank for the run-up on the far wall, and around the walls for the grid.
constexpr double kHeadroom = 0.6;
constexpr double kMargin = 0.05;
}  // namespace

void Lobovsky::add_options(po::options_description& options) {
    options.add_options()(
        "free-slip-walls",
        po::value<std::string>()->default_value("none")->notifier([this](const std::string& v) {
            try {
                free_slip_walls_ = parse_walls(v);
            } catch (const std::invalid_argument& e) {
                throw po::error(e.what());
            }
        }),
        "walls without artificial viscosity towards the water under --slip problem: any of "
        "floor, sides, upstream, downstream, comma-separated, or none");
}

unsigned Lobovsky::parse_walls(const std::string& list) {
    if (list == "none") return 0;
    unsigned walls = 0;
    for (const std::string& word : comma_items(list)) {
        if (word == "floor") {
            walls |= kFloor;
        } else if (word == "sides") {
            walls |= kSides;
        } else if (word == "upstream") {
            walls |= kUpstream;
        } else if (word == "downstream") {
            walls |= kDownstream;
        } else {
            throw std::invalid_argument(
                "--free-slip-walls takes floor, sides, upstream and downstream, comma-separated, "
                "or none (got '" +
                word + "' in '" + list + "')");
        }
    }
    return walls;
}

Box Lobovsky::domain(double dp) const {
    const double m = kMargin + kWallLayers * dp;
    return Box{{-m, -m, -m}, {kTank[0] + m, kTank[1] + m, kTank[2] + kHeadroom}};
}

Box Lobovsky::fluid_reach(double dp) const {
    return open_tank_fluid_reach(Box{{0, 0, 0}, {kTank[0], kTank[1], kTank[2]}}, dp);
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
    // The walls a wall particle belongs to, from where it lies outside the tank's inside.
    const auto walls_of = [](const SetupParticle& p) {
        unsigned walls = 0;
        if (p.z < 0.0) walls |= kFloor;
        if (p.y < 0.0 || p.y > kTank[1]) walls |= kSides;
        if (p.x < 0.0) walls |= kUpstream;
        if (p.x > kTank[0]) walls |= kDownstream;
        return walls;
    };
    const EmitParticle typed_emit = free_slip_where(
        emit, [&](const SetupParticle& p) { return (walls_of(p) & free_slip_walls_) != 0; });
    add_open_tank(Box{{0, 0, 0}, {kTank[0], kTank[1], kTank[2]}}, kTank[2], dp, kWallLayers,
                  wall_depth, typed_emit);
    const Box water{{0, 0, 0}, {kWaterHi[0], kWaterHi[1], kWaterHi[2]}};
    for_each_lattice_point(water, dp, [&](double x, double y, double z) {
        emit(SetupParticle{x, y, z, kFluid, surface - z});
    });
}

}  // namespace sph
