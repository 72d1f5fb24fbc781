// Cheap checks of a mesh file's bytes before VTK's readers see them: those readers trust their
// input and crash, loop or allocate without bound on much that is wrong (the mesh reader's
// fuzzer found eleven such inputs: fuzz/corpus/mesh_reader/finding-*). Each refuses with an
// OptionError naming the file ("mesh PATH: ...").
#pragma once

#include <string>

namespace sph {

// The vertex lines of a text format ("v" in OBJ, "vertex" in ASCII STL) hold finite numbers:
// VTK's OBJ reader reads "nan" and "inf" as 0.
void check_text_vertices(const std::string& path, const std::string& bytes, const char* keyword);
// Every reference of an OBJ file's "f", "l" and "p" lines names an existing v, vt or vn.
void check_obj_references(const std::string& path, const std::string& bytes);
// A PLY file's header VTK understands, counts its bytes can hold, data as the header promises.
void check_ply_header(const std::string& path, const std::string& bytes);

}  // namespace sph
