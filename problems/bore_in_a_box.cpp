#include "bore_in_a_box.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "lattice.h"

namespace po = boost::program_options;

namespace sph {

namespace {

// Room above the box for splashes, and around the walls for the grid.
constexpr double kHeadroom = 1.0;
constexpr double kMargin = 0.1;
// Fluid on either side of a wall two rows thick is 3 dp apart, beyond the kernel's 2h = 2.6 dp:
// with fewer rows the water would feel the water behind the wall through it.
constexpr int kMinWallRows = 2;
// Particles across the thinnest water-filled gap (the corridor) or up the wall, at the coarsest.
constexpr int kMinAcross = 4;

}  // namespace

std::string to_string(BoreInABox::Variant variant) {
    return variant == BoreInABox::Variant::kWall ? "wall" : "corridor";
}

BoreInABox::Variant parse_variant(const std::string& text) {
    if (text == "wall") return BoreInABox::Variant::kWall;
    if (text == "corridor") return BoreInABox::Variant::kCorridor;
    // A program_options error, so that the parser reports it like any other bad option value.
    throw po::error("--variant must be wall or corridor (got '" + text + "')");
}

void BoreInABox::add_options(po::options_description& options) {
    options.add_options()(
        "variant",
        po::value<std::string>()
            ->default_value(to_string(variant_))
            ->notifier([this](const std::string& text) { variant_ = parse_variant(text); }),
        "wall: a wall 0.15 m high across the box; corridor: a block leaves only a lateral "
        "corridor 0.3 m wide");
}

Box BoreInABox::domain(double dp) const {
    const double m = kMargin + kWallLayers * dp;
    return Box{{-m, -m, -m}, {kBox[0] + m, kBox[1] + m, kBox[2] + kHeadroom}};
}

Box BoreInABox::fluid_reach(double dp) const {
    return open_tank_fluid_reach(Box{{0, 0, 0}, {kBox[0], kBox[1], kBox[2]}}, dp);
}

void BoreInABox::check_resolution(double dp) const {
    const bool wall = variant_ == Variant::kWall;
    // The corridor (or the wall's height) must be several particles across; the water column,
    // deeper than either, then is too.
    const double coarsest = (wall ? kWallHeight : kCorridorWidth) / kMinAcross;
    if (dp > coarsest) {
        std::ostringstream msg;
        msg << "--dp " << dp << " m is too large for BoreInABox (" << to_string(variant_)
            << "): at most " << coarsest << " m puts " << kMinAcross << " particles "
            << (wall ? "up the 0.15 m high wall" : "across the 0.3 m wide corridor");
        throw std::invalid_argument(msg.str());
    }
}

std::vector<NamedRegion> BoreInABox::regions(double dp) const {
    return {{variant_ == Variant::kWall ? "wall" : "block", obstacle(dp)}};
}

Box BoreInABox::obstacle(double dp) const {
    if (variant_ == Variant::kCorridor) {
        return snapped_to_lattice(
            Box{{kCorridorWidth, kBlockY[0], 0.0}, {kBox[0], kBlockY[1], kBlockTop}}, dp);
    }
    Box wall =
        snapped_to_lattice(Box{{0.0, kWallY[0], 0.0}, {kBox[0], kWallY[1], kWallHeight}}, dp);
    if (wall.hi[1] - wall.lo[1] < (kMinWallRows - 0.5) * dp) {
        // The rows nearest the centre plane, one each side of it.
        const long below = static_cast<long>(std::floor(0.5 * (kWallY[0] + kWallY[1]) / dp - 0.5));
        wall.lo[1] = below * dp;
        wall.hi[1] = (below + kMinWallRows) * dp;
    }
    return wall;
}

void BoreInABox::fill(double dp, const EmitParticle& emit) const {
    const double surface = kWaterHi[2];
    const double t = kWallLayers * dp;
    // Boundary particles within the kernel's reach of the water (the floor and walls around it,
    // the block's front face) start in hydrostatic equilibrium with it; the rest are dry.
    auto depth_of = [&](double, double y, double z) {
        return y < kWaterHi[1] + t ? std::max(0.0, surface - z) : 0.0;
    };
    const Box tank{{0, 0, 0}, {kBox[0], kBox[1], kBox[2]}};
    add_open_tank(tank, kBox[2], dp, kWallLayers, depth_of, emit);

    const Box solid = obstacle(dp);
    // The block is hollow: a shell on the faces the water can reach (the corridor side, front,
    // back and top); the box's side wall and floor close the other two.
    const Box hollow = variant_ == Variant::kCorridor
                           ? Box{{solid.lo[0] + t, solid.lo[1] + t, solid.lo[2]},
                                 {solid.hi[0], solid.hi[1] - t, solid.hi[2] - t}}
                           : Box{{0, 0, 0}, {0, 0, 0}};
    const Faces wet = faces_inside(solid, tank);
    for_each_lattice_point(solid, dp, [&](double x, double y, double z) {
        if (hollow.contains(x, y, z)) return;
        SetupParticle p{x, y, z, kBoundary, depth_of(x, y, z)};
        ghost_inside(solid, wet, dp, kWallLayers, p);
        emit(p);
    });

    // The water ends where the block starts (y = 0.6); the wall lies beyond it.
    const Box water{{0, 0, 0}, {kWaterHi[0], kWaterHi[1], kWaterHi[2]}};
    for_each_lattice_point(water, dp, [&](double x, double y, double z) {
        emit(SetupParticle{x, y, z, kFluid, surface - z});
    });
}

}  // namespace sph
