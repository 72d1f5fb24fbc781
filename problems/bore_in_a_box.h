// BoreInABox, the reference problem of Rustico et al. (IEEE TPDS 2014, section 4.2): a column of
// water released at one end of a long open box, whose inner walls steer the bore.
//
// The box's floor is 1.2 (x) x 1.8 (y) m. The water fills x in [0, 1.2], y in [0, 0.6],
// z in [0, 0.6] (0.432 m^3) and runs along +y, the split axis. The box is open at the top, its
// walls twice as high as the water: the bore runs up the far wall above 0.6 m, and water
// thrown over a wall would fall out of the domain and stop the run. Variants:
//   wall      a low wall across the whole width (y in [0.89, 0.91], 0.15 m high): the bore
//             overtops it and the water spreads back over the whole floor;
//   corridor  a block as high as the water (0.6 m) fills y in [0.6, 1.2] but for a lateral
//             corridor x in [0, 0.3]: the water gathers in the last third of the box, so the load
//             of a split along y grows ever more lopsided (the paper's main case).
#pragma once

#include <string>

#include "problem.h"

namespace sph {

class BoreInABox : public Problem {
public:
    enum class Variant { kWall, kCorridor };

    static constexpr double kBox[3] = {1.2, 1.8, 1.2};      // interior, from the origin
    static constexpr double kWaterHi[3] = {1.2, 0.6, 0.6};  // the water starts at the origin
    // wall: across x in [0, kBox[0]], from the floor up to kWallHeight.
    static constexpr double kWallY[2] = {0.89, 0.91};
    static constexpr double kWallHeight = 0.15;
    // corridor: the block is x in [kCorridorWidth, kBox[0]], y in kBlockY, z in [0, kBlockTop].
    static constexpr double kCorridorWidth = 0.3;
    static constexpr double kBlockY[2] = {0.6, 1.2};
    static constexpr double kBlockTop = 0.6;

    explicit BoreInABox(Variant variant = Variant::kCorridor) : variant_(variant) {}
    Variant variant() const { return variant_; }

    std::string name() const override { return "BoreInABox"; }
    // --variant wall|corridor; a value that is neither fails the parse, naming --variant.
    void add_options(boost::program_options::options_description& options) override;
    double default_dp() const override { return 0.0065; }  // 1.57 million fluid particles
    double default_t_end() const override { return 1.5; }
    int default_split_axis() const override { return 1; }
    double still_water_depth() const override { return kWaterHi[2]; }
    Box domain(double dp) const override;
    Box fluid_reach(double dp) const override;
    void check_resolution(double dp) const override;
    void fill(double dp, const EmitParticle& emit) const override;
    // "wall" or "block", as the variant has: obstacle(dp).
    std::vector<NamedRegion> regions(double dp) const override;

    // The region the wall or the block takes at spacing dp, its faces half a spacing from the
    // lattice points it holds. Where dp is too coarse to put two rows of particles in the wall's
    // 0.02 m, the wall is the two rows nearest its centre plane (thicker than 0.02 m). Of the
    // block only a shell kWallLayers thick is laid with particles.
    Box obstacle(double dp) const;

private:
    Variant variant_;
};

std::string to_string(BoreInABox::Variant variant);
// Throws boost::program_options::error naming --variant for anything but "wall" or "corridor".
BoreInABox::Variant parse_variant(const std::string& text);

}  // namespace sph
