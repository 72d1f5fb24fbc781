// The exchange between devices with known values: external slices hold exactly the neighbours'
// edge slices, the forces received for them are the ones their owners computed, and migration
// hands every particle to the device owning its slice, none lost or duplicated.
//
// The exchange test runs on CPU devices only, by construction: its TaggingDevice overwrites the
// forces between the Forces kernels and the edge-force sends, and reads the devices' arrays in
// place. A GPU queues both inside CudaDevice::forces, on streams of its own, each send waiting on
// the receiver's marker event; a test device could only interpose there through the Device
// interface by racing those streams, or with test-only hooks in src/. What the sends carry on a GPU
// is covered instead by the multi-device runs matching one device bit for bit
// (test_multi_device.cpp). The migration test uses only the Device interface and runs on every
// back end.
#include <gtest/gtest.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "devices/cpu/cpu_device.h"
#include "driver/simulation.h"
#include "still_water.h"
#include "test_support.h"

namespace sph {
namespace {

// A CPU device whose internal forces are replaced by tags (owner, id, stage) before they are
// sent, so that what a neighbour receives says where it came from.
class TaggingDevice : public CpuDevice {
public:
    TaggingDevice(int owner, int threads) : CpuDevice(threads), owner_(owner) {}

    void forces(Stage stage, const ForceSends& sends, const StepClock& clock) override {
        CpuDevice::forces(stage, ForceSends{}, clock);  // real forces give a real dt
        const LocalRanges& l = ranges();
        auto* force = static_cast<Vec4*>(force_buffer().ptr);
        const auto* id = static_cast<const std::uint32_t*>(current().id.ptr);
        for (std::uint32_t i = l.left; i < l.left + l.internal; ++i) {
            force[i] =
                Vec4{float(owner_), float(id[i]), stage == Stage::kCorrector ? 1.0f : 0.0f, 0.0f};
        }
        for (const ForceSend* send : {&sends.left, &sends.right}) {
            transport().copy(send->to, force_buffer().offset(send->first * sizeof(Vec4)),
                             send->count * sizeof(Vec4));
        }
    }

private:
    int owner_;
};

struct DeviceView {
    LocalRanges ranges;
    std::vector<std::uint32_t> id;
    std::vector<FixedPos> pos;
    std::vector<Vec4> force;
};

DeviceView view(Device& device) {
    DeviceView v;
    v.ranges = device.ranges();
    const std::uint32_t n = v.ranges.total();
    const auto* id = static_cast<const std::uint32_t*>(device.current().id.ptr);
    const auto* pos = static_cast<const FixedPos*>(device.current().pos.ptr);
    const auto* force = static_cast<const Vec4*>(device.force_buffer().ptr);
    v.id.assign(id, id + n);
    v.pos.assign(pos, pos + n);
    v.force.assign(force, force + n);
    return v;
}

class Exchange : public ::testing::TestWithParam<int> {};

TEST_P(Exchange, ExternalSlicesAndTheirForcesComeFromTheNeighboursEdges) {
    const int devices = GetParam();
    const StillWater problem(0.4, 0.1, 0.15);
    RunOptions o = testing::small_run(0.02, 10.0);
    o.devices = DeviceSelection::cpu(devices);
    o.threads = 1;
    Simulation sim(problem, o, 0,
                   [](int d, int threads) { return std::make_unique<TaggingDevice>(d, threads); });
    sim.step();  // a rebuild, then both stages: the forces left are the corrector's
    const CellGrid& grid = sim.grid();
    const SliceMap& slices = sim.group().slices();
    std::vector<DeviceView> v;
    for (int d = 0; d < devices; ++d) v.push_back(view(sim.group().device(d)));

    // The slice a particle had at the rebuild (one step of still water moves it by far less
    // than a cell, but a particle on a cell face could cross it: those are allowed either way).
    auto slice_of = [&](const FixedPos& p) {
        return int(grid.cell_of(p) / grid.cells_per_slice());
    };

    long checked_external = 0;
    for (int d = 0; d < devices; ++d) {
        const DeviceView& me = v[d];
        // Own particles carry own tags.
        for (std::uint32_t i = me.ranges.left; i < me.ranges.left + me.ranges.internal; ++i) {
            ASSERT_EQ(me.force[i].x, float(d));
            ASSERT_EQ(me.force[i].y, float(me.id[i]));
            ASSERT_EQ(me.force[i].z, 1.0f);
        }
        // Left external: the left neighbour's last slice, in its order, with its forces.
        if (d > 0) {
            const DeviceView& left = v[d - 1];
            const int edge = slices.end_slice(d - 1) - 1;
            std::vector<std::uint32_t> expected;
            for (std::uint32_t i = left.ranges.left; i < left.ranges.left + left.ranges.internal;
                 ++i) {
                if (slice_of(left.pos[i]) == edge) expected.push_back(left.id[i]);
            }
            const std::vector<std::uint32_t> got(me.id.begin(), me.id.begin() + me.ranges.left);
            EXPECT_EQ(got, expected) << "device " << d << "'s left external slice";
            for (std::uint32_t i = 0; i < me.ranges.left; ++i) {
                EXPECT_EQ(me.force[i].x, float(d - 1));
                EXPECT_EQ(me.force[i].y, float(me.id[i]));
                EXPECT_EQ(me.force[i].z, 1.0f);
                ++checked_external;
            }
        } else {
            EXPECT_EQ(me.ranges.left, 0u);
        }
        // Right external: the right neighbour's first slice.
        if (d + 1 < devices) {
            const DeviceView& right = v[d + 1];
            const int edge = slices.first_slice(d + 1);
            std::vector<std::uint32_t> expected;
            for (std::uint32_t i = right.ranges.left; i < right.ranges.left + right.ranges.internal;
                 ++i) {
                if (slice_of(right.pos[i]) == edge) expected.push_back(right.id[i]);
            }
            const std::uint32_t first = me.ranges.left + me.ranges.internal;
            const std::vector<std::uint32_t> got(me.id.begin() + first, me.id.end());
            EXPECT_EQ(got, expected) << "device " << d << "'s right external slice";
            for (std::uint32_t i = first; i < me.ranges.total(); ++i) {
                EXPECT_EQ(me.force[i].x, float(d + 1));
                EXPECT_EQ(me.force[i].y, float(me.id[i]));
                EXPECT_EQ(me.force[i].z, 1.0f);
                ++checked_external;
            }
        } else {
            EXPECT_EQ(me.ranges.right, 0u);
        }
    }
    EXPECT_GT(checked_external, 100 * (devices - 1)) << "the external slices were nearly empty";
}

INSTANTIATE_TEST_SUITE_P(TwoAndFourDevices, Exchange, ::testing::Values(2, 4));

// Under mDBC a device holds several of each neighbour's slices (halo_slices), and only those of
// the slice beside its own are within its particles' lists: its ranges name them (left_near,
// right_near), and the wall densities are computed there and on its own particles alone.
TEST(Exchange, UnderMdbcTheNearExternalsAreTheSliceBesideTheDevicesOwn) {
    const int devices = 3;
    const StillWater problem(0.4, 0.1, 0.15);
    RunOptions o = testing::small_run(0.01, 10.0);
    o.boundary = BoundaryModel::kMdbc;
    o.devices = DeviceSelection::cpu(devices);
    o.threads = 1;
    Simulation sim(problem, o, 0);
    sim.step();
    const CellGrid& grid = sim.grid();
    const SliceMap& slices = sim.group().slices();
    ASSERT_GT(slices.halo(), 1) << "the mDBC halo is one slice: nothing to tell apart";
    auto slice_of = [&](const FixedPos& p) {
        return int(grid.cell_of(p) / grid.cells_per_slice());
    };
    long near = 0, far = 0;
    for (int d = 0; d < devices; ++d) {
        const DeviceView me = view(sim.group().device(d));
        const LocalRanges& r = me.ranges;
        ASSERT_LE(r.left_near, r.left);
        ASSERT_LE(r.right_near, r.right);
        const int first = slices.first_slice(d), end = slices.end_slice(d);
        for (std::uint32_t i = 0; i < r.left; ++i) {
            const int slice = slice_of(me.pos[i]);
            EXPECT_GE(slice, first - slices.halo()) << "device " << d << ", left external " << i;
            EXPECT_EQ(slice == first - 1, i >= r.near_begin())
                << "device " << d << ", left external " << i << " in slice " << slice;
        }
        for (std::uint32_t i = r.left + r.internal; i < r.total(); ++i) {
            const int slice = slice_of(me.pos[i]);
            EXPECT_LT(slice, end + slices.halo()) << "device " << d << ", right external " << i;
            EXPECT_EQ(slice == end, i < r.near_end())
                << "device " << d << ", right external " << i << " in slice " << slice;
        }
        near += r.left_near + r.right_near;
        far += (r.left - r.left_near) + (r.right - r.right_near);
    }
    EXPECT_GT(near, 0) << "no near externals";
    EXPECT_GT(far, 0) << "no externals beyond the near slices";
}

class Migration : public testing::EveryBackend {};

TEST_P(Migration, ParticlesOnTheWrongDevicesMoveToTheOwnersOfTheirSlices) {
    const int devices = 3;
    const StillWater problem(0.4, 0.1, 0.15);
    RunOptions o = testing::small_run(0.02, 10.0, backend());
    o.devices = backend() == BackendChoice::kCuda ? DeviceSelection::gpus({0, 0, 0})
                                                  : DeviceSelection::cpu(devices);
    o.threads = 1;
    Simulation sim(problem, o, 0);
    // Hand every device the particles of the next one: each must leave at the first rebuild.
    std::vector<HostParticles> parts = sim.particles_per_device();
    std::size_t total = 0;
    for (int d = 0; d < devices; ++d) {
        sim.group().device(d).upload(parts[(d + 1) % devices]);
        total += parts[d].size();
    }
    sim.step();
    const CellGrid& grid = sim.grid();
    std::unordered_set<std::uint32_t> seen;
    std::size_t misplaced = 0;
    parts = sim.particles_per_device();
    for (int d = 0; d < devices; ++d) {
        EXPECT_GT(parts[d].size(), 0u);
        for (std::size_t i = 0; i < parts[d].size(); ++i) {
            EXPECT_TRUE(seen.insert(parts[d].id[i]).second)
                << "particle " << parts[d].id[i] << " is on two devices";
            const int slice = int(grid.cell_of(parts[d].pos[i]) / grid.cells_per_slice());
            misplaced += sim.group().slices().owner(slice) != d;
        }
    }
    EXPECT_EQ(seen.size(), total) << "particles were lost";
    // A particle sitting on a slice face may cross it during the step after the rebuild.
    EXPECT_LE(misplaced, total / 1000) << "particles not on the owner of their slice";
}

SPH_ON_EVERY_BACKEND(Migration);

}  // namespace
}  // namespace sph
