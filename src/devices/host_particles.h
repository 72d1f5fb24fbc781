// Particles held on the host in the particle record's layout: set-up fills them, devices upload
// and download them, output and instruments read them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "particle_record.h"
#include "particle_type.h"
#include "sph_params.h"
#include "vec.h"

namespace sph {

template <class T>
using HostVector = std::vector<T>;

struct HostParticles : ParticleRecord<HostVector> {
    std::size_t size() const { return pos.size(); }
    void resize(std::size_t n);
    // Appends a particle whose id is its index at set-up; `to_ghost`: a wall particle's offset to
    // its mDBC ghost node.
    void add(Vec3 position, Vec3 velocity, float density, ParticleType particle_type,
             Vec3 to_ghost = Vec3{0.0f, 0.0f, 0.0f});
    // Appends particle i of `from`, every field.
    void append(const HostParticles& from, std::size_t i);
    // Appends every particle of `from`.
    void append(const HostParticles& from);
    std::size_t count(ParticleType particle_type) const;
};

// The particles of `parts`, one after the other.
HostParticles joined(const std::vector<HostParticles>& parts);

// Tait pressure of every particle, for output.
std::vector<float> pressures(const HostParticles& particles, const SphParams& params);

}  // namespace sph
