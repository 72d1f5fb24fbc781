// Collapse of a water column on a dry floor (Martin & Moyce 1952; Koshizuka & Oka 1996), a
// validation case: a quasi-two-dimensional slab between free-slip side walls.
//
// The column, `a` wide (x) and `column height` high (z), stands against the back wall x = 0 of
// a tank `tank length` long and `slab width` thick (y), open at the top; its walls rise to
// 1.25 x the column height (water thrown higher, up the far wall, leaves the domain and is
// removed). Defaults are the Koshizuka & Oka case as DualSPHysics rescales it (a 1 m x 2 m
// column, n^2 = height / a = 2, the aspect of Martin & Moyce's data), in a tank 5 m long rather
// than 4 m: both data sets follow the front to 4.1 a, and the wall must not stop it first.
//
// Instruments:
// - the surge front along +x on the floor (band 0.2 a deep): the front position z(t), and
// - gauge H at x = `height gauge x`, in the middle of the slab: the residual column height
//   eta(t). Martin & Moyce read it at the back wall; a gauge closer than 2h to a wall reads low
//   (src/gauges.h), so put it 3 dp or more from the wall (validation/column_collapse.py does).
// The slab should be 6 dp thick or more, so that the gauge line is 2h clear of the side walls.
// The side walls are free-slip (kFreeSlipBoundary: no artificial viscosity towards the fluid), as
// the planes of a 2-D flow are; floor and far wall are ordinary dynamic boundaries, and so is the
// back wall unless `--back-wall free-slip` (at the experiments' Reynolds numbers the wall's
// boundary layer is far thinner than dp, which a no-slip wall of particles overstates).
#pragma once

#include "problem.h"

namespace sph {

class ColumnCollapse : public Problem {
public:
    std::string name() const override { return "ColumnCollapse"; }
    // --column-width, --column-height, --tank-length, --slab-width, --height-gauge-x [m]; a value
    // that is not positive fails the parse, naming the option. --back-wall no-slip|free-slip.
    void add_options(boost::program_options::options_description& options) override;
    double default_dp() const override { return 0.02; }
    // Martin & Moyce's column height is measured until tau = t sqrt(g / a) = 7.4: 2.4 s at a = 1 m.
    double default_t_end() const override { return 2.5; }
    int default_split_axis() const override { return 0; }
    double still_water_depth() const override { return height_; }
    Box domain(double dp) const override;
    Box fluid_reach(double dp) const override;
    // Also checks the geometry (the tank longer than the column, the gauge over the column),
    // naming the options.
    void check_resolution(double dp) const override;
    void fill(double dp, const EmitParticle& emit) const override;
    Instruments instruments() const override;

    double column_width() const { return width_; }
    double column_height() const { return height_; }
    double tank_length() const { return tank_length_; }
    double slab_width() const { return slab_; }
    double height_gauge_x() const { return gauge_x_; }
    bool free_slip_back_wall() const { return free_slip_back_wall_; }
    double wall_top() const { return 1.25 * height_; }

private:
    double width_ = 1.0;        // a [m]
    double height_ = 2.0;       // [m]
    double tank_length_ = 5.0;  // [m]
    double slab_ = 0.3;         // [m]
    double gauge_x_ = 0.15;     // [m]
    bool free_slip_back_wall_ = false;
};

}  // namespace sph
