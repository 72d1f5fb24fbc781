// Round-trips the output writers through VTK's own readers, which is what ParaView uses.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include "pvd_series.h"
#include "pvtu_writer.h"
#include "vtu_writer.h"

namespace fs = std::filesystem;

namespace sph {
namespace {

// Owns the arrays a ParticleFields borrows; values are distinct per particle and per field so
// that a swapped or shifted array cannot pass.
struct HostParticles {
    std::vector<Vec3> position;
    std::vector<Vec4> velocity_density;
    std::vector<float> pressure;
    std::vector<std::uint32_t> id;
    std::vector<std::uint8_t> type;
    std::vector<std::int32_t> device;

    HostParticles(std::size_t n, std::uint32_t first_id, std::int32_t dev) {
        for (std::size_t i = 0; i < n; ++i) {
            const float f = static_cast<float>(i);
            position.push_back(make_vec3(0.5f * f, 1.0f + f, -2.0f * f));
            velocity_density.push_back(make_vec4(0.1f * f, -0.2f * f, 0.3f + f, 1000.0f + f));
            pressure.push_back(101325.0f + 7.0f * f);
            id.push_back(first_id + static_cast<std::uint32_t>(i));
            type.push_back(static_cast<std::uint8_t>(i % 2));
            device.push_back(dev);
        }
    }

    ParticleFields fields(bool with_device) const {
        ParticleFields f;
        f.count = position.size();
        f.position = position.data();
        f.velocity_density = velocity_density.data();
        f.pressure = pressure.data();
        f.id = id.data();
        f.type = type.data();
        f.device = with_device ? device.data() : nullptr;
        return f;
    }
};

class OutputTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device rd;
        dir_ = fs::temp_directory_path() / ("sph_test_output_" + std::to_string(rd()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string file(const std::string& name) const { return (dir_ / name).string(); }

    bool no_tmp_files() const {
        for (const auto& entry : fs::directory_iterator(dir_)) {
            if (entry.path().extension() == ".tmp") {
                return false;
            }
        }
        return true;
    }

    fs::path dir_;
};

vtkDataArray* array(vtkUnstructuredGrid* grid, const char* name, int components,
                    const char* class_name) {
    vtkDataArray* a = grid->GetPointData()->GetArray(name);
    EXPECT_NE(a, nullptr) << name;
    if (a != nullptr) {
        EXPECT_EQ(a->GetNumberOfComponents(), components) << name;
        EXPECT_STREQ(a->GetClassName(), class_name) << name;
    }
    return a;
}

// Checks `count` points starting at `offset` of `grid` against `p`; every value is exactly
// representable, so exact comparison is right.
void expect_particles(vtkUnstructuredGrid* grid, vtkIdType offset, const HostParticles& p,
                      bool with_device) {
    vtkDataArray* vel = array(grid, "velocity", 3, "vtkFloatArray");
    vtkDataArray* rho = array(grid, "density", 1, "vtkFloatArray");
    vtkDataArray* prs = array(grid, "pressure", 1, "vtkFloatArray");
    vtkDataArray* typ = array(grid, "type", 1, "vtkUnsignedCharArray");
    vtkDataArray* ids = array(grid, "id", 1, "vtkUnsignedIntArray");
    if (!vel || !rho || !prs || !typ || !ids) {
        return;
    }
    vtkDataArray* dev = nullptr;
    if (with_device) {
        dev = array(grid, "device", 1, "vtkIntArray");
        ASSERT_NE(dev, nullptr);
    } else {
        EXPECT_EQ(grid->GetPointData()->GetArray("device"), nullptr);
    }
    for (std::size_t i = 0; i < p.position.size(); ++i) {
        const vtkIdType k = offset + static_cast<vtkIdType>(i);
        double x[3];
        grid->GetPoint(k, x);
        EXPECT_EQ(x[0], p.position[i].x);
        EXPECT_EQ(x[1], p.position[i].y);
        EXPECT_EQ(x[2], p.position[i].z);
        EXPECT_EQ(vel->GetComponent(k, 0), p.velocity_density[i].x);
        EXPECT_EQ(vel->GetComponent(k, 1), p.velocity_density[i].y);
        EXPECT_EQ(vel->GetComponent(k, 2), p.velocity_density[i].z);
        EXPECT_EQ(rho->GetComponent(k, 0), p.velocity_density[i].w);
        EXPECT_EQ(prs->GetComponent(k, 0), p.pressure[i]);
        EXPECT_EQ(typ->GetComponent(k, 0), p.type[i]);
        EXPECT_EQ(ids->GetComponent(k, 0), p.id[i]);
        if (dev != nullptr) {
            EXPECT_EQ(dev->GetComponent(k, 0), p.device[i]);
        }
        EXPECT_EQ(grid->GetCellType(k), VTK_VERTEX);
    }
}

TEST_F(OutputTest, VtuRoundTrip) {
    const HostParticles p(50, 1000, 3);
    for (bool with_device : {false, true}) {
        const std::string path = file(with_device ? "dev.vtu" : "plain.vtu");
        write_vtu(path, p.fields(with_device));

        vtkNew<vtkXMLUnstructuredGridReader> reader;
        reader->SetFileName(path.c_str());
        reader->Update();
        vtkUnstructuredGrid* grid = reader->GetOutput();
        ASSERT_EQ(grid->GetNumberOfPoints(), 50);
        ASSERT_EQ(grid->GetNumberOfCells(), 50);
        expect_particles(grid, 0, p, with_device);
    }
    EXPECT_TRUE(no_tmp_files());
}

TEST_F(OutputTest, EmptyVtuIsReadable) {
    const HostParticles p(0, 0, 0);
    write_vtu(file("empty.vtu"), p.fields(false));
    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->SetFileName(file("empty.vtu").c_str());
    reader->Update();
    EXPECT_EQ(reader->GetOutput()->GetNumberOfPoints(), 0);
}

TEST_F(OutputTest, PvtuOverTwoPieces) {
    const HostParticles a(50, 0, 0);
    const HostParticles b(30, 50, 1);
    write_vtu(file("step_0.vtu"), a.fields(true));
    write_vtu(file("step_1.vtu"), b.fields(true));
    write_pvtu(file("step.pvtu"), {"step_0.vtu", "step_1.vtu"}, true);

    vtkNew<vtkXMLPUnstructuredGridReader> reader;
    reader->SetFileName(file("step.pvtu").c_str());
    reader->Update();
    vtkUnstructuredGrid* grid = reader->GetOutput();
    ASSERT_EQ(grid->GetNumberOfPoints(), 80);
    expect_particles(grid, 0, a, true);
    expect_particles(grid, 50, b, true);
    EXPECT_TRUE(no_tmp_files());
}

TEST_F(OutputTest, PvdSeriesStaysValid) {
    PvdSeries series(file("run.pvd"));
    series.add(0.0, "step_0.vtu");
    series.add(0.1, "sub dir/step_&1.pvtu");

    vtkNew<vtkXMLDataParser> parser;
    parser->SetFileName(file("run.pvd").c_str());
    ASSERT_NE(parser->Parse(), 0);  // 0 = not well-formed
    vtkXMLDataElement* root = parser->GetRootElement();
    ASSERT_NE(root, nullptr);
    EXPECT_STREQ(root->GetAttribute("type"), "Collection");
    vtkXMLDataElement* collection = root->FindNestedElementWithName("Collection");
    ASSERT_NE(collection, nullptr);
    ASSERT_EQ(collection->GetNumberOfNestedElements(), 2);
    EXPECT_STREQ(collection->GetNestedElement(0)->GetAttribute("file"), "step_0.vtu");
    EXPECT_STREQ(collection->GetNestedElement(1)->GetAttribute("file"), "sub dir/step_&1.pvtu");
    double t = -1.0;
    ASSERT_TRUE(collection->GetNestedElement(1)->GetScalarAttribute("timestep", t));
    EXPECT_EQ(t, 0.1);  // exact: the text must round-trip the double
    EXPECT_STREQ(collection->GetNestedElement(1)->GetAttribute("part"), "0");
    EXPECT_TRUE(no_tmp_files());
}

TEST_F(OutputTest, VtuIntoMissingDirectoryThrowsNamingPath) {
    const HostParticles p(5, 0, 0);
    const std::string path = file("no_such_dir/out.vtu");
    try {
        write_vtu(path, p.fields(false));
        FAIL() << "expected std::runtime_error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(path));
}

TEST_F(OutputTest, VtuRejectsMissingArrays) {
    HostParticles p(5, 0, 0);
    ParticleFields f = p.fields(false);
    f.pressure = nullptr;
    EXPECT_THROW(write_vtu(file("bad.vtu"), f), std::invalid_argument);
}

TEST_F(OutputTest, PvtuIntoMissingDirectoryThrowsNamingPath) {
    const std::string path = file("no_such_dir/out.pvtu");
    try {
        write_pvtu(path, {"a.vtu"}, false);
        FAIL() << "expected std::runtime_error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace sph
