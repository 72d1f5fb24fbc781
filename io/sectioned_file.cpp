#include "sectioned_file.h"

#include "byte_codec.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/crc.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace sph {

namespace {

constexpr char kMagic[8] = {'S', 'P', 'H', 'S', 'E', 'C', 'T', '\0'};
constexpr char kTrailer[4] = {'E', 'N', 'D', '!'};
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 4 + 4;
constexpr std::size_t kSectionHeadBytes = 4 + 8 + 4;

std::string encode(const SectionedFile& file) {
    ByteWriter out;
    out.bytes().assign(kMagic, sizeof kMagic);
    out.put(file.kind);
    out.put(file.version);
    out.put(static_cast<std::uint32_t>(file.sections.size()));
    out.put(crc32_of(out.bytes().data(), out.bytes().size()));
    for (const Section& s : file.sections) {
        if (s.tag.size() != 4) throw std::invalid_argument("section tag '" + s.tag + "' is not 4 bytes");
        out.bytes() += s.tag;
        out.put(static_cast<std::uint64_t>(s.bytes.size()));
        out.put(crc32_of(s.bytes.data(), s.bytes.size()));
        out.bytes() += s.bytes;
    }
    out.bytes().append(kTrailer, sizeof kTrailer);
    out.put(static_cast<std::uint64_t>(out.bytes().size() + sizeof(std::uint64_t)));
    return std::move(out.bytes());
}

[[noreturn]] void fail_io(const std::string& what, const std::string& path) {
    throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

// write(2) until everything is out, or throws.
void write_all(int fd, const std::string& bytes, const std::string& path) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail_io("cannot write", path);
        done += std::size_t(n);
    }
}

// Makes a rename durable: the folder's entry is on disk once its folder is fsync'ed.
void sync_folder_of(const std::string& path) {
    std::string folder = std::filesystem::path(path).parent_path().string();
    if (folder.empty()) folder = ".";
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;  // the file is renamed; only its durability across a power cut is less
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

std::uint32_t crc32_of(const void* data, std::size_t size) {
    boost::crc_32_type crc;
    crc.process_bytes(data, size);
    return crc.checksum();
}

const std::string& SectionedFile::section(const std::string& tag) const {
    for (const Section& s : sections) {
        if (s.tag == tag) return s.bytes;
    }
    throw CorruptFile("no section '" + tag + "'");
}

std::string temporary_path_for(const std::string& path) {
    return path + ".partial";
}

void write_sectioned_file(const std::string& path, const SectionedFile& file) {
    const std::string bytes = encode(file);
    const std::string tmp = temporary_path_for(path);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail_io("cannot create", tmp);
    try {
        write_all(fd, bytes, tmp);
        if (::fsync(fd) != 0) fail_io("cannot flush", tmp);
    } catch (...) {
        ::close(fd);
        std::remove(tmp.c_str());
        throw;
    }
    if (::close(fd) != 0) {
        const int error = errno;
        std::remove(tmp.c_str());
        errno = error;
        fail_io("cannot close", tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        std::remove(tmp.c_str());
        errno = error;
        fail_io("cannot rename " + tmp + " to", path);
    }
    sync_folder_of(path);
}

SectionedFile parse_sectioned_file(const std::string& bytes, const std::string& name) {
    ByteReader in(bytes, name);
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
        in.fail("not a checkpoint of this simulator (its first bytes are not the format's magic)");
    }
    in.take_bytes(sizeof kMagic, "the magic");
    SectionedFile file;
    file.kind = in.take<std::uint32_t>("the header");
    file.version = in.take<std::uint32_t>("the header");
    const auto count = in.take<std::uint32_t>("the header");
    const auto header_crc = in.take<std::uint32_t>("the header");
    if (header_crc != crc32_of(bytes.data(), kHeaderBytes - 4)) in.fail("the header's checksum does not match");
    for (std::uint32_t k = 0; k < count; ++k) {
        if (in.left() < kSectionHeadBytes) {
            in.fail("truncated: section " + std::to_string(k + 1) + " of " +
                    std::to_string(count) + " is missing");
        }
        Section s;
        s.tag = in.take_bytes(4, "a section's tag");
        const auto size = in.take<std::uint64_t>("a section's size");
        const auto crc = in.take<std::uint32_t>("a section's checksum");
        if (size > in.left()) {
            in.fail("truncated: section '" + s.tag + "' declares " + std::to_string(size) +
                    " bytes, " + std::to_string(in.left()) + " are left");
        }
        s.bytes = in.take_bytes(std::size_t(size), "a section");
        if (crc32_of(s.bytes.data(), s.bytes.size()) != crc) {
            in.fail("the checksum of section '" + s.tag + "' does not match: the file is corrupted");
        }
        file.sections.push_back(std::move(s));
    }
    const std::string trailer = in.take_bytes(sizeof kTrailer, "the trailer");
    if (std::memcmp(trailer.data(), kTrailer, sizeof kTrailer) != 0) {
        in.fail("no end marker after the last section: the file is damaged");
    }
    const auto total = in.take<std::uint64_t>("the trailer");
    if (total != bytes.size() || in.left() != 0) {
        in.fail("the file is " + std::to_string(bytes.size()) + " bytes, its trailer says " +
                std::to_string(total));
    }
    return file;
}

std::string read_file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw std::runtime_error("cannot read " + path);
    return bytes;
}

}  // namespace sph
