// Small vector types and arithmetic shared by host and device code.
//
// We define our own Vec3/Vec4 instead of CUDA's float3/float4 so that the CPU back end builds
// without the CUDA toolkit and both back ends see one layout. Vec4 is 16-byte aligned so that the
// CUDA compiler loads it with one 128-bit instruction.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define SPH_HD __host__ __device__ __forceinline__
#else
#define SPH_HD inline
#endif

// Unrolls the next loop on the GPU (where a loop over a small array indexed by its counter keeps
// the array in registers only once unrolled); the host compiler sees nothing.
#if defined(__CUDA_ARCH__)
#define SPH_UNROLL _Pragma("unroll")
#else
#define SPH_UNROLL
#endif

namespace sph {

struct Vec3 {
    float x, y, z;
};

struct alignas(16) Vec4 {
    float x, y, z, w;
};

SPH_HD Vec3 make_vec3(float x, float y, float z) {
    return Vec3{x, y, z};
}
SPH_HD Vec4 make_vec4(float x, float y, float z, float w) {
    return Vec4{x, y, z, w};
}
SPH_HD Vec3 xyz(const Vec4& v) {
    return Vec3{v.x, v.y, v.z};
}

SPH_HD Vec3 operator+(Vec3 a, Vec3 b) {
    return Vec3{a.x + b.x, a.y + b.y, a.z + b.z};
}
SPH_HD Vec3 operator-(Vec3 a, Vec3 b) {
    return Vec3{a.x - b.x, a.y - b.y, a.z - b.z};
}
SPH_HD Vec3 operator*(float s, Vec3 a) {
    return Vec3{s * a.x, s * a.y, s * a.z};
}
SPH_HD Vec3 cross(Vec3 a, Vec3 b) {
    return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
SPH_HD Vec3& operator+=(Vec3& a, Vec3 b) {
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
    return a;
}
SPH_HD float dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
SPH_HD float length_squared(Vec3 a) {
    return dot(a, a);
}

// isfinite lives in std:: on the host and in the global namespace on the device.
SPH_HD bool is_finite(float x) {
#if defined(__CUDA_ARCH__)
    return isfinite(x);
#else
    return std::isfinite(x);
#endif
}

}  // namespace sph
