#include "host_particles.h"

#include <algorithm>

#include "tait.h"

namespace sph {

void HostParticles::resize(std::size_t n) {
    pos.resize(n);
    velrho.resize(n);
    id.resize(n);
    type.resize(n);
}

void HostParticles::add(Vec3 position, Vec3 velocity, float density, ParticleType particle_type) {
    id.push_back(static_cast<std::uint32_t>(pos.size()));
    pos.push_back(make_vec4(position.x, position.y, position.z, 0.0f));
    velrho.push_back(make_vec4(velocity.x, velocity.y, velocity.z, density));
    type.push_back(particle_type);
}

std::size_t HostParticles::count(ParticleType particle_type) const {
    return static_cast<std::size_t>(std::count(type.begin(), type.end(), particle_type));
}

std::vector<float> pressures(const HostParticles& particles, const SphParams& params) {
    std::vector<float> p(particles.size());
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = tait_pressure(particles.velrho[i].w, params);
    return p;
}

ParticleFields fields_of(const HostParticles& particles, const std::vector<float>& pressure) {
    ParticleFields f;
    f.count = particles.size();
    f.position = particles.pos.data();
    f.velocity_density = particles.velrho.data();
    f.pressure = pressure.data();
    f.id = particles.id.data();
    f.type = particles.type.data();
    return f;
}

}  // namespace sph
