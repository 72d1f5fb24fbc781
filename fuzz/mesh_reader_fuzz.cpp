// libFuzzer target: the mesh reader (geometry/mesh_reader.h) and the checks of a solid
// (geometry/mesh_topology.h). The first byte picks the kind (.stl, .obj, .ply), the rest is the
// file. Whatever the bytes, it either gives a mesh or throws an OptionError (a
// std::invalid_argument) naming the file; anything else (another exception, a crash, a hang, a
// leak, an overflow) is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "geometry/mesh_reader.h"
#include "geometry/mesh_topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const char* const extensions[] = {".stl", ".obj", ".ply"};
    const std::string path =
        "/tmp/sph_mesh_fuzz_" + std::to_string(::getpid()) + extensions[data[0] % 3];
    if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data + 1, 1, size - 1, f);
        std::fclose(f);
    } else {
        return 0;
    }
    try {
        const sph::TriangleMesh mesh = sph::read_mesh(path, sph::Transform{});
        (void)sph::make_closed_solid(mesh, path);
    } catch (const std::invalid_argument&) {
        // Refused, naming the file: what bad input must get.
    }
    std::remove(path.c_str());
    return 0;
}
