#include "devices/host_particles.h"

#include <algorithm>

#include "tait.h"

namespace sph {

void HostParticles::resize(std::size_t n) {
    for_each_field([n](auto, auto& array) { array.resize(n); }, *this);
}

void HostParticles::add(FixedPos position, Vec3 velocity, float density, ParticleType particle_type,
                        Vec3 to_ghost) {
    id.push_back(static_cast<std::uint32_t>(pos.size()));
    position.w = float(particle_type);
    pos.push_back(position);
    velrho.push_back(make_vec4(velocity.x, velocity.y, velocity.z, density));
    type.push_back(particle_type);
    this->to_ghost.push_back(to_ghost);
}

void HostParticles::append(const HostParticles& from, std::size_t i) {
    for_each_field([i](auto, auto& to, const auto& source) { to.push_back(source[i]); }, *this,
                   from);
}

void HostParticles::append(const HostParticles& from) {
    for_each_field([](auto, auto& to,
                      const auto& source) { to.insert(to.end(), source.begin(), source.end()); },
                   *this, from);
}

HostParticles joined(const std::vector<HostParticles>& parts) {
    HostParticles all;
    if (!parts.empty()) all.frame = parts.front().frame;
    for (const HostParticles& part : parts) all.append(part);
    return all;
}

std::size_t HostParticles::count(ParticleType particle_type) const {
    return static_cast<std::size_t>(std::count(type.begin(), type.end(), particle_type));
}

std::vector<float> pressures(const HostParticles& particles, const SphParams& params) {
    std::vector<float> p(particles.size());
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = tait_pressure(particles.velrho[i].w, params);
    return p;
}

}  // namespace sph
