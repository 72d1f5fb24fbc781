// Mesh files read through VTK (geometry/mesh_reader.h): every format to the same solid, the
// transform, and bad files refused naming the file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>

#include "common/errors.h"
#include "geometry/mesh_bvh.h"
#include "geometry/mesh_reader.h"
#include "geometry/mesh_shape.h"
#include "geometry/mesh_topology.h"
#include "mesh_samples.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace testing;  // the mesh samples

TEST(MeshReader, EveryFormatReadsToTheSameSolid) {
    const testing::TempDir dir("mesh_formats");
    const TriangleMesh sphere = icosphere(1.0, 2);
    const double volume = signed_volume(sphere);
    const std::string base = dir.path() + "/sphere";
    write_stl_ascii(sphere, base + "_ascii.stl");
    write_stl_binary(sphere, base + "_binary.STL");
    write_obj(sphere, base + ".obj");
    write_ply(sphere, base + ".Ply");
    for (const std::string name : {"_ascii.stl", "_binary.STL", ".obj", ".Ply"}) {
        const TriangleMesh mesh = read_mesh(base + name, Transform{});
        EXPECT_EQ(mesh.source, base + name);
        const ClosedSolid solid = make_closed_solid(mesh, mesh.source);
        EXPECT_EQ(solid.mesh.triangles.size(), sphere.triangles.size()) << name;
        EXPECT_EQ(solid.note, "") << name;
        EXPECT_NEAR(signed_volume(solid.mesh), volume, 1e-6) << name;
    }
}

TEST(MeshReader, TransformScalesRotatesAndMoves) {
    const testing::TempDir dir("mesh_transform");
    const std::string path = dir.path() + "/cube_mm.stl";
    write_stl_binary(unit_cube(), path);
    Transform transform;
    transform.scale = 0.001;
    transform.rotate_deg = {0, 0, 90};
    transform.translate = {1, 2, 3};
    const MeshShape cube(make_closed_solid(read_mesh(path, transform), path));
    EXPECT_NEAR(signed_volume(cube.bvh().mesh()), 1e-9, 1e-20);
    const Box box = cube.bounds();
    const double lo[3] = {0.999, 2.0, 3.0}, hi[3] = {1.0, 2.001, 3.001};
    for (int axis = 0; axis < 3; ++axis) {
        EXPECT_NEAR(box.lo[axis], lo[axis], 1e-12);
        EXPECT_NEAR(box.hi[axis], hi[axis], 1e-12);
    }
    EXPECT_TRUE(cube.inside({0.9995, 2.0005, 3.0005}));
    EXPECT_EQ(cube.describe(), "mesh " + path);
}

void expect_refused(const std::string& path, const std::string& problem) {
    try {
        read_mesh(path, Transform{});
        ADD_FAILURE() << path << " was accepted";
    } catch (const OptionError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_NE(message.find(problem), std::string::npos) << message;
    }
}

TEST(MeshReader, BadFilesAreRefusedNamingTheFile) {
    const testing::TempDir dir("mesh_bad");
    const std::string d = dir.path() + "/";
    write_stl_binary(unit_cube(), d + "whole.stl");
    std::string bytes;
    {
        std::ifstream in(d + "whole.stl", std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    write_text(d + "truncated.stl", "xx" + bytes.substr(2, bytes.size() - 30));
    expect_refused(d + "truncated.stl", "truncated binary STL: header says 12 triangles");
    for (const char* name : {"empty.stl", "empty.obj", "empty.ply"}) {
        write_text(d + name, "");
        expect_refused(d + name, "empty");
    }
    const std::string garbage = "this is not a mesh\n\x01\x02 at all {}\n";
    for (const char* name : {"garbage.stl", "garbage.obj", "garbage.ply"}) {
        write_text(d + name, garbage);
        expect_refused(d + name, "");
    }
    write_text(d + "solid_garbage.stl", "solid x\n facet normal what\n");
    expect_refused(d + "solid_garbage.stl", "");
    write_text(d + "shape.3ds", garbage);
    expect_refused(d + "shape.3ds", "known: .stl, .obj, .ply");
    expect_refused(d + "missing.stl", "no such file");
    write_text(d + "nan.obj", "v 0 0 0\nv 1 0 0\nv nan 1 0\nf 1 2 3\n");
    expect_refused(d + "nan.obj", "vertex 2 has a coordinate that is not finite");
    write_text(d + "points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
    expect_refused(d + "points.obj", "holds no triangles");
    write_text(d + "bad_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
    expect_refused(d + "bad_index.obj", "");
    write_text(d + "bad_index.ply",
               "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
               "property float z\nelement face 1\nproperty list uchar int vertex_indices\n"
               "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n");
    expect_refused(d + "bad_index.ply", "a PLY face refers to vertex 7 of 3");
}

TEST(MeshReader, NanInABinaryStlIsRefused) {
    const testing::TempDir dir("mesh_nan");
    TriangleMesh cube = unit_cube();
    cube.vertices[5][1] = std::nan("");
    const std::string path = dir.path() + "/nan.stl";
    write_stl_binary(cube, path);
    expect_refused(path, "not finite");
}

// Every input the mesh reader's fuzzer keeps (its seeds and the findings that crashed VTK before
// the checks that now refuse them), read as the fuzzer reads it: the first byte picks the kind.
// Each gives a mesh or is refused; none crashes the suite.
TEST(MeshReader, EveryFuzzCorpusInputIsReadOrRefused) {
    const TempDir dir("mesh_corpus");
    const char* const extensions[] = {".stl", ".obj", ".ply"};
    int inputs = 0, refused = 0;
    for (const auto& entry : std::filesystem::directory_iterator(SPH_FUZZ_CORPUS "/mesh_reader")) {
        const std::string bytes = read_text(entry.path().string());
        if (bytes.empty()) continue;
        const std::string path = dir.path() + "/input" + extensions[std::uint8_t(bytes[0]) % 3];
        write_text(path, bytes.substr(1));
        ++inputs;
        try {
            (void)make_closed_solid(read_mesh(path, Transform{}), path);
        } catch (const OptionError& e) {
            ++refused;
            EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        }
    }
    EXPECT_GE(inputs, 17);
    EXPECT_GE(refused, 12);  // every finding
}

}  // namespace
}  // namespace sph
