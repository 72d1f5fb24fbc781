// The tree report of a what-if run, on a synthetic tree whose figures are known exactly: base,
// branch A (adds instrument G_new, NaN before its decision time), branch B (failed, no
// gauges.csv) and C, a branch of A. Checks the figures in tree_report.csv, the markdown's note of
// the missing file, the error naming a malformed gauges.csv, and what goes into the plots (how they
// are drawn: test_svg_plot).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "report/svg_plot.h"
#include "report/tree_report.h"
#include "test_support.h"

namespace sph {
namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

// Base's rows up to A's decision (0.4), then A's; A stops at 0.8, after C's decision at 0.7.
const char* const kBase =
    "time,H1,P1\n"
    "0,0,1\n"
    "0.2,0.5,2\n"
    "0.4,1,3\n"
    "0.6,0.8,2.5\n"
    "0.8,0.6,2\n"
    "1,0.4,nan\n";
const char* const kA =
    "time,H1,P1,G_new\n"
    "0,0,1,nan\n"
    "0.2,0.5,2,nan\n"
    "0.4,1.2,3.5,5\n"
    "0.6,1.5,3,6\n"
    "0.8,0.9,2.8,4\n";
const char* const kC =
    "time,H1,P1,G_new\n"
    "0,0,1,nan\n"
    "0.2,0.5,2,nan\n"
    "0.4,1.2,3.5,5\n"
    "0.6,1.5,3,6\n"
    "0.8,2,2,7\n"
    "1,1.8,1,nan\n";

std::vector<TreeNode> tree_nodes() {
    return {{"base", "", 0.0, "completed"},
            {"A", "base", 0.4, "branched"},
            {"B", "base", 0.6, "failed"},
            {"C", "A", 0.7, "completed"}};
}

void write_tree(const std::string& root) {
    write_file(fs::path(root) / "base" / "gauges.csv", kBase);
    write_file(fs::path(root) / "A" / "gauges.csv", kA);
    fs::create_directories(fs::path(root) / "B");  // failed: its folder, no gauges.csv
    write_file(fs::path(root) / "C" / "gauges.csv", kC);
}

// tree_report.csv's fields by (instrument, scenario).
using CsvRows = std::map<std::pair<std::string, std::string>, std::map<std::string, std::string>>;

CsvRows read_report_csv(const std::string& root) {
    const std::vector<std::string> lines = testing::read_lines(root + "/tree_report.csv");
    const auto split = [](const std::string& line) {
        std::vector<std::string> fields;
        std::stringstream in(line);
        for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
        if (!line.empty() && line.back() == ',') fields.push_back("");
        return fields;
    };
    CsvRows rows;
    EXPECT_FALSE(lines.empty());
    if (lines.empty()) return rows;
    const std::vector<std::string> header = split(lines[0]);
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const std::vector<std::string> fields = split(lines[i]);
        EXPECT_EQ(fields.size(), header.size()) << lines[i];
        std::map<std::string, std::string>& row = rows[{fields.at(0), fields.at(1)}];
        for (std::size_t c = 0; c < fields.size() && c < header.size(); ++c)
            row[header[c]] = fields[c];
    }
    return rows;
}

double value(const CsvRows& rows, const std::string& instrument, const std::string& scenario,
             const std::string& field) {
    const std::string& text = rows.at({instrument, scenario}).at(field);
    EXPECT_FALSE(text.empty()) << instrument << " " << scenario << " " << field;
    return text.empty() ? -1e300 : std::stod(text);
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

TEST(TreeReport, FiguresOverEachScenariosWindow) {
    testing::TempDir dir("tree_report");
    write_tree(dir.path());
    const std::vector<std::string> written = write_tree_report(dir.path(), tree_nodes());
    const std::vector<std::string> expected = {
        dir.path() + "/tree_report.md", dir.path() + "/tree_report.csv",
        dir.path() + "/tree_report/H1.svg", dir.path() + "/tree_report/P1.svg",
        dir.path() + "/tree_report/G_new.svg"};
    EXPECT_EQ(written, expected);
    for (const std::string& path : written) EXPECT_TRUE(fs::is_regular_file(path)) << path;

    const CsvRows rows = read_report_csv(dir.path());
    EXPECT_EQ(rows.size(), 8u);  // H1, P1: base, A, C; G_new: A, C
    // Base over all its rows.
    EXPECT_DOUBLE_EQ(value(rows, "H1", "base", "max"), 1.0);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "base", "time_of_max"), 0.4);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "base", "min"), 0.0);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "base", "mean"), 0.55);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "base", "last"), 0.4);
    EXPECT_EQ(rows.at({"H1", "base"}).at("max_minus_parent_max"), "");
    // P1's last row is NaN: ignored for the mean and the last value.
    EXPECT_DOUBLE_EQ(value(rows, "P1", "base", "mean"), 2.1);
    EXPECT_DOUBLE_EQ(value(rows, "P1", "base", "last"), 2.0);
    // A from t = 0.4: 1.2, 1.5, 0.9 against base's 1, 0.8, 0.6, 0.4 there.
    EXPECT_DOUBLE_EQ(value(rows, "H1", "A", "max"), 1.5);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "A", "time_of_max"), 0.6);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "A", "min"), 0.9);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "A", "mean"), 1.2);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "A", "last"), 0.9);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "A", "max_minus_parent_max"), 0.5);
    EXPECT_DOUBLE_EQ(value(rows, "P1", "A", "max_minus_parent_max"), 0.5);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "A", "decision_time"), 0.4);
    EXPECT_EQ(rows.at({"H1", "A"}).at("parent"), "base");
    // C from t = 0.7 (2, 1.8) against A's rows there, which stop at 0.8 (0.9).
    EXPECT_DOUBLE_EQ(value(rows, "H1", "C", "max"), 2.0);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "C", "time_of_max"), 0.8);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "C", "last"), 1.8);
    EXPECT_NEAR(value(rows, "H1", "C", "max_minus_parent_max"), 1.1, 1e-12);
    EXPECT_DOUBLE_EQ(value(rows, "P1", "C", "max_minus_parent_max"), 2.0 - 2.8);
    EXPECT_EQ(rows.at({"P1", "C"}).at("parent"), "A");
}

TEST(TreeReport, ColumnAddedByABranchIsNanBeforeItsDecision) {
    testing::TempDir dir("tree_report");
    write_tree(dir.path());
    write_tree_report(dir.path(), tree_nodes());
    const CsvRows rows = read_report_csv(dir.path());
    EXPECT_EQ(rows.count({"G_new", "base"}), 0u);
    EXPECT_DOUBLE_EQ(value(rows, "G_new", "A", "max"), 6.0);
    EXPECT_DOUBLE_EQ(value(rows, "G_new", "A", "time_of_max"), 0.6);
    EXPECT_DOUBLE_EQ(value(rows, "G_new", "A", "min"), 4.0);
    EXPECT_DOUBLE_EQ(value(rows, "G_new", "A", "mean"), 5.0);
    EXPECT_DOUBLE_EQ(value(rows, "G_new", "A", "last"), 4.0);
    EXPECT_EQ(rows.at({"G_new", "A"}).at("max_minus_parent_max"), "");  // base has no G_new
    EXPECT_DOUBLE_EQ(value(rows, "G_new", "C", "max"), 7.0);
    EXPECT_DOUBLE_EQ(value(rows, "G_new", "C", "last"), 7.0);
    EXPECT_DOUBLE_EQ(value(rows, "G_new", "C", "max_minus_parent_max"), 3.0);

    const std::string md = testing::read_text(dir.path() + "/tree_report.md");
    EXPECT_NE(md.find("## G_new\n\n![G_new](tree_report/G_new.svg)"), std::string::npos);
    EXPECT_NE(md.find("| A | 0.4 | 6 | 0.6 | 4 | 5 | 4 | — |"), std::string::npos) << md;
    // Instruments in first-seen order, base's first.
    EXPECT_LT(md.find("## H1"), md.find("## P1"));
    EXPECT_LT(md.find("## P1"), md.find("## G_new"));
}

TEST(TreeReport, FailedBranchWithoutGaugesIsReportedNotFatal) {
    testing::TempDir dir("tree_report");
    write_tree(dir.path());
    ASSERT_NO_THROW(write_tree_report(dir.path(), tree_nodes()));
    const std::string md = testing::read_text(dir.path() + "/tree_report.md");
    EXPECT_NE(md.find("| B | base | 0.6 | failed | no gauges.csv |"), std::string::npos) << md;
    EXPECT_NE(md.find("Left out of the figures, no gauges.csv: B."), std::string::npos) << md;
    const CsvRows rows = read_report_csv(dir.path());
    for (const auto& row : rows) EXPECT_NE(row.first.second, "B");
}

TEST(TreeReport, MalformedGaugesThrowsNamingTheFile) {
    const std::pair<const char*, const char*> cases[] = {
        {"a short row", "time,H1,P1,G_new\n0,0,1,nan\n0.2,0.5\n"},
        {"not a number", "time,H1,P1,G_new\n0,0,1,nan\n0.2,0.5,x,1\n"},
        {"no time column", "t,H1\n0,1\n"},
        {"empty", ""},
    };
    for (const auto& [what, text] : cases) {
        testing::TempDir dir("tree_report");
        write_tree(dir.path());
        const std::string path = dir.path() + "/C/gauges.csv";
        write_file(path, text);
        try {
            write_tree_report(dir.path(), tree_nodes());
            ADD_FAILURE() << what << ": no error";
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find(path), std::string::npos)
                << what << ": " << e.what();
        }
    }
}

// The plots themselves are test_svg_plot's; here, what the report puts in them.
TEST(TreeReport, PlotShowsEachScenarioFromItsDecision) {
    testing::TempDir dir("tree_report");
    write_tree(dir.path());
    write_tree_report(dir.path(), tree_nodes());
    const std::string svg = testing::read_text(dir.path() + "/tree_report/H1.svg");
    EXPECT_EQ(count(svg, "<polyline"), 3);                                // base, A, C
    EXPECT_EQ(count(svg, "stroke-dasharray"), 2);                         // A's and C's decisions
    EXPECT_EQ(count(svg, "stroke=\"#000000\" stroke-width=\"2.5\""), 2);  // base: line, legend
    EXPECT_NE(svg.find(">t [s]</text>"), std::string::npos);
    EXPECT_NE(svg.find(">C (t 0.7 s)</text>"), std::string::npos);
    // A branch keeps its colour in every plot, B's (no gauges.csv) left unused: A's and C's each
    // on a marker, a line (C's in G_new a dot, its one value) and a legend entry.
    const std::string g_new = testing::read_text(dir.path() + "/tree_report/G_new.svg");
    for (const std::string* plot : {&svg, &g_new}) {
        EXPECT_EQ(count(*plot, palette_colour(0)), 3);
        EXPECT_EQ(count(*plot, palette_colour(1)), 0);
        EXPECT_EQ(count(*plot, palette_colour(2)), 3);
    }
    EXPECT_EQ(count(g_new, "<circle"), 1);
}

TEST(TreeReport, BranchPlotStartsAtItsDecisionAndAnEmptyParentWindowGivesNoDifference) {
    testing::TempDir dir("tree_report");
    write_file(fs::path(dir.path()) / "base" / "gauges.csv",
               "time,p/x\n0,1\n0.1,2\n0.2,nan\n0.3,4\n0.4,3\n");
    write_file(fs::path(dir.path()) / "late" / "gauges.csv",
               "time,p/x\n0,1\n0.1,2\n0.2,nan\n0.5,9\n0.6,8\n");
    const std::vector<TreeNode> nodes = {{"base", "", 0.0, "completed"},
                                         {"late", "base", 0.45, "completed"}};
    const std::vector<std::string> written = write_tree_report(dir.path(), nodes);
    ASSERT_EQ(written.size(), 3u);
    EXPECT_EQ(written[2], dir.path() + "/tree_report/p_x.svg");
    const std::string svg = testing::read_text(written[2]);
    // Base in two pieces about its NaN; late in one, its rows before 0.45 (its parent's) left out.
    EXPECT_EQ(count(svg, "<polyline"), 3);
    const CsvRows rows = read_report_csv(dir.path());
    EXPECT_DOUBLE_EQ(value(rows, "p/x", "base", "max"), 4.0);
    EXPECT_DOUBLE_EQ(value(rows, "p/x", "base", "time_of_max"), 0.3);
    EXPECT_DOUBLE_EQ(value(rows, "p/x", "late", "max"), 9.0);
    EXPECT_EQ(rows.at({"p/x", "late"}).at("max_minus_parent_max"), "");  // base ends at 0.4
}

// The plot thins a long series (test_svg_plot); the figures must not.
TEST(TreeReport, FiguresSeeEveryRowOfALongSeries) {
    testing::TempDir dir("tree_report");
    std::ostringstream csv;
    csv << "time,H1\n";
    for (int i = 0; i < 10001; ++i) csv << i * 1e-3 << "," << (i == 7777 ? 5.0 : 1.0) << "\n";
    write_file(fs::path(dir.path()) / "base" / "gauges.csv", csv.str());
    write_tree_report(dir.path(), {{"base", "", 0.0, "completed"}});
    const CsvRows rows = read_report_csv(dir.path());
    EXPECT_DOUBLE_EQ(value(rows, "H1", "base", "max"), 5.0);
    EXPECT_DOUBLE_EQ(value(rows, "H1", "base", "time_of_max"), 7.777);
    EXPECT_NEAR(value(rows, "H1", "base", "mean"), 1.0 + 4.0 / 10001, 1e-6);  // to 6 digits
}

}  // namespace
}  // namespace sph
