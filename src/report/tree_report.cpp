// The tree report of a what-if branch run: each scenario's gauges.csv read back, its figures per
// instrument compared with its parent's, written as markdown, CSV and an SVG plot per instrument
// (svg_plot.h draws them).
#include "report/tree_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "atomic_file.h"
#include "report/gauge_table.h"
#include "report/svg_plot.h"

namespace sph {

namespace {

namespace fs = std::filesystem;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const char* const kNoValue = "—";

// --- The scenarios and their figures ---

struct Scenario {
    const TreeNode* node = nullptr;
    std::optional<GaugeTable> gauges;  // none: no gauges.csv
    std::string colour;  // the same in every plot; the base's empty: it is drawn emphasised

    bool is_base() const { return node->parent.empty(); }
    // Its own rows start at its decision time; before, a branch's file repeats its parent's.
    double window_start() const {
        return is_base() ? -std::numeric_limits<double>::infinity() : node->decision_time;
    }
};

// Base first, then the branches in the order given, each keeping its colour in every plot.
std::vector<Scenario> load_scenarios(const std::string& root, const std::vector<TreeNode>& nodes) {
    std::vector<const TreeNode*> order;
    for (const TreeNode& n : nodes)
        if (n.parent.empty()) order.push_back(&n);
    for (const TreeNode& n : nodes)
        if (!n.parent.empty()) order.push_back(&n);
    std::vector<Scenario> scenarios;
    std::size_t branches = 0;
    for (const TreeNode* n : order) {
        Scenario s;
        s.node = n;
        s.gauges = read_gauge_table((fs::path(root) / n->name / "gauges.csv").string());
        if (!s.is_base()) s.colour = palette_colour(branches++);
        scenarios.push_back(std::move(s));
    }
    return scenarios;
}

const Scenario* find_scenario(const std::vector<Scenario>& scenarios, const std::string& name) {
    for (const Scenario& s : scenarios)
        if (s.node->name == name) return &s;
    return nullptr;
}

// Every column of every gauges.csv, each once, in the order first seen (base's first).
std::vector<std::string> instruments_of(const std::vector<Scenario>& scenarios) {
    std::vector<std::string> names;
    for (const Scenario& s : scenarios) {
        if (!s.gauges) continue;
        for (const std::string& c : s.gauges->columns)
            if (std::find(names.begin(), names.end(), c) == names.end()) names.push_back(c);
    }
    return names;
}

// A row printed at a decision time counts as at it, although the CSV keeps 9 digits of the time.
bool in_window(double time, double from) {
    return time >= from - 1e-9 * std::max(1.0, std::fabs(from));
}

struct Figures {
    int count = 0;  // values that are not NaN
    double max = kNaN, time_of_max = kNaN, min = kNaN, mean = kNaN, last = kNaN;
};

Figures figures_of(const GaugeTable& table, int column, double from) {
    Figures f;
    double sum = 0.0;
    const std::vector<double>& values = table.values[column];
    for (std::size_t r = 0; r < values.size(); ++r) {
        const double v = values[r];
        if (std::isnan(v) || !in_window(table.times[r], from)) continue;
        if (f.count == 0 || v > f.max) {
            f.max = v;
            f.time_of_max = table.times[r];
        }
        if (f.count == 0 || v < f.min) f.min = v;
        sum += v;
        f.last = v;
        ++f.count;
    }
    if (f.count > 0) f.mean = sum / f.count;
    return f;
}

// One (instrument, scenario) of the tables.
struct ReportRow {
    const Scenario* scenario = nullptr;
    Figures figures;
    double above_parent = kNaN;  // max less the parent's max over the same window
};

std::vector<ReportRow> rows_of(const std::string& instrument,
                               const std::vector<Scenario>& scenarios) {
    std::vector<ReportRow> rows;
    for (const Scenario& s : scenarios) {
        const int column = s.gauges ? s.gauges->column(instrument) : -1;
        if (column < 0) continue;
        ReportRow row;
        row.scenario = &s;
        row.figures = figures_of(*s.gauges, column, s.window_start());
        const Scenario* parent = s.is_base() ? nullptr : find_scenario(scenarios, s.node->parent);
        const int parent_column =
            parent && parent->gauges ? parent->gauges->column(instrument) : -1;
        if (parent_column >= 0 && row.figures.count > 0) {
            const Figures p = figures_of(*parent->gauges, parent_column, s.window_start());
            if (p.count > 0) row.above_parent = row.figures.max - p.max;
        }
        rows.push_back(row);
    }
    return rows;
}

struct InstrumentReport {
    std::string name;
    std::string stem;  // its plot's file name, without ".svg"
    std::vector<ReportRow> rows;
};

// --- Text ---

// "%.6g"; empty for no value.
std::string number(double v) {
    if (std::isnan(v)) return "";
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

std::string cell(double v) {
    const std::string text = number(v);
    return text.empty() ? kNoValue : text;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
    return text;
}

std::string markdown_escape(const std::string& text) {
    return replace_all(text, "|", "\\|");
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    return "\"" + replace_all(text, "\"", "\"\"") + "\"";
}

// A file name from an instrument's: anything but letters, digits, '_' and '-' becomes '_', and
// names that come out alike are numbered so that no plot overwrites another.
std::vector<std::string> plot_stems(const std::vector<std::string>& instruments) {
    std::vector<std::string> stems;
    std::set<std::string> used;
    for (const std::string& name : instruments) {
        std::string stem = name;
        for (char& c : stem)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
        std::string unique = stem;
        for (int n = 2; !used.insert(unique).second; ++n) unique = stem + "_" + std::to_string(n);
        stems.push_back(unique);
    }
    return stems;
}

// --- The markdown page and the CSV ---

void markdown_scenarios(std::ostream& out, const std::vector<Scenario>& scenarios) {
    out << "## Scenarios\n\n"
        << "| scenario | parent | decision time [s] | status | gauges |\n"
        << "|---|---|---:|---|---|\n";
    std::vector<std::string> left_out;
    for (const Scenario& s : scenarios) {
        const TreeNode& n = *s.node;
        out << "| " << markdown_escape(n.name) << " | "
            << (n.parent.empty() ? kNoValue : markdown_escape(n.parent)) << " | "
            << cell(n.decision_time) << " | " << n.status << " | "
            << (s.gauges ? "gauges.csv" : "no gauges.csv") << " |\n";
        if (!s.gauges) left_out.push_back(n.name);
    }
    if (!left_out.empty()) {
        out << "\nLeft out of the figures, no gauges.csv:";
        for (const std::string& name : left_out) out << " " << markdown_escape(name);
        out << ".\n";
    }
    out << "\n";
}

void markdown_instrument(std::ostream& out, const InstrumentReport& r) {
    out << "## " << markdown_escape(r.name) << "\n\n"
        << "![" << markdown_escape(r.name) << "](tree_report/" << r.stem << ".svg)\n\n"
        << "| scenario | from t [s] | max | t of max [s] | min | mean | last | max − parent |\n"
        << "|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const ReportRow& row : r.rows) {
        const Figures& f = row.figures;
        out << "| " << markdown_escape(row.scenario->node->name) << " | "
            << cell(row.scenario->node->decision_time) << " | " << cell(f.max) << " | "
            << cell(f.time_of_max) << " | " << cell(f.min) << " | " << cell(f.mean) << " | "
            << cell(f.last) << " | " << cell(row.above_parent) << " |\n";
    }
    out << "\n";
}

std::string markdown_text(const std::vector<Scenario>& scenarios,
                          const std::vector<InstrumentReport>& reports) {
    std::ostringstream out;
    out << "# What-if tree report\n\n"
        << "Each instrument's table compares the scenarios of the tree over each one's own rows: "
           "from its decision time on (the base: all its rows), NaN values ignored. It gives the "
           "maximum and the time of it, the minimum, the mean and the last value; \"max − "
           "parent\" is the maximum less the parent's maximum over the same window (the parent's "
           "rows from the branch's decision time on, "
        << kNoValue
        << " when the parent has none there). The same figures are in tree_report.csv; numbers "
           "to 6 significant digits.\n\n";
    markdown_scenarios(out, scenarios);
    if (reports.empty()) out << "No instruments: no scenario has a gauges.csv with a column.\n";
    for (const InstrumentReport& r : reports) markdown_instrument(out, r);
    return out.str();
}

std::string csv_text(const std::vector<InstrumentReport>& reports) {
    std::ostringstream out;
    out << "instrument,scenario,parent,decision_time,max,time_of_max,min,mean,last,"
           "max_minus_parent_max\n";
    for (const InstrumentReport& r : reports) {
        for (const ReportRow& row : r.rows) {
            const TreeNode& n = *row.scenario->node;
            const Figures& f = row.figures;
            out << csv_field(r.name) << ',' << csv_field(n.name) << ',' << csv_field(n.parent)
                << ',' << number(n.decision_time) << ',' << number(f.max) << ','
                << number(f.time_of_max) << ',' << number(f.min) << ',' << number(f.mean) << ','
                << number(f.last) << ',' << number(row.above_parent) << '\n';
        }
    }
    return out.str();
}

// --- The plots ---

// Each scenario's rows in its window, its decision time dashed: the base emphasised, as the
// reference every branch is read against.
std::string svg_text(const InstrumentReport& r) {
    LinePlot plot;
    plot.title = plot.y_label = r.name;
    plot.x_label = "t [s]";
    plot.x_from_zero = true;
    for (const ReportRow& row : r.rows) {
        const Scenario& s = *row.scenario;
        const GaugeTable& g = *s.gauges;
        const std::vector<double>& values = g.values[g.column(r.name)];
        PlotSeries series;
        series.label = s.node->name;
        series.colour = s.colour;
        series.emphasised = s.is_base();
        if (!s.is_base()) {
            series.label += " (t " + number(s.node->decision_time) + " s)";
            series.marker = s.node->decision_time;
        }
        for (std::size_t i = 0; i < g.times.size(); ++i) {
            if (!in_window(g.times[i], s.window_start())) continue;
            series.x.push_back(g.times[i]);
            series.y.push_back(values[i]);
        }
        plot.series.push_back(std::move(series));
    }
    return svg_line_plot(plot);
}

}  // namespace

std::vector<std::string> write_tree_report(const std::string& root,
                                           const std::vector<TreeNode>& nodes) {
    const std::vector<Scenario> scenarios = load_scenarios(root, nodes);
    const std::vector<std::string> instruments = instruments_of(scenarios);
    const std::vector<std::string> stems = plot_stems(instruments);
    std::vector<InstrumentReport> reports;
    for (std::size_t i = 0; i < instruments.size(); ++i) {
        reports.push_back({instruments[i], stems[i], rows_of(instruments[i], scenarios)});
    }

    const fs::path plots = fs::path(root) / "tree_report";
    std::error_code ec;
    fs::create_directories(plots, ec);
    if (ec) throw std::runtime_error("cannot create " + plots.string() + ": " + ec.message());

    std::vector<std::string> written;
    const auto write = [&](const fs::path& path, const std::string& text) {
        write_text_file_atomically(path.string(), text);
        written.push_back(path.string());
    };
    write(fs::path(root) / "tree_report.md", markdown_text(scenarios, reports));
    write(fs::path(root) / "tree_report.csv", csv_text(reports));
    for (const InstrumentReport& r : reports) write(plots / (r.stem + ".svg"), svg_text(r));
    return written;
}

}  // namespace sph
