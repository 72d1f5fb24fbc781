// report.html's pieces (html_parts.h).
#include "report/html_parts.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "xml_escape.h"

namespace sph {

std::string html_escape(const std::string& text) {
    return xml_attribute_escape(text);
}

std::string html_number(double value) {
    if (std::isnan(value)) return "—";
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string seconds_and_share(double seconds, double whole) {
    char text[64];
    std::snprintf(text, sizeof text, "%.3f s (%.1f %%)", seconds,
                  whole > 0.0 ? 100.0 * seconds / whole : 0.0);
    return text;
}

namespace {

// Whether a cell is a figure (a number, a number with its unit, a share): aligned right.
bool numeric(const std::string& cell) {
    if (cell.empty()) return false;
    if (cell == "—") return true;
    char* end = nullptr;
    std::strtod(cell.c_str(), &end);
    return end != cell.c_str() && (*end == '\0' || *end == ' ');
}

}  // namespace

std::string html_table(const HtmlTable& table) {
    std::ostringstream out;
    out << "<table>\n";
    if (!table.caption.empty()) out << "<caption>" << html_escape(table.caption) << "</caption>\n";
    if (!table.head.empty()) {
        out << "<thead><tr>";
        for (const std::string& h : table.head) out << "<th>" << html_escape(h) << "</th>";
        out << "</tr></thead>\n";
    }
    out << "<tbody>\n";
    for (const std::vector<std::string>& row : table.rows) {
        out << "<tr>";
        for (std::size_t c = 0; c < row.size(); ++c) {
            // The first column names the row.
            const char* open = c == 0            ? "<th scope=\"row\">"
                               : numeric(row[c]) ? "<td class=\"num\">"
                                                 : "<td>";
            out << open << html_escape(row[c]) << (c == 0 ? "</th>" : "</td>");
        }
        out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
    return out.str();
}

std::string html_figure(const std::string& svg, const std::string& caption) {
    return "<figure>\n" + svg + "<figcaption>" + html_escape(caption) +
           "</figcaption>\n</figure>\n";
}

std::string html_paragraph(const std::string& text, const std::string& css_class) {
    const std::string open =
        css_class.empty() ? "<p>" : "<p class=\"" + html_escape(css_class) + "\">";
    return open + html_escape(text) + "</p>\n";
}

}  // namespace sph
