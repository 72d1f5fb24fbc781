// A case's shapes made solid: boxes as they are, meshes read and checked closed
// (geometry/mesh_reader.h), terrain rasters read (geometry/raster_reader.h); paths relative to the
// case file.
#pragma once

#include <memory>
#include <string>

#include "cases/case_description.h"
#include "geometry/shape.h"

namespace sph {

// Throws OptionError naming the case file's line and the mesh's or raster's problem.
std::unique_ptr<Shape> load_case_shape(const CaseShape& shape, const std::string& case_path);

// `path` as written in the case file at `case_path`: absolute, or relative to the case's folder.
std::string case_relative_path(const std::string& path, const std::string& case_path);

}  // namespace sph
