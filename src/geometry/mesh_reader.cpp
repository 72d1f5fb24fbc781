// Mesh files through VTK's readers, behind cheap checks of our own: VTK's readers trust their
// input more than a fuzzer's bytes deserve, and report problems by printing them. Their messages
// are caught (an observer on the reader, and a string output window for the rest) and put into
// ours, so nothing reaches the terminal.
//
// Binary STL is read here: the format is fixed-size records, and VTK tells ASCII from binary by
// looking at the first bytes, which misreads a binary file whose header starts with "solid".
#include "geometry/mesh_reader.h"

#include <vtkAlgorithm.h>
#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkExecutive.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkOBJReader.h>
#include <vtkOutputWindow.h>
#include <vtkPLYReader.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolygon.h>
#include <vtkSTLReader.h>
#include <vtkSmartPointer.h>
#include <vtkStringOutputWindow.h>

#include <sys/stat.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "common/errors.h"
#include "geometry/mesh_file_checks.h"

namespace sph {
namespace {

constexpr std::uint64_t kStlHeaderBytes = 84, kStlRecordBytes = 50;

[[noreturn]] void refuse(const std::string& path, const std::string& problem) {
    throw OptionError("mesh " + path + ": " + problem);
}

std::string lower_extension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string extension = path.substr(dot);
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return extension;
}

std::string read_bytes(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) refuse(path, "no such file");
    if (!S_ISREG(info.st_mode)) refuse(path, "not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) refuse(path, "cannot be opened for reading");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) refuse(path, "reading it failed");
    if (bytes.empty()) refuse(path, "the file is empty");
    return bytes;
}

bool starts_with_word(const std::string& bytes, const char* word) {
    std::size_t i = 0;
    while (i < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i;
    return bytes.compare(i, std::strlen(word), word) == 0;
}

std::uint32_t binary_stl_count(const std::string& bytes) {
    std::uint32_t count = 0;
    std::memcpy(&count, bytes.data() + 80, 4);  // little-endian, as the format and the host
    return count;
}

bool is_binary_stl(const std::string& bytes) {
    return bytes.size() >= kStlHeaderBytes &&
           bytes.size() == kStlHeaderBytes + kStlRecordBytes * binary_stl_count(bytes);
}

void check_finite(const std::string& path, const Vec3d& p, std::size_t index) {
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
        refuse(path, "vertex " + std::to_string(index) + " has a coordinate that is not finite");
}

TriangleMesh read_binary_stl(const std::string& path, const std::string& bytes) {
    const std::uint32_t count = binary_stl_count(bytes);
    TriangleMesh mesh;
    mesh.vertices.reserve(3 * std::size_t{count});
    mesh.triangles.reserve(count);
    for (std::uint32_t t = 0; t < count; ++t) {
        // Each record: a normal (ignored: the corners' order says which way a triangle faces),
        // three corners of three floats, two attribute bytes.
        const char* record = bytes.data() + kStlHeaderBytes + kStlRecordBytes * t + 12;
        const int first = static_cast<int>(mesh.vertices.size());
        for (int k = 0; k < 3; ++k) {
            float xyz[3];
            std::memcpy(xyz, record + 12 * k, sizeof xyz);
            mesh.vertices.push_back(Vec3d{xyz[0], xyz[1], xyz[2]});
            check_finite(path, mesh.vertices.back(), mesh.vertices.size() - 1);
        }
        mesh.triangles.push_back({first, first + 1, first + 2});
    }
    return mesh;
}

// The first error VTK reported, reduced to its message ("... vtkSTLReader (0x..): message").
struct VtkErrors {
    std::string first;
    static void record(vtkObject*, unsigned long, void* client, void* call) {
        auto* errors = static_cast<VtkErrors*>(client);
        if (!errors->first.empty() || call == nullptr) return;
        std::string text = static_cast<const char*>(call);
        const auto marker = text.rfind("): ");
        if (marker != std::string::npos) text = text.substr(marker + 3);
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
            text.pop_back();
        std::replace(text.begin(), text.end(), '\n', ' ');
        errors->first = text;
    }
};

// VTK's output window replaced, for as long as this lives, by one that only collects: messages
// from objects without an observer (the pipeline's executives, generic warnings) go there.
class CapturedVtkOutput {
public:
    CapturedVtkOutput() : previous_(vtkOutputWindow::GetInstance()) {
        vtkOutputWindow::SetInstance(capture_);
    }
    ~CapturedVtkOutput() { vtkOutputWindow::SetInstance(previous_); }
    CapturedVtkOutput(const CapturedVtkOutput&) = delete;
    CapturedVtkOutput& operator=(const CapturedVtkOutput&) = delete;
    std::string text() const { return capture_->GetOutput(); }

private:
    vtkSmartPointer<vtkOutputWindow> previous_;
    vtkNew<vtkStringOutputWindow> capture_;
};

void observe(vtkObject* object, vtkCallbackCommand* callback) {
    object->AddObserver(vtkCommand::ErrorEvent, callback);
    object->AddObserver(vtkCommand::WarningEvent, callback);
}

vtkSmartPointer<vtkAlgorithm> vtk_reader_for(const std::string& extension, const char* path) {
    if (extension == ".stl") {
        auto reader = vtkSmartPointer<vtkSTLReader>::New();
        reader->SetFileName(path);
        reader->MergingOff();  // welding is done by exact coordinates (mesh_topology.h)
        return reader;
    }
    if (extension == ".obj") {
        auto reader = vtkSmartPointer<vtkOBJReader>::New();
        reader->SetFileName(path);
        return reader;
    }
    auto reader = vtkSmartPointer<vtkPLYReader>::New();
    reader->SetFileName(path);
    return reader;
}

// Polygons split into triangles: ear clipping by vtkPolygon (CommonDataModel; the build links
// no filters library for vtkTriangleFilter). Lines, vertices and strips are left out: the
// readers give faces as polygons.
void add_polygon(const std::string& path, const vtkIdType* corners, vtkIdType count,
                 vtkPoints* points, vtkPolygon* polygon, vtkIdList* split, TriangleMesh& mesh) {
    const vtkIdType point_count = points->GetNumberOfPoints();
    for (vtkIdType k = 0; k < count; ++k)
        if (corners[k] < 0 || corners[k] >= point_count)
            refuse(path, "a face refers to a vertex that is not in the file");
    if (count < 3) return;
    if (count == 3) {
        mesh.triangles.push_back({static_cast<int>(corners[0]), static_cast<int>(corners[1]),
                                  static_cast<int>(corners[2])});
        return;
    }
    polygon->GetPointIds()->SetNumberOfIds(count);
    polygon->GetPoints()->SetNumberOfPoints(count);
    for (vtkIdType k = 0; k < count; ++k) {
        polygon->GetPointIds()->SetId(k, corners[k]);
        polygon->GetPoints()->SetPoint(k, points->GetPoint(corners[k]));
    }
    split->Reset();
    if (polygon->Triangulate(split) == 0) return;  // a polygon without area: no triangles
    for (vtkIdType i = 0; i + 2 < split->GetNumberOfIds(); i += 3)
        mesh.triangles.push_back({static_cast<int>(corners[split->GetId(i)]),
                                  static_cast<int>(corners[split->GetId(i + 1)]),
                                  static_cast<int>(corners[split->GetId(i + 2)])});
}

TriangleMesh triangles_of(const std::string& path, vtkPolyData* data) {
    TriangleMesh mesh;
    vtkPoints* points = data != nullptr ? data->GetPoints() : nullptr;
    vtkCellArray* polys = data != nullptr ? data->GetPolys() : nullptr;
    if (points == nullptr || polys == nullptr) return mesh;
    const vtkIdType point_count = points->GetNumberOfPoints();
    mesh.vertices.resize(static_cast<std::size_t>(point_count));
    for (vtkIdType i = 0; i < point_count; ++i) {
        points->GetPoint(i, mesh.vertices[static_cast<std::size_t>(i)].data());
        check_finite(path, mesh.vertices[static_cast<std::size_t>(i)], static_cast<std::size_t>(i));
    }
    vtkNew<vtkPolygon> polygon;
    vtkNew<vtkIdList> split;
    vtkIdType corner_count = 0;
    const vtkIdType* corners = nullptr;
    for (polys->InitTraversal(); polys->GetNextCell(corner_count, corners);)
        add_polygon(path, corners, corner_count, points, polygon, split, mesh);
    return mesh;
}

TriangleMesh read_with_vtk(const std::string& path, const std::string& extension) {
    CapturedVtkOutput quiet;
    VtkErrors errors;
    vtkNew<vtkCallbackCommand> callback;
    callback->SetCallback(&VtkErrors::record);
    callback->SetClientData(&errors);
    auto reader = vtk_reader_for(extension, path.c_str());
    observe(reader, callback);
    observe(reader->GetExecutive(), callback);  // "Algorithm ... returned failure"
    reader->Update();
    if (errors.first.empty() && !quiet.text().empty() &&
        quiet.text().find("ERROR") != std::string::npos) {
        VtkErrors::record(nullptr, 0, &errors, const_cast<char*>(quiet.text().c_str()));
    }
    if (!errors.first.empty()) refuse(path, "cannot be read: " + errors.first);
    return triangles_of(path, vtkPolyData::SafeDownCast(reader->GetOutputDataObject(0)));
}

TriangleMesh read_any(const std::string& path, const std::string& extension) {
    const std::string bytes = read_bytes(path);
    if (extension == ".stl") {
        if (is_binary_stl(bytes)) return read_binary_stl(path, bytes);
        // VTK reads a file with any byte that is not text as binary, trusting its count.
        const auto binary_byte = std::find_if(bytes.begin(), bytes.end(), [](char c) {
            return !std::isprint(static_cast<unsigned char>(c)) && c != '\t' && c != '\r' &&
                   c != '\n';
        });
        if (!starts_with_word(bytes, "solid") || binary_byte != bytes.end()) {
            if (bytes.size() < kStlHeaderBytes)
                refuse(path, "neither an ASCII STL (text beginning 'solid') nor a binary STL (" +
                                 std::to_string(bytes.size()) +
                                 " bytes, fewer than its 84-byte header)");
            refuse(path, "truncated binary STL: header says " +
                             std::to_string(binary_stl_count(bytes)) + " triangles, file holds " +
                             std::to_string(bytes.size()) + " bytes (needs 84 + 50 per triangle)");
        }
    }
    if (extension == ".stl") check_text_vertices(path, bytes, "vertex");
    if (extension == ".obj") check_text_vertices(path, bytes, "v");
    if (extension == ".obj") check_obj_references(path, bytes);
    if (extension == ".ply") check_ply_header(path, bytes);
    return read_with_vtk(path, extension);
}

}  // namespace

TriangleMesh read_mesh(const std::string& path, const Transform& transform) {
    const std::string extension = lower_extension(path);
    if (extension != ".stl" && extension != ".obj" && extension != ".ply")
        refuse(path,
               "unknown kind of mesh file '" + extension + "' (known: .stl, .obj, .ply; any case)");
    TriangleMesh mesh = read_any(path, extension);
    if (mesh.triangles.empty()) refuse(path, "holds no triangles");
    if (!transform.identity())
        for (Vec3d& vertex : mesh.vertices) vertex = transform.apply(vertex);
    mesh.source = path;
    return mesh;
}

ClosedSolid read_closed_solid(const std::string& path, const Transform& transform) {
    return make_closed_solid(read_mesh(path, transform), path);
}

}  // namespace sph
