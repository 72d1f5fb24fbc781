// The instruments' options, the CSV they are written to, DamBreak's SPHERIC instruments, and a run
// that writes gauges without frames.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "dam_break.h"
#include "driver/run_setup.h"
#include "driver/simulation.h"
#include "gauge_csv.h"
#include "instruments/gauges.h"
#include "instruments/interval_average.h"
#include "instruments/low_pass.h"
#include "test_support.h"

namespace sph {
namespace {

double distance_to_box(double x, double y, double z, const double lo[3], const double hi[3]) {
    const double r[3] = {x, y, z};
    double sq = 0.0;
    for (int a = 0; a < 3; ++a) {
        const double d = std::max({lo[a] - r[a], 0.0, r[a] - hi[a]});
        sq += d * d;
    }
    return std::sqrt(sq);
}

// --- Options ----------------------------------------------------------------------------------

std::optional<RunOptions> parse(const std::vector<std::string>& args) {
    DamBreak problem;
    return testing::parse_options(problem, args);
}

TEST(GaugeOptions, ParseAndCombineWithTheProblems) {
    const auto o = parse({"--gauge", "1.0,0.5", "--probe", "0.9,0.47,0.05", "--gauge", "2.5,0.25",
                          "--gauge-every", "0.002"});
    ASSERT_TRUE(o.has_value());
    ASSERT_EQ(o->gauges.size(), 2u);
    EXPECT_EQ(o->gauges[1].name, "G2");
    EXPECT_DOUBLE_EQ(o->gauges[1].x, 2.5);
    EXPECT_DOUBLE_EQ(o->gauges[1].y, 0.25);
    ASSERT_EQ(o->probes.size(), 1u);
    EXPECT_EQ(o->probes[0].name, "Q1");
    EXPECT_DOUBLE_EQ(o->probes[0].z, 0.05);
    EXPECT_DOUBLE_EQ(o->gauge_every, 0.002);
    EXPECT_TRUE(o->problem_instruments);

    const Instruments in = run_instruments(DamBreak().instruments(), *o);
    EXPECT_EQ(
        instrument_columns(in),
        (std::vector<std::string>{"H1", "H2", "H3", "H4", "G1", "G2", "P1", "P2", "P3", "P4", "P5",
                                  "P6", "P7", "P8", "Q1", "F_obstacle", "M_obstacle", "front_x"}));

    const auto bare = parse({"--no-instruments", "--gauge", "1,0.5"});
    ASSERT_TRUE(bare.has_value());
    EXPECT_FALSE(bare->problem_instruments);
    EXPECT_EQ(instrument_columns(run_instruments(DamBreak().instruments(), *bare)),
              (std::vector<std::string>{"G1"}));
    const auto defaults = parse({});
    EXPECT_DOUBLE_EQ(defaults->gauge_every, 0.01);
    EXPECT_TRUE(defaults->gauges.empty());
    EXPECT_FALSE(defaults->gauge_average);
    EXPECT_TRUE(parse({"--gauge-average"})->gauge_average);
}

TEST(GaugeOptions, BadValuesNameTheOption) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--gauge", "1"}, "--gauge"},
        {{"--gauge", "1,2,3"}, "--gauge"},
        {{"--gauge", "1,"}, "--gauge"},
        {{"--gauge", "1,2,"}, "--gauge"},
        {{"--gauge", "x,0.5"}, "--gauge"},
        {{"--gauge", "1,nan"}, "--gauge"},
        {{"--gauge", "99,0.5"}, "--gauge"},  // outside the domain
        {{"--gauge-every", "-1"}, "--gauge-every"},
        {{"--gauge-every", "0"}, "--gauge-every"},
        {{"--probe", "a,b,c"}, "--probe"},
        {{"--probe", "1,2"}, "--probe"},
        {{"--probe", "1,0.5,-7"}, "--probe"},
    };
    for (const auto& [args, option] : cases) {
        try {
            parse(args);
            ADD_FAILURE() << args[0] << " " << args[1] << " was accepted";
        } catch (const OptionError& e) {
            EXPECT_NE(std::string(e.what()).find(option), std::string::npos) << e.what();
        }
    }
}

TEST(GaugeOptions, HelpListsThem) {
    const char* argv[] = {"dambreak", "--help"};
    DamBreak problem;
    std::ostringstream help;
    EXPECT_FALSE(parse_command_line(2, argv, problem, help).has_value());
    for (const char* name :
         {"--gauge ", "--probe ", "--gauge-every", "--gauge-average", "--no-instruments"}) {
        EXPECT_NE(help.str().find(name), std::string::npos) << name;
    }
}

// --- CSV --------------------------------------------------------------------------------------

using testing::read_lines;

TEST(GaugeCsvFile, HasTheHeaderAndOneRowPerCall) {
    testing::TempDir dir("gauge_csv");
    const std::string out = dir.path() + "/out";  // made by the writer
    GaugeCsv csv(out, {"H1", "P1", "front_x"});
    EXPECT_EQ(csv.path(), out + "/gauges.csv");
    EXPECT_EQ(read_lines(csv.path()), std::vector<std::string>{"time,H1,P1,front_x"});
    csv.append(0.0, {0.55, 1234.5, std::numeric_limits<double>::quiet_NaN()});
    // Flushed per row: readable while the writer is still open.
    EXPECT_EQ(read_lines(csv.path()).size(), 2u);
    csv.append(0.01, {0.125, 0.0, 1.992});
    EXPECT_EQ(read_lines(csv.path()),
              (std::vector<std::string>{"time,H1,P1,front_x", "0,0.55,1234.5,nan",
                                        "0.01,0.125,0,1.992"}));
    EXPECT_THROW(csv.append(0.02, {1.0}), std::invalid_argument);
}

TEST(GaugeCsvFile, UnwritablePathIsNamed) {
    testing::TempDir dir("gauge_csv_bad");
    const std::string file = dir.path() + "/plain_file";
    std::ofstream(file) << "x";
    try {
        GaugeCsv csv(file + "/out", {"H1"});
        ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(file + "/out/gauges.csv"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(GaugeCsv(dir.path(), {"a,b"}), std::invalid_argument);
}

// --- DamBreak's instruments -------------------------------------------------------------------

TEST(DamBreakInstruments, LieInTheTankAndOnTheObstacle) {
    DamBreak problem;
    const Instruments in = problem.instruments();
    ASSERT_EQ(in.gauges.size(), 4u);
    ASSERT_EQ(in.probes.size(), 8u);
    ASSERT_TRUE(in.front.has_value());
    EXPECT_EQ(in.front->direction, -1);  // the surge runs towards the obstacle, at smaller x
    EXPECT_LT(DamBreak::kObstacleHi[0], DamBreak::kWaterLo[0]);
    for (const Gauge& g : in.gauges) {
        EXPECT_TRUE(g.x > 0 && g.x < DamBreak::kTank[0] && g.y > 0 && g.y < DamBreak::kTank[1])
            << g.name;
    }
    const Box obstacle{
        {DamBreak::kObstacleLo[0], DamBreak::kObstacleLo[1], DamBreak::kObstacleLo[2]},
        {DamBreak::kObstacleHi[0], DamBreak::kObstacleHi[1], DamBreak::kObstacleHi[2]}};
    const double dp = problem.default_dp();
    for (const Probe& p : in.probes) {
        EXPECT_FALSE(obstacle.contains(p.x, p.y, p.z)) << p.name;
        EXPECT_LE(distance_to_box(p.x, p.y, p.z, DamBreak::kObstacleLo, DamBreak::kObstacleHi),
                  2 * dp)
            << p.name;
        // On the faces that meet the flow: the front (x = 0.8245) or the top (z = 0.161).
        EXPECT_TRUE(p.x == DamBreak::kObstacleHi[0] || p.z == DamBreak::kObstacleHi[2]) << p.name;
        EXPECT_TRUE(p.y > DamBreak::kObstacleLo[1] && p.y < DamBreak::kObstacleHi[1]) << p.name;
    }
}

TEST(DamBreakInstruments, ReadTheInitialState) {
    DamBreak problem;
    RunOptions o;
    o.dp = problem.default_dp();
    const SphParams params = make_sph_params(o, problem.still_water_depth());
    const HostParticles p = make_particles(problem, o, params);
    const InstrumentReadings r = measure(problem.instruments(), p, params);
    // H1..H3 are dry; H4 is in the reservoir, whose lattice's top layer is at 0.53 m.
    EXPECT_EQ(r.heights[0], 0.0);
    EXPECT_EQ(r.heights[1], 0.0);
    EXPECT_EQ(r.heights[2], 0.0);
    EXPECT_NEAR(r.heights[3], 0.54, 0.05 * o.dp);
    for (double pressure : r.pressures) EXPECT_EQ(pressure, 0.0);  // no water at the obstacle
    EXPECT_NEAR(r.front, 2.01, 1e-5);  // the column's first particles (dam at x = 1.992)
}

// --no-frames: the gauges and the report are written, the particle frames are not.
TEST(GaugeRun, NoFramesStillWritesTheGauges) {
    testing::TempDir dir("no_frames");
    RunOptions o = testing::small_run(0.08, 0.02);
    o.output_dir = dir.path();
    o.write_output = true;
    o.write_frames = false;
    o.gauge_every = 0.005;
    DamBreak problem;
    Simulation sim(problem, o, 0);
    std::ostringstream log;
    sim.run(log);
    const std::vector<std::string> rows = read_lines(dir.path() + "/gauges.csv");
    ASSERT_GE(rows.size(), 5u);  // the header, t = 0 and every 5 ms to 0.02 s
    EXPECT_EQ(rows[0].rfind("time,H1,H2,H3,H4,P1", 0), 0u) << rows[0];
    EXPECT_TRUE(std::filesystem::exists(dir.path() + "/run_report.json"));
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        const std::string ext = entry.path().extension().string();
        EXPECT_TRUE(ext != ".pvd" && ext != ".vtu" && ext != ".pvtu") << entry.path();
    }
}

// Under DBC the log says that the wall sensors and panels read the walls' own pressures; under
// mDBC, which reads the water's, it says nothing.
TEST(GaugeRun, TheLogNotesWhatWallSensorsReadUnderDbc) {
    for (BoundaryModel boundary : {BoundaryModel::kDbc, BoundaryModel::kMdbc}) {
        testing::TempDir dir("dbc_note");
        RunOptions o = testing::small_run(0.08, 0.002);
        o.output_dir = dir.path();
        o.write_output = true;
        o.write_frames = false;
        o.boundary = boundary;
        DamBreak problem;
        Simulation sim(problem, o, 0);
        std::ostringstream log;
        sim.run(log);
        const bool noted =
            log.str().find(
                "note: under --boundary dbc the wall sensors and panels (F_obstacle, "
                "M_obstacle) read the dynamic boundary particles' own pressures") !=
            std::string::npos;
        EXPECT_EQ(noted, boundary == BoundaryModel::kDbc) << log.str();
    }
}

// --- Rows of time averages (--gauge-average) ----------------------------------------------------

TEST(IntervalAverage, TakesTheTrapezoidalMeanOfEachInterval) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    IntervalAverage a;
    a.add(0.0, {1.0, nan});
    std::vector<double> first = a.take_row();  // no interval yet: the reading itself
    EXPECT_DOUBLE_EQ(first[0], 1.0);
    EXPECT_TRUE(std::isnan(first[1]));
    a.add(1.0, {3.0, 5.0});  // [0, 1]: column 0 means 2; column 1 starts at its first value
    a.add(3.0, {0.0, 7.0});  // [1, 3]: 3, and 12 for column 1
    a.add(3.0, {9.0, 9.0});  // the same time again (a restart's first reading): ignored
    std::vector<double> row = a.take_row();
    EXPECT_DOUBLE_EQ(row[0], (2.0 * 1.0 + 1.5 * 2.0) / 3.0);
    EXPECT_DOUBLE_EQ(row[1], 6.0);  // over [1, 3] alone
    a.add(4.0, {2.0, nan});         // column 1 leaves: its interval has no finite part
    row = a.take_row();
    EXPECT_DOUBLE_EQ(row[0], 1.0);
    EXPECT_TRUE(std::isnan(row[1]));
    // The state goes on where it was taken, as a checkpoint's does.
    a.add(5.0, {4.0, 1.0});
    IntervalAverage resumed(a.state());
    a.add(6.0, {6.0, 3.0});
    resumed.add(6.0, {6.0, 3.0});
    EXPECT_EQ(a.take_row(), resumed.take_row());
    EXPECT_THROW(a.add(5.5, {0.0, 0.0}), std::invalid_argument);
    EXPECT_THROW(a.add(7.0, {0.0}), std::invalid_argument);
}

// gauges.csv's rows as numbers: (time, values).
std::vector<std::pair<double, std::vector<double>>> gauge_rows(const std::string& path) {
    std::vector<std::pair<double, std::vector<double>>> rows;
    const std::vector<std::string> lines = read_lines(path);
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::istringstream line(lines[i]);
        std::string cell;
        std::vector<double> values;
        while (std::getline(line, cell, ',')) values.push_back(std::stod(cell));
        rows.push_back({values.front(), std::vector<double>(values.begin() + 1, values.end())});
    }
    return rows;
}

// A small DamBreak run with rows every `every` (1e-9: at every iteration), averaged or not,
// filtered at `filter_hz` (0: not), written to `dir`; returns `dir`.
std::string small_gauge_run(const std::string& dir, double every, bool average,
                            double filter_hz = 0.0) {
    RunOptions o = testing::small_run(0.08, 0.03);
    o.output_dir = dir;
    o.write_output = true;
    o.write_frames = false;
    o.gauge_every = every;
    o.gauge_average = average;
    o.gauge_filter_hz = filter_hz;
    DamBreak problem;
    Simulation sim(problem, o, 0);
    std::ostringstream log;
    sim.run(log);
    return dir;
}

TEST(GaugeRun, AveragedRowsAreTheMeansOfTheReadingsAtEveryIteration) {
    testing::TempDir dir("averaged");
    const auto each =
        gauge_rows(small_gauge_run(dir.path() + "/each", 1e-9, false) + "/gauges.csv");
    const auto means =
        gauge_rows(small_gauge_run(dir.path() + "/means", 0.004, true) + "/gauges.csv");
    ASSERT_GE(each.size(), 40u);
    ASSERT_GE(means.size(), 8u);
    EXPECT_EQ(means.front(), each.front());  // the first row: the readings at t = 0
    std::size_t at = 0, differ = 0;  // `each`'s row at the start of a `means` row's interval
    for (std::size_t r = 1; r < means.size(); ++r) {
        const auto& [time, values] = means[r];
        std::vector<double> sums(values.size(), 0.0), spans(values.size(), 0.0);
        std::size_t k = at;
        for (; k + 1 < each.size() && each[k].first < time; ++k) {
            const double span = each[k + 1].first - each[k].first;
            for (std::size_t c = 0; c < values.size(); ++c) {
                const double v0 = each[k].second[c], v1 = each[k + 1].second[c];
                if (std::isnan(v0) || std::isnan(v1)) continue;
                sums[c] += 0.5 * (v0 + v1) * span;
                spans[c] += span;
            }
        }
        ASSERT_EQ(each[k].first, time) << "row " << r << ": read at another iteration";
        for (std::size_t c = 0; c < values.size(); ++c) {
            const double expected = spans[c] > 0.0 ? sums[c] / spans[c] : each[k].second[c];
            if (std::isnan(expected)) {
                EXPECT_TRUE(std::isnan(values[c])) << "row " << r << ", column " << c;
                continue;
            }
            // gauges.csv holds 9 significant digits
            EXPECT_NEAR(values[c], expected, 1e-7 * (1.0 + std::fabs(expected)))
                << "row " << r << ", column " << c;
            if (std::fabs(values[c] - each[k].second[c]) > 1e-6 * (1.0 + std::fabs(expected)))
                ++differ;
        }
        at = k;
    }
    EXPECT_GT(differ, means.size());  // a mean is not the reading at its row's time
}

// With --gauge-average the filter takes the readings at every iteration: gauges_filtered.csv's
// rows are those of a run with a row at every iteration, filtered, at the same times, digit for
// digit; the rows' own filter (what the filter took before) gives other numbers.
TEST(GaugeRun, FilteredRowsOfAnAveragedRunFilterTheReadingsAtEveryIteration) {
    testing::TempDir dir("filtered");
    constexpr double kCutoff = 50.0;  // reach 10.6 ms: half a dozen iterations either side
    const std::string each = small_gauge_run(dir.path() + "/each", 1e-9, false, kCutoff);
    const std::string averaged = small_gauge_run(dir.path() + "/averaged", 0.004, true, kCutoff);
    const std::vector<std::string> each_lines = read_lines(each + "/gauges_filtered.csv");
    const std::vector<std::string> lines = read_lines(averaged + "/gauges_filtered.csv");
    ASSERT_EQ(lines.size(), read_lines(averaged + "/gauges.csv").size());
    ASSERT_GE(lines.size(), 9u);
    ASSERT_GE(each_lines.size(), 4 * lines.size());
    EXPECT_EQ(lines[0], each_lines[0]);  // the columns
    std::size_t k = 1;
    for (std::size_t r = 1; r < lines.size(); ++r) {
        const std::string time = lines[r].substr(0, lines[r].find(','));
        while (k < each_lines.size() && each_lines[k].substr(0, each_lines[k].find(',')) != time)
            ++k;
        ASSERT_LT(k, each_lines.size()) << "no reading at the row's time " << time;
        EXPECT_EQ(lines[r], each_lines[k]);
    }
    // Filtering the averaged run's rows instead gives other numbers.
    const auto rows = gauge_rows(averaged + "/gauges.csv");
    const auto filtered = gauge_rows(averaged + "/gauges_filtered.csv");
    std::vector<double> times;
    for (const auto& row : rows) times.push_back(row.first);
    std::size_t differ = 0;
    for (std::size_t c = 0; c < rows.front().second.size(); ++c) {
        std::vector<double> series;
        for (const auto& row : rows) series.push_back(row.second[c]);
        const std::vector<double> of_rows = gaussian_low_pass(times, series, kCutoff);
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const double a = of_rows[r], b = filtered[r].second[c];
            if (std::isfinite(a) && std::fabs(a - b) > 1e-6 * (1.0 + std::fabs(a))) ++differ;
        }
    }
    EXPECT_GT(differ, rows.size());
    // gauges_peaks.csv: each column's largest and smallest filtered value over every iteration,
    // as the every-iteration run's filtered rows have them, and a time at which they do.
    const auto each_rows = gauge_rows(each + "/gauges_filtered.csv");
    const std::vector<std::string> peaks = read_lines(averaged + "/gauges_peaks.csv");
    ASSERT_EQ(peaks.size(), 1 + rows.front().second.size());
    EXPECT_EQ(peaks[0], "column,largest,time_of_largest,smallest,time_of_smallest");
    std::size_t checked = 0;
    for (std::size_t c = 0; c + 1 < peaks.size(); ++c) {
        std::vector<std::string> cells;
        std::istringstream line(peaks[c + 1]);
        for (std::string cell; std::getline(line, cell, ',');) cells.push_back(cell);
        ASSERT_EQ(cells.size(), 5u) << peaks[c + 1];
        double largest = -INFINITY, smallest = INFINITY;
        for (const auto& [time, values] : each_rows) {
            if (std::isnan(values[c])) continue;
            largest = std::max(largest, values[c]);
            smallest = std::min(smallest, values[c]);
        }
        if (std::isinf(largest)) continue;  // a column with no finite value
        EXPECT_EQ(std::stod(cells[1]), largest) << peaks[c + 1];
        EXPECT_EQ(std::stod(cells[3]), smallest) << peaks[c + 1];
        const auto value_at = [&](const std::string& time) {
            for (const auto& [t, values] : each_rows) {
                if (t == std::stod(time)) return values[c];
            }
            return double(NAN);
        };
        EXPECT_EQ(value_at(cells[2]), largest) << peaks[c + 1];
        EXPECT_EQ(value_at(cells[4]), smallest) << peaks[c + 1];
        ++checked;
    }
    EXPECT_GE(checked, 4u);
}

}  // namespace
}  // namespace sph
