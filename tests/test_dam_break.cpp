// A short DamBreak run through the program's own entry point, with output read back by VTK. One
// test body, every back end.
#include <gtest/gtest.h>

#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/run_app.h"
#include "dam_break.h"
#include "driver/output_series.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

class DamBreakRun : public testing::EveryBackend {};

TEST_P(DamBreakRun, ShortRunAdvancesTheFrontAndWritesReadableOutput) {
    testing::TempDir dir("dambreak");
    DamBreak problem;
    const std::string out_dir = dir.path() + "/out";
    const std::string backend_name = to_string(backend());
    const char* argv[] = {"dambreak",     "--backend", backend_name.c_str(), "--dp", "0.05",
                          "--t-end",      "0.15",      "--output-every",     "0.05", "--output-dir",
                          out_dir.c_str()};
    std::ostringstream out, err;
    ASSERT_EQ(run_app(11, argv, problem, 0, out, err), 0) << err.str();

    // Four frames (t = 0, 0.05, 0.1, 0.15) listed in the .pvd, no temporary files left.
    const std::string pvd = out_dir + "/DamBreak.pvd";
    ASSERT_TRUE(std::filesystem::exists(pvd));
    std::ifstream in(pvd);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    int frames = 0;
    for (std::size_t at = text.find("<DataSet"); at != std::string::npos;
         at = text.find("<DataSet", at + 1)) {
        ++frames;
    }
    EXPECT_EQ(frames, 4);
    for (const auto& entry : std::filesystem::directory_iterator(out_dir)) {
        EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
    }
    EXPECT_TRUE(std::filesystem::exists(out_dir + "/run_report.json"));

    // The last frame holds every particle with finite fields, and the front has moved.
    auto reader = vtkSmartPointer<vtkXMLUnstructuredGridReader>::New();
    reader->SetFileName((out_dir + "/DamBreak_000003.vtu").c_str());
    reader->Update();
    vtkUnstructuredGrid* grid = reader->GetOutput();
    Simulation reference(problem, testing::small_run(0.05, 0.15, backend()), 0);
    const HostParticles initial = reference.particles();
    ASSERT_EQ(grid->GetNumberOfPoints(), vtkIdType(initial.size()));
    for (const char* name : {"velocity", "density", "pressure", "type", "id"}) {
        ASSERT_NE(grid->GetPointData()->GetArray(name), nullptr) << name;
    }
    vtkDataArray* type = grid->GetPointData()->GetArray("type");
    vtkDataArray* velocity = grid->GetPointData()->GetArray("velocity");
    double front = 1e9;
    int fluid = 0;
    for (vtkIdType i = 0; i < grid->GetNumberOfPoints(); ++i) {
        double x[3];
        grid->GetPoint(i, x);
        const double* v = velocity->GetTuple3(i);
        ASSERT_TRUE(std::isfinite(x[0] + x[1] + x[2] + v[0] + v[1] + v[2])) << "point " << i;
        if (type->GetTuple1(i) == kFluid) {
            front = std::min(front, x[0]);
            ++fluid;
        }
    }
    EXPECT_EQ(fluid, int(initial.count(kFluid)));
    // The column starts at x = 1.992 m and runs towards x = 0: after 0.15 s its toe has moved
    // well over 0.1 m (the shallow-water front speed is 2 sqrt(g H) = 4.6 m/s).
    EXPECT_LT(front, DamBreak::kWaterLo[0] - 0.1);
}

SPH_ON_EVERY_BACKEND(DamBreakRun);

// Six devices' pieces of each frame, written side by side (OutputSeries::kPiecesAtOnce at a
// time, so in two batches) and in the background: the frame's .pvtu reads back every particle
// once, each piece's particles marked with its own device.
TEST(DamBreakFrames, SixDevicesPiecesReadBackWhole) {
    static_assert(OutputSeries::kPiecesAtOnce < 6, "six pieces take two batches");
    testing::TempDir dir("dambreak_pieces");
    DamBreak problem;
    const std::string out_dir = dir.path() + "/out";
    const char* argv[] = {"dambreak", "--backend",    "cpu",          "--devices", "6",
                          "--dp",     "0.05",         "--t-end",      "0.1",       "--output-every",
                          "0.05",     "--output-dir", out_dir.c_str()};
    std::ostringstream out, err;
    ASSERT_EQ(run_app(13, argv, problem, 0, out, err), 0) << err.str();

    Simulation reference(problem, testing::small_run(0.05, 0.1, BackendChoice::kCpu), 0);
    const std::size_t particles = reference.particles().size();
    for (int frame = 0; frame < 3; ++frame) {
        const std::string stem = out_dir + "/DamBreak_00000" + std::to_string(frame);
        auto reader = vtkSmartPointer<vtkXMLPUnstructuredGridReader>::New();
        reader->SetFileName((stem + ".pvtu").c_str());
        reader->Update();
        vtkUnstructuredGrid* grid = reader->GetOutput();
        ASSERT_EQ(grid->GetNumberOfPoints(), vtkIdType(particles)) << stem;
        vtkDataArray* id = grid->GetPointData()->GetArray("id");
        vtkDataArray* device = grid->GetPointData()->GetArray("device");
        ASSERT_TRUE(id != nullptr && device != nullptr) << stem;
        std::vector<int> seen(particles, 0);
        std::vector<int> per_device(6, 0);
        for (vtkIdType i = 0; i < grid->GetNumberOfPoints(); ++i) {
            const auto k = static_cast<std::size_t>(id->GetTuple1(i));
            ASSERT_LT(k, particles) << stem;
            ++seen[k];
            const int d = int(device->GetTuple1(i));
            ASSERT_TRUE(d >= 0 && d < 6) << stem;
            ++per_device[std::size_t(d)];
        }
        EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(particles)) << stem;
        for (int d = 0; d < 6; ++d) {
            EXPECT_GT(per_device[std::size_t(d)], 0) << stem << " device " << d;
            auto piece = vtkSmartPointer<vtkXMLUnstructuredGridReader>::New();
            const std::string file = stem + "_d" + std::to_string(d) + ".vtu";
            piece->SetFileName(file.c_str());
            piece->Update();
            EXPECT_EQ(piece->GetOutput()->GetNumberOfPoints(), per_device[std::size_t(d)]) << file;
        }
    }
}

}  // namespace
}  // namespace sph
