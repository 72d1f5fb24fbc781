// The report files a run leaves in its output folder at its end, also when it fails:
// run_report.json (report/run_report.h) and report.html (report/report_html.h), the page drawn
// from the run's own files (gauges.csv, gauges_filtered.csv, load_balance.csv), its instruments
// and its options, which only the driver knows.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "driver/run_options.h"
#include "instruments.h"
#include "report/report_html.h"
#include "report/run_report.h"

namespace sph {

// What each gauges.csv column of `instruments` measures, in the columns' order
// (instruments/gauges.h: instrument_columns).
std::vector<InstrumentColumn> instrument_column_kinds(const Instruments& instruments);

// The options that shape a run's output and devices but not its physics (the report holds
// those), as the command line spells them, with their values.
std::vector<std::pair<std::string, std::string>> option_settings(const RunOptions& options);

// Where report.html finds the run's files in `options.output_dir`; `balance_log`: the path of
// the run's load_balance.csv, empty when it has none.
ReportHtmlSources report_html_sources(const RunOptions& options, const Instruments& instruments,
                                      const std::string& balance_log);

// Writes report.html into the output folder. The page is a view of what the run wrote already:
// where it cannot be written the run is not failed for it; `log` gets a warning saying why, and
// a page an earlier run left there is removed.
void write_report_html_or_warn(const RunReport& report, const ReportHtmlSources& sources,
                               const std::string& output_dir, std::ostream& log);

}  // namespace sph
