// Kernel gradient correction (Bonet & Lok 1999): the matrix that makes a particle's SPH gradient
// exact for linear fields, from the neighbours that particle has.
//
// The SPH gradient of a field A at particle i, sum_j V_j (A_j - A_i) grad_i W_ij, gives the exact
// gradient of a linear field only if the first moment M = sum_j V_j (x_j - x_i) (x) grad_i W_ij is
// the identity. With a complete kernel on the cubic lattice at h = 1.3 dp it is 0.979 I, and in
// water that has settled it is whatever the particles' arrangement makes it; the pressure gradient
// that holds the water up is then steeper than rho g by as much (validation/README.md, the tank).
// Under --gradient-correction Forces multiplies the part of the pressure force that differentiates
// the pressure by M^-1 (forces_body.h).
//
// Where the kernel is truncated (the free surface) M loses rank and M^-1 would magnify the missing
// neighbours' effect, so the correction fades out: fully applied where det M >=
// kGradientCorrectionFullDet, not at all where det M <= kGradientCorrectionNoDet, linearly in
// between. The water's inside and a wall's side keep a complete kernel (walls are particles too),
// the top two layers of the water do not.
//
// The correction uses particle i's neighbours alone, in list order: it keeps the bits the same
// on any device split. It does not make the pair forces antisymmetric, so momentum is conserved
// only up to the correction's departure from the identity (a few percent of the pressure force's
// gradient part).
#pragma once

#include "vec.h"

namespace sph {

struct SymmetricMatrix3 {
    float xx = 0.0f, yy = 0.0f, zz = 0.0f, xy = 0.0f, xz = 0.0f, yz = 0.0f;
};

// m += w r (x) r.
SPH_HD void add_outer_product(SymmetricMatrix3& m, float w, Vec3 r) {
    const Vec3 wr = w * r;
    m.xx += wr.x * r.x;
    m.yy += wr.y * r.y;
    m.zz += wr.z * r.z;
    m.xy += wr.x * r.y;
    m.xz += wr.x * r.z;
    m.yz += wr.y * r.z;
}

SPH_HD Vec3 operator*(const SymmetricMatrix3& m, Vec3 v) {
    return make_vec3(m.xx * v.x + m.xy * v.y + m.xz * v.z, m.xy * v.x + m.yy * v.y + m.yz * v.z,
                     m.xz * v.x + m.yz * v.y + m.zz * v.z);
}

constexpr float kGradientCorrectionFullDet = 0.85f;
constexpr float kGradientCorrectionNoDet = 0.6f;

// The correction for the first moment m: m^-1 blended with the identity by det m (above).
SPH_HD SymmetricMatrix3 gradient_correction(const SymmetricMatrix3& m) {
    // Cofactors of a symmetric matrix: the inverse's entries times det.
    const float cxx = m.yy * m.zz - m.yz * m.yz;
    const float cyy = m.xx * m.zz - m.xz * m.xz;
    const float czz = m.xx * m.yy - m.xy * m.xy;
    const float cxy = m.xz * m.yz - m.xy * m.zz;
    const float cxz = m.xy * m.yz - m.xz * m.yy;
    const float cyz = m.xy * m.xz - m.xx * m.yz;
    const float det = m.xx * cxx + m.xy * cxy + m.xz * cxz;
    SymmetricMatrix3 identity;
    identity.xx = identity.yy = identity.zz = 1.0f;
    if (!(det > kGradientCorrectionNoDet)) return identity;  // NaN too
    const float s = fminf(
        (det - kGradientCorrectionNoDet) / (kGradientCorrectionFullDet - kGradientCorrectionNoDet),
        1.0f);
    const float k = s / det;  // s m^-1 + (1 - s) I
    SymmetricMatrix3 c;
    c.xx = k * cxx + (1.0f - s);
    c.yy = k * cyy + (1.0f - s);
    c.zz = k * czz + (1.0f - s);
    c.xy = k * cxy;
    c.xz = k * cxz;
    c.yz = k * cyz;
    return c;
}

}  // namespace sph
