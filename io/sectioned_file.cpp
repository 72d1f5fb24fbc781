#include "sectioned_file.h"

#include "byte_codec.h"

#include <fcntl.h>
#include <unistd.h>

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>

namespace sph {

namespace {

constexpr char kMagic[8] = {'S', 'P', 'H', 'S', 'E', 'C', 'T', '\0'};
constexpr char kTrailer[4] = {'E', 'N', 'D', '!'};
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 4 + 4;
constexpr std::size_t kSectionHeadBytes = 4 + 8 + 4;

// The file as pieces to write one after the other: small heads made here (kept in `heads`) and
// the sections' payloads in place, so that a large checkpoint is not copied once more.
std::vector<std::string_view> encode(const SectionedFile& file, std::deque<std::string>& heads) {
    std::vector<std::string_view> pieces;
    ByteWriter header;
    header.bytes().assign(kMagic, sizeof kMagic);
    header.put(file.kind);
    header.put(file.version);
    header.put(static_cast<std::uint32_t>(file.sections.size()));
    header.put(crc32_of(header.bytes().data(), header.bytes().size()));
    std::uint64_t total = header.bytes().size();
    pieces.push_back(heads.emplace_back(std::move(header.bytes())));
    for (const Section& s : file.sections) {
        if (s.tag.size() != 4)
            throw std::invalid_argument("section tag '" + s.tag + "' is not 4 bytes");
        ByteWriter head;
        head.bytes() = s.tag;
        head.put(static_cast<std::uint64_t>(s.bytes.size()));
        head.put(crc32_of(s.bytes.data(), s.bytes.size()));
        total += head.bytes().size() + s.bytes.size();
        pieces.push_back(heads.emplace_back(std::move(head.bytes())));
        pieces.push_back(s.bytes);
    }
    ByteWriter trailer;
    trailer.bytes().assign(kTrailer, sizeof kTrailer);
    trailer.put(total + sizeof kTrailer + sizeof(std::uint64_t));
    pieces.push_back(heads.emplace_back(std::move(trailer.bytes())));
    return pieces;
}

[[noreturn]] void fail_io(const std::string& what, const std::string& path) {
    throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

// write(2) until everything is out, or throws.
void write_all(int fd, std::string_view bytes, const std::string& path) {
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
    // zlib's: the same CRC as IEEE 802.3, several times faster than a byte-wise table.
    uLong crc = ::crc32(0L, Z_NULL, 0);
    const auto* bytes = static_cast<const Bytef*>(data);
    while (size > 0) {  // zlib takes 32-bit lengths
        const uInt chunk = static_cast<uInt>(std::min<std::size_t>(size, 1u << 30));
        crc = ::crc32(crc, bytes, chunk);
        bytes += chunk;
        size -= chunk;
    }
    return static_cast<std::uint32_t>(crc);
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
    std::deque<std::string> heads;
    const std::vector<std::string_view> pieces = encode(file, heads);
    const std::string tmp = temporary_path_for(path);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail_io("cannot create", tmp);
    try {
        for (std::string_view piece : pieces) write_all(fd, piece, tmp);
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
    if (header_crc != crc32_of(bytes.data(), kHeaderBytes - 4))
        in.fail("the header's checksum does not match");
    for (std::uint32_t k = 0; k < count; ++k) {
        if (in.left() < kSectionHeadBytes) {
            in.fail("truncated: section " + std::to_string(k + 1) + " of " + std::to_string(count) +
                    " is missing");
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
            in.fail("the checksum of section '" + s.tag +
                    "' does not match: the file is corrupted");
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
