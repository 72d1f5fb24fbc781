// --neighbours cells: Forces walks the cells around each particle instead of reading a list. It
// meets the same non-zero terms in the same order as the list does, so it gives the list's
// results bit for bit: at the kernel (on a jittered cloud whose particles drifted after the
// rebuild), and through whole runs on one device and on several, under dbc and mdbc. And it keeps
// no list: the lean mode's memory, with the fields only mDBC reads left out as well.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "build_neibs_body.h"
#include "cell_grid.h"
#include "cell_walk.h"
#include "dam_break.h"
#include "devices/device_layout.h"
#include "driver/simulation.h"
#include "kernels/kernel_chain.h"
#include "kernels/kernel_test_support.h"
#include "particle_type.h"
#include "random_box.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace sph::testing;
using NeighbourSearch = RunOptions::NeighbourSearch;

bool same_bits(const Vec4& a, const Vec4& b) {
    return std::memcmp(&a, &b, sizeof(Vec4)) == 0;
}

// A jittered lattice filling the neighbour-list scene's grid, moving every which way, a fifth of
// it walls of both kinds.
struct Cloud {
    std::vector<Vec4> pos;
    std::vector<Vec4> velrho;
    std::vector<std::uint8_t> type;
};

Cloud jittered_cloud(const SphParams& params, double dp, const CellGrid& grid) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    Cloud c;
    const double side = grid.cell_side;
    for (int i = 0; (i + 1) * dp < kSceneCells[0] * side; ++i) {
        for (int j = 0; (j + 1) * dp < kSceneCells[1] * side; ++j) {
            for (int k = 0; (k + 1) * dp < kSceneCells[2] * side; ++k) {
                const double at[3] = {kSceneLo[0] + (i + 0.5) * dp, kSceneLo[1] + (j + 0.5) * dp,
                                      kSceneLo[2] + (k + 0.5) * dp};
                c.pos.push_back(make_vec4(float(at[0] + 0.3 * dp * unit(random)),
                                          float(at[1] + 0.3 * dp * unit(random)),
                                          float(at[2] + 0.3 * dp * unit(random)), 0.0f));
                const int kind = int(c.pos.size()) % 10;
                const ParticleType type = kind == 0   ? kBoundary
                                          : kind == 5 ? kFreeSlipBoundary
                                                      : kFluid;
                // Walls never move (euler_body.h): their lists hold the fluid alone.
                const float speed = type == kFluid ? 1.0f : 0.0f;
                c.velrho.push_back(make_vec4(
                    speed * float(unit(random)), speed * float(unit(random)),
                    speed * float(unit(random)), float(params.rho0 * (1.0 + 0.01 * unit(random)))));
                c.type.push_back(type);
            }
        }
    }
    return c;
}

// The neighbour-list scene's grid and lists for these parameters, room for 256 neighbours.
ListRequest scene_request(const SphParams& params) {
    const double side = cell_side_for(params);
    double hi[3];
    for (int axis = 0; axis < 3; ++axis) hi[axis] = kSceneLo[axis] + kSceneCells[axis] * side;
    ListRequest request;
    request.grid = make_cell_grid(kSceneLo, hi, side, 0, frame_for_domain(kSceneLo, hi));
    request.list_radius_sq = params.list_radius_sq;
    request.max_neighbours = 256;
    return request;
}

class CellNeighbours : public EveryBackend {};

TEST_P(CellNeighbours, ForcesEqualTheListsBitwise) {
    const double dp = 0.01;
    const SphParams params = params_for_dp(dp);
    const ListRequest request = scene_request(params);
    const Cloud cloud = jittered_cloud(params, dp, request.grid);
    BuiltLists b = build_lists(backend(), cloud.pos, request, {}, cloud.type);
    ASSERT_FALSE(b.outside);
    ASSERT_LT(b.largest, request.max_neighbours);
    const std::uint32_t n = std::uint32_t(b.pos.size());
    SortedState state{std::vector<Vec4>(n), std::vector<std::uint8_t>(n)};
    for (std::uint32_t i = 0; i < n; ++i) {
        state.velrho[i] = cloud.velrho[b.id[i]];
        state.type[i] = cloud.type[b.id[i]];
    }
    // As between rebuilds: each particle drifted up to half the skin since the list was built,
    // so some listed pairs are now beyond 2h and some within it are near the list's edge.
    std::mt19937 random(11);
    const float drift =
        float(0.5 * (std::sqrt(double(params.list_radius_sq)) - 2.0 * params.h) / std::sqrt(3.0));
    std::uniform_real_distribution<float> step(-drift, drift);
    for (int round = 0; round < 2; ++round) {
        SCOPED_TRACE(round == 0 ? "at the rebuild" : "drifted since the rebuild");
        const std::vector<Vec4> listed = forces(backend(), b, state, request, params, false);
        const std::vector<Vec4> from_cells = forces(backend(), b, state, request, params, true);
        int differing = 0, moving = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            moving += listed[i].x != 0.0f;
            if (same_bits(listed[i], from_cells[i])) continue;
            if (++differing <= 5) {
                ADD_FAILURE() << "sorted particle " << i << ": list (" << listed[i].x << ", "
                              << listed[i].y << ", " << listed[i].z << ", " << listed[i].w
                              << "), cells (" << from_cells[i].x << ", " << from_cells[i].y << ", "
                              << from_cells[i].z << ", " << from_cells[i].w << ")";
            }
        }
        EXPECT_EQ(differing, 0) << "of " << n << " particles";
        EXPECT_GT(moving, int(n) / 2) << "the forces were not exercised";
        for (FixedPos& p : b.pos) {
            const float dx = step(random), dy = step(random), dz = step(random);
            p = request.grid.frame.moved(p, make_vec3(dx, dy, dz));
        }
    }
}

struct RunResult {
    ParticleStates all, fluid;
    double time = 0.0;
    double list_height_at_setup = 0.0, list_height = 0.0;  // device 0's (DeviceLayout)
};

RunResult run(const Problem& problem, double dp, BackendChoice backend, NeighbourSearch neighbours,
              DeviceSelection devices, BoundaryModel boundary, int iterations) {
    RunOptions o = small_run(dp, 10.0, backend);
    o.neighbours = neighbours;
    o.devices = devices;
    o.boundary = boundary;
    o.threads = 1;
    Simulation sim(problem, o, 0);
    RunResult r;
    r.list_height_at_setup = sim.group().device(0).layout().list_height;
    for (int i = 0; i < iterations; ++i) sim.step();
    r.list_height = sim.group().device(0).layout().list_height;
    HostParticles p = sim.particles();
    r.all = states_by_id(p);
    HostParticles fluid;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p.type[i] == kFluid) fluid.append(p, i);
    }
    r.fluid = states_by_id(fluid);
    r.time = sim.time();
    return r;
}

RunResult run_dam_break(BackendChoice backend, NeighbourSearch neighbours, DeviceSelection devices,
                        BoundaryModel boundary, int iterations) {
    const double dp = backend == BackendChoice::kCuda ? 0.03 : 0.06;
    return run(DamBreak(), dp, backend, neighbours, devices, boundary, iterations);
}

DeviceSelection one_device(BackendChoice backend) {
    return backend == BackendChoice::kCuda ? DeviceSelection::gpus({0}) : DeviceSelection::cpu(1);
}

DeviceSelection several_devices(BackendChoice backend) {
    return backend == BackendChoice::kCuda ? DeviceSelection::gpus({0, 0})
                                           : DeviceSelection::cpu(3);
}

TEST_P(CellNeighbours, DamBreakEqualsTheListRunBitwiseOnAnyDeviceCount) {
    const RunResult listed = run_dam_break(backend(), NeighbourSearch::kList, one_device(backend()),
                                           BoundaryModel::kDbc, 200);
    for (const DeviceSelection& devices : {one_device(backend()), several_devices(backend())}) {
        SCOPED_TRACE(devices.cpu_devices > 0 ? std::to_string(devices.cpu_devices) + " CPU devices"
                                             : "--devices " + devices.gpu_list());
        const RunResult cells =
            run_dam_break(backend(), NeighbourSearch::kCells, devices, BoundaryModel::kDbc, 200);
        EXPECT_EQ(listed.time, cells.time);
        ASSERT_EQ(listed.all.size(), cells.all.size());
        EXPECT_EQ(count_bitwise_differences(listed.all, cells.all), 0);
    }
}

// Under mDBC a listed run gives a wall particle with no fluid in its list rho0 without a fit; from
// the cells every wall particle is fitted. No fluid particle is near enough to read such a wall
// before the next rebuild (the list's skin), so the water is the same to the bit.
TEST_P(CellNeighbours, MdbcWaterEqualsTheListRunBitwise) {
    const RunResult listed = run_dam_break(backend(), NeighbourSearch::kList, one_device(backend()),
                                           BoundaryModel::kMdbc, 150);
    const RunResult cells = run_dam_break(backend(), NeighbourSearch::kCells, one_device(backend()),
                                          BoundaryModel::kMdbc, 150);
    EXPECT_EQ(listed.time, cells.time);
    ASSERT_EQ(listed.fluid.size(), cells.fluid.size());
    ASSERT_GT(listed.fluid.size(), 0u);
    EXPECT_EQ(count_bitwise_differences(listed.fluid, cells.fluid), 0);
}

// A list keeps room for a lattice's lists at first (12 groups a fluid particle at the default
// radius, 5 a wall); jittered water's take more, so the device grows its list at the first
// rebuild, and the run still gives the cell walk's bits, through later rebuilds.
TEST_P(CellNeighbours, AListThatOutgrowsItsRoomGrowsAndStillEqualsTheCellsBitwise) {
    const RandomBox problem;
    const double dp = 0.02;
    const SphParams params = params_for_dp(dp);
    const double radius_in_dp = std::sqrt(double(params.list_radius_sq)) / dp;
    ASSERT_EQ(expected_list_height(radius_in_dp, 128, 1.0), 12.0);
    ASSERT_EQ(expected_list_height(radius_in_dp, 128, 0.0), 5.0);
    const RunResult listed = run(problem, dp, backend(), NeighbourSearch::kList,
                                 one_device(backend()), BoundaryModel::kDbc, 40);
    EXPECT_GT(listed.list_height_at_setup, 5.0);
    EXPECT_LT(listed.list_height_at_setup, 12.0);
    EXPECT_GT(listed.list_height, listed.list_height_at_setup) << "the list did not grow";
    const RunResult cells = run(problem, dp, backend(), NeighbourSearch::kCells,
                                one_device(backend()), BoundaryModel::kDbc, 40);
    EXPECT_EQ(listed.time, cells.time);
    ASSERT_EQ(listed.all.size(), cells.all.size());
    EXPECT_EQ(count_bitwise_differences(listed.all, cells.all), 0);
}

SPH_ON_EVERY_BACKEND(CellNeighbours);

// The clouds the GPU's and the CPU's ways are compared on, sorted as a rebuild sorts them, each
// position's w the particle's type (as the sort's gather sets it): the ordinary jittered cloud,
// every particle of it, and one dense enough (hundreds of particles a cell) that the masks fill
// their room, lists outgrow theirs and rows are too crowded to encode, every 97th particle (its
// walks are long). check(b, request, step, dense).
template <class Check>
void on_each_cloud(const SphParams& params, Check&& check) {
    const ListRequest request = scene_request(params);
    for (const double dp : {0.01, 0.004}) {
        SCOPED_TRACE("lattice spacing " + std::to_string(dp));
        const Cloud cloud = jittered_cloud(params, dp, request.grid);
        const BuiltLists b = build_lists(BackendChoice::kCpu, cloud.pos, request, {}, cloud.type);
        ASSERT_FALSE(b.outside);
        const bool dense = dp < 0.01;
        check(b, request, dense ? 97u : 1u, dense);
    }
}

// Each cell's splits say how many of its particles lie in its slabs up to each (cell_grid.h), or
// that too many do to say; the rows around a particle, trimmed to its slab, still hold every
// particle within the list radius at the rebuild and within 2h once each drifted by half the
// list's margin, and on the ordinary cloud they hold about 2 + 1 / kSlabsPerCell cells' worth of
// candidates where rows of whole cells hold 3. The dense cloud's cells (hundreds of
// particles) saturate their splits: their rows are not trimmed, and still hold every neighbour.
TEST(CellNeighbours, RowsTrimmedToTheSlabHoldEveryNeighbourAndFewerCandidates) {
    const SphParams params = params_for_dp(0.01);
    on_each_cloud(params, [&](const BuiltLists& b, const ListRequest& request, std::uint32_t step,
                              bool dense) {
        const CellGrid& grid = request.grid;
        const std::uint32_t n = std::uint32_t(b.pos.size());
        ASSERT_EQ(cell_split_error(b, grid), "");
        std::mt19937 random(5);
        const double margin = std::sqrt(double(request.list_radius_sq)) - 2.0 * params.h;
        std::uniform_real_distribution<float> step_of(float(-0.5 * margin / std::sqrt(3.0)),
                                                      float(0.5 * margin / std::sqrt(3.0)));
        std::vector<FixedPos> drifted(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            const float dx = step_of(random), dy = step_of(random), dz = step_of(random);
            drifted[i] = grid.frame.moved(b.pos[i], make_vec3(dx, dy, dz));
        }
        const float kernel_sq = 4.0f * params.h * params.h;
        std::uint64_t trimmed_candidates = 0, whole_candidates = 0;
        int untrimmed = 0;
        for (std::uint32_t i = 0; i < n; i += step) {
            const RowTrim trim =
                row_trim_for(i, b.cell[i], b.cell_start.data(), b.cell_split.data());
            untrimmed += trim.slab == RowTrim::kNoSlab ? 1 : 0;
            std::vector<bool> candidate(n, false);
            for_each_row_around(b.cell[i], grid, b.cell_start.data(), b.cell_end.data(), trim,
                                [&](int, std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                                    for (std::uint32_t j = begin; j < end; ++j) candidate[j] = true;
                                    trimmed_candidates += end - begin;
                                    return false;
                                });
            for_each_row_around(b.cell[i], grid, b.cell_start.data(), b.cell_end.data(), RowTrim{},
                                [&](int, std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                                    whole_candidates += end - begin;
                                    return false;
                                });
            for (std::uint32_t j = 0; j < n; ++j) {
                if (j == i || candidate[j]) continue;
                ASSERT_GE(length_squared(between(b, i, j, grid)), request.list_radius_sq)
                    << "particle " << j << " within the list radius of " << i
                    << " is not in its rows";
                ASSERT_GE(length_squared(grid.frame.between(drifted[i], drifted[j])), kernel_sq)
                    << "particle " << j << " within 2h of " << i
                    << " once drifted is not in its rows";
            }
        }
        if (dense) {
            EXPECT_GT(untrimmed, 0) << "no cell's splits saturated";
        } else {
            EXPECT_EQ(untrimmed, 0);
            const double kept = double(trimmed_candidates) / double(whole_candidates);
            ::testing::Test::RecordProperty("candidates_kept", std::to_string(kept));
            const double expected = (2.0 + 1.0 / kSlabsPerCell) / 3.0;
            EXPECT_LT(kept, expected + 0.04) << "the rows were hardly trimmed";
            EXPECT_GT(kept, expected - 0.04);
        }
    });
}

// The GPU's walks (candidates tested 32 at a time into masks, visited once the masks are in) and
// the CPU's (visited as tested) must visit the same particles in the same order: Forces' sums
// are bitwise the list's, and the lists the same on both back ends, only then. Checked here on
// the host, where both can run, for Forces' walk and for the list build's rows (with a filter on
// the candidates' kind, as mDBC's ghost-node lists take only fluid): on a cloud dense enough
// that the masks fill their room before a walk ends (hundreds of particles a cell), and on the
// ordinary one, at the edges of the grid as well as inside it.
TEST(CellNeighbours, TheWalksByMaskVisitWhatTheOneByOneWalksDoInTheirOrder) {
    const SphParams params = params_for_dp(0.01);
    on_each_cloud(params, [&](const BuiltLists& b, const ListRequest& request, std::uint32_t step,
                              bool dense) {
        const sph::CellNeighbours walk{
            b.pos.data(),        b.cell.data(), b.cell_start.data(),    b.cell_end.data(),
            b.cell_split.data(), request.grid,  params.kernel_radius_sq};
        const std::uint32_t n = std::uint32_t(b.pos.size());
        int most_masks = 0, filtered_out = 0;
        for (std::uint32_t i = 0; i < n; i += step) {
            const FixedPos at = b.pos[i];
            std::vector<std::uint32_t> one_by_one, by_mask;
            const auto into = [](std::vector<std::uint32_t>& visits) {
                return [&visits](std::uint32_t j) {
                    visits.push_back(j);
                    return false;
                };
            };
            const sph::CellNeighbours::WithinCut<false> within{
                b.pos.data(), at, request.grid.frame.unit, params.kernel_radius_sq};
            walk.walk_one_by_one(within, i, into(one_by_one));
            walk.walk_in_chunks(within, i, into(by_mask));
            ASSERT_EQ(by_mask, one_by_one)
                << "Forces' walk, particle " << i << " at " << describe(b.pos[i]);
            // The list build's rows: the fluid within the list radius, row by row.
            const ListCandidate fluid_near{b.pos.data(), at, request.grid.frame.unit,
                                           request.list_radius_sq, true};
            int masks = 0;
            for_each_row_around(
                b.cell[i], request.grid, b.cell_start.data(), b.cell_end.data(),
                row_trim_for(i, b.cell[i], b.cell_start.data(), b.cell_split.data()),
                [&](int row, std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                    std::vector<std::uint32_t> listed, listed_by_mask;
                    for_each_near_one_by_one(begin, end, i, fluid_near, into(listed));
                    for_each_near_mask(
                        begin, end, i, fluid_near, [&](std::uint32_t first, CandidateMask bits) {
                            for (; bits != 0; bits &= bits - 1) {
                                listed_by_mask.push_back(first + lowest_set_bit(bits));
                            }
                            return false;
                        });
                    EXPECT_EQ(listed_by_mask, listed)
                        << "the list's row " << row << " of particle " << i;
                    // The masks Forces' walk held: each chunk with a particle near.
                    for (std::uint32_t first = begin; first < end; first += kMaskBits) {
                        const std::uint32_t last = std::min(end, first + kMaskBits);
                        masks +=
                            std::any_of(one_by_one.begin(), one_by_one.end(),
                                        [&](std::uint32_t j) { return j >= first && j < last; });
                    }
                    return false;
                });
            filtered_out +=
                int(one_by_one.size()) -
                int(std::count_if(one_by_one.begin(), one_by_one.end(),
                                  [&](std::uint32_t j) { return is_near(fluid_near, j); }));
            most_masks = std::max(most_masks, masks);
        }
        EXPECT_GT(filtered_out, 0) << "the lists' filter was not exercised";
        if (dense) {
            EXPECT_GT(most_masks, NearCandidates::kRoom) << "the masks never filled their room";
        }
    });
}

// The list build's two ways (build_neibs_body.h) write the same list: the GPU's, which tests
// the candidates into masks and writes the entries once the walk's masks are in, and the CPU's,
// which writes each as it finds it. Compared on the host, where both can run: every list of
// the ordinary cloud, of every particle and of the fluid alone (as mDBC's ghost-node lists), and
// of the dense cloud, whose lists outgrow their room and whose rows are too crowded to encode.
TEST(CellNeighbours, TheListBuiltByMasksIsTheListBuiltOneByOne) {
    on_each_cloud(params_for_dp(0.01), [&](const BuiltLists& b, const ListRequest& request,
                                           std::uint32_t step, bool dense) {
        NeighbourArgs args{};
        args.pos = b.pos.data();
        args.cell = b.cell.data();
        args.cell_start = b.cell_start.data();
        args.cell_end = b.cell_end.data();
        args.cell_split = b.cell_split.data();
        args.max_neighbours = request.max_neighbours;
        args.list_radius_sq = request.list_radius_sq;
        args.grid = request.grid;
        const std::size_t groups = list_groups(args.max_neighbours);
        const NeighbourGroup untouched = ~NeighbourGroup(0);
        std::vector<NeighbourGroup> one_by_one(groups), by_masks(groups);
        const ListStage stage_one{one_by_one.data(), 1}, stage_masks{by_masks.data(), 1};
        const std::uint32_t n = std::uint32_t(b.pos.size());
        int full = 0, crowded = 0;
        for (std::uint32_t i = 0; i < n; i += step) {
            const FixedPos at = b.pos[i];
            for (const bool fluid_only : {false, true}) {
                std::fill(one_by_one.begin(), one_by_one.end(), untouched);
                std::fill(by_masks.begin(), by_masks.end(), untouched);
                const auto list = [&](bool masks, const ListStage& stage) {
                    const std::uint32_t cell = b.cell[i];
                    const RowTrim rows = row_trim_for(i, cell, args.cell_start, args.cell_split);
                    const RowTrim trim = fluid_only ? rows.of_fluid() : rows;
                    return masks ? list_around_as<true>(i, args, at, cell, trim, stage)
                                 : list_around_as<false>(i, args, at, cell, trim, stage);
                };
                const std::uint32_t count = list(false, stage_one);
                ASSERT_EQ(list(true, stage_masks), count) << "particle " << i;
                if (count != kCellOverflow) {
                    ASSERT_EQ(by_masks, one_by_one)
                        << "particle " << i << ", fluid only " << fluid_only;
                }
                full += count != kCellOverflow && count > args.max_neighbours;
                crowded += count == kCellOverflow;
            }
        }
        if (dense) {
            EXPECT_GT(full, 0) << "no list outgrew its room";
            EXPECT_GT(crowded, 0) << "no row was too crowded to encode";
        }
    });
}

// What a run lays out per particle: no list from the cells, and mDBC's ghost offsets only under
// mDBC (pos 16 + velrho 16 + id 4 + type 1 = 37 bytes a record, twice, plus force, dt_max and
// cell, 24); a list of the default 128 entries keeps 12 groups a fluid particle (96 bytes: the
// header, the 80 neighbours of a lattice particle within the default list radius, the end
// marker) and 5 a wall particle (which lists the fluid alone: the 30 lattice points a layer or
// more above a wall's top layer), the 17 rows of a particle's largest list after the last block,
// and where each block of 32 particles begins (4 bytes). That devices allocate what their layout
// says is test_device_memory's.
TEST(CellNeighbours, KeepNoListAndNoGhostOffsetsUnlessMdbc) {
    struct Case {
        NeighbourSearch neighbours;
        BoundaryModel boundary;
        std::size_t record_bytes;
        bool listed;
    };
    for (const Case& c : {Case{NeighbourSearch::kCells, BoundaryModel::kDbc, 37, false},
                          Case{NeighbourSearch::kCells, BoundaryModel::kMdbc, 49, false},
                          Case{NeighbourSearch::kList, BoundaryModel::kDbc, 37, true}}) {
        RunOptions o = small_run(0.06, 10.0);
        o.neighbours = c.neighbours;
        o.boundary = c.boundary;
        const DamBreak problem;
        Simulation sim(problem, o, 0);
        const Device& device = sim.group().device(0);
        const DeviceLayout& layout = device.layout();
        SCOPED_TRACE("record " + std::to_string(c.record_bytes) + " B");
        EXPECT_EQ(layout.record_bytes(), c.record_bytes);
        EXPECT_EQ(layout.particle_bytes(), 2 * c.record_bytes + 24);
        const std::size_t warps = list_warps(layout.capacity);
        if (!c.listed) {
            EXPECT_EQ(layout.list_bytes() + layout.list_index_bytes(), 0u);
        } else {
            const HostParticles particles = sim.particles();
            const double fluid = double(particles.count(kFluid)) / double(particles.size());
            ASSERT_GT(fluid, 0.1);
            ASSERT_LT(fluid, 0.9);
            const double height = 12.0 * fluid + 5.0 * (1.0 - fluid);
            EXPECT_NEAR(layout.list_height, height, 1e-12);
            const std::size_t rows = std::size_t(std::ceil(double(warps) * height));
            EXPECT_EQ(layout.list_bytes(), (rows + 17) * kListWarp * 8);
            EXPECT_EQ(layout.list_index_bytes(), warps * 4);
        }
        sim.step();  // and runs
        EXPECT_GT(sim.time(), 0.0);
    }
}

}  // namespace
}  // namespace sph
