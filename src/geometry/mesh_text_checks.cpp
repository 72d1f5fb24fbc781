// The text mesh formats' lines checked before VTK reads them (geometry/mesh_file_checks.h).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
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

}  // namespace

// VTK's OBJ reader reads "nan" and "inf" as 0: the vertex lines of a text format ("v" in OBJ,
// "vertex" in ASCII STL) are checked here for coordinates that are not finite.
void check_text_vertices(const std::string& path, const std::string& bytes, const char* keyword) {
    std::size_t index = 0;
    const std::size_t keyword_length = std::strlen(keyword);
    for (std::size_t start = 0; start < bytes.size();) {
        std::size_t end = bytes.find('\n', start);
        if (end == std::string::npos) end = bytes.size();
        std::size_t i = start;
        while (i < end && (bytes[i] == ' ' || bytes[i] == '\t')) ++i;
        const bool vertex_line =
            bytes.compare(i, keyword_length, keyword) == 0 && i + keyword_length < end &&
            std::isspace(static_cast<unsigned char>(bytes[i + keyword_length]));
        if (vertex_line) {
            std::istringstream words(bytes.substr(i + keyword_length, end - i - keyword_length));
            std::string word;
            for (int k = 0; k < 3 && words >> word; ++k) {
                const double value = std::strtod(word.c_str(), nullptr);
                if (!std::isfinite(value))
                    refuse(path, "vertex " + std::to_string(index) +
                                     " has a coordinate that is not finite ('" + word + "')");
            }
            ++index;
        }
        start = end + 1;
    }
}

namespace {

// VTK's OBJ reader follows a face's texture and normal references without checking them (a face
// "f 1/3 2" without three "vt" lines crashes it), so every reference of "f", "l" and "p" lines
// must name an existing v, vt or vn (1-based; relative negative references are refused).
// One corner "v", "v/vt", "v//vn" or "v/vt/vn" (positive indices, no other form: VTK's parser
// reads past a trailing '/'), each within the counts of v, vt and vn lines.
bool check_obj_reference(const std::string& word, const long counts[3]) {
    std::vector<std::string> parts(1);
    for (char c : word) {
        if (c == '/')
            parts.emplace_back();
        else if (std::isdigit(static_cast<unsigned char>(c)))
            parts.back() += c;
        else
            return false;
    }
    if (parts.size() > 3 || parts[0].empty() || parts.back().empty()) return false;
    for (std::size_t kind = 0; kind < parts.size(); ++kind) {
        if (parts[kind].empty()) continue;  // "v//vn"
        const long index = std::strtol(parts[kind].c_str(), nullptr, 10);
        if (index < 1 || index > counts[kind]) return false;
    }
    return true;
}

}  // namespace

void check_obj_references(const std::string& path, const std::string& bytes) {
    long counts[3] = {0, 0, 0};  // v, vt, vn
    std::vector<std::string> lines;
    std::istringstream in(bytes);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string keyword;
        words >> keyword;
        if (keyword == "v" || keyword == "vt" || keyword == "vn")
            ++counts[keyword == "v" ? 0 : keyword == "vt" ? 1 : 2];
        if (keyword == "f" || keyword == "l" || keyword == "p") lines.push_back(line);
    }
    for (std::size_t n = 0; n < lines.size(); ++n) {
        std::istringstream words(lines[n]);
        std::string word, shape;
        words >> word;
        while (words >> word) {
            if (word.size() > 40 || !check_obj_reference(word, counts))
                refuse(path, "face or line " + std::to_string(n + 1) + " refers to '" +
                                 word.substr(0, 40) + "', which is not in the file");
            // Its form: which of v, vt, vn it names. Every corner of a face must name the same.
            std::string form = word;
            form.erase(std::remove_if(form.begin(), form.end(), ::isdigit), form.end());
            if (!shape.empty() && form != shape)
                refuse(path, "face or line " + std::to_string(n + 1) + " mixes reference forms");
            shape = form;
        }
    }
}

}  // namespace sph
