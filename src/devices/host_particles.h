// Particles held on the host in the particle record's layout: set-up fills them, devices upload
// and download them, output and instruments read them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fixed_position.h"
#include "particle_record.h"
#include "particle_type.h"
#include "sph_params.h"
#include "vec.h"

namespace sph {

template <class T>
using HostVector = std::vector<T>;

struct HostParticles : ParticleRecord<HostVector> {
    // How pos holds the positions (kernels/fixed_position.h): a run's is its grid's.
    PositionFrame frame = default_position_frame();

    std::size_t size() const { return pos.size(); }
    void resize(std::size_t n);
    // Appends a particle whose id is its index at set-up; `to_ghost`: a wall particle's offset to
    // its mDBC ghost node. The position's w is set from the type.
    void add(FixedPos position, Vec3 velocity, float density, ParticleType particle_type,
             Vec3 to_ghost = Vec3{0.0f, 0.0f, 0.0f});
    // The same at `position` [m], held to the nearest step of the frame.
    void add(Vec3 position, Vec3 velocity, float density, ParticleType particle_type,
             Vec3 to_ghost = Vec3{0.0f, 0.0f, 0.0f}) {
        add(frame.fixed(position), velocity, density, particle_type, to_ghost);
    }
    // Particle i's position [m], to a float's precision, and in double.
    Vec3 position(std::size_t i) const { return frame.metres(pos[i]); }
    void position(std::size_t i, double out[3]) const { frame.metres(pos[i], out); }
    // Appends particle i of `from`, every field.
    void append(const HostParticles& from, std::size_t i);
    // Appends every particle of `from`.
    void append(const HostParticles& from);
    std::size_t count(ParticleType particle_type) const;
};

// The particles of `parts`, one after the other (all in the first part's frame).
HostParticles joined(const std::vector<HostParticles>& parts);

// Tait pressure of every particle, for output.
std::vector<float> pressures(const HostParticles& particles, const SphParams& params);

}  // namespace sph
