#include "cases/case_shapes.h"

#include <cmath>
#include <filesystem>
#include <optional>

#include <iostream>

#include "common/errors.h"
#include "geometry/box_shape.h"
#include "geometry/mesh_reader.h"
#include "geometry/mesh_shape.h"
#include "geometry/raster_reader.h"
#include "geometry/terrain.h"

namespace sph {

std::string case_relative_path(const std::string& path, const std::string& case_path) {
    const std::filesystem::path p(path);
    if (p.is_absolute()) return path;
    return (std::filesystem::path(case_path).parent_path() / p).lexically_normal().string();
}

std::unique_ptr<Shape> load_case_shape(const CaseShape& shape, const std::string& case_path) {
    if (shape.kind == CaseShape::Kind::kBox) return std::make_unique<BoxShape>(shape.box);
    const std::string path = case_relative_path(shape.path, case_path);
    // The readers name the file; the line that named the file is added here.
    try {
        if (shape.kind == CaseShape::Kind::kMesh) {
            ClosedSolid solid = read_closed_solid(path, shape.transform);
            if (!solid.note.empty()) std::cerr << shape.place.text() << ": " << solid.note << "\n";
            return std::make_unique<MeshShape>(std::move(solid));
        }
        RasterWindow window;
        window.column_offset = static_cast<int>(shape.window[0]);
        window.row_offset = static_cast<int>(shape.window[1]);
        window.columns = static_cast<int>(shape.window[2]);
        window.rows = static_cast<int>(shape.window[3]);
        std::optional<double> base;
        if (!std::isnan(shape.base)) base = shape.base;
        return std::make_unique<TerrainShape>(read_elevation_raster(path, window, shape.stride),
                                              shape.transform, base);
    } catch (const OptionError& e) {
        throw OptionError(shape.place.text() + ": " + e.what());
    }
}

}  // namespace sph
