// A PLY file checked before VTK's reader sees it (geometry/mesh_file_checks.h).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "common/errors.h"
#include "geometry/mesh_file_checks.h"

namespace sph {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& problem) {
    throw OptionError("mesh " + path + ": " + problem);
}

// VTK's PLY reader (the old ply.c) trusts its input and crashes on much that is wrong, so a PLY
// file is checked here first: a header of text that it understands, with a vertex element with
// x, y, z and a face element with a list of indices, element counts the bytes can hold, and data
// whose every item holds what the header promises, faces of three or more existing vertices.
//
// A property's layout in the data: lengths and values in bytes (binary).
struct PlyProperty {
    int length_size = 0;  // a list's length field; 0 for a scalar
    int value_size = 0;
    bool integer = false, is_signed = false;
    bool indices = false;  // the face element's vertex indices, which VTK does not check
};

struct PlyElement {
    std::string name;
    std::uint64_t count = 0;
    std::uint64_t fixed_bytes = 0;  // per item, lists counted by their length field only
    std::vector<std::string> properties, lists;
    std::vector<PlyProperty> layout;  // every property, in order
};

int ply_type_size(const std::string& type) {
    static const std::pair<const char*, int> sizes[] = {
        {"char", 1},  {"uchar", 1},   {"int8", 1},   {"uint8", 1},  {"short", 2}, {"ushort", 2},
        {"int16", 2}, {"uint16", 2},  {"int", 4},    {"uint", 4},   {"int32", 4}, {"uint32", 4},
        {"float", 4}, {"float32", 4}, {"double", 8}, {"float64", 8}};
    for (const auto& [name, size] : sizes)
        if (type == name) return size;
    return 0;
}

void read_ply_header_line(const std::string& path, const std::string& line,
                          std::vector<PlyElement>& elements, std::string& format) {
    std::istringstream words(line);
    std::string keyword, a, b, c;
    words >> keyword;
    if (keyword.empty() || keyword == "comment" || keyword == "obj_info") return;
    if (keyword == "format" && words >> format >> a && a == "1.0") return;
    if (keyword == "element" && words >> a >> b &&
        b.find_first_not_of("0123456789") == std::string::npos && b.size() < 12) {
        for (const auto& element : elements)
            if (element.name == a) refuse(path, "PLY header names element '" + a + "' twice");
        elements.push_back({a, std::stoull(b), 0, {}, {}, {}});
        return;
    }
    if (keyword == "property" && !elements.empty() && words >> a >> b) {
        if (a == "list" && words >> c && ply_type_size(a = b) > 0 && ply_type_size(b = c) > 0) {
            words >> c;
            elements.back().fixed_bytes += ply_type_size(a);
            elements.back().lists.push_back(c);
            const bool indices =
                elements.back().name == "face" && (c == "vertex_indices" || c == "vertex_index");
            const bool integer = b.find("float") == std::string::npos && b != "double";
            elements.back().layout.push_back(
                {ply_type_size(a), ply_type_size(b), integer, b[0] != 'u', indices});
            return;
        }
        if (ply_type_size(a) > 0) {
            elements.back().fixed_bytes += ply_type_size(a);
            elements.back().properties.push_back(b);
            elements.back().layout.push_back({0, ply_type_size(a), false, false, false});
            return;
        }
    }
    refuse(path, "PLY header line not understood: '" + line.substr(0, 80) + "'");
}

bool has(const std::vector<std::string>& names, const char* name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// VTK's PLY reader frees a face's list twice when it holds fewer than three indices.
void refuse_short_face(const std::string& path) {
    refuse(path, "a PLY face has fewer than three vertices");
}

void check_index(const std::string& path, long long index, std::uint64_t vertices) {
    if (index < 0 || static_cast<std::uint64_t>(index) >= vertices)
        refuse(path, "a PLY face refers to vertex " + std::to_string(index) + " of " +
                         std::to_string(vertices));
}

std::uint64_t read_unsigned(const std::string& bytes, std::size_t at, int size, bool big_endian) {
    std::uint64_t value = 0;
    for (int k = 0; k < size; ++k) {
        const int byte = big_endian ? k : size - 1 - k;
        value = (value << 8) | static_cast<unsigned char>(bytes[at + byte]);
    }
    return value;
}

void check_binary_index(const std::string& path, const std::string& bytes, std::size_t at,
                        const PlyProperty& property, bool big_endian, std::uint64_t vertices) {
    if (!property.integer) refuse(path, "PLY face indices are not integers");
    const int bits = 8 * property.value_size;
    const std::uint64_t raw = read_unsigned(bytes, at, property.value_size, big_endian);
    const bool negative = property.is_signed && (raw >> (bits - 1)) != 0;
    check_index(path, negative ? -1 : static_cast<long long>(raw), vertices);
}

// The PLY data walked item by item as VTK's reader will read it, which trusts every line to hold
// the values its header and its list lengths promise (a short line crashes it): text lines must
// hold them, binary lists must end within the file.
void check_ply_text_data(const std::string& path, const std::string& bytes, std::size_t at,
                         const std::vector<PlyElement>& elements, std::uint64_t vertices) {
    // Only numbers, spaces and line ends: VTK's word splitting knows no other characters.
    const auto odd = std::find_if(bytes.begin() + at, bytes.end(), [](char c) {
        return !std::isprint(static_cast<unsigned char>(c)) && c != '\t' && c != '\r' && c != '\n';
    });
    if (odd != bytes.end())
        refuse(path, "PLY text data holds a byte that is not text, at offset " +
                         std::to_string(odd - bytes.begin()));
    long line_number = 0;
    for (const auto& element : elements) {
        for (std::uint64_t item = 0; item < element.count; ++item) {
            const std::size_t end = std::min(bytes.find('\n', at), bytes.size());
            ++line_number;
            if (at >= bytes.size() || end - at > 4000)
                refuse(path, "PLY data line " + std::to_string(line_number) +
                                 (at >= bytes.size() ? " missing" : " too long"));
            // VTK's reader frees its line buffer twice when the file ends inside a line (the
            // fuzzer's finding 15).
            if (end == bytes.size())
                refuse(path, "PLY data line " + std::to_string(line_number) +
                                 " has no line break after it: the file is cut short");
            std::istringstream line(bytes.substr(at, end - at));
            std::vector<std::string> words{std::istream_iterator<std::string>(line), {}};
            for (const std::string& word : words)
                if (word.find_first_not_of("0123456789+-.eE") != std::string::npos)
                    refuse(path, "PLY data line " + std::to_string(line_number) + " holds '" +
                                     word.substr(0, 40) + "', not a number");
            std::size_t next = 0;
            for (const PlyProperty& property : element.layout) {
                const int length_size = property.length_size;
                const long length = length_size > 0 && next < words.size()
                                        ? std::strtol(words[next].c_str(), nullptr, 10)
                                        : 0;
                if (length < 0 || length > static_cast<long>(words.size())) next = words.size();
                if (property.indices && length < 3) refuse_short_face(path);
                for (long k = 1; property.indices && k <= length && next + k < words.size(); ++k)
                    check_index(path, std::strtoll(words[next + k].c_str(), nullptr, 10), vertices);
                next += 1 + static_cast<std::size_t>(length_size > 0 ? std::max(length, 0L) : 0);
            }
            if (next > words.size())
                refuse(path, "PLY data line " + std::to_string(line_number) + " holds " +
                                 std::to_string(words.size()) + " values, fewer than it needs");
            at = end + 1;
        }
    }
}

void check_ply_binary_data(const std::string& path, const std::string& bytes, std::size_t at,
                           const std::vector<PlyElement>& elements, bool big_endian,
                           std::uint64_t vertices) {
    for (const auto& element : elements) {
        for (std::uint64_t item = 0; item < element.count; ++item) {
            for (const PlyProperty& property : element.layout) {
                std::uint64_t length = 1;
                if (property.length_size > 0) {
                    if (at + property.length_size > bytes.size()) {
                        at = bytes.size() + 1;
                        break;
                    }
                    length = read_unsigned(bytes, at, property.length_size, big_endian);
                    at += property.length_size;
                }
                if (length > bytes.size() || at + length * property.value_size > bytes.size()) {
                    at = bytes.size() + 1;  // also a negative length
                    break;
                }
                if (property.indices && length < 3) refuse_short_face(path);
                for (std::uint64_t k = 0; property.indices && k < length; ++k)
                    check_binary_index(path, bytes, at + k * property.value_size, property,
                                       big_endian, vertices);
                at += length * property.value_size;
            }
            if (at > bytes.size())
                refuse(path, "PLY data ends inside " + element.name + " " + std::to_string(item));
        }
    }
}

// The header's framing: 'ply' first, 'end_header' alone on its line, text only; returns where
// the line 'end_header' begins.
std::size_t check_ply_framing(const std::string& path, const std::string& bytes) {
    if (bytes.compare(0, 4, "ply\n") != 0 && bytes.compare(0, 5, "ply\r\n") != 0)
        refuse(path, "not a PLY file (it does not begin with the line 'ply')");
    const std::size_t end = bytes.find("\nend_header");
    if (end == std::string::npos) refuse(path, "PLY header without 'end_header'");
    // The line is 'end_header' alone: VTK takes the whole line, whatever follows on it, for the
    // header's end, and would read the data from the next line on (the fuzzer's finding 12).
    const std::size_t after = end + 11;
    if (bytes.compare(after, 1, "\n") != 0 && bytes.compare(after, 2, "\r\n") != 0)
        refuse(path, "PLY header's last line is not 'end_header' alone");
    // Words split by spaces only: VTK's header parser knows no other white space.
    const auto odd = std::find_if(bytes.begin(), bytes.begin() + end, [](char c) {
        return !std::isprint(static_cast<unsigned char>(c)) && c != '\r' && c != '\n';
    });
    if (odd != bytes.begin() + end) refuse(path, "PLY header holds a character that is not text");
    // VTK's reader misreads the header after an empty line, and then the data (the fuzzer's
    // finding 16: a crash in vtkPLYReader::RequestData).
    const std::string header = bytes.substr(0, end + 1);
    if (header.find("\n\n") != std::string::npos || header.find("\n\r\n") != std::string::npos)
        refuse(path, "PLY header holds an empty line");
    return end;
}

const PlyElement* find_element(const std::vector<PlyElement>& elements, const char* name) {
    for (const auto& element : elements)
        if (element.name == name) return &element;
    return nullptr;
}

// The elements a mesh needs, and none VTK mishandles.
void check_ply_elements(const std::string& path, const std::vector<PlyElement>& elements) {
    const PlyElement* vertex = find_element(elements, "vertex");
    const PlyElement* face = find_element(elements, "face");
    if (vertex == nullptr || !has(vertex->properties, "x") || !has(vertex->properties, "y") ||
        !has(vertex->properties, "z"))
        refuse(path, "PLY header without a vertex element with properties x, y and z");
    if (face == nullptr ||
        !(has(face->lists, "vertex_indices") || has(face->lists, "vertex_index")))
        refuse(path, "PLY header without a face element with a list 'vertex_indices'");
    // VTK's reader frees what it never allocated when a file has no faces, or an element with
    // no properties at all (the fuzzer's finding 13).
    if (face->count == 0) refuse(path, "PLY file holds no faces");
    for (const auto& element : elements) {
        if (element.properties.empty() && element.lists.empty())
            refuse(path, "PLY element '" + element.name + "' has no properties");
    }
}

// Each item needs at least its fixed bytes (binary) or one character and a space per value
// (text): counts beyond that are a damaged header, not a reason to allocate.
void check_ply_counts(const std::string& path, const std::vector<PlyElement>& elements,
                      const std::string& format, std::uint64_t data) {
    std::uint64_t needed = 0;
    for (const auto& element : elements) {
        const std::uint64_t per_item = format == "ascii"
                                           ? 2 * (element.properties.size() + element.lists.size())
                                           : element.fixed_bytes;
        if (element.count > data || (per_item > 0 && element.count > data / per_item))
            refuse(path, "PLY header says " + std::to_string(element.count) + " " + element.name +
                             " items, more than the file holds");
        needed += element.count * per_item;
    }
    if (needed > data) refuse(path, "PLY data shorter than its header says");
}

}  // namespace

void check_ply_header(const std::string& path, const std::string& bytes) {
    const std::size_t end = check_ply_framing(path, bytes);
    std::vector<PlyElement> elements;
    std::string format;
    std::istringstream header(bytes.substr(0, end));
    std::string line;
    std::getline(header, line);  // "ply"
    while (std::getline(header, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        read_ply_header_line(path, line, elements, format);
    }
    if (format != "ascii" && format != "binary_little_endian" && format != "binary_big_endian")
        refuse(path, "PLY header without a known format line");
    check_ply_elements(path, elements);
    check_ply_counts(path, elements, format, bytes.size() - end);
    const std::uint64_t vertices = find_element(elements, "vertex")->count;
    std::size_t at = bytes.find('\n', end + 1);
    at = at == std::string::npos ? bytes.size() : at + 1;
    if (format == "ascii")
        check_ply_text_data(path, bytes, at, elements, vertices);
    else
        check_ply_binary_data(path, bytes, at, elements, format == "binary_big_endian", vertices);
}

}  // namespace sph
