#include "atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace sph {

void write_text_file_atomically(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw std::runtime_error("cannot open " + tmp + " to write " + path + ": " +
                                     std::strerror(errno));
        }
        out << text;
        out.close();  // flushes; a failed flush (disk full) shows up only here
        if (!out) {
            std::remove(tmp.c_str());
            throw std::runtime_error("cannot write " + path + " (via " + tmp + ")");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(tmp.c_str());
        throw std::runtime_error("cannot rename " + tmp + " to " + path + ": " + reason);
    }
}

}  // namespace sph
