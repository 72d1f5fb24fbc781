// One particle piece as a VTK XML unstructured grid (.vtu) that ParaView reads directly.
#pragma once

#include <string>

#include "particle_fields.h"

namespace sph {

// Writes `fields` to `path`: points = positions, one VTK_VERTEX cell per particle (ParaView
// shows no points without cells), point arrays "velocity", "density", "pressure", "type", "id"
// and, when fields.device is set, "device". Appended raw binary, zlib-compressed.
// Atomic: the data goes to `path + ".tmp"` first and is renamed over `path`, so readers never
// see a half-written file. Throws std::runtime_error naming `path` on any failure, and
// std::invalid_argument if a required array is null.
void write_vtu(const std::string& path, const ParticleFields& fields);

}  // namespace sph
