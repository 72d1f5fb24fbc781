// Physical and numerical constants every kernel reads, derived once on the host.
#pragma once

#include <cstdint>

#include "vec.h"

namespace sph {

// How walls get their density. DBC: dynamic boundary particles, whose density follows continuity
// like the fluid's. mDBC: the modified dynamic boundary condition (English et al. 2022), whose
// density is extrapolated from the fluid around a ghost node mirrored across the wall surface
// (mdbc_body.h); the fluid then meets the wall at dp/2 instead of about h.
enum class BoundaryModel : std::uint8_t { kDbc = 0, kMdbc = 1 };

struct SphParams {
    float h;                 // smoothing length [m]
    float kernel_radius_sq;  // (2h)^2: pairs beyond this do not interact
    float list_radius_sq;    // (2h (1 + skin))^2: pairs kept in the neighbour list
    float wendland_alpha;    // 21 / (16 pi h^3), the 3-D Wendland C2 normalisation
    float mass;              // rho0 dp^3, the same for every particle [kg]
    float rho0;              // reference density [kg/m^3]
    float c0;                // reference speed of sound [m/s]
    float tait_b;            // c0^2 rho0 / gamma [Pa]
    float gamma;             // Tait exponent
    float viscosity_alpha;   // Monaghan artificial viscosity coefficient
    float diffusion_delta;   // Molteni-Colagrossi density diffusion coefficient
    float cfl;               // Courant number
    float eta_sq;            // 0.01 h^2: keeps 1/r^2 terms finite
    Vec3 gravity;            // [m/s^2]
    BoundaryModel boundary;  // how walls get their density
    // The pressure force through a corrected kernel gradient (gradient_correction.h).
    bool gradient_correction = false;
    // Under mDBC: fluid closing on a wall's face within dp/4 of it stops closing (wall_contact.h).
    bool no_penetration = false;
    float dp = 0.0f;  // the particle spacing [m]
};

}  // namespace sph
