#include "pvd_series.h"

#include <iomanip>
#include <locale>
#include <sstream>
#include <stdexcept>

#include "atomic_file.h"
#include "xml_escape.h"

namespace sph {

PvdSeries::PvdSeries(std::string pvd_path) : path_(std::move(pvd_path)) {
    rewrite();
}

PvdSeries::PvdSeries(std::string pvd_path, std::vector<std::pair<double, std::string>> entries,
                     std::string note)
    : path_(std::move(pvd_path)), note_(std::move(note)), entries_(std::move(entries)) {
    rewrite();
}

void PvdSeries::add(double time, const std::string& relative_file) {
    entries_.emplace_back(time, relative_file);
    try {
        rewrite();
    } catch (...) {
        entries_.pop_back();  // keep memory in line with the file on disk
        throw;
    }
}

void PvdSeries::rewrite() const {
    std::ostringstream xml;
    // The classic locale keeps a '.' decimal point whatever the process locale is;
    // 17 digits make every double round-trip exactly.
    xml.imbue(std::locale::classic());
    xml << std::setprecision(17);
    xml << "<?xml version=\"1.0\"?>\n"
           "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
           "  <Collection>\n";
    if (!note_.empty()) {
        std::string text = note_;  // "--" may not appear inside an XML comment
        for (std::size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at))
            text.replace(at, 2, "- -");
        xml << "    <!-- " << text << " -->\n";
    }
    for (const auto& [time, file] : entries_) {
        xml << "    <DataSet timestep=\"" << time << "\" group=\"\" part=\"0\" file=\""
            << xml_attribute_escape(file) << "\"/>\n";
    }
    xml << "  </Collection>\n"
           "</VTKFile>\n";
    try {
        write_text_file_atomically(path_, xml.str());
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(std::string("PvdSeries: ") + e.what());
    }
}

}  // namespace sph
