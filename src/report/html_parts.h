// The pieces report.html is made of, as text: escaped words, numbers as the reports print them,
// tables and figures. Every element opened here is closed here, so that a page made of these
// pieces is well formed whatever it holds.
#pragma once

#include <string>
#include <vector>

namespace sph {

// Text safe inside an element or a double-quoted attribute (& < > " ' escaped).
std::string html_escape(const std::string& text);

// "%.6g", as the console's report and the tree report print numbers; "—" for NaN.
std::string html_number(double value);

// Seconds to a millisecond and their share of `whole`: "1.234 s (12.3 %)".
std::string seconds_and_share(double seconds, double whole);

// A table of text cells (escaped when written). Cells that read as numbers are aligned right.
struct HtmlTable {
    std::string caption;  // empty: none
    std::vector<std::string> head;
    std::vector<std::vector<std::string>> rows;
};
std::string html_table(const HtmlTable& table);

// An inline SVG picture with its caption (escaped) under it.
std::string html_figure(const std::string& svg, const std::string& caption);

// A paragraph of text (escaped), with a class for the style sheet when given.
std::string html_paragraph(const std::string& text, const std::string& css_class = "");

}  // namespace sph
