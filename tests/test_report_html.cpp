// report.html (src/report/report_html.h): a short DamBreak run on two CPU devices leaves one beside
// run_report.json, well formed, self-contained, with a plot titled by each gauges.csv column, the
// loads together, the time breakdown, the balancing history and the settings; a run with
// --no-output and a failed run leave one too. Also the page's parts on made-up input:
// load_balance.csv read back (and refused, naming the line, where it is not one), a long series
// thinned to the page's budget with its peak kept, and text escaped.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "dam_break.h"
#include "driver/run_report_files.h"
#include "driver/simulation.h"
#include "multi_device/load_balance_log.h"
#include "report/balance_history.h"
#include "report/report_html.h"
#include "test_support.h"

namespace sph {
namespace {

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// Empty when every element of the page is closed in the order opened (void elements written
// self-closed, as the page writes them), attribute values are quoted, and no '&' stands outside
// an entity; else what is wrong and where. The style sheet is skipped as text.
std::string html_problem(const std::string& html) {
    const std::string doctype = "<!DOCTYPE html>\n";
    if (html.compare(0, doctype.size(), doctype) != 0) return "no <!DOCTYPE html> first";
    std::vector<std::string> open;
    for (std::size_t i = doctype.size(); i < html.size();) {
        if (html[i] == '&') {
            const std::size_t semicolon = html.find(';', i);
            const std::string entity = html.substr(i, semicolon - i + 1);
            if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
                entity != "&apos;")
                return "bare & at " + std::to_string(i);
        }
        if (html[i] == '>') return "stray > at " + std::to_string(i);
        if (html[i] != '<') {
            ++i;
            continue;
        }
        const bool closing = html.compare(i, 2, "</") == 0;
        const std::size_t name_at = i + (closing ? 2 : 1);
        const std::size_t name_end = html.find_first_of(" />\n", name_at);
        if (name_end == std::string::npos || name_end == name_at)
            return "no name at " + std::to_string(i);
        const std::string name = html.substr(name_at, name_end - name_at);
        std::size_t j = name_end;
        for (; j < html.size() && html[j] != '>'; ++j) {
            if (html[j] == '<') return "< inside a tag at " + std::to_string(j);
            if (html[j] == '"') {
                j = html.find('"', j + 1);
                if (j == std::string::npos) return "unclosed quote in <" + name + ">";
            }
        }
        if (j == html.size()) return "unclosed tag <" + name + ">";
        if (closing) {
            if (open.empty() || open.back() != name)
                return "</" + name + "> closes <" + (open.empty() ? "" : open.back()) + ">";
            open.pop_back();
        } else if (html[j - 1] != '/') {
            open.push_back(name);
        }
        i = j + 1;
        if (!closing && name == "style") {  // CSS is text: on to its end tag
            i = html.find("</style>", i);
            if (i == std::string::npos) return "<style> never closed";
        }
    }
    return open.empty() ? "" : "<" + open.back() + "> never closed";
}

// The columns of a gauges.csv's header, after "time".
std::vector<std::string> gauge_columns(const std::string& path) {
    const std::vector<std::string> lines = testing::read_lines(path);
    std::vector<std::string> columns;
    if (lines.empty()) return columns;
    std::stringstream header(lines[0]);
    for (std::string column; std::getline(header, column, ',');) columns.push_back(column);
    columns.erase(columns.begin());
    return columns;
}

// A plot's title, as svg_plot.cpp writes it.
std::string plot_title(const std::string& name) {
    return "font-weight=\"bold\">" + name + "</text>";
}

RunOptions dam_break_options(const std::string& dir) {
    RunOptions o = testing::small_run(0.04, 0.02);
    o.devices = DeviceSelection::cpu(2);
    o.threads = 1;
    o.output_dir = dir;
    o.write_output = true;
    o.write_frames = false;
    o.gauge_every = 0.004;
    // A disc on the obstacle's face towards the dam, so that the wall sensors have a section.
    WallSensor disc;
    disc.name = "W1";
    disc.x = DamBreak::kObstacleHi[0], disc.y = 0.5, disc.z = 0.05;
    disc.axis = 0;
    disc.direction = +1;
    disc.diameter = 0.04;
    o.walls.push_back(disc);
    return o;
}

TEST(ReportHtml, DamBreakRunLeavesAPageWithEveryInstrumentPlotted) {
    testing::TempDir dir("report-html");
    testing::run_reported(DamBreak(), dam_break_options(dir.path()));
    const std::string page = testing::read_text(dir.path() + "/report.html");
    ASSERT_FALSE(page.empty()) << "no report.html beside run_report.json";
    EXPECT_TRUE(std::filesystem::exists(dir.path() + "/run_report.json"));
    EXPECT_EQ(html_problem(page), "");
    // Self-contained: nothing to fetch, nothing to run.
    for (const char* outside : {"<script", "<link", "<img", "src=", "@import", "url("})
        EXPECT_EQ(count(page, outside), 0) << outside;
    EXPECT_EQ(count(page, "href=\"http"), 0);

    // A plot for each column of gauges.csv, titled by it: heights, probes, the disc, the panel,
    // the moment and the front.
    const std::vector<std::string> columns = gauge_columns(dir.path() + "/gauges.csv");
    ASSERT_EQ(columns.size(), 4u + 8u + 3u + 1u);
    for (const std::string& column : columns)
        EXPECT_EQ(count(page, plot_title(column)), 1) << column;
    for (const char* section :
         {">Water heights</h3>", ">Probe pressures</h3>", ">Wall sensors</h3>",
          ">Wall panels: forces</h3>", ">Wall panels: moments</h3>", ">Surge front</h3>"})
        EXPECT_EQ(count(page, section), 1) << section;
    // The loads together, the time breakdown, the balancing history.
    EXPECT_EQ(count(page, plot_title("Forces on the wall panels")), 1);
    EXPECT_EQ(count(page, plot_title("Moments about the panels&apos; edges")), 1);
    EXPECT_EQ(count(page, plot_title("Each device&apos;s time loop, stage by stage")), 1);
    for (const char* stage : {"BuildNeibs", "Forces", "MinimumScan", "Euler", "rebuild wait"})
        EXPECT_GE(count(page, "<th scope=\"row\">" + std::string(stage) + "</th>"), 1) << stage;
    EXPECT_EQ(count(page, plot_title("Slices per device")), 1);
    EXPECT_EQ(count(page, plot_title("Particles per device")), 1);
    const int plots = int(columns.size()) + 2 + 1 + 3;
    EXPECT_EQ(count(page, "<svg "), plots);
    EXPECT_EQ(count(page, "</svg>"), plots);
    // The settings: the run, its options and its physics.
    EXPECT_EQ(count(page, "<caption>The run</caption>"), 1);
    EXPECT_EQ(count(page, "<caption>Options</caption>"), 1);
    EXPECT_EQ(count(page, "<th scope=\"row\">--t-end</th><td class=\"num\">0.02 s</td>"), 1);
    EXPECT_EQ(count(page, "<th scope=\"row\">alpha</th><td class=\"num\">0.05</td>"), 1);
    EXPECT_EQ(count(page, "<p class=\"status\">completed: "), 1);
}

TEST(ReportHtml, NoOutputStillWritesThePageWithoutInstruments) {
    testing::TempDir dir("report-html-none");
    RunOptions o = dam_break_options(dir.path());
    o.write_output = false;
    o.devices = DeviceSelection::cpu(1);
    testing::run_reported(DamBreak(), o);
    const std::string page = testing::read_text(dir.path() + "/report.html");
    ASSERT_FALSE(page.empty());
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/gauges.csv"));
    EXPECT_EQ(html_problem(page), "");
    EXPECT_EQ(count(page, "No gauges.csv: the run was made with --no-output."), 2);  // and loads
    EXPECT_EQ(count(page, "One device: nothing to balance."), 1);
    EXPECT_EQ(count(page, "<svg "), 1);  // the time breakdown
}

TEST(ReportHtml, FailedRunLeavesAPageSayingWhy) {
    testing::TempDir dir("report-html-failed");
    RunOptions o = dam_break_options(dir.path());
    o.fault_device = 1;
    o.fault_iteration = 5;
    const DamBreak problem;  // the simulation holds it
    Simulation sim(problem, o, 0);
    std::ostringstream log;
    EXPECT_THROW(sim.run(log), std::exception);
    const std::string page = testing::read_text(dir.path() + "/report.html");
    ASSERT_FALSE(page.empty());
    EXPECT_EQ(html_problem(page), "");
    EXPECT_EQ(count(page, "<p class=\"status failed\">failed: "), 1);
    EXPECT_EQ(count(page, "<p class=\"error\">"), 1);
    EXPECT_EQ(count(page, plot_title("H1")), 1);  // the rows written before it failed
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
}

TEST(BalanceHistory, ReadsEachDevicesSeriesAndRefusesAnotherFileNamingTheLine) {
    testing::TempDir dir("balance-history");
    const std::string path = dir.path() + "/load_balance.csv";
    EXPECT_FALSE(read_balance_history(path).has_value());  // no file: no balancing
    const std::string header = std::string(LoadBalanceLog::kHeader) + "\n";
    write_file(path, header +
                         "0,16,0.01,0,0,10,500,0.002,giving,0,9,\n"  // 12 fields: not a row
                         "0,16,0.01,1,10,20,400,0.001,taking,9,20\n");
    try {
        read_balance_history(path);
        ADD_FAILURE() << "a row of 12 fields was read";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(path + ", line 2: 12 fields"), std::string::npos)
            << e.what();
    }
    // Two devices, two decisions (the second after a restart: its step counts from 0 again).
    write_file(path, header +
                         "0,16,0.01,0,0,10,500,0.002,giving,0,9\n"
                         "0,16,0.01,1,10,20,400,0.001,taking,9,20\n"
                         "0,24,0.02,0,0,9,450,0.0015,none,0,9\n"
                         "0,24,0.02,1,9,20,450,0.0015,none,9,20\n");
    const std::optional<BalanceHistory> h = read_balance_history(path);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->devices, 2);
    EXPECT_EQ(h->times, (std::vector<double>{0.01, 0.02}));
    EXPECT_EQ(h->slices[0], (std::vector<double>{9, 9}));
    EXPECT_EQ(h->slices[1], (std::vector<double>{11, 11}));
    EXPECT_EQ(h->particles[1], (std::vector<double>{400, 450}));
    EXPECT_EQ(h->forces_seconds[0], (std::vector<double>{0.002, 0.0015}));
    write_file(path, header + "0,16,0.01,1,0,10,500,0.002,giving,0,9\n");
    EXPECT_THROW(read_balance_history(path), std::runtime_error);  // no device 0
    write_file(path, "step,iteration\n");
    EXPECT_THROW(read_balance_history(path), std::runtime_error);
}

// A long run: 200,000 rows, one impact peak. The page stays small and the peak is drawn.
TEST(ReportHtml, LongSeriesAreThinnedToThePagesBudgetKeepingThePeak) {
    testing::TempDir dir("report-html-long");
    std::ostringstream csv;
    csv << "time,F<1>&,H1\n";
    const int rows = 200000;
    for (int r = 0; r < rows; ++r) csv << r * 1e-4 << "," << (r == 123457 ? 5000 : 1) << ",0.5\n";
    write_file(dir.path() + "/gauges.csv", csv.str());
    ReportHtmlSources sources;
    sources.gauges_csv = dir.path() + "/gauges.csv";
    sources.columns = {{"F<1>&", ColumnKind::kPanelForce}, {"H1", ColumnKind::kWaterHeight}};
    RunReport report;
    report.problem = "Made-up";
    const std::string page = report_html_text(report, sources);
    EXPECT_EQ(html_problem(page), "");
    EXPECT_EQ(count(page, plot_title("F&lt;1&gt;&amp;")), 1);
    EXPECT_LT(page.size(), 400u * 1024u) << "a long run's page should stay small";
    EXPECT_EQ(count(page, "keeps at most 2000 of its 200000 points"), 3);  // F twice, H1
    // The peak, 5000 N, sets the force axis's top tick on both plots of the panel.
    EXPECT_EQ(count(page, "text-anchor=\"end\">5000</text>"), 2);
    EXPECT_EQ(count(page, "<td class=\"num\">5000</td><td class=\"num\">12.3457</td>"), 2);
}

TEST(ReportHtml, InstrumentColumnsAreSortedByWhatTheyMeasure) {
    Instruments in;
    in.gauges.push_back({"H", 0, 0});
    in.probes.push_back({"P", 0, 0, 0});
    const double lo[3] = {0, 0, 0}, hi[3] = {0, 1, 1};
    WallSensor disc;
    disc.name = "W";
    disc.diameter = 0.01;
    in.walls = {disc, wall_panel("F", lo, hi, 0, 1), wall_moment("M", lo, hi, 0, 1, 2, 1),
                wall_surface("S", lo, std::array<double, 3>{1, 1, 1}.data(), 0, 1)};
    in.front = FrontTracker{};
    const std::vector<InstrumentColumn> columns = instrument_column_kinds(in);
    const std::vector<ColumnKind> expected = {ColumnKind::kWaterHeight,  ColumnKind::kProbePressure,
                                              ColumnKind::kWallPressure, ColumnKind::kPanelForce,
                                              ColumnKind::kPanelMoment,  ColumnKind::kSurfaceForce,
                                              ColumnKind::kFront};
    ASSERT_EQ(columns.size(), expected.size());
    for (std::size_t c = 0; c < columns.size(); ++c) EXPECT_EQ(columns[c].kind, expected[c]) << c;
    EXPECT_EQ(columns.back().name, "front_x");
}

}  // namespace
}  // namespace sph
