#include "vtu_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCellType.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnsignedIntArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

namespace sph {
namespace {

// Contiguous host arrays are handed to VTK without a copy. VTK wants a non-const pointer, but
// the writer only reads, and save=1 keeps VTK from freeing memory it does not own.
template <class VtkArray, class T>
void add_borrowed(vtkPointData* pd, const char* name, const T* data, std::size_t count) {
    vtkNew<VtkArray> array;
    array->SetName(name);
    array->SetArray(const_cast<T*>(data), static_cast<vtkIdType>(count), 1);
    pd->AddArray(array);
}

// Collects VTK's error text so that the exception can carry it. Observing ErrorEvent also
// stops VTK from logging the error to stderr itself; with a null client_data it only silences
// (the pipeline's follow-up error is a long, unhelpful dump of request information).
void on_vtk_error(vtkObject*, unsigned long, void* client_data, void* call_data) {
    auto* message = static_cast<std::string*>(client_data);
    if (message != nullptr && call_data != nullptr) {
        std::string text = static_cast<const char*>(call_data);
        // Keep only the message: drop the "ERROR: In file, line N" and "class (0x...): " parts.
        if (text.rfind("ERROR: In ", 0) == 0 && text.find('\n') != std::string::npos) {
            text.erase(0, text.find('\n') + 1);
        }
        if (text.find("): ") != std::string::npos) {
            text.erase(0, text.find("): ") + 3);
        }
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
            text.pop_back();
        }
        *message += (message->empty() ? "" : "; ") + text;
    }
}

// Positions as VTK points, and velocities and densities as point arrays: Vec4 has a stride of
// 4 floats, so they are repacked.
struct RepackedFields {
    vtkNew<vtkPoints> points;
    vtkNew<vtkFloatArray> velocity, density;
};

void repack(const ParticleFields& fields, RepackedFields& out) {
    const std::size_t n = fields.count;
    const auto vn = static_cast<vtkIdType>(n);
    vtkNew<vtkFloatArray> coords;
    coords->SetNumberOfComponents(3);
    coords->SetNumberOfTuples(vn);
    out.velocity->SetName("velocity");
    out.velocity->SetNumberOfComponents(3);
    out.velocity->SetNumberOfTuples(vn);
    out.density->SetName("density");
    out.density->SetNumberOfTuples(vn);
    float* c = coords->GetPointer(0);
    float* v = out.velocity->GetPointer(0);
    float* rho = out.density->GetPointer(0);
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3& p = fields.position[i];
        const Vec4& vd = fields.velocity_density[i];
        c[3 * i] = p.x;
        c[3 * i + 1] = p.y;
        c[3 * i + 2] = p.z;
        v[3 * i] = vd.x;
        v[3 * i + 1] = vd.y;
        v[3 * i + 2] = vd.z;
        rho[i] = vd.w;
    }
    out.points->SetData(coords);
}

// One vertex cell per point. Building the offsets/connectivity arrays directly avoids one
// InsertNextCell per particle.
void add_vertex_cells(vtkUnstructuredGrid* grid, std::size_t n) {
    const auto vn = static_cast<vtkIdType>(n);
    vtkNew<vtkIdTypeArray> offsets;
    offsets->SetNumberOfTuples(vn + 1);
    std::iota(offsets->GetPointer(0), offsets->GetPointer(0) + n + 1, vtkIdType{0});
    vtkNew<vtkIdTypeArray> connectivity;
    connectivity->SetNumberOfTuples(vn);
    std::iota(connectivity->GetPointer(0), connectivity->GetPointer(0) + n, vtkIdType{0});
    vtkNew<vtkCellArray> cells;
    cells->SetData(offsets, connectivity);
    grid->SetCells(VTK_VERTEX, cells);
}

// Writes `grid` to `tmp` (appended raw data, zlib, 64-bit headers); throws naming `path` with
// VTK's reason, leaving no file behind.
void write_grid(vtkUnstructuredGrid* grid, const std::string& tmp, const std::string& path) {
    std::string vtk_error;
    vtkNew<vtkCallbackCommand> error_observer;
    error_observer->SetCallback(on_vtk_error);
    error_observer->SetClientData(&vtk_error);
    vtkNew<vtkCallbackCommand> error_silencer;
    error_silencer->SetCallback(on_vtk_error);

    vtkNew<vtkXMLUnstructuredGridWriter> writer;
    writer->AddObserver(vtkCommand::ErrorEvent, error_observer);
    writer->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, error_silencer);
    writer->SetFileName(tmp.c_str());
    writer->SetInputData(grid);
    writer->SetDataModeToAppended();
    writer->EncodeAppendedDataOff();  // raw bytes: base64 would cost a third more space
    writer->SetCompressorTypeToZLib();
    // zlib's fastest level: particle data (floats) compress little at any level, so the frames
    // come within 1 % of the default level's size and are written about twice as fast
    // (bench/NOTES.md entry 38).
    writer->SetCompressionLevel(1);
    writer->SetHeaderTypeToUInt64();  // block sizes beyond 4 GiB for large runs
    // VTK 9.1's Write() returns 1 even when the file cannot be opened or the disk fills up;
    // only the error code tells. Renaming such a file into place would publish a broken one.
    const int ok = writer->Write();
    const unsigned long code = writer->GetErrorCode();
    if (ok == 0 || code != vtkErrorCode::NoError || !vtk_error.empty()) {
        std::remove(tmp.c_str());
        if (vtk_error.empty()) {  // a full disk sets the code without any error message
            vtk_error = vtkErrorCode::GetStringFromErrorCode(code);
        }
        throw std::runtime_error("write_vtu: cannot write " + path +
                                 (vtk_error.empty() ? "" : ": " + vtk_error));
    }
}

}  // namespace

void write_vtu(const std::string& path, const ParticleFields& fields) {
    const std::size_t n = fields.count;
    if (n > 0 && (!fields.position || !fields.velocity_density || !fields.pressure || !fields.id ||
                  !fields.type)) {
        throw std::invalid_argument("write_vtu(" + path + "): a required particle array is null");
    }
    RepackedFields repacked;
    repack(fields, repacked);
    vtkNew<vtkUnstructuredGrid> grid;
    grid->SetPoints(repacked.points);
    add_vertex_cells(grid, n);
    vtkPointData* pd = grid->GetPointData();
    pd->AddArray(repacked.velocity);
    pd->AddArray(repacked.density);
    add_borrowed<vtkFloatArray>(pd, "pressure", fields.pressure, n);
    add_borrowed<vtkUnsignedCharArray>(pd, "type", fields.type, n);
    add_borrowed<vtkUnsignedIntArray>(pd, "id", fields.id, n);
    if (fields.device != nullptr) {
        add_borrowed<vtkIntArray>(pd, "device", fields.device, n);
    }

    const std::string tmp = path + ".tmp";
    write_grid(grid, tmp, path);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(tmp.c_str());
        throw std::runtime_error("write_vtu: cannot rename " + tmp + " to " + path + ": " + reason);
    }
}

}  // namespace sph
