// A binary file of named sections that proves its own integrity: what checkpoints are written in.
//
// Layout (little-endian):
//   magic "SPHSECT\0" (8 bytes), u32 kind (what the file holds: a checkpoint, ...), u32 format
//   version, u32 section count, u32 CRC-32 of the 20 bytes before it;
//   then per section: 4-byte tag, u64 payload size, u32 CRC-32 of the payload, the payload;
//   then the trailer "END!" and u64 total file size.
// Every part is checked on reading, in order, and the first check that fails is named in the
// error (a file that is not one of these, another kind or version, a size that runs past the
// end, a checksum, a missing trailer, trailing bytes), so that a truncated, corrupted or foreign
// file is refused before anything reads its contents.
//
// Written atomically: a temporary file beside the final one, written, flushed and fsync'ed, then
// renamed over the final name and the folder fsync'ed. A process killed at any moment leaves
// either the old file or the whole new one under the final name (and at most a stale temporary).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sph {

// A file that is not what the reader expects; the message says which check failed.
class CorruptFile : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Section {
    std::string tag;    // exactly four characters
    std::string bytes;  // the payload
};

struct SectionedFile {
    std::uint32_t kind = 0;
    std::uint32_t version = 0;
    std::vector<Section> sections;

    // The payload of the section `tag`; throws CorruptFile naming it when it is missing.
    const std::string& section(const std::string& tag) const;
};

// The temporary name a write goes through, for `path`.
std::string temporary_path_for(const std::string& path);

// Writes `file` to `path` atomically (see above). Throws std::runtime_error naming the path and
// the failing call (a full disk, a missing folder); the final name is then untouched and the
// temporary removed.
void write_sectioned_file(const std::string& path, const SectionedFile& file);

// Every byte of `path`; throws std::runtime_error naming it when it cannot be read.
std::string read_file_bytes(const std::string& path);

// Verifies `bytes` as the content of a file called `name`: throws CorruptFile naming it and the
// first check that failed.
SectionedFile parse_sectioned_file(const std::string& bytes, const std::string& name);

// The CRC-32 (IEEE 802.3, as zlib computes it) of `size` bytes.
std::uint32_t crc32_of(const void* data, std::size_t size);

}  // namespace sph
