#include "pvtu_writer.h"

#include "atomic_file.h"
#include "xml_escape.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace sph {

void write_pvtu(const std::string& path, const std::vector<std::string>& piece_files,
                bool has_device_field) {
    // Names and types must match write_vtu exactly: ParaView silently drops arrays whose
    // declaration here differs from the pieces.
    std::string xml =
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\""
        " header_type=\"UInt64\">\n"
        "  <PUnstructuredGrid GhostLevel=\"0\">\n"
        "    <PPoints>\n"
        "      <PDataArray type=\"Float32\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
        "    </PPoints>\n"
        "    <PPointData>\n"
        "      <PDataArray type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\"/>\n"
        "      <PDataArray type=\"Float32\" Name=\"density\"/>\n"
        "      <PDataArray type=\"Float32\" Name=\"pressure\"/>\n"
        "      <PDataArray type=\"UInt8\" Name=\"type\"/>\n"
        "      <PDataArray type=\"UInt32\" Name=\"id\"/>\n";
    if (has_device_field) {
        xml += "      <PDataArray type=\"Int32\" Name=\"device\"/>\n";
    }
    xml += "    </PPointData>\n";
    for (const std::string& piece : piece_files) {
        xml += "    <Piece Source=\"" + xml_attribute_escape(piece) + "\"/>\n";
    }
    xml +=
        "  </PUnstructuredGrid>\n"
        "</VTKFile>\n";
    try {
        write_text_file_atomically(path, xml);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(std::string("write_pvtu: ") + e.what());
    }
}

}  // namespace sph
