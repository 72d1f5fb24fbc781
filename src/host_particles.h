// The global particle system on the host: set-up fills it, output reads it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "particle_fields.h"
#include "particle_type.h"
#include "sph_params.h"
#include "vec.h"

namespace sph {

struct HostParticles {
    std::vector<Vec4> pos;     // x, y, z [m]; w unused
    std::vector<Vec4> velrho;  // vx, vy, vz [m/s]; w = density [kg/m^3]
    std::vector<std::uint32_t> id;
    std::vector<std::uint8_t> type;

    std::size_t size() const { return pos.size(); }
    void resize(std::size_t n);
    // Appends a particle whose id is its index at set-up.
    void add(Vec3 position, Vec3 velocity, float density, ParticleType particle_type);
    std::size_t count(ParticleType particle_type) const;
};

// Tait pressure of every particle, for output.
std::vector<float> pressures(const HostParticles& particles, const SphParams& params);

// A view for the output writers; `pressure` must outlive it.
ParticleFields fields_of(const HostParticles& particles, const std::vector<float>& pressure);

}  // namespace sph
